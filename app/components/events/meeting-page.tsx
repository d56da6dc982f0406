import { ArrowRight, CalendarDays, CalendarPlus, Download, ExternalLink, Info } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Meeting } from "../../../core/meetings/meetings.schema";
import { meetingTypeLabel } from "../../../core/meetings/meetings.values";
import { useSignedInUser } from "../../lib/use-signed-in-user";
import { JoinForm } from "../join/public-form";
import { PageHero } from "../layout/page-hero";
import { Breadcrumbs } from "../ui/breadcrumbs";
import { JsonLd } from "../ui/json-ld";
import { formatDateRange } from "./format";
import { FormatLabel, LocationLabel, MembersOnlyBadge } from "./meeting-badges";
import { MeetingPicture } from "./meeting-picture";
import type { MeetingView } from "./meeting-view";
import { RegistrationClosed } from "./registration-closed";
import { ScheduleTable } from "./schedule-table";
import { SponsorGrid } from "./sponsor-grid";

function RichText({ html, className = "" }: { html: string; className?: string }) {
  return (
    <div
      className={`rich-text ${className}`}
      // Sanitized on read by the meetings service.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized server-side
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-32">
      <h2 id={`${id}-title`} className="font-display text-3xl font-bold text-navy-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** 'Add to calendar': the .ics file, Google Calendar and Outlook (links made by the loader). */
function AddToCalendar({ calendar }: { calendar: MeetingView["calendar"] }) {
  const item =
    "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold text-navy-900 ring-1 ring-slate-200 hover:bg-navy-50 hover:ring-navy-700";
  return (
    <div className="mt-6 border-t border-slate-200 pt-5">
      <h2 id="add-to-calendar" className="flex items-center gap-2 text-sm font-semibold text-slate-600">
        <CalendarPlus className="h-4 w-4" aria-hidden="true" />
        Add to calendar
      </h2>
      <ul aria-labelledby="add-to-calendar" className="mt-3 grid gap-2">
        <li>
          <a href={calendar.ics} download className={item}>
            <Download className="h-4 w-4 text-sea-600" aria-hidden="true" />
            Download .ics<span className="sr-only"> file (Apple Calendar, Outlook, others)</span>
          </a>
        </li>
        <li>
          <a href={calendar.google} target="_blank" rel="noopener noreferrer" className={item}>
            <ExternalLink className="h-4 w-4 text-sea-600" aria-hidden="true" />
            Google Calendar<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
        <li>
          <a href={calendar.outlook} target="_blank" rel="noopener noreferrer" className={item}>
            <ExternalLink className="h-4 w-4 text-sea-600" aria-hidden="true" />
            Outlook<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
      </ul>
    </div>
  );
}

/**
 * One meeting, as /conference, /workshop and /events/{slug} show it: hero with
 * dates and place, the picture, the text, programme, sponsors, practical
 * information, more pictures, and the registration block at the end.
 */
export function MeetingPage({
  meeting,
  view,
  eyebrow,
  upcoming,
  crumb,
  trail = [{ label: "Events Calendar", to: "/events" }],
  calendarPath = "/events",
  inlineForm = false,
}: {
  meeting: Meeting;
  /** Times, calendar links, JSON-LD and registration state from the loader. */
  view: MeetingView;
  /** The crumbs before this page's own. */
  trail?: { label: string; to: string }[];
  /** Where "the Events Calendar" leads. */
  calendarPath?: string;
  /** The registration form in the page itself (the members' area has no footer form). */
  inlineForm?: boolean;
  /** The page's section name above the title (e.g. Annual Conference). */
  eyebrow: string;
  /** Not yet over: offers registration; otherwise says the meeting has taken place. */
  upcoming: boolean;
  /** How the breadcrumb trail names this page. */
  crumb: string;
}) {
  const user = useSignedInUser();
  const [picture, ...gallery] = meeting.images;
  const registration = view.registration;
  // "America/New York (EST)": the IANA name, readable.
  const zoneLabel = `${view.zone.name.replace(/_/g, " ")} (${view.zone.abbreviation})`;
  const dates = formatDateRange(meeting.start_date, meeting.end_date);
  const kind = meetingTypeLabel(meeting.type).toLowerCase();
  const practical = Boolean(meeting.information || meeting.health);
  const contents = [
    { id: "about", label: `About the ${kind}`, shown: Boolean(meeting.content) },
    { id: "programme", label: "Programme", shown: meeting.schedules.length > 0 },
    { id: "sponsors", label: "Sponsors", shown: meeting.sponsors.length > 0 },
    { id: "practical", label: "Practical information", shown: practical },
    { id: "gallery", label: "Pictures", shown: gallery.length > 0 },
    { id: "register", label: "Register", shown: true },
  ].filter((c) => c.shown);

  return (
    <div>
      <JsonLd json={view.jsonLd} />
      <div className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-7xl px-4 py-3 sm:px-6">
          <Breadcrumbs trail={trail} current={crumb} />
        </div>
      </div>
      <PageHero eyebrow={eyebrow} title={meeting.title}>
        {meeting.visibility === "members" ? <MembersOnlyBadge className="mt-4" /> : null}
        {meeting.content_title ? <p className="mt-4 max-w-3xl text-xl text-navy-100">{meeting.content_title}</p> : null}
        <p className="mt-6 flex flex-col gap-2 text-base text-white sm:flex-row sm:flex-wrap sm:gap-x-8">
          <span className="inline-flex items-center gap-1.5 font-semibold">
            <CalendarDays className="h-4 w-4 shrink-0" aria-hidden="true" />
            <time dateTime={meeting.start_date}>{dates}</time>
          </span>
          <LocationLabel location={meeting.location} />
          <FormatLabel format={meeting.meeting_type} />
        </p>
        {upcoming && registration.open ? (
          <a href="#register" className="btn mt-8 bg-signal-500 px-6 py-3 text-base text-navy-950 hover:bg-signal-600">
            Register
            <ArrowRight className="h-4 w-4" aria-hidden="true" />
          </a>
        ) : null}
      </PageHero>

      <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-12 px-4 py-12 sm:px-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="space-y-14">
          {upcoming ? null : (
            <p className="flex items-start gap-3 rounded-xl border border-slate-200 bg-navy-50 p-4 text-slate-700">
              <Info className="mt-0.5 h-5 w-5 shrink-0 text-sea-600" aria-hidden="true" />
              <span>
                This {kind} took place on {dates}. The next dates are published in the{" "}
                <Link to={calendarPath} className="font-semibold text-sea-600 underline underline-offset-2">
                  Events Calendar
                </Link>
                .
              </span>
            </p>
          )}
          {picture ? (
            <MeetingPicture
              image={picture}
              sizes="(min-width: 1280px) 880px, 100vw"
              priority
              className="h-auto w-full rounded-xl bg-navy-100"
            />
          ) : null}
          {meeting.content ? (
            <Section id="about" title={`About the ${kind}`}>
              <RichText html={meeting.content} className="mt-6 max-w-3xl" />
            </Section>
          ) : null}
          {meeting.schedules.length > 0 ? (
            <Section id="programme" title="Programme">
              <p className="mt-2 text-slate-600">
                Times in <span className="font-semibold text-navy-900">{zoneLabel}</span>
                <span className="text-sm">, with your own time beside them where it differs.</span>
              </p>
              <ScheduleTable
                schedules={meeting.schedules}
                headingId="programme-day"
                times={view.times}
                zone={meeting.timezone}
              />
            </Section>
          ) : null}
          {meeting.sponsors.length > 0 ? (
            <Section id="sponsors" title="Sponsors">
              <p className="mt-3 text-slate-600">With thanks to the companies supporting the {kind}.</p>
              <SponsorGrid sponsors={meeting.sponsors} />
            </Section>
          ) : null}
          {practical ? (
            <Section id="practical" title="Practical information">
              <div className="mt-6 grid gap-6 md:grid-cols-2">
                {meeting.information ? (
                  <div className="rounded-xl border border-slate-200 p-6">
                    <h3 className="text-xl font-semibold text-navy-900">Venue and travel</h3>
                    <RichText html={meeting.information} className="mt-3 text-base" />
                  </div>
                ) : null}
                {meeting.health ? (
                  <div className="rounded-xl border border-slate-200 p-6">
                    <h3 className="text-xl font-semibold text-navy-900">Health and accessibility</h3>
                    <RichText html={meeting.health} className="mt-3 text-base" />
                  </div>
                ) : null}
              </div>
            </Section>
          ) : null}
          {gallery.length > 0 ? (
            <Section id="gallery" title="Pictures">
              <ul className="mt-6 grid gap-4 sm:grid-cols-2">
                {gallery.map((image) => (
                  <li key={image.id}>
                    <MeetingPicture
                      image={image}
                      sizes="(min-width: 1280px) 430px, (min-width: 740px) 50vw, 100vw"
                      className="h-auto w-full rounded-xl bg-navy-100"
                    />
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
        </div>

        <aside aria-label={`The ${kind} at a glance`} className="lg:sticky lg:top-32 lg:self-start">
          <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <dl className="space-y-4 text-sm">
              <div>
                <dt className="font-semibold text-slate-600">Dates</dt>
                <dd className="mt-0.5 text-base font-semibold text-navy-900">{dates}</dd>
              </div>
              <div>
                <dt className="font-semibold text-slate-600">Time zone</dt>
                <dd className="mt-0.5 text-base text-slate-800">{zoneLabel}</dd>
              </div>
              {meeting.location ? (
                <div>
                  <dt className="font-semibold text-slate-600">Location</dt>
                  <dd className="mt-0.5 text-base text-slate-800">{meeting.location}</dd>
                </div>
              ) : null}
              {meeting.meeting_type ? (
                <div>
                  <dt className="font-semibold text-slate-600">Format</dt>
                  <dd className="mt-0.5 text-base text-slate-800">{meeting.meeting_type}</dd>
                </div>
              ) : null}
              {meeting.organization ? (
                <div>
                  <dt className="font-semibold text-slate-600">Organised by</dt>
                  <dd className="mt-0.5 text-base text-slate-800">{meeting.organization}</dd>
                </div>
              ) : null}
            </dl>
            {upcoming && registration.open ? (
              <a href="#register" className="btn-primary mt-6 w-full">
                Register
              </a>
            ) : null}
            <AddToCalendar calendar={view.calendar} />
          </div>
          {contents.length > 1 ? (
            <nav aria-label="On this page" className="mt-6 hidden lg:block">
              <p className="px-3 text-xs font-semibold tracking-wider text-slate-600 uppercase">On this page</p>
              <ul className="mt-2 space-y-0.5">
                {contents.map((c) => (
                  <li key={c.id}>
                    <a
                      href={`#${c.id}`}
                      className="block rounded-md border-l-4 border-transparent px-3 py-1.5 text-sm text-slate-700 hover:border-sea-600 hover:bg-navy-50 hover:text-navy-900"
                    >
                      {c.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
        </aside>
      </div>

      <section
        id="register"
        aria-labelledby="register-title"
        // Inline form: the members' area, whose page is tinted; the public pages are white.
        className={`scroll-mt-32 ${inlineForm ? "" : "bg-white"}`}
      >
        <div className="mx-auto max-w-7xl px-4 pb-16 sm:px-6">
          <div className="rounded-2xl border border-slate-200 border-t-4 border-t-signal-500 bg-white p-6 shadow-sm sm:p-10">
            <h2 id="register-title" className="font-display text-3xl font-bold text-navy-900">
              Register
            </h2>
            {meeting.registration ? (
              <RichText html={meeting.registration} className="mt-4 max-w-3xl" />
            ) : (
              <p className="mt-4 max-w-3xl text-slate-700">
                Registration details will be published here. Questions can be sent to the secretariat through the
                contact form below.
              </p>
            )}
            {!registration.open ? (
              <RegistrationClosed message={registration.message} />
            ) : inlineForm ? (
              <div className="mt-8 max-w-3xl">
                <JoinForm user={user} idPrefix="register" registering />
              </div>
            ) : (
              // One form per page: the footer's contact form registers for this meeting on public pages.
              <a href="#contact-us" className="btn-primary mt-6">
                Go to the registration form
              </a>
            )}
          </div>
        </div>
      </section>
    </div>
  );
}

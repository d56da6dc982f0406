import { Mail, Phone } from "lucide-react";
import { Link, useLocation } from "react-router";
import { requestKindOf } from "../../../core/join/join.values";
import { ABOUT_PAGES, SERVICES_PAGES } from "../../../core/pages/fixed-pages";
import type { SiteSettings } from "../../../core/settings/settings.schema";
import { Island } from "../../islands/island";
import { MEETINGS_PAGES, type OwnPageLink } from "../../lib/site-map";
import { placesText, RegistrationClosed, useMeetingView } from "../events/registration-closed";
import { CONTACT_SECTION_ID, ContactFormLink, contactFormTarget } from "./contact-form-link";
import { Logo } from "./logo";
import { PrivacyDialog } from "./privacy-dialog";
import { JoinFormIsland, UserMenuIsland } from "./public-islands";
import { SocialIcons } from "./social-icons";

const footerLink = "text-sm text-navy-100 hover:text-white hover:underline";

function Column({ title, links }: { title: string; links: { label: string; to: string }[] }) {
  return (
    <div>
      <h2 className="text-sm font-semibold tracking-wider text-white uppercase">{title}</h2>
      <ul className="mt-3 space-y-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={footerLink}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** SPEC §1, §2 'Public layout': the footer with the contact form block, navigation and contact data. */
export function PublicFooter({ settings, ownPages = [] }: { settings: SiteSettings; ownPages?: OwnPageLink[] }) {
  // The association's own pages (decision 0072): in their section's column, or beside the privacy link.
  const own = (section: OwnPageLink["section"]) =>
    ownPages.filter((p) => p.section === section).map(({ label, to }) => ({ label, to }));
  const { pathname } = useLocation();
  const registration = requestKindOf(pathname) === "registration";
  // A meeting that takes no more registrations says so instead of offering the form.
  const view = useMeetingView();
  const state = view?.registration ?? null;
  const closed = registration && state && !state.open ? state.message : null;
  // On a meeting's page the form registers for it (issue 32); elsewhere it is the join form.
  const meetingTitle = registration && view ? view.title : null;
  const places = registration && state ? placesText(state) : null;
  const email = settings["site.email"];
  const phone = settings["site.phone"];
  return (
    <footer>
      {/* /join is the form's own page: the band would only repeat it. */}
      {pathname === "/join" ? null : (
        <section
          id={CONTACT_SECTION_ID}
          aria-labelledby="contact-us-title"
          // Focused by the 'Contact form' link (a target, not a stop in the Tab order).
          tabIndex={-1}
          className="scroll-mt-32 bg-navy-50 focus:outline-none"
        >
          <div className="mx-auto grid max-w-7xl gap-8 px-4 py-14 sm:px-6 lg:grid-cols-2 lg:items-center">
            <div>
              <p className="text-sm font-semibold tracking-widest text-sea-600 uppercase">
                {meetingTitle ? "Registration" : "Membership"}
              </p>
              <h2 id="contact-us-title" className="mt-2 font-display text-3xl font-bold text-navy-900 sm:text-4xl">
                {meetingTitle ? `Register for ${meetingTitle}` : "Join the community"}
              </h2>
              {places && !closed ? (
                <p
                  data-places-left=""
                  className="mt-3 inline-flex rounded-full bg-sea-100 px-3 py-1 text-sm font-semibold text-navy-900"
                >
                  {places}
                </p>
              ) : null}
              <p className="mt-4 max-w-xl text-slate-700">
                {closed
                  ? "This meeting takes no more registrations. Questions about it can be sent to the secretariat by e-mail or phone."
                  : registration
                    ? "Register for this meeting with your company's details. You will receive the registration details by e-mail, and the secretariat confirms every registration within 48 hours."
                    : "Manufacturers, service companies and integrators of marine radio and electronics work together in the association on standards, safety and the future of digital navigation. Tell us about your company and we will get in touch."}
              </p>
            </div>
            <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              {closed ? (
                <RegistrationClosed message={closed} className="" />
              ) : (
                <Island name="join-form" component={JoinFormIsland} props={{ registering: Boolean(meetingTitle) }} />
              )}
            </div>
          </div>
        </section>
      )}
      <div className="bg-navy-900 text-navy-100">
        <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-5">
          <div className="space-y-4 lg:col-span-2">
            <Link to="/" aria-label={`${settings["site.name"]} home`} className="inline-block">
              <Logo name={settings["site.name"]} tagline={settings["site.tagline"]} inverted />
            </Link>
            <ul className="space-y-2 text-sm">
              {email ? (
                <li>
                  <a href={`mailto:${email}`} className="inline-flex items-center gap-2 hover:text-white">
                    <Mail className="h-4 w-4" aria-hidden="true" />
                    {email}
                  </a>
                </li>
              ) : null}
              {phone ? (
                <li>
                  <a
                    href={`tel:${phone.replace(/[^\d+]/g, "")}`}
                    className="inline-flex items-center gap-2 hover:text-white"
                  >
                    <Phone className="h-4 w-4" aria-hidden="true" />
                    {phone}
                  </a>
                </li>
              ) : null}
            </ul>
            <div className="text-white">
              <SocialIcons settings={settings} className="h-5 w-5" />
            </div>
            <div className="flex flex-wrap items-center gap-3 pt-2">
              <Link to="/members-join" className="btn bg-signal-500 text-navy-950 hover:bg-signal-600">
                Become a member
              </Link>
              <div className="[&_.btn-outline]:border-white/30 [&_.btn-outline]:bg-transparent [&_.btn-outline]:text-white [&_.btn-outline:hover]:bg-white/10">
                <Island name="user-menu" component={UserMenuIsland} props={{}} />
              </div>
            </div>
          </div>
          <Column
            title="About"
            links={[
              { label: "Home", to: "/" },
              ...ABOUT_PAGES.slice(0, 5),
              { label: "Tributes", to: "/tributes" },
              ...own("about"),
            ]}
          />
          <Column title="Meetings" links={MEETINGS_PAGES} />
          <Column
            title="Services"
            links={[...SERVICES_PAGES.slice(0, 8), { label: "Document library", to: "/library" }, ...own("services")]}
          />
        </div>
        <div className="border-t border-navy-800">
          {/* The page ends here, under the scroll-to-top button (route-feedback.tsx: 2.75rem, 1.25rem
              from the corner). Room is kept for it, so that scrolled to the bottom it covers nothing:
              below the links on a phone, beside them on a wider screen. */}
          <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 pt-5 pb-[4.5rem] text-xs sm:flex-row sm:pb-5 sm:pl-6 sm:pr-20">
            <p>© Copyright. 2022. {settings["site.name"]}</p>
            <div className="flex flex-wrap items-center justify-center gap-x-4 gap-y-2">
              {own(null).map((link) => (
                <Link key={link.to} to={link.to} className={footerLink}>
                  {link.label}
                </Link>
              ))}
              <Island
                name="contact-link"
                component={ContactFormLink}
                props={{ target: contactFormTarget(pathname), className: footerLink }}
              />
              <Island name="privacy-dialog" component={PrivacyDialog} props={{ triggerClassName: footerLink }} />
            </div>
          </div>
        </div>
      </div>
    </footer>
  );
}

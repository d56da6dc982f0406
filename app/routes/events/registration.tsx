import { CalendarCheck2, CalendarX2 } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { REGISTRATION_ACTIVE } from "../../../core/join/join.values";
import type { LinkedRegistration } from "../../../core/join/registration-links";
import { meetingUrl } from "../../../core/meetings/meetings.values";
import { formatDay } from "../../../core/members/members.values";
import { PageHero } from "../../components/layout/page-hero";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { fieldFailureOf } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/registration";

/** Served as islands (decision 0033): a page and a plain form, posted to the server. */
export const handle = SERVED_AS_ISLANDS;

export const LINK_INVALID =
  "This link does not open a registration: it may be mistyped, or the meeting is over. If you need help, reply to one of our e-mails.";

export const meta: Route.MetaFunction = () => [
  { title: "Your registration · Masthead" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

// The address is the key to the registration: never cached anywhere, never sent on in a Referer.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });

const NO_STORE = { "Cache-Control": "no-store" };

type Shown = Omit<LinkedRegistration, "expires_at" | "meeting_id"> & { until: string };

function shown(found: LinkedRegistration): Shown {
  const { expires_at: _, meeting_id: __, ...rest } = found;
  return { ...rest, until: found.expires_at };
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const found = await getRequestContext(context).services.registrationLinks.find(params.token);
  if (!found) throw data(LINK_INVALID, { status: 404, headers: NO_STORE });
  return data({ registration: shown(found), asking: url.searchParams.has("cancel") }, { headers: NO_STORE });
}

/**
 * Cancels the registration the link opens (the registrant's own word: the link is their key). The
 * form is posted from this page (the CSRF check holds for every POST); a seat freed goes to the
 * waiting list at once, in the same transaction (registrations.service).
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const { services } = getRequestContext(context);
  const found = await services.registrationLinks.find(params.token);
  // A link opens a registration of a meeting (the query joins it): the meeting's id is there.
  if (!found || found.meeting_id === null) throw data(LINK_INVALID, { status: 404, headers: NO_STORE });
  const form = await readForm(request);
  if (form.intent !== "cancel") throw data("Unknown action.", { status: 400, headers: NO_STORE });
  try {
    await services.registrations.cancel(found.meeting_id, found.id, { id: null, name: "The registrant (their link)" });
  } catch (error) {
    const { errors, status } = fieldFailureOf(error);
    const message = Object.values(errors).flat()[0] ?? "The registration could not be cancelled. Please try again.";
    return data({ error: message }, { status, headers: NO_STORE });
  }
  return data(
    { notice: "Your registration is cancelled. We have sent you an e-mail to confirm it." },
    { headers: NO_STORE },
  );
}

const STATE_TEXT: Record<string, string> = {
  pending: "Received: the secretariat will confirm it within 48 hours.",
  confirmed: "Confirmed: we look forward to seeing you.",
  waitlisted: "On the waiting list: we will write to you as soon as a place is free for you.",
  declined: "Declined by the secretariat.",
  cancelled: "Cancelled.",
};

const ACTIVE = new Set<string>(REGISTRATION_ACTIVE);

function When({ registration }: { registration: Shown }) {
  const { start_date, end_date } = registration;
  return (
    <>
      {formatDay(start_date)}
      {end_date && end_date !== start_date ? ` to ${formatDay(end_date)}` : ""}
    </>
  );
}

/** `/registrations/{token}`: a registrant's own registration, seen and cancelled without an account (issue 32). */
export default function Registration({ loaderData, actionData }: Route.ComponentProps) {
  const { registration, asking } = loaderData;
  const cancelling = useNavigation().formData?.get("intent") === "cancel";
  const result = actionData as { notice?: string; error?: string } | undefined;
  const status = result?.notice ? "cancelled" : (registration.status ?? "pending");
  const page = meetingUrl(registration.slug, registration.visibility === "members" ? "members" : "public");
  return (
    <div>
      <PageHero eyebrow="Your registration" title={registration.title} />
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
        {result?.notice ? <Notice tone="success">{result.notice}</Notice> : null}
        {result?.error ? <Notice tone="error">{result.error}</Notice> : null}
        <section
          aria-labelledby="registration-state"
          className="mt-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
        >
          <div className="flex gap-4">
            {ACTIVE.has(status) ? (
              <CalendarCheck2 className="h-8 w-8 shrink-0 text-sea-600" aria-hidden="true" />
            ) : (
              <CalendarX2 className="h-8 w-8 shrink-0 text-slate-500" aria-hidden="true" />
            )}
            <div>
              <h2 id="registration-state" className="font-display text-xl font-bold text-navy-900">
                {STATE_TEXT[status] ?? status}
              </h2>
              <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-slate-700">
                <dt className="font-semibold">Meeting</dt>
                <dd>
                  <Link to={page} className="font-semibold text-sea-700 underline hover:text-sea-600">
                    {registration.title}
                  </Link>
                </dd>
                <dt className="font-semibold">When</dt>
                <dd>
                  <When registration={registration} />
                </dd>
                {registration.location ? (
                  <>
                    <dt className="font-semibold">Where</dt>
                    <dd>{registration.location}</dd>
                  </>
                ) : null}
                <dt className="font-semibold">Attendee</dt>
                <dd>{registration.representative_name}</dd>
                {registration.company_name ? (
                  <>
                    <dt className="font-semibold">Company</dt>
                    <dd>{registration.company_name}</dd>
                  </>
                ) : null}
                <dt className="font-semibold">E-mail</dt>
                <dd className="break-all">{registration.email}</dd>
              </dl>
            </div>
          </div>
        </section>
        {ACTIVE.has(status) ? (
          <section aria-labelledby="cancel-title" className="mt-8">
            <h2 id="cancel-title" className="font-display text-lg font-bold text-navy-900">
              Cannot come?
            </h2>
            {asking ? (
              <Form method="post" className="mt-3 rounded-xl bg-white p-5 shadow-sm ring-1 ring-red-200">
                <input type="hidden" name="intent" value="cancel" />
                <p className="text-sm text-slate-700">
                  Cancel your registration for {registration.title}? Your place goes to the next person on the waiting
                  list; to come after all, you would register again.
                </p>
                <div className="mt-4 flex flex-wrap gap-3">
                  <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={cancelling}>
                    {cancelling ? "Cancelling…" : "Yes, cancel my registration"}
                  </button>
                  <Link to="." className="btn-outline" replace>
                    No, keep it
                  </Link>
                </div>
              </Form>
            ) : (
              <>
                <p className="mt-1 text-sm text-slate-600">
                  Please cancel, so that your place can go to someone on the waiting list. This link works until the
                  meeting is over.
                </p>
                <Link to="?cancel" className="btn-outline mt-3">
                  Cancel my registration…
                </Link>
              </>
            )}
          </section>
        ) : null}
      </div>
    </div>
  );
}

import { CalendarCheck2, CalendarX2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import { MY_REGISTRATIONS_PATH, REGISTRATION_ACTIVE } from "../../../core/join/join.values";
import type { PersonRegistration } from "../../../core/join/registrations.service";
import { meetingUrl } from "../../../core/meetings/meetings.values";
import { formatDay } from "../../../core/members/members.values";
import { Notice } from "../ui/notice";

export type MyRegistration = Pick<
  PersonRegistration,
  "id" | "status" | "title" | "slug" | "visibility" | "start_date" | "end_date" | "location" | "representative_name"
>;

export type MyRegistrationsAnswer = { notice?: string; error?: string };

const STATE: Record<string, { label: string; className: string }> = {
  pending: { label: "Received, to be confirmed", className: "bg-amber-100 text-amber-900" },
  confirmed: { label: "Confirmed", className: "bg-emerald-100 text-emerald-900" },
  waitlisted: { label: "On the waiting list", className: "bg-sky-100 text-sky-900" },
  declined: { label: "Declined", className: "bg-slate-200 text-slate-800" },
  cancelled: { label: "Cancelled", className: "bg-slate-200 text-slate-800" },
};

const ACTIVE = new Set<string>(REGISTRATION_ACTIVE);

function when(r: MyRegistration): string {
  const start = formatDay(r.start_date);
  return r.end_date && r.end_date !== r.start_date ? `${start} to ${formatDay(r.end_date)}` : start;
}

/**
 * 'My registrations' (issue 32): the signed-in person's registrations for meetings not yet over,
 * each cancellable after a confirmation, as the link in their e-mails allows. The cancel is a form
 * posted to /dashboard/registrations (through a fetcher where JavaScript runs; a plain POST where
 * it does not), so that /dashboard/events, a shared render, shows the same list as an island.
 */
export function MyRegistrationsList({
  registrations,
  asking = null,
}: {
  registrations: readonly MyRegistration[];
  /** The registration whose cancel is being confirmed when the page opens (`?cancel={id}`, no JavaScript). */
  asking?: number | null;
}) {
  const fetcher = useFetcher<MyRegistrationsAnswer>({ key: "my-registrations-cancel" });
  const [confirming, setConfirming] = useState<number | null>(asking);
  const busy = fetcher.state !== "idle";
  // Once the cancel has answered, the confirmation closes (the list reloads with the new state).
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.notice) setConfirming(null);
  }, [fetcher.state, fetcher.data]);

  return (
    <div>
      <div aria-live="polite">
        {fetcher.data?.notice ? (
          <Notice tone="success" className="mb-4">
            {fetcher.data.notice}
          </Notice>
        ) : null}
        {fetcher.data?.error ? (
          <Notice tone="error" className="mb-4">
            {fetcher.data.error}
          </Notice>
        ) : null}
      </div>
      {registrations.length === 0 ? (
        <p className="text-sm text-slate-600">
          You have no registrations for coming meetings. Register on a meeting's page; it will be listed here.
        </p>
      ) : (
        <ul className="space-y-3">
          {registrations.map((r) => {
            const state = STATE[r.status ?? "pending"] ?? STATE.pending;
            const active = ACTIVE.has(r.status ?? "pending");
            const page = meetingUrl(r.slug, r.visibility === "members" ? "members" : "public");
            return (
              <li
                key={r.id}
                id={`registration-${r.id}`}
                className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
              >
                <div className="flex flex-wrap items-start gap-3">
                  {active ? (
                    <CalendarCheck2 className="mt-0.5 h-6 w-6 shrink-0 text-sea-600" aria-hidden="true" />
                  ) : (
                    <CalendarX2 className="mt-0.5 h-6 w-6 shrink-0 text-slate-500" aria-hidden="true" />
                  )}
                  <div className="min-w-0 flex-1">
                    <Link to={page} className="font-semibold text-navy-900 underline-offset-2 hover:underline">
                      {r.title}
                    </Link>
                    <p className="mt-0.5 text-sm text-slate-600">
                      {when(r)}
                      {r.location ? ` · ${r.location}` : ""}
                    </p>
                    <p className="mt-0.5 text-sm text-slate-600">Attendee: {r.representative_name}</p>
                  </div>
                  <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${state.className}`}>
                    {state.label}
                  </span>
                </div>
                {active && confirming === r.id ? (
                  <fetcher.Form
                    method="post"
                    action={MY_REGISTRATIONS_PATH}
                    className="mt-4 rounded-lg bg-red-50 p-4 ring-1 ring-red-200"
                  >
                    <input type="hidden" name="intent" value="cancel" />
                    <input type="hidden" name="id" value={r.id} />
                    <p className="text-sm text-slate-800">
                      Cancel your registration for {r.title}? Your place goes to the next person on the waiting list; to
                      come after all, you would register again.
                    </p>
                    <div className="mt-3 flex flex-wrap gap-3">
                      <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={busy}>
                        {busy ? "Cancelling…" : "Yes, cancel my registration"}
                      </button>
                      <Link
                        to={MY_REGISTRATIONS_PATH}
                        className="btn-outline"
                        onClick={(event) => {
                          event.preventDefault();
                          setConfirming(null);
                        }}
                      >
                        No, keep it
                      </Link>
                    </div>
                  </fetcher.Form>
                ) : active ? (
                  <Link
                    to={`${MY_REGISTRATIONS_PATH}?cancel=${r.id}#registration-${r.id}`}
                    className="btn-outline mt-3"
                    aria-label={`Cancel my registration for ${r.title}…`}
                    onClick={(event) => {
                      event.preventDefault();
                      setConfirming(r.id);
                    }}
                  >
                    Cancel…
                  </Link>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/**
 * The list as an island of /dashboard/events: that page is rendered once per role (decision 0032),
 * so the person's registrations are fetched in the browser from /dashboard/registrations' loader.
 * Before they arrive (or without JavaScript) the section links to that page.
 */
export function MyRegistrationsSection({ className = "" }: { className?: string }) {
  const loader = useFetcher<{ registrations: MyRegistration[] }>({ key: "my-registrations" });
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once when the page opens
  useEffect(() => {
    if (loader.state === "idle" && !loader.data) void loader.load(MY_REGISTRATIONS_PATH);
  }, []);
  const registrations = loader.data?.registrations;
  return (
    <section aria-labelledby="my-registrations-title" className={className}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="my-registrations-title" className="font-display text-2xl font-bold text-navy-900">
          My registrations
        </h2>
        <Link to={MY_REGISTRATIONS_PATH} className="text-sm font-semibold text-sea-700 underline hover:text-sea-600">
          Open as a page
        </Link>
      </div>
      <div className="mt-4">
        {registrations ? (
          <MyRegistrationsList registrations={registrations} />
        ) : (
          <p className="text-sm text-slate-600">
            <Link to={MY_REGISTRATIONS_PATH} className="font-semibold text-sea-700 underline hover:text-sea-600">
              See and manage your registrations
            </Link>
          </p>
        )}
      </div>
    </section>
  );
}

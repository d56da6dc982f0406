import type { RegistrationStatus } from "../../../core/join/join.values";

/** A registration's state as the secretariat reads it (the printed list says the same, decision 0054). */
export const REGISTRATION_STATE_LABELS: Record<RegistrationStatus, string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  waitlisted: "Waiting list",
  declined: "Declined",
  cancelled: "Cancelled",
};

const TONE: Record<RegistrationStatus, string> = {
  pending: "bg-amber-50 text-amber-900 ring-amber-600/30",
  confirmed: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
  waitlisted: "bg-sky-50 text-sky-900 ring-sky-600/30",
  declined: "bg-slate-100 text-slate-700 ring-slate-500/30",
  cancelled: "bg-slate-100 text-slate-700 ring-slate-500/30",
};

/** A registration's state, as a badge whose text says it (never the colour alone). */
export function RegistrationStateBadge({ status }: { status: RegistrationStatus }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${TONE[status]}`}
    >
      {REGISTRATION_STATE_LABELS[status]}
    </span>
  );
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** "12 May, 09:05" in the meeting's zone (where the desk is), made once per zone. */
export function meetingTime(iso: string, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone,
    });
    formats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

/** "18 of 40 places taken · 3 waitlisted", or "18 places taken" without a capacity. */
export function placesLine(counts: Record<RegistrationStatus, number>, capacity: number | null): string {
  const taken = counts.pending + counts.confirmed;
  const places =
    capacity === null ? `${taken} ${taken === 1 ? "place" : "places"} taken` : `${taken} of ${capacity} places taken`;
  return counts.waitlisted > 0 ? `${places} · ${counts.waitlisted} waitlisted` : places;
}

/** The screens' addresses, one place. */
export const registrationsPath = (meetingId: number) => `/manage-events/${meetingId}/registrations`;

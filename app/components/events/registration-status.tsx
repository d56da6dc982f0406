import type { RegistrationState } from "../../../core/meetings/meetings.schema";

const LOOK = {
  open: { label: "Open", className: "bg-emerald-50 text-emerald-800 ring-emerald-600/30" },
  full: { label: "Full", className: "bg-amber-50 text-amber-900 ring-amber-600/30" },
  closed: { label: "Closed", className: "bg-slate-100 text-slate-700 ring-slate-500/30" },
  deadline: { label: "Closed: past the closing date", className: "bg-slate-100 text-slate-700 ring-slate-500/30" },
  over: { label: "Closed: meeting over", className: "bg-slate-100 text-slate-700 ring-slate-500/30" },
} as const;

/** One meeting's registrations as CSV, with their states, notes and check-in times (decision 0055). */
export function registrationsExportUrl(meetingId: number): string {
  return `/manage-events/${meetingId}/registrations/export.csv`;
}

/** "12 / 40 registered", or "12 registered" without a capacity. */
export function registrationCount(count: number, capacity: number | null): string {
  return capacity === null ? `${count} registered` : `${count} / ${capacity} registered`;
}

/** A meeting's registration state for the admin: open, full or closed (and why). */
export function RegistrationBadge({ state }: { state: RegistrationState }) {
  const look = LOOK[state.open ? "open" : state.reason];
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${look.className}`}
    >
      <span className="sr-only">Registration: </span>
      {look.label}
    </span>
  );
}

/** Who may see a meeting, as a badge. */
export function VisibilityBadge({ visibility }: { visibility: "public" | "members" }) {
  return visibility === "members" ? (
    <span className="inline-flex items-center rounded-full bg-navy-900 px-2 py-0.5 text-xs font-semibold text-white">
      Members only
    </span>
  ) : (
    <span className="inline-flex items-center rounded-full bg-sea-100 px-2 py-0.5 text-xs font-semibold text-navy-900">
      Public
    </span>
  );
}

import { Lock } from "lucide-react";
import { useMatches } from "react-router";
import type { RegistrationState } from "../../../core/meetings/meetings.schema";
import type { MeetingView } from "./meeting-view";

/** Said in place of the registration form when the meeting takes no more registrations. */
export function RegistrationClosed({ message, className = "mt-6" }: { message: string; className?: string }) {
  return (
    <p
      data-registration-closed=""
      className={`flex max-w-3xl items-start gap-3 rounded-xl border border-signal-500 bg-signal-500/10 p-4 font-semibold text-navy-900 ${className}`}
    >
      <Lock className="mt-0.5 h-5 w-5 shrink-0 text-navy-700" aria-hidden="true" />
      {message}
    </p>
  );
}

/** The meeting page being shown (its loader's `view`), or null elsewhere. */
export function useMeetingView(): MeetingView | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const view = (matches[i].loaderData as { view?: MeetingView } | undefined)?.view;
    if (view?.registration) return view;
  }
  return null;
}

/** The registration state of the meeting page being shown, or null elsewhere. */
export function useRegistrationState(): RegistrationState | null {
  return useMeetingView()?.registration ?? null;
}

/** "12 places left", "1 place left", "Full: join the waiting list"; null without a capacity (issue 32). */
export function placesText(state: RegistrationState): string | null {
  if (!state.open || state.places === null) return null;
  if (state.waitlist) return "Full: join the waiting list";
  return `${state.places} ${state.places === 1 ? "place" : "places"} left`;
}

import type { RegistrationState } from "../../../core/meetings/meetings.schema";

/**
 * What a meeting page shows beside the meeting itself, worked out on the server by the
 * loader (app/routes/events/meeting-view.server.ts): browser-safe data only.
 */

/** One session's times, as written in the meeting's zone, with the instants they stand for. */
export type SessionTime = {
  /** "14:00–15:30", "19:00", or "" when the programme gives no time. */
  label: string;
  /** The zone's short name on that session's date: "CET", "CEST", "EST". */
  abbreviation: string;
  /** "2026-10-25T14:00:00+01:00", for the <time> element; null without a start time. */
  startIso: string | null;
  /** The UTC instants, for the viewer's own time computed in the browser. */
  startUtc: string | null;
  finishUtc: string | null;
};

export type MeetingView = {
  /** The meeting's title: the registration form's heading names it. */
  title: string;
  /** The meeting's IANA zone and its short name at the start of the programme. */
  zone: { name: string; abbreviation: string };
  /** Keyed by schedule id. */
  times: Record<number, SessionTime>;
  /** 'Add to calendar': the .ics download and the Google and Outlook forms. */
  calendar: { ics: string; google: string; outlook: string };
  /** schema.org Event as JSON, with "<" escaped so that it cannot close its script element. */
  jsonLd: string;
  /** Whether the registration form takes requests, and if not, why. */
  registration: RegistrationState;
};

import { useEffect, useState } from "react";

const HM = (zone: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const DAY = (zone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });

/**
 * "13:00–14:30 your time": a session's times in the viewer's own zone, when that zone keeps another
 * clock than the meeting's. Only the browser knows the viewer's zone, so the server renders a
 * placeholder of the same size, hidden, and the browser fills it in: nothing moves when it does.
 */
export function LocalTime({
  startUtc,
  finishUtc,
  meetingZone,
  meetingDate,
}: {
  startUtc: string;
  finishUtc: string | null;
  meetingZone: string;
  meetingDate: string;
}) {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    setText(viewerTime({ startUtc, finishUtc, meetingZone, meetingDate }));
  }, [startUtc, finishUtc, meetingZone, meetingDate]);
  return (
    <span
      data-utc-start={startUtc}
      data-utc-finish={finishUtc ?? undefined}
      data-local-time=""
      aria-hidden={text ? undefined : true}
      className={`block text-xs font-normal text-slate-600 ${text ? "" : "invisible"}`}
    >
      {text ?? "00:00–00:00 your time"}
    </span>
  );
}

/** The viewer's time for a session, or null when the viewer's clock reads as the meeting's. */
export function viewerTime(
  session: { startUtc: string; finishUtc: string | null; meetingZone: string; meetingDate: string },
  viewerZone: string = Intl.DateTimeFormat().resolvedOptions().timeZone,
): string | null {
  const start = new Date(session.startUtc);
  const finish = session.finishUtc ? new Date(session.finishUtc) : null;
  let mine: Intl.DateTimeFormat;
  try {
    mine = HM(viewerZone);
  } catch {
    return null;
  }
  const theirs = HM(session.meetingZone);
  const same =
    mine.format(start) === theirs.format(start) && (!finish || mine.format(finish) === theirs.format(finish));
  if (same) return null;
  const times = finish ? `${mine.format(start)}–${mine.format(finish)}` : mine.format(start);
  const day = DAY(viewerZone).format(start);
  const shift = day > session.meetingDate ? " (next day)" : day < session.meetingDate ? " (day before)" : "";
  return `${times}${shift} your time`;
}

/**
 * Wall-clock times in IANA time zones, with the zone data Node carries (ICU): a meeting's
 * schedule says "14:00" in the meeting's zone, whatever the server's zone is, and DST
 * changes are the tz database's business, not ours.
 */

/** Europe/London, America/Argentina/Buenos_Aires, UTC: names, never offsets such as "+01:00". */
const ZONE_NAME = /^(?:UTC|[A-Za-z][A-Za-z_-]*(?:\/[A-Za-z0-9][A-Za-z0-9_+-]*){1,2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone and purpose: building one costs about as much as a hundred uses. */
function formatter(
  zone: string,
  purpose: "parts" | "abbreviation" | "abbreviation-us" | "long-date",
): Intl.DateTimeFormat {
  const key = `${purpose}:${zone}`;
  let found = formatters.get(key);
  if (!found) {
    found =
      purpose === "long-date"
        ? new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: zone })
        : purpose === "parts"
          ? new Intl.DateTimeFormat("en-GB", {
              timeZone: zone,
              hourCycle: "h23",
              year: "numeric",
              month: "2-digit",
              day: "2-digit",
              hour: "2-digit",
              minute: "2-digit",
              second: "2-digit",
            })
          : new Intl.DateTimeFormat(purpose === "abbreviation" ? "en-GB" : "en-US", {
              timeZone: zone,
              timeZoneName: "short",
            });
    formatters.set(key, found);
  }
  return found;
}

/** "27 November 2026": the day of `instant` in `zone`, in words; in UTC when the zone is not one this runtime knows. */
export function longDateIn(instant: Date, zone: string): string {
  return formatter(zone && isTimeZone(zone) ? zone : "UTC", "long-date").format(instant);
}

/** Whether `name` is an IANA zone this runtime knows (aliases such as Asia/Calcutta included). */
export function isTimeZone(name: string): boolean {
  if (name.length > 64 || !ZONE_NAME.test(name)) return false;
  try {
    formatter(name, "parts");
    return true;
  } catch {
    return false;
  }
}

/**
 * The zones to choose a meeting's from: `first` (the site's zone, then the meeting's own if it is
 * an alias such as Asia/Calcutta), then every canonical IANA zone this runtime knows, A to Z, and UTC.
 */
export function timeZoneChoices(...first: string[]): string[] {
  const all = [...Intl.supportedValuesOf("timeZone"), "UTC"];
  return [...new Set([...first.filter(isTimeZone), ...all])];
}

type WallClock = Readonly<{ year: number; month: number; day: number; hour: number; minute: number; second: number }>;

/** Recent answers by zone and whole second (all a wall clock shows): a request asks the same a few times. */
const wallClocks = new Map<string, WallClock>();
const WALL_CLOCKS_KEPT = 512;

function wallClockAt(instant: Date, zone: string): WallClock {
  const key = `${zone} ${Math.floor(instant.getTime() / 1000)}`;
  const known = wallClocks.get(key);
  if (known) return known;
  const found = readWallClock(instant, zone);
  if (wallClocks.size >= WALL_CLOCKS_KEPT) wallClocks.clear();
  wallClocks.set(key, found);
  return found;
}

function readWallClock(instant: Date, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone, "parts").formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Object.freeze({
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  });
}

/** The zone's offset from UTC at an instant, in minutes (CET: 60, New York in winter: −300). */
export function offsetMinutes(instant: Date, zone: string): number {
  const w = wallClockAt(instant, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant a wall-clock time in a zone stands for: `zonedTime("2026-10-25", "14:00",
 * "Europe/Amsterdam")` is 13:00 UTC (CET, the day summer time ends). A time that does not exist
 * (skipped by a spring-forward) is read with the offset before the change, as calendar apps do;
 * a time that occurs twice (fall-back) is its first occurrence.
 */
export function zonedTime(date: string, time: string, zone: string): Date {
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute] = time.split(":").map(Number);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // The offset an hour either side of the guess covers every change the tz database has.
  const before = offsetMinutes(new Date(asUtc - 3 * 3_600_000), zone);
  const after = offsetMinutes(new Date(asUtc + 3 * 3_600_000), zone);
  const first = new Date(asUtc - before * 60_000);
  if (before === after) return first;
  const second = new Date(asUtc - after * 60_000);
  const matches = (candidate: Date) => {
    const w = wallClockAt(candidate, zone);
    return w.hour === hour && w.minute === minute && w.day === day;
  };
  if (matches(first)) return first;
  if (matches(second)) return second;
  return first;
}

function shortName(instant: Date, zone: string, purpose: "abbreviation" | "abbreviation-us"): string | undefined {
  return formatter(zone, purpose)
    .formatToParts(instant)
    .find((p) => p.type === "timeZoneName")?.value;
}

/**
 * The zone's short name at an instant: "CET", "CEST", "EST", or "GMT+8" where the zone has no letters.
 * British English names Europe's zones (CET, BST) and American English America's (EST, PDT); each
 * writes the other's as an offset, so the second is asked when the first has no letters.
 */
export function zoneAbbreviation(instant: Date, zone: string): string {
  const british = shortName(instant, zone, "abbreviation");
  if (british && !/^GMT[+-]/.test(british)) return british;
  const american = shortName(instant, zone, "abbreviation-us");
  if (american && !/^GMT[+-]/.test(american)) return american;
  return british ?? american ?? zone;
}

/** "+01:00" for an offset in minutes, as ISO 8601 and schema.org write it. */
export function isoOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** "2026-10-25T14:00:00+01:00": a wall-clock time in a zone, with the offset it has on that day. */
export function isoWithOffset(date: string, time: string, zone: string): string {
  const instant = zonedTime(date, time, zone);
  return `${date}T${time}:00${isoOffset(offsetMinutes(instant, zone))}`;
}

/** Today's date (YYYY-MM-DD) in a zone. */
export function dateIn(instant: Date, zone: string): string {
  const w = wallClockAt(instant, zone);
  return `${w.year}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

/** "2026-10-25 14:00:00 +01:00": an instant as the zone's clock shows it, with its offset then. */
export function isoInZone(instant: Date, zone: string): string {
  const w = wallClockAt(instant, zone);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${w.year}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)} ${isoOffset(offsetMinutes(instant, zone))}`;
}

/** "2026-10-25 14:00": a stored ISO instant to the minute, as the zone's clock shows it (screens' lists). */
export function minuteInZone(iso: string, zone: string): string {
  return isoInZone(new Date(iso), zone).slice(0, 16);
}

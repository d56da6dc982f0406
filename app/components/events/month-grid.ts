/**
 * The month grid of the events calendar, as plain data: weeks from Monday to Sunday covering the
 * month, each day with the meetings running on it. Dates are calendar days (YYYY-MM-DD) read as
 * UTC, like every meeting date, so no zone shifts a day.
 */

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export type GridDay<T> = {
  date: string;
  /** Day of the month, 1–31. */
  day: number;
  /** False for the days of the previous and next months that fill the first and last weeks. */
  inMonth: boolean;
  today: boolean;
  meetings: T[];
};

export type MonthGrid<T> = { month: string; weeks: GridDay<T>[][] };

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Whether `value` is a month written YYYY-MM (2026-13 is refused). */
export function isMonth(value: string | null | undefined): value is string {
  return typeof value === "string" && MONTH.test(value);
}

/** The month before or after (`step` −1 or 1). */
export function shiftMonth(month: string, step: number): string {
  const [y, m] = month.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1 + step, 1)).toISOString().slice(0, 7);
}

const MONTH_TITLE = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

/** "November 2026". */
export function monthTitle(month: string): string {
  return MONTH_TITLE.format(new Date(`${month}-01T00:00:00Z`));
}

/**
 * The weeks of `month` (Monday first), each meeting placed on every day from its start to its
 * end that the grid shows; meetings keep the order they come in.
 */
export function monthGrid<T extends { start_date: string; end_date: string | null }>(
  month: string,
  meetings: T[],
  today: string,
): MonthGrid<T> {
  const [y, m] = month.split("-").map(Number);
  const first = Date.UTC(y, m - 1, 1);
  const last = Date.UTC(y, m, 0);
  // getUTCDay: Sunday 0 … Saturday 6; the grid starts on Monday.
  const start = first - ((new Date(first).getUTCDay() + 6) % 7) * DAY_MS;
  const end = last + (6 - ((new Date(last).getUTCDay() + 6) % 7)) * DAY_MS;
  const weeks: GridDay<T>[][] = [];
  for (let ms = start; ms <= end; ms += DAY_MS) {
    const date = isoDay(ms);
    if ((ms - start) % (7 * DAY_MS) === 0) weeks.push([]);
    weeks[weeks.length - 1].push({
      date,
      day: new Date(ms).getUTCDate(),
      inMonth: date.slice(0, 7) === month,
      today: date === today,
      meetings: meetings.filter((mt) => mt.start_date <= date && date <= (mt.end_date ?? mt.start_date)),
    });
  }
  return { month, weeks };
}

/** Meetings grouped under their start month, in the order they come: [["2026-11", […]], …]. */
export function byStartMonth<T extends { start_date: string }>(meetings: T[]): [string, T[]][] {
  const groups: [string, T[]][] = [];
  for (const meeting of meetings) {
    const month = meeting.start_date.slice(0, 7);
    const group = groups.at(-1);
    if (group && group[0] === month) group[1].push(meeting);
    else groups.push([month, [meeting]]);
  }
  return groups;
}

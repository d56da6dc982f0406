import { Moon } from "lucide-react";
import type { Schedule } from "../../../core/meetings/meetings.schema";
import { Island } from "../../islands/island";
import { formatTimes, formatWeekday } from "./format";
import { LocalTime } from "./local-time";
import type { SessionTime } from "./meeting-view";

type Day = { date: string; info: string; items: Schedule[] };

/** Schedules arrive ordered by day and start time; consecutive rows of one date make a day. */
function byDay(schedules: Schedule[]): Day[] {
  const days: Day[] = [];
  for (const item of schedules) {
    let day = days.at(-1);
    if (!day || day.date !== item.meeting_date) {
      day = { date: item.meeting_date, info: "", items: [] };
      days.push(day);
    }
    day.items.push(item);
  }
  for (const day of days) {
    day.info = [...new Set(day.items.map((i) => i.meeting_date_info?.trim()).filter(Boolean))].join(" · ");
  }
  return days;
}

/**
 * The programme: one table per day, labelled by its heading; evening sessions marked in words, not
 * colour alone. Times are the meeting's, with its zone's abbreviation on that day (DST), and the
 * viewer's own time beside them once the browser knows it.
 */
export function ScheduleTable({
  schedules,
  headingId,
  times,
  zone,
}: {
  schedules: Schedule[];
  headingId: string;
  /** Keyed by schedule id, computed on the server. */
  times: Record<number, SessionTime>;
  zone: string;
}) {
  return (
    <div className="mt-6 space-y-8">
      {byDay(schedules).map((day) => {
        const id = `${headingId}-${day.date}`;
        return (
          <div key={day.date}>
            <h3 id={id} className="text-lg font-semibold text-navy-900">
              <time dateTime={day.date}>{formatWeekday(day.date)}</time>
              {day.info ? " " : null}
              {day.info ? <span className="mt-0.5 block text-base font-normal text-slate-600">{day.info}</span> : null}
            </h3>
            <div className="mt-3 overflow-hidden rounded-xl border border-slate-200">
              <table aria-labelledby={id} className="w-full border-collapse text-left">
                <thead className="bg-navy-50 text-xs tracking-wider text-slate-600 uppercase">
                  <tr>
                    <th scope="col" className="w-28 px-3 py-2.5 font-semibold sm:w-36 sm:px-4">
                      Time
                    </th>
                    <th scope="col" className="px-3 py-2.5 font-semibold sm:px-4">
                      Session
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {day.items.map((item) => (
                    <tr key={item.id} className={item.is_evening ? "bg-navy-50/60" : "bg-white"}>
                      <th
                        scope="row"
                        className="px-3 py-3 align-top text-sm font-semibold whitespace-nowrap text-navy-900 tabular-nums sm:px-4"
                      >
                        <SessionTimes item={item} time={times[item.id]} zone={zone} />
                      </th>
                      <td className="px-3 py-3 align-top text-slate-800 sm:px-4">
                        {item.is_evening ? (
                          <span className="mr-2 inline-flex items-center gap-1 rounded-full bg-navy-900 px-2 py-0.5 align-[1px] text-xs font-semibold text-white">
                            <Moon className="h-3 w-3" aria-hidden="true" />
                            Evening
                          </span>
                        ) : null}
                        {item.description}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        );
      })}
    </div>
  );
}

function SessionTimes({ item, time, zone }: { item: Schedule; time: SessionTime | undefined; zone: string }) {
  const label = time?.label ?? formatTimes(item.start, item.finish);
  if (!label) return <>All day</>;
  return (
    <>
      {time?.startIso ? <time dateTime={time.startIso}>{label}</time> : label}
      {time ? " " : null}
      {time ? <span className="text-xs font-semibold text-slate-600">{time.abbreviation}</span> : null}
      {time?.startUtc ? (
        <Island
          name="local-time"
          component={LocalTime}
          props={{
            startUtc: time.startUtc,
            finishUtc: time.finishUtc,
            meetingZone: zone,
            meetingDate: item.meeting_date,
          }}
        />
      ) : null}
    </>
  );
}

import { describe, expect, it } from "vitest";
import { isMeetingOver, lastDayOf } from "../../core/meetings/meetings.schema";

/** One rule for 'the meeting is over' (invitation updates, registrant links, registration state). */
describe("a meeting's last day and when it is over", () => {
  it("takes the end date, or the start date when there is none or an earlier one", () => {
    expect(lastDayOf({ start_date: "2026-12-08", end_date: "2026-12-10" })).toBe("2026-12-10");
    expect(lastDayOf({ start_date: "2026-12-08", end_date: null })).toBe("2026-12-08");
    expect(lastDayOf({ start_date: "2026-12-08", end_date: "2026-12-01" })).toBe("2026-12-08");
  });

  it("is over once the day after its last day begins in the meeting's zone, UTC for an unknown zone", () => {
    const meeting = { start_date: "2026-12-08", end_date: null, timezone: "Pacific/Auckland" };
    // 11:30 UTC on the 8th is 00:30 on the 9th in Auckland (UTC+13 in summer): over there.
    expect(isMeetingOver(meeting, new Date("2026-12-08T11:30:00Z"))).toBe(true);
    expect(isMeetingOver(meeting, new Date("2026-12-08T10:30:00Z"))).toBe(false);
    const unknown = { ...meeting, timezone: "Mars/Olympus_Mons" };
    expect(isMeetingOver(unknown, new Date("2026-12-08T23:59:00Z"))).toBe(false);
    expect(isMeetingOver(unknown, new Date("2026-12-09T00:00:00Z"))).toBe(true);
  });
});

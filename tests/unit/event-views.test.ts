import { describe, expect, it } from "vitest";
import { viewerTime } from "../../app/components/events/local-time";
import { byStartMonth, isMonth, monthGrid, shiftMonth } from "../../app/components/events/month-grid";

describe("the viewer's own time beside a session's", () => {
  // 14:00–15:30 in Amsterdam on 25 October 2026 (CET): 13:00–14:30 UTC.
  const session = {
    startUtc: "2026-10-25T13:00:00.000Z",
    finishUtc: "2026-10-25T14:30:00.000Z",
    meetingZone: "Europe/Amsterdam",
    meetingDate: "2026-10-25",
  };

  it("is given where the viewer's clock differs, with the day when it is another", () => {
    expect(viewerTime(session, "America/New_York")).toBe("09:00–10:30 your time");
    expect(viewerTime(session, "Europe/London")).toBe("13:00–14:30 your time");
    expect(viewerTime(session, "Pacific/Auckland")).toBe("02:00–03:30 (next day) your time");
    expect(
      viewerTime({ ...session, startUtc: "2026-10-25T03:00:00.000Z", finishUtc: null }, "America/Los_Angeles"),
    ).toBe("20:00 (day before) your time");
  });

  it("is left out where the viewer's clock reads the same, whatever the zone's name", () => {
    expect(viewerTime(session, "Europe/Amsterdam")).toBeNull();
    expect(viewerTime(session, "Europe/Berlin")).toBeNull();
    expect(viewerTime(session, "Not/AZone")).toBeNull();
  });
});

describe("the month grid", () => {
  it("covers whole weeks from Monday, a month starting on Monday without a leading week", () => {
    const grid = monthGrid("2027-03", [], "2027-03-08");
    expect(grid.weeks[0][0]).toMatchObject({ date: "2027-03-01", inMonth: true });
    expect(grid.weeks.at(-1)?.at(-1)).toMatchObject({ date: "2027-04-04", inMonth: false });
    expect(grid.weeks.flat().find((d) => d.today)?.date).toBe("2027-03-08");
    expect(
      monthGrid("2026-02", [], "2000-01-01")
        .weeks.flat()
        .filter((d) => d.inMonth),
    ).toHaveLength(28);
  });

  it("places a meeting on every day from its start to its end, across the year's end", () => {
    const grid = monthGrid("2027-01", [{ start_date: "2026-12-30", end_date: "2027-01-02" }], "2000-01-01");
    const days = grid.weeks.flat().filter((d) => d.meetings.length > 0);
    expect(days.map((d) => d.date)).toEqual(["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"]);
  });

  it("steps months, checks them and groups meetings by start month", () => {
    expect(shiftMonth("2026-12", 1)).toBe("2027-01");
    expect(shiftMonth("2026-01", -1)).toBe("2025-12");
    expect(isMonth("2026-13")).toBe(false);
    expect(isMonth("2026-1")).toBe(false);
    expect(isMonth("2026-11")).toBe(true);
    expect(
      byStartMonth([{ start_date: "2026-11-02" }, { start_date: "2026-11-20" }, { start_date: "2027-01-05" }]).map(
        ([month, items]) => [month, items.length],
      ),
    ).toEqual([
      ["2026-11", 2],
      ["2027-01", 1],
    ]);
  });
});

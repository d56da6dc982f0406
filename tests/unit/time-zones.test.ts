import { describe, expect, it } from "vitest";
import { dateIn, isoWithOffset, isTimeZone, offsetMinutes, zoneAbbreviation, zonedTime } from "../../lib/time-zones";

describe("time zones", () => {
  it("knows IANA names and refuses offsets, paths and made-up zones", () => {
    for (const zone of ["Europe/London", "America/Argentina/Buenos_Aires", "UTC", "Asia/Kolkata", "Asia/Calcutta"]) {
      expect(isTimeZone(zone), zone).toBe(true);
    }
    for (const zone of ["", "+01:00", "Europe/Atlantis", "../etc/passwd", "Europe/London\n", "x".repeat(80), "CET+1"]) {
      expect(isTimeZone(zone), zone).toBe(false);
    }
  });

  it("reads 14:00 Europe/Amsterdam on the days summer time ends and begins as 14:00 local", () => {
    // 25 October 2026: CEST → CET at 03:00; 14:00 is CET (UTC+1).
    expect(zonedTime("2026-10-25", "14:00", "Europe/Amsterdam").toISOString()).toBe("2026-10-25T13:00:00.000Z");
    expect(zonedTime("2026-10-24", "14:00", "Europe/Amsterdam").toISOString()).toBe("2026-10-24T12:00:00.000Z");
    // 29 March 2026: CET → CEST at 02:00; 14:00 is CEST (UTC+2).
    expect(zonedTime("2026-03-29", "14:00", "Europe/Amsterdam").toISOString()).toBe("2026-03-29T12:00:00.000Z");
    expect(zoneAbbreviation(zonedTime("2026-10-25", "14:00", "Europe/Amsterdam"), "Europe/Amsterdam")).toBe("CET");
    expect(zoneAbbreviation(zonedTime("2026-10-24", "14:00", "Europe/Amsterdam"), "Europe/Amsterdam")).toBe("CEST");
  });

  it("names American zones in letters too, and zones without letters by their offset", () => {
    expect(zoneAbbreviation(zonedTime("2026-01-15", "14:00", "America/New_York"), "America/New_York")).toBe("EST");
    expect(zoneAbbreviation(zonedTime("2026-07-15", "14:00", "America/New_York"), "America/New_York")).toBe("EDT");
    expect(zoneAbbreviation(zonedTime("2026-07-15", "14:00", "Europe/London"), "Europe/London")).toBe("BST");
    expect(zoneAbbreviation(zonedTime("2026-07-15", "14:00", "Asia/Singapore"), "Asia/Singapore")).toBe("GMT+8");
  });

  it("takes the first of a time that occurs twice and the old offset for one that does not exist", () => {
    expect(zonedTime("2026-10-25", "02:30", "Europe/Amsterdam").toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(zonedTime("2026-03-29", "02:30", "Europe/Amsterdam").toISOString()).toBe("2026-03-29T01:30:00.000Z");
  });

  it("works on other continents and across the date line", () => {
    expect(zonedTime("2026-11-03", "09:00", "America/New_York").toISOString()).toBe("2026-11-03T14:00:00.000Z");
    expect(zonedTime("2026-07-03", "09:00", "America/New_York").toISOString()).toBe("2026-07-03T13:00:00.000Z");
    expect(zonedTime("2026-06-01", "08:00", "Asia/Singapore").toISOString()).toBe("2026-06-01T00:00:00.000Z");
    expect(zonedTime("2026-06-01", "08:00", "Pacific/Auckland").toISOString()).toBe("2026-05-31T20:00:00.000Z");
    expect(offsetMinutes(new Date("2026-01-15T00:00:00Z"), "Asia/Kolkata")).toBe(330);
  });

  it("writes ISO times with the offset of the day", () => {
    expect(isoWithOffset("2026-10-25", "14:00", "Europe/Amsterdam")).toBe("2026-10-25T14:00:00+01:00");
    expect(isoWithOffset("2026-07-01", "09:30", "America/New_York")).toBe("2026-07-01T09:30:00-04:00");
    expect(dateIn(new Date("2026-05-31T20:00:00Z"), "Pacific/Auckland")).toBe("2026-06-01");
  });
});

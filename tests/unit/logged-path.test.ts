import { describe, expect, it } from "vitest";
import { loggedPath } from "../../lib/logged-path";

/** The private calendar feed's token never reaches a log line, however its address is spelled (decision 0034). */
describe("loggedPath", () => {
  it.each([
    ["/calendar/secret-token.ics", "/calendar/[redacted].ics"],
    ["/calendar/secret-token", "/calendar/[redacted]"],
    ["/%63alendar/secret-token.ics", "/calendar/[redacted].ics"],
    ["/%63%61%6C%65%6E%64%61%72/secret-token.ics", "/calendar/[redacted].ics"],
    ["/calendar%2Fsecret-token.ics", "/calendar/[redacted].ics"],
    ["/calendar%252Fsecret-token.ics", "/calendar/[redacted].ics"],
    ["/calendar%5Csecret-token.ics", "/calendar/[redacted].ics"],
    ["/calendar\\secret-token.ics", "/calendar/[redacted].ics"],
    ["//calendar//secret-token.ICS", "/calendar/[redacted].ics"],
    ["/CALENDAR/secret-token.ics", "/CALENDAR/[redacted].ics"],
    ["/x/..%2Fcalendar%2Fsecret-token.ics", "/calendar/[redacted].ics"],
    ["/api/dashboard/news/..%2F..%2F..%2Fcalendar%2Fsecret-token.ics", "/calendar/[redacted].ics"],
    ["/api/dashboard/news/calendar%2Fsecret-token.ics", "/api/dashboard/news/calendar/[redacted].ics"],
    ["/calendar/./secret-token.ics", "/calendar/[redacted].ics"],
    // A registrant's link to their registration (issue 32).
    ["/registrations/secret-token", "/registrations/[redacted]"],
    ["/Registrations/secret-token/", "/registrations/[redacted]"],
    ["/%72egistrations/secret-token", "/registrations/[redacted]"],
    ["//registrations//secret-token", "/registrations/[redacted]"],
    ["/unsubscribe/12.digest.secret", "/unsubscribe/[redacted]"],
    ["/%75nsubscribe/12.digest.secret", "/unsubscribe/[redacted]"],
    ["/library-feed/secret-token.xml", "/library-feed/[redacted].xml"],
    ["/Library-Feed/secret-token.xml/", "/library-feed/[redacted].xml"],
  ])("%s is logged as %s", (path, logged) => {
    expect(loggedPath(path)).toBe(logged);
    expect(loggedPath(path)).not.toContain("secret");
  });

  it.each([
    "/",
    "/calendar",
    "/events.ics",
    "/events/harbour-day.ics",
    "/api/dashboard/news/7",
    "/news/%E2%82%AC-prices",
    "/search/%2F",
    "/registrations",
    "/api/dashboard/meeting/7/registrations/12",
  ])("logs %s as it came", (path) => {
    expect(loggedPath(path)).toBe(path);
  });
});

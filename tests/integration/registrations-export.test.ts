import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meetingInputSchema } from "../../core/meetings/meetings.schema";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * Issue 30 point 10: a meeting's registrations export is named after the meeting, not
 * `join-requests.csv` for every meeting, with a Content-Disposition built by
 * lib/content-disposition.ts (ASCII fallback and UTF-8 name, nothing that breaks the header).
 */
let t: TestContext;
let admin: string;

beforeAll(async () => {
  t = await createTestContext();
  admin = (await signIn(t.runtime.services, "admin")).token;
});
afterAll(async () => t.close());

const exportOf = (query: string) => call(t.app, "GET", `/api/dashboard/join-requests/export${query}`, { token: admin });

describe("the registrations export's file name (issue 30 point 10)", () => {
  it("names one meeting's registrations after its slug", async () => {
    const meeting = await t.runtime.services.meetingsAdmin.create(
      meetingInputSchema.parse({ title: "Réunion radar: été 2030", type: "meeting", start_date: "2030-07-01" }),
    );
    expect(meeting.slug).toMatch(/^[a-z0-9-]+$/);
    const res = await exportOf(`?kind=registration&meeting=${meeting.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${meeting.slug}-registrations.csv"; filename*=UTF-8''${meeting.slug}-registrations.csv`,
    );
    const other = await t.runtime.services.meetingsAdmin.create(
      meetingInputSchema.parse({ title: "Radar working group", type: "meeting", start_date: "2030-08-01" }),
    );
    const second = await exportOf(`?kind=registration&meeting=${other.id}`);
    expect(second.headers.get("content-disposition")).toContain(`filename="${other.slug}-registrations.csv"`);
    expect(other.slug).not.toBe(meeting.slug);
  });

  it("keeps join-requests.csv for the inbox's export, and names a meeting that is gone by its number", async () => {
    expect((await exportOf("")).headers.get("content-disposition")).toBe(
      `attachment; filename="join-requests.csv"; filename*=UTF-8''join-requests.csv`,
    );
    const gone = await exportOf("?kind=registration&meeting=987654");
    expect(gone.status).toBe(200);
    expect(gone.headers.get("content-disposition")).toContain('filename="meeting-987654-registrations.csv"');
  });
});

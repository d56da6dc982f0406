import { afterAll, beforeAll, expect, it } from "vitest";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { pagesApp, pageText } from "../support/pages";

/**
 * A meeting's page as visitors get it, through the page cache (issue 32, decision 0052): the form is
 * a registration for the meeting, with the places left, and a registration changes the page at once.
 */
let t: TestContext;
let pages: TestContext["app"];
let closePages: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext({ JOIN_RATE_LIMIT: "1000" });
  ({ pages, close: closePages } = await pagesApp(t));
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

const text = async (path: string) => {
  const answer = await call(pages, "GET", `${ORIGIN}${path}`);
  expect(answer.status, path).toBe(200);
  return pageText(answer.text);
};

it("a meeting's page registers for it, says the places left, and is never stale after a registration", async () => {
  const stamp = new Date().toISOString();
  const meeting = await t.database.db
    .insertInto("meetings")
    .values({
      slug: "radar-workshop",
      title: "Radar Workshop",
      type: "workshop",
      start_date: "2099-03-01",
      capacity: 2,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const path = "/events/radar-workshop";
  const first = await text(path);
  expect(first).toContain("Register for Radar Workshop");
  expect(first).not.toContain("Join the community");
  expect(first).toContain("2 places left");
  // Cached now: the same bytes until something changes.
  expect(await text(path)).toContain("2 places left");

  const register = (email: string) =>
    call(pages, "POST", "/api/join", {
      json: {
        company_name: "Lagoon Coast",
        representative_name: "Ada Nwosu",
        email,
        phone_number: "+234803555014",
        page_path: path,
      },
    });
  expect((await register("ada@lagoon.example")).status).toBe(200);
  expect(await text(path)).toContain("1 place left");
  expect((await register("bo@lagoon.example")).status).toBe(200);
  expect(await text(path)).toContain("Full: join the waiting list");
  expect((await register("cy@lagoon.example")).json).toEqual({
    status: "success",
    registration: { status: "waitlisted" },
  });

  // Elsewhere the form stays the join form.
  expect(await text("/join")).toContain("Join the community");
  expect(await text("/")).toContain("Join the community");
  await t.database.db.deleteFrom("join_requests").where("meeting_id", "=", meeting.id).execute();
});

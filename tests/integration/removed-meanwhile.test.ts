import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANGED_MEANWHILE } from "../../lib/errors";
import { apiRouter, declare } from "../../server/api/contract";
import { access, ok } from "../../server/api/http";
import type { Runtime } from "../../server/env";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * A write whose target someone else removed at the same moment, between the service's checks and
 * its write (a group deleted while a meeting naming it is saved). Two requests cannot be made to
 * meet in that moment on purpose, so a route of the test's own makes the write the service would
 * then make: the meeting's row for a group that is gone. The database refuses it (a foreign key,
 * on the dialect of the run); the answer says what happened and what to do, never a 500, and the
 * write's transaction leaves nothing behind.
 */
const RACE_PATH = "/test/group-gone";

function raceRoutes(runtime: Runtime) {
  const api = apiRouter();
  declare(
    api,
    {
      method: "post",
      path: RACE_PATH,
      access: access.admin,
      tag: "Test",
      summary: "A meeting saved for a group deleted meanwhile (test only)",
      body: { schema: z.object({ meeting_id: z.number().int(), group_id: z.number().int() }) },
      response: { schema: z.object({}).passthrough() },
    },
    async (c, { body }) => {
      await runtime.database.db.transaction().execute(async (trx) => {
        await trx
          .updateTable("meetings")
          .set({ title: "Renamed in the failed save" })
          .where("id", "=", body.meeting_id)
          .execute();
        await trx.insertInto("meeting_groups").values(body).execute();
      });
      return ok(c, {});
    },
  );
  return [api];
}

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({}, { extraApi: raceRoutes });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("a row removed at the same moment", () => {
  it("answers 409 with what to do, and nothing of the write is kept", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const made = await call(t.app, "POST", "/api/dashboard/meeting", {
      token: admin.token,
      json: { title: "Plenary", type: "meeting", start_date: "2099-03-01" },
    });
    expect(made.status, made.text).toBe(201);
    const meeting = (made.json as { event: { id: number } }).event;
    const gone = 987_654;
    const answer = await call(t.app, "POST", `/api${RACE_PATH}`, {
      token: admin.token,
      json: { meeting_id: meeting.id, group_id: gone },
    });
    expect(answer.status, answer.text).toBe(409);
    expect(answer.json).toEqual({ status: "error", message: CHANGED_MEANWHILE, errors: {} });
    const row = await t.database.db
      .selectFrom("meetings")
      .select("title")
      .where("id", "=", meeting.id)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe("Plenary");
    expect(await t.database.db.selectFrom("meeting_groups").selectAll().execute()).toEqual([]);
  });
});

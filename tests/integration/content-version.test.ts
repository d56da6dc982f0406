import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContentVersionRepository } from "../../core/content-version/content-version.repository";
import {
  type ContentVersionService,
  createContentVersionService,
} from "../../core/content-version/content-version.service";
import type { DatabaseHandle } from "../../db/connect";
import { createTestDatabase, reopen, type TestDatabase } from "../support/database";

/**
 * Two processes of one site, each with its own connection to the database, as
 * two app processes have (decision 0031). The poll is switched off (an hour):
 * what one process changes must reach the other by itself, at once — on SQLite
 * by the synchronous read, on PostgreSQL by LISTEN/NOTIFY, the change waiting
 * until every listening process has said it heard it.
 */
const NO_POLL_MS = 3_600_000;
const HEARD_MS = 10_000;

let database: TestDatabase;
let other: DatabaseHandle;
let here: ContentVersionService;
let there: ContentVersionService;

const service = (handle: DatabaseHandle) =>
  createContentVersionService({
    repository: createContentVersionRepository(handle.db, {
      sqlite: handle.sqlite,
      notifications: handle.notifications,
    }),
    pollMs: NO_POLL_MS,
    // Both listeners are alive here: the change waits for their word, however busy the machine (500 ms in the app).
    heardMs: HEARD_MS,
  });

/** Turns of the event loop until `known()` shows `version`, for at most `ms`. */
async function heard(version: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (here.known() !== version) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return true;
}

beforeAll(async () => {
  database = await createTestDatabase();
  other = reopen(database);
  here = service(database);
  there = service(other);
  here.known(); // starts listening where the dialect pushes
  // Listening is under way once a change is heard (the first read may race the LISTEN itself).
  const deadline = Date.now() + 10_000;
  for (;;) {
    await there.changed();
    if (await heard(await there.current(), 200)) break;
    if (Date.now() > deadline) throw new Error("the other connection's changes are never heard");
  }
});

afterAll(async () => {
  await here?.stop();
  await there?.stop();
  await other?.destroy();
  await database?.cleanup();
});

describe("the content version across processes", () => {
  it("has told every other process of a change by the time the change returns, without polling", async () => {
    for (let i = 0; i < 20; i++) {
      const before = here.known();
      await there.changed();
      // A request comes in a turn of the event loop of its own (SQLite reads once per turn); no other wait,
      // and an hour's poll cannot have run: the change reached this process first.
      await new Promise((resolve) => setImmediate(resolve));
      expect(here.known()).toBe((before ?? 0) + 1);
      expect(await there.current()).toBe((before ?? 0) + 1);
    }
  });

  it("counts changes made at once in several processes, none lost", async () => {
    const start = await here.current();
    await Promise.all([here.changed(), there.changed(), here.changed(), there.changed()]);
    expect(await heard(start + 4, 1_000)).toBe(true);
    expect(await there.current()).toBe(start + 4);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSettingsRepository } from "../../core/settings/settings.repository";
import { createSettingsService } from "../../core/settings/settings.service";
import { createTestDatabase, type TestDatabase } from "../support/database";

/**
 * The settings kept in memory (decision 0069): read again once the content version moves (any
 * process's admin change), once this process writes one, and without a version to go by; kept
 * otherwise. A real database; the version is the test's to move.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.destroy());

/** A change made outside this service (another process, a CLI), with no sign given. */
const writeBehindItsBack = (value: string) =>
  database.db
    .insertInto("settings")
    .values({ key: "site.name", value, updated_at: new Date().toISOString() })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();

describe("the site's settings", () => {
  it("are kept while the content version stays, and read again when it moves", async () => {
    let version: number | null = 1;
    const settings = createSettingsService({
      repository: createSettingsRepository(database.db),
      clock: () => new Date(),
      version: () => version,
    });
    await writeBehindItsBack("Before");
    expect((await settings.getAll())["site.name"]).toBe("Before");
    await writeBehindItsBack("After");
    expect((await settings.getAll())["site.name"]).toBe("Before");
    version = 2;
    expect((await settings.getAll())["site.name"]).toBe("After");
    // No version known (not yet heard on PostgreSQL): nothing is kept.
    version = null;
    await writeBehindItsBack("Unkept");
    expect((await settings.getAll())["site.name"]).toBe("Unkept");
  });

  it("are read again after this process writes one, and a caller's copy changes nothing kept", async () => {
    const settings = createSettingsService({
      repository: createSettingsRepository(database.db),
      clock: () => new Date(),
      version: () => 7,
    });
    const first = await settings.getAll();
    first["site.name"] = "Changed by a caller";
    expect((await settings.getAll())["site.name"]).not.toBe("Changed by a caller");
    await settings.set({ "site.name": "Written here" });
    expect((await settings.getAll())["site.name"]).toBe("Written here");
  });
});

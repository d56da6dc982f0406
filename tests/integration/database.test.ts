import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledOnce } from "../../db/compiled-once";
import { openSqlite } from "../../db/connect";
import { notWaitedFor } from "../../db/group-commit";
import { migrations } from "../../db/migrations";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser } from "../support/factories";
import { ownTables } from "../support/migrations";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ ADMIN_EMAIL: "first.admin@example.org", ADMIN_PASSWORD: "first-admin-password" });
});
afterAll(async () => t.close());

const TABLES = [
  "users",
  "sessions",
  "one_time_tokens",
  "rate_limits",
  "settings",
  "pages",
  "paper_categories",
  "papers",
  "meetings",
  "meeting_images",
  "schedules",
  "sponsors",
  "news_posts",
  "join_requests",
  "member_companies",
  "search_documents",
];

describe("schema", () => {
  it("has a table for every entity", async () => {
    const tables = (await ownTables(t.database.db)).map((table) => table.name);
    for (const table of TABLES) expect(tables).toContain(table);
  });

  it("keeps e-mails unique regardless of case, in the database itself", async () => {
    await createUser(t.runtime.services, { email: "Unique@Example.org" });
    await expect(createUser(t.runtime.services, { email: "unique@example.ORG" })).rejects.toMatchObject({
      code: "conflict",
    });
    const now = new Date().toISOString();
    await expect(
      t.database.db
        .insertInto("users")
        .values({
          first_name: "X",
          last_name: "Y",
          email: "UNIQUE@example.org",
          role: "member",
          is_active: 1,
          created_at: now,
          updated_at: now,
        })
        .execute(),
    ).rejects.toThrow();
  });

  it("orders and filters ISO timestamps the same way on both dialects", async () => {
    const rows = [
      ["2025-12-31T23:30:00.000Z", "december"],
      ["2026-01-01T00:15:00.000Z", "january"],
      ["2025-11-30T12:00:00.000Z", "november"],
    ];
    for (const [at, slug] of rows) {
      await t.database.db
        .insertInto("news_posts")
        .values({
          slug,
          title: slug,
          content: "<p>x</p>",
          excerpt: "x",
          published_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const ordered = await t.database.db
      .selectFrom("news_posts")
      .select("slug")
      .orderBy("published_at", "desc")
      .execute();
    expect(ordered.map((r) => r.slug)).toEqual(["january", "december", "november"]);
    const december = await t.database.db
      .selectFrom("news_posts")
      .select("slug")
      .where("published_at", ">=", "2025-12-01")
      .where("published_at", "<", "2026-01-01")
      .execute();
    expect(december.map((r) => r.slug)).toEqual(["december"]);
  });

  it("finds search documents by full text on the dialect's own engine", async () => {
    await t.database.db
      .insertInto("search_documents")
      .values([
        {
          kind: "page",
          ref_id: "/s-421",
          url: "/s-421",
          title: "S-421 route exchange",
          body: "Route plans exchanged between ships",
          updated_at: "2026-01-01",
        },
        {
          kind: "page",
          ref_id: "/secom",
          url: "/secom",
          title: "SECOM",
          body: "Secure communication for maritime services",
          updated_at: "2026-01-01",
        },
      ])
      .execute();
    const found =
      t.database.dialect === "postgres"
        ? await sql<{
            url: string;
          }>`select url from search_documents where tsv @@ websearch_to_tsquery('english', 'routes')`.execute(
            t.database.db,
          )
        : await sql<{
            url: string;
          }>`select d.url from search_fts f join search_documents d on d.id = f.rowid where search_fts match 'routes'`.execute(
            t.database.db,
          );
    expect(found.rows.map((r) => r.url)).toEqual(["/s-421"]);
  });

  it("migrations are listed in order and each can be rolled back", async () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    for (const name of names) expect(typeof migrations[name].down).toBe("function");
  });
});

describe("SQLite's durability (decisions 0036, 0061)", () => {
  it("commits with synchronous = NORMAL in WAL mode, on every connection openSqlite makes", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-pragmas-"));
    const handle = openSqlite(path.join(dir, "site.db"));
    // On the SQLite run, the app's own connection too.
    for (const sqlite of [handle.sqlite, t.database.sqlite].filter((s) => s !== undefined)) {
      // 1 is NORMAL (0 OFF, 2 FULL, 3 EXTRA): the driver flushes, off the event loop (group commit).
      expect(sqlite.pragma("synchronous", { simple: true })).toBe(1);
      expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    }
    await handle.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("flushes the WAL before a write's caller goes on, once for the commits made meanwhile, never for reads", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-group-commit-"));
    const handle = openSqlite(path.join(dir, "site.db"));
    const commits = handle.commits;
    if (!commits) throw new Error("openSqlite gives its group commit");
    const { db } = handle;
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    const flushes = commits.flushes();
    expect(flushes).toBeGreaterThan(0);

    // A write outside a transaction is its own commit: flushed before the await ends.
    await sql`insert into notes (body) values ('one')`.execute(db);
    expect(commits.flushes()).toBe(flushes + 1);
    // A read, and a transaction that only reads, wait for nothing.
    await sql`select count(*) from notes`.execute(db);
    await db.transaction().execute((trx) => sql`select body from notes`.execute(trx));
    expect(commits.flushes()).toBe(flushes + 1);
    // A transaction that wrote is flushed once, at its end.
    await db.transaction().execute(async (trx) => {
      await sql`insert into notes (body) values ('two')`.execute(trx);
      await sql`insert into notes (body) values ('three')`.execute(trx);
    });
    expect(commits.flushes()).toBe(flushes + 2);
    // A write marked as not waited for (a counter) does not wait; the next flush covers it.
    await sql`update notes set body = 'one, again' where id = 1 ${notWaitedFor}`.execute(db);
    expect(commits.flushes()).toBe(flushes + 2);

    // Twenty writers at once: each goes on only once its commit is flushed, and they share flushes.
    const before = commits.flushes();
    const onDiskWhenAnswered = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await sql`insert into notes (body) values (${`many ${i}`})`.execute(db);
        return commits.flushes() > before;
      }),
    );
    expect(onDiskWhenAnswered.every(Boolean)).toBe(true);
    expect(commits.flushes() - before).toBeLessThan(20);
    const rows = await sql<{ n: number }>`select count(*) as n from notes`.execute(db);
    expect(Number(rows.rows[0]?.n)).toBe(23);

    await handle.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("a query compiled once (db/compiled-once.ts)", () => {
  it("runs with each call's values on the dialect, and refuses a value that is not a parameter", async () => {
    const db = t.database.db;
    const emails = ["once.a@example.org", "once.b@example.org"];
    for (const email of emails) await createUser(t.runtime.services, { email });
    let builds = 0;
    const byEmail = compiledOnce((email, role) => {
      builds += 1;
      return db
        .selectFrom("users")
        .select(["email", "role"])
        .where("email", "=", email)
        .where("role", "=", role as "member")
        .where("is_active", "=", 1);
    }, 2);
    for (const email of emails) {
      const { rows } = await db.executeQuery(byEmail(email, "member"));
      expect(rows).toEqual([{ email, role: "member" }]);
    }
    expect((await db.executeQuery(byEmail(emails[0], "admin"))).rows).toEqual([]);
    expect(builds).toBe(1);

    // A value written into the SQL text instead of passed as a parameter would be compiled in for good.
    const inlined = compiledOnce(
      (email) =>
        db
          .selectFrom("users")
          .select("id")
          .where(sql.raw<boolean>(`email = '${email}'`)),
      1,
    );
    expect(() => inlined("x")).toThrow(/exactly once, as a parameter/);
  });
});

describe("first admin from ADMIN_EMAIL / ADMIN_PASSWORD", () => {
  it("is created when missing and can sign in; a second start does not duplicate it", async () => {
    const { config, services } = t.runtime;
    expect(await services.accounts.ensureAdmin(config.admin as { email: string; password: string })).toBe("created");
    expect(await services.accounts.ensureAdmin(config.admin as { email: string; password: string })).toBe("exists");
    const res = await call(t.app, "POST", "/api/login", {
      json: { email: "first.admin@example.org", password: "first-admin-password" },
    });
    expect(res.json?.user).toMatchObject({ role: { name: "admin" } });
  });
});

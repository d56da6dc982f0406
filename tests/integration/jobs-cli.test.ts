import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createJobsRepository } from "../../core/jobs/jobs.repository";
import type { CompanyCreate } from "../../core/members/members.schema";
import { addDays } from "../../core/members/members.values";
import { dateIn } from "../../lib/time-zones";
import { createTestContext, type TestContext } from "../support/app";
import { createUser } from "../support/factories";
import { filesUnder } from "../support/tmpfs";

/**
 * `npm run jobs -- list | run NAME` (decision 0045) as an operator runs it, with the server's
 * variables (DATABASE_URL, DATA_DIR), against this run's database: SQLite or PostgreSQL.
 */
let t: TestContext;
const postgresUrl = inject("postgresUrl");

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

function databaseUrl(): string {
  if (!postgresUrl) return `sqlite:${t.database.location}`;
  const schema = /schema (\S+)\)$/.exec(t.database.location)?.[1] ?? "";
  return `${postgresUrl}${postgresUrl.includes("?") ? "&" : "?"}options=-c%20search_path%3D${schema}`;
}

function jobs(args: string[]) {
  // Vite puts BASE_URL=/ into the test process's environment; a real shell has none.
  const { TEST_DATABASE_URL, DATABASE_URL, BASE_URL, ...base } = process.env;
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/jobs.ts", ...args], {
    env: { ...base, DATA_DIR: t.dataDir, DATABASE_URL: databaseUrl(), LOG_LEVEL: "silent" },
    encoding: "utf8",
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe("npm run jobs", () => {
  it("lists the jobs, runs one now and shows that run; an unknown name is exit 2 with the names", async () => {
    const before = jobs(["list"]);
    expect(before.err).toBe("");
    expect(before.code).toBe(0);
    expect(before.out).toContain("uploads-sweep  40 3 * * *  (Europe/London)");
    expect(before.out).toContain("membership-renewals  0 7 * * *  (Europe/London)");
    expect(before.out).toContain("last run: never");
    expect(before.out).toMatch(/next run: \d{4}-\d\d-\d\d 03:40:00 \+0[01]:00/);

    const uploads = t.runtime.config.uploadsDir;
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.mkdirSync(path.join(uploads, "news"), { recursive: true });
    fs.writeFileSync(path.join(uploads, "news/5e5e5e5e5e5e5e5e-960.webp"), "x");
    fs.utimesSync(path.join(uploads, "news/5e5e5e5e5e5e5e5e-960.webp"), old, old);

    const run = jobs(["run", "uploads-sweep"]);
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    expect(run.out.trim()).toBe("uploads-sweep: 1 files checked; 1 removed; 0 unreferenced but too recent to remove.");
    expect(filesUnder(uploads)).toEqual([]);
    // The run is in the database the server reads, logged as started by hand.
    const [logged] = await createJobsRepository(t.database.db).runs("uploads-sweep", 5);
    expect(logged).toMatchObject({ due_at: null, outcome: "ok", summary: expect.stringContaining("1 removed") });

    const after = jobs(["list"]);
    expect(after.code).toBe(0);
    expect(after.out).toMatch(
      /last run: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0[01]:00 \(started by hand\), ok: 1 files checked; 1 removed;/,
    );

    const unknown = jobs(["run", "nightly-digest"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe(
      "There is no job named nightly-digest. The jobs are:\n  uploads-sweep\n  audit-retention\n  retention\n  membership-renewals\n  meeting-reminders\n  notices\n  digest-daily\n  digest-weekly\n",
    );
    expect(unknown.out).toBe("");

    const wrong = jobs(["start"]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain("Usage:");
  }, 120_000); // six processes, each loading the CLI with tsx: seconds apiece on a busy machine

  it("runs audit-retention against the database: rows past the retention go, the others stay", async () => {
    const row = (created_at: string, summary: string) => ({
      created_at,
      actor_id: null,
      actor_name: "Retention test",
      ip: null,
      action: "update",
      entity: "site",
      entity_id: null,
      summary,
      changes: null,
    });
    const old = new Date(Date.now() - 800 * 86_400_000).toISOString();
    await t.database.db
      .insertInto("audit_log")
      .values([row(old, "Retention: too old"), row(new Date().toISOString(), "Retention: recent")])
      .execute();
    const run = jobs(["run", "audit-retention"]);
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    expect(run.out.trim()).toBe("audit-retention: 1 audit row past the retention removed.");
    const left = await t.database.db
      .selectFrom("audit_log")
      .select("summary")
      .where("actor_name", "=", "Retention test")
      .execute();
    expect(left.map((r) => r.summary)).toEqual(["Retention: recent"]);
    const [logged] = await createJobsRepository(t.database.db).runs("audit-retention", 5);
    expect(logged).toMatchObject({ due_at: null, outcome: "ok", summary: "1 audit row past the retention removed." });
  }, 60_000);

  it("runs membership-renewals against the database: one reminder queued and sent, none the second time", async () => {
    const { services } = t.runtime;
    // Dates in the site's zone, as the job reads them (the process runs on the real clock).
    const today = dateIn(new Date(), "Europe/London");
    const company = await services.members.create({
      name: "Skagerrak Gyro AS",
      country: "NO",
      member_since: "2020-01-01",
      renews_on: addDays(today, 10),
    } as CompanyCreate);
    const { user } = await createUser(services, { first_name: "Sigrid" });
    await t.database.db
      .insertInto("company_representatives")
      .values({ user_id: user.id, company_id: company.id, is_primary: 1, created_at: new Date().toISOString() })
      .execute();

    const first = jobs(["run", "membership-renewals"]);
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    expect(first.out.trim()).toBe(
      "membership-renewals: 1 renewal reminder (1 mail), 0 lapse notices (0 mails) queued.",
    );
    // Queued in the database and sent by the process before it exited (no SMTP_URL: the outbox).
    const mail = await t.database.db
      .selectFrom("mail_queue")
      .select(["status", "subject", "body_text"])
      .where("to_address", "=", user.email)
      .executeTakeFirstOrThrow();
    expect(mail.status).toBe("sent");
    expect(mail.subject).toContain("Skagerrak Gyro AS: your Masthead membership is due for renewal on");
    // The links are absolute, from BASE_URL (the CLI's default without one: http://localhost:PORT).
    expect(mail.body_text).toMatch(/through http:\/\/localhost:\d+\/message\./);
    const outbox = fs
      .readdirSync(path.join(t.dataDir, "outbox"))
      .map((file) => fs.readFileSync(path.join(t.dataDir, "outbox", file), "utf8"));
    expect(outbox.filter((eml) => eml.includes("Skagerrak Gyro AS"))).toHaveLength(1);

    const second = jobs(["run", "membership-renewals"]);
    expect(second.code).toBe(0);
    expect(second.out.trim()).toBe(
      "membership-renewals: 0 renewal reminders (0 mails), 0 lapse notices (0 mails) queued.",
    );
    const [logged] = await createJobsRepository(t.database.db).runs("membership-renewals", 1);
    expect(logged).toMatchObject({
      due_at: null,
      outcome: "ok",
      summary: expect.stringContaining("0 renewal reminders"),
    });
  }, 120_000);

  it("refuses to run a job another process is running, and says which", async () => {
    const repository = createJobsRepository(t.database.db);
    const now = new Date();
    const until = new Date(now.getTime() + 60_000).toISOString();
    expect(await repository.claimManual("uploads-sweep", now.toISOString(), until, "web-1:4242:abc")).toBe(true);
    try {
      const busy = jobs(["run", "uploads-sweep"]);
      expect(busy.code).toBe(1);
      expect(busy.err).toContain("uploads-sweep is running in another process (web-1:4242:abc, lease until");
      expect(jobs(["list"]).out).toContain("running now in web-1:4242:abc");
    } finally {
      await repository.release("uploads-sweep", "web-1:4242:abc");
    }
  }, 60_000);
});

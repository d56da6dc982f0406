import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createJobsRepository } from "../../core/jobs/jobs.repository";
import { createJobRunner, type JobRunner } from "../../core/jobs/jobs.service";
import { SITE_JOBS } from "../../core/jobs/site-jobs";
import { ERASED_EMAIL, ERASED_NAME } from "../../core/privacy/anonymise.repository";
import { createLogger } from "../../lib/logger";
import { createTestContext, type TestContext } from "../support/app";
import { createUser } from "../support/factories";

/**
 * The `retention` job (issue 35, decision 0078) on a real database, SQLite or PostgreSQL, run by
 * the job runner on a moved clock: requests past privacy.retention_months are erased (handled
 * ones, unhandled ones by their arrival, registrations by their meeting's end), recent ones kept;
 * sent mail and the outbox's files older than 90 days removed; expired sessions, tokens, links,
 * limits and challenges removed; a second run finds nothing. And once through `npm run jobs`.
 */
let t: TestContext;
/** The services' and the runner's clock, moved by the tests. */
let now = new Date("2026-01-10T10:00:00.000Z");
const clock = () => new Date(now);
const runners: JobRunner[] = [];

beforeAll(async () => {
  t = await createTestContext({}, { clock });
});
afterAll(async () => {
  for (const runner of runners) await runner.stop();
  await t?.close();
});

const db = () => t.database.db;

async function meeting(slug: string, start_date: string, end_date: string | null) {
  const row = await db()
    .insertInto("meetings")
    .values({
      slug,
      title: `Meeting ${slug}`,
      type: "meeting",
      start_date,
      end_date,
      timezone: "Europe/Oslo",
      created_at: "2025-06-01T00:00:00.000Z",
      updated_at: "2025-06-01T00:00:00.000Z",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function request(row: {
  kind: "join" | "registration" | "message";
  email: string;
  created_at: string;
  handled_at?: string | null;
  meeting_id?: number | null;
}) {
  const registration = row.kind === "registration";
  const inserted = await db()
    .insertInto("join_requests")
    .values({
      kind: row.kind,
      meeting_id: row.meeting_id ?? null,
      company_name: row.kind === "message" ? null : "Hardanger Radar AS",
      representative_name: `Person ${row.email}`,
      email: row.email,
      phone_number: "+47 55 00 00 00",
      page_path: registration ? "/events/x" : "/join",
      ip: "198.51.100.7",
      created_at: row.created_at,
      handled_at: row.handled_at ?? null,
      subject: row.kind === "message" ? "A question" : null,
      message: row.kind === "message" ? "Please call me on my private number." : null,
      note: registration ? "Vegetarian" : null,
      status: row.kind === "join" ? "new" : null,
      registration_status: registration ? "confirmed" : null,
      registration_email: registration ? row.email : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // Each request had a mail to its person (an acknowledgement), sent when it arrived.
  await db()
    .insertInto("mail_queue")
    .values({
      join_request_id: inserted.id,
      purpose: "acknowledgement",
      to_address: row.email,
      reply_to: null,
      subject: "We have your request",
      body_text: `Dear Person ${row.email}`,
      status: "pending",
      attempts: 0,
      next_attempt_at: "2099-01-01T00:00:00.000Z",
      created_at: row.created_at,
    })
    .execute();
  return inserted.id;
}

async function mail(status: "sent" | "failed" | "pending", created_at: string, sent_at: string | null) {
  const row = await db()
    .insertInto("mail_queue")
    .values({
      join_request_id: null,
      purpose: "notification",
      to_address: "member@example.org",
      reply_to: null,
      subject: `A ${status} mail of ${created_at}`,
      body_text: "Text",
      status,
      attempts: status === "pending" ? 0 : 1,
      // Pending mail waits (a paced announcement): the test's own sender must not take it.
      next_attempt_at: status === "pending" ? "2099-01-01T00:00:00.000Z" : created_at,
      sent_at,
      created_at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

const person = (id: number) =>
  db()
    .selectFrom("join_requests")
    .select(["representative_name", "email", "phone_number", "note", "message", "ip", "anonymised_at", "kind"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

const mailsOf = async (id: number) =>
  (await db().selectFrom("mail_queue").select("id").where("join_request_id", "=", id).execute()).length;

const ids = async (table: "sessions" | "one_time_tokens" | "two_factor_challenges" | "registration_links") =>
  (await db().selectFrom(table).select("id").orderBy("id").execute()).map((r) => r.id);

function outboxFile(name: string, mtime: Date) {
  const dir = t.runtime.config.outboxDir;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, "From: x\n\nA mail\n");
  fs.utimesSync(file, mtime, mtime);
}

const daysBefore = (date: Date, days: number) => new Date(date.getTime() - days * 86_400_000);

describe("the retention job", () => {
  it("erases old requests, removes old mail and what expired, keeps the rest, and finds nothing the second time", async () => {
    const services = t.runtime.services;
    expect((await services.settings.getAll())["privacy.retention_months"]).toBe("24");

    // What is there on 10 January 2026 and after.
    const ended = await meeting("ended-2026", "2026-01-20", "2026-01-22");
    const later = await meeting("march-2026", "2026-03-01", null);
    const handledOld = await request({
      kind: "join",
      email: "old.applicant@example.org",
      created_at: "2026-01-10T10:00:00.000Z",
      handled_at: "2026-01-12T09:00:00.000Z",
    });
    // Never handled: past its purpose once it is as old as the retention (decision 0078).
    const unhandledOld = await request({
      kind: "message",
      email: "old.sender@example.org",
      created_at: "2025-12-01T10:00:00.000Z",
    });
    // Arrived long ago but handled recently: kept for 24 months after it was handled.
    const handledLate = await request({
      kind: "join",
      email: "slow.case@example.org",
      created_at: "2025-11-01T10:00:00.000Z",
      handled_at: "2026-06-01T10:00:00.000Z",
    });
    const registrationOld = await request({
      kind: "registration",
      email: "old.registrant@example.org",
      created_at: "2025-12-15T10:00:00.000Z",
      meeting_id: ended,
    });
    // Registered as early as the one above, but its meeting ended later: kept by the meeting's date.
    const registrationLater = await request({
      kind: "registration",
      email: "march.registrant@example.org",
      created_at: "2025-11-20T10:00:00.000Z",
      handled_at: "2025-11-21T10:00:00.000Z",
      meeting_id: later,
    });
    const recent = await request({
      kind: "join",
      email: "recent.applicant@example.org",
      created_at: "2027-10-01T10:00:00.000Z",
      handled_at: "2027-10-02T10:00:00.000Z",
    });

    // The run is on 1 February 2028, 04:00 in London (UTC in winter): 24 months back is 1 February 2026.
    const runAt = new Date("2028-02-01T04:00:30.000Z");
    const oldSent = await mail("sent", "2027-10-01T08:00:00.000Z", "2027-10-01T08:00:05.000Z");
    const oldFailed = await mail("failed", "2027-09-01T08:00:00.000Z", null);
    const recentSent = await mail("sent", "2028-01-15T08:00:00.000Z", "2028-01-15T08:00:05.000Z");
    const oldPending = await mail("pending", "2027-09-01T08:00:00.000Z", null);
    outboxFile("old.eml", daysBefore(runAt, 91));
    outboxFile("recent.eml", daysBefore(runAt, 10));
    outboxFile("notes.txt", daysBefore(runAt, 400));

    const { user } = await createUser(services);
    const session = (expires_at: string) =>
      db()
        .insertInto("sessions")
        .values({
          user_id: user.id,
          token_hash: `s-${expires_at}`,
          remember: 0,
          expires_at,
          created_at: "2028-01-01T00:00:00.000Z",
        })
        .returning("id")
        .executeTakeFirstOrThrow();
    await session("2028-01-31T00:00:00.000Z");
    const liveSession = await session("2028-02-10T00:00:00.000Z");
    const token = (name: string, expires_at: string, used_at: string | null) =>
      db()
        .insertInto("one_time_tokens")
        .values({
          user_id: user.id,
          kind: "password_reset",
          token_hash: name,
          expires_at,
          used_at,
          created_at: "2028-01-01T00:00:00.000Z",
        })
        .returning("id")
        .executeTakeFirstOrThrow();
    await token("expired", "2028-01-31T00:00:00.000Z", null);
    await token("used-long-ago", "2028-03-01T00:00:00.000Z", "2028-01-20T00:00:00.000Z");
    const liveToken = await token("live", "2028-02-02T00:00:00.000Z", null);
    const challenge = (name: string, expires_at: string) =>
      db()
        .insertInto("two_factor_challenges")
        .values({
          token_hash: name,
          user_id: user.id,
          remember: 0,
          expires_at,
          used_at: null,
          created_at: "2028-01-01T00:00:00.000Z",
        })
        .returning("id")
        .executeTakeFirstOrThrow();
    await challenge("expired", "2028-02-01T03:00:00.000Z");
    const liveChallenge = await challenge("live", "2028-02-01T04:05:00.000Z");
    const link = (name: string, expires_at: string) =>
      db()
        .insertInto("registration_links")
        .values({ join_request_id: recent, token_hash: name, expires_at, created_at: "2027-10-01T10:00:00.000Z" })
        .returning("id")
        .executeTakeFirstOrThrow();
    await link("expired", "2028-01-01T00:00:00.000Z");
    const liveLink = await link("live", "2028-06-01T00:00:00.000Z");
    await db()
      .insertInto("rate_limits")
      .values([
        { key: "login:past", count: 3, reset_at: "2028-02-01T03:00:00.000Z" },
        { key: "login:live", count: 1, reset_at: "2028-02-01T05:00:00.000Z" },
      ])
      .execute();
    await db()
      .insertInto("spent_challenges")
      .values([
        { signature_hash: "past", expires_at: "2028-02-01T03:50:00.000Z" },
        { signature_hash: "live", expires_at: "2028-02-01T04:10:00.000Z" },
      ])
      .execute();
    await db()
      .insertInto("mail_bounces")
      .values([
        {
          address: "gone.long.ago@example.org",
          reason: "550 No such user",
          mail_id: null,
          created_at: "2025-12-01T00:00:00.000Z",
        },
        {
          address: "gone@example.org",
          reason: "550 No such user",
          mail_id: null,
          created_at: "2027-12-01T00:00:00.000Z",
        },
      ])
      .execute();

    // The runner starts the evening before: the day's 04:00 comes due while it runs.
    now = new Date("2028-01-31T22:00:00.000Z");
    const runner = createJobRunner({
      db: db(),
      services,
      jobs: SITE_JOBS.filter((job) => job.name === "retention"),
      origin: t.runtime.config.baseUrl.origin,
      logger: createLogger("silent"),
      clock,
    });
    runners.push(runner);
    expect((await runner.list())[0]).toMatchObject({ name: "retention", schedule: "0 4 * * *" });
    expect(await runner.runDue("retention")).toMatchObject({ kind: "taken" });

    now = runAt;
    const first = await runner.runDue("retention");
    expect(first.kind).toBe("ran");
    if (first.kind !== "ran") return;
    expect(first.result).toMatchObject({ outcome: "ok", due: "2028-02-01T04:00:00.000Z" });
    expect(first.result.summary).toBe(
      "3 requests erased (older than 24 months); 2 sent mails and 1 outbox file older than 90 days removed; " +
        "removed when past their time: 1 session, 2 tokens, 1 two-factor step, 1 registration link, 1 rate limit, " +
        "1 spent challenge, 1 bounce mark.",
    );

    for (const id of [handledOld, unhandledOld, registrationOld]) {
      expect(await person(id)).toMatchObject({
        representative_name: ERASED_NAME,
        email: ERASED_EMAIL,
        phone_number: null,
        note: null,
        message: null,
        ip: null,
        anonymised_at: runAt.toISOString(),
      });
      expect(await mailsOf(id)).toBe(0);
    }
    for (const [id, email] of [
      [handledLate, "slow.case@example.org"],
      [registrationLater, "march.registrant@example.org"],
      [recent, "recent.applicant@example.org"],
    ] as const) {
      expect(await person(id)).toMatchObject({ email, representative_name: `Person ${email}`, anonymised_at: null });
      expect(await mailsOf(id)).toBe(1);
    }
    // The erased registration still counts: its kind, meeting and state stay.
    expect(
      await db()
        .selectFrom("join_requests")
        .select(["kind", "meeting_id", "registration_status"])
        .where("id", "=", registrationOld)
        .executeTakeFirstOrThrow(),
    ).toEqual({ kind: "registration", meeting_id: ended, registration_status: "confirmed" });

    const left = (await db().selectFrom("mail_queue").select("id").where("join_request_id", "is", null).execute()).map(
      (r) => r.id,
    );
    expect(left).toContain(recentSent);
    expect(left).toContain(oldPending);
    expect(left).not.toContain(oldSent);
    expect(left).not.toContain(oldFailed);
    expect(fs.readdirSync(t.runtime.config.outboxDir).sort()).toEqual(["notes.txt", "recent.eml"]);

    expect(await ids("sessions")).toEqual([liveSession.id]);
    expect(await ids("one_time_tokens")).toEqual([liveToken.id]);
    expect(await ids("two_factor_challenges")).toEqual([liveChallenge.id]);
    expect(await ids("registration_links")).toEqual([liveLink.id]);
    expect((await db().selectFrom("rate_limits").select("key").execute()).map((r) => r.key)).toEqual(["login:live"]);
    expect(
      (await db().selectFrom("spent_challenges").select("signature_hash").execute()).map((r) => r.signature_hash),
    ).toEqual(["live"]);
    expect((await db().selectFrom("mail_bounces").select("address").execute()).map((r) => r.address)).toEqual([
      "gone@example.org",
    ]);

    // The run is in the run log, with its counts.
    const [logged] = await createJobsRepository(db()).runs("retention", 5);
    expect(logged).toMatchObject({ due_at: "2028-02-01T04:00:00.000Z", outcome: "ok", summary: first.result.summary });

    // Run again (by hand, a minute later): nothing is left to do, and what was erased is not erased again.
    now = new Date("2028-02-01T04:01:30.000Z");
    const second = await runner.runNow("retention");
    expect(second.outcome).toBe("ok");
    expect(second.summary).toBe(
      "0 requests erased (older than 24 months); 0 sent mails and 0 outbox files older than 90 days removed; " +
        "removed when past their time: 0 sessions, 0 tokens, 0 two-factor steps, 0 registration links, 0 rate limits, " +
        "0 spent challenges, 0 bounce marks.",
    );
    expect((await person(handledOld)).anonymised_at).toBe(runAt.toISOString());
  });

  it("takes its period from the setting privacy.retention_months", async () => {
    // 24 months back is 1 March 2026: the request handled in June 2026 and the meeting of 1 March 2026 are kept.
    now = new Date("2028-03-01T10:00:00.000Z");
    const kept = await request({
      kind: "join",
      email: "twelve.months@example.org",
      created_at: "2027-01-10T10:00:00.000Z",
      handled_at: "2027-01-11T10:00:00.000Z",
    });
    const services = t.runtime.services;
    expect(describeCount(await services.retention.run())).toBe(0);
    expect((await person(kept)).anonymised_at).toBeNull();
    await services.settings.update({ "privacy.retention_months": "12" });
    try {
      // 12 months back is 1 March 2027: those two go too, the request of October 2027 stays.
      expect(describeCount(await services.retention.run())).toBe(3);
      expect(await person(kept)).toMatchObject({ email: ERASED_EMAIL, anonymised_at: now.toISOString() });
    } finally {
      await services.settings.update({ "privacy.retention_months": "24" });
    }
  });

  it("stops between batches when its run is stopped", async () => {
    const controller = new AbortController();
    controller.abort(new Error("The process was stopping."));
    await expect(t.runtime.services.retention.run({ signal: controller.signal })).rejects.toThrow(
      "The process was stopping.",
    );
  });
});

const describeCount = (result: { requests: number }) => result.requests;

const postgresUrl = inject("postgresUrl");

function databaseUrl(): string {
  if (!postgresUrl) return `sqlite:${t.database.location}`;
  const schema = /schema (\S+)\)$/.exec(t.database.location)?.[1] ?? "";
  return `${postgresUrl}${postgresUrl.includes("?") ? "&" : "?"}options=-c%20search_path%3D${schema}`;
}

describe("npm run jobs -- run retention", () => {
  it("erases a request handled more than 24 months ago (the real clock), and says so", async () => {
    const real = Date.now();
    const old = await request({
      kind: "join",
      email: "cli.applicant@example.org",
      created_at: new Date(real - 800 * 86_400_000).toISOString(),
      handled_at: new Date(real - 790 * 86_400_000).toISOString(),
    });
    const { TEST_DATABASE_URL, DATABASE_URL, BASE_URL, ...base } = process.env;
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/jobs.ts", "run", "retention"], {
      env: { ...base, DATA_DIR: t.dataDir, DATABASE_URL: databaseUrl(), LOG_LEVEL: "silent" },
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^retention: 1 request erased \(older than 24 months\); /);
    expect(await person(old)).toMatchObject({ email: ERASED_EMAIL, representative_name: ERASED_NAME });
    const [logged] = await createJobsRepository(db()).runs("retention", 1);
    expect(logged).toMatchObject({ due_at: null, outcome: "ok", summary: expect.stringContaining("1 request erased") });
  }, 60_000);
});

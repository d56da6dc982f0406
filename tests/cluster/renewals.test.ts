import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, formatDay } from "../../core/members/members.values";
import { dateIn } from "../../lib/time-zones";
import { createDatabase, dropDatabase, withDatabase } from "../../scripts/cluster/start";
import { type ServerProcess, startServer } from "../process/server";

/**
 * Issue 31: "Test it with two processes on PostgreSQL: one reminder, sent once." Two processes of
 * the production build on one PostgreSQL database, both running membership-renewals every second
 * (JOBS_SCHEDULES) when a company comes due: one reminder is queued and sent, whichever process
 * takes each due time, however many due times pass (decision 0049). Issue 32's meeting-reminders
 * runs beside it, every second too: a confirmed attendee of a meeting two days away gets one.
 */
const serverUrl = process.env.TEST_DATABASE_URL ?? "";
const name = `${new URL(serverUrl || "postgres://x/masthead").pathname.slice(1).replace(/\W/g, "_")}_renewals_${process.pid}_${randomBytes(3).toString("hex")}`;
let databaseUrl: string;
let dataDir: string;
const processes: ServerProcess[] = [];

beforeAll(async () => {
  if (!serverUrl) throw new Error("The cluster tests run on PostgreSQL: set TEST_DATABASE_URL.");
  databaseUrl = await createDatabase(withDatabase(serverUrl, "postgres"), name);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-renewals-cluster-"));
});

afterAll(async () => {
  for (const server of processes) await server.stop();
  if (databaseUrl) await dropDatabase(withDatabase(serverUrl, "postgres"), name);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("renewal reminders on two processes", () => {
  it("queues and sends one reminder, whichever process runs the job", async () => {
    const env = {
      DATABASE_URL: databaseUrl,
      JOBS_SCHEDULES: "membership-renewals=* * * * * *;meeting-reminders=* * * * * *",
      LOG_LEVEL: "debug",
    };
    // One first, so that the migrations run once; then the second on the same database and files.
    processes.push(await startServer({ env, dataDir }));
    processes.push(await startServer({ env, dataDir }));
    const [a, b] = processes;

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      // The company comes due while both are up (the site's zone is the default Europe/London).
      const now = new Date().toISOString();
      const renewsOn = addDays(dateIn(new Date(), "Europe/London"), 10);
      const company = await client.query<{ id: number }>(
        `insert into member_companies (name, slug, country, member_since, renews_on, status, created_at, updated_at)
         values ('Kattegat Echo A/S', 'kattegat-echo', 'DK', '2020-01-01', $1, 'active', $2, $2) returning id`,
        [renewsOn, now],
      );
      const user = await client.query<{ id: number }>(
        `insert into users (first_name, last_name, email, role, is_active, created_at, updated_at)
         values ('Mette', 'Holm', 'mette@kattegat.example', 'member', 1, $1, $1) returning id`,
        [now],
      );
      await client.query(
        "insert into company_representatives (user_id, company_id, is_primary, created_at) values ($1, $2, 1, $3)",
        [user.rows[0].id, company.rows[0].id, now],
      );
      // A meeting two days away (in its zone) with a confirmed attendee, also while both are up.
      const start = addDays(dateIn(new Date(), "Europe/Amsterdam"), 2);
      const meeting = await client.query<{ id: number }>(
        `insert into meetings (slug, title, type, start_date, timezone, created_at, updated_at)
         values ('skagerrak-forum', 'Skagerrak Forum', 'meeting', $1, 'Europe/Amsterdam', $2, $2) returning id`,
        [start, now],
      );
      await client.query(
        `insert into join_requests (kind, meeting_id, company_name, representative_name, email, phone_number, created_at,
           registration_status, registration_email)
         values ('registration', $1, 'Kattegat Echo A/S', 'Jens Dahl', 'jens@kattegat.example', '+45 33 00 00 00', $2,
           'confirmed', 'jens@kattegat.example')`,
        [meeting.rows[0].id, now],
      );
      const dueFrom = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      // The last due times before the stop may not have been tried by both.
      const bothTried = new Date(Date.now() - 2_000).toISOString();
      expect(await a.stop()).toBe(0);
      expect(await b.stop()).toBe(0);

      const mails = await client.query<{ status: string; subject: string }>(
        "select status, subject from mail_queue where purpose = 'renewal_reminder' and to_address = 'mette@kattegat.example'",
      );
      expect(mails.rows).toHaveLength(1);
      expect(mails.rows[0].subject).toContain("Kattegat Echo A/S: your Masthead membership is due for renewal on");
      expect(mails.rows[0].status).toBe("sent");
      const notices = await client.query("select kind, renews_on from membership_notices");
      expect(notices.rows).toEqual([{ kind: "reminder", renews_on: renewsOn }]);
      const reminders = await client.query<{ status: string; subject: string }>(
        "select status, subject from mail_queue where purpose = 'meeting_reminder' and to_address = 'jens@kattegat.example'",
      );
      expect(reminders.rows).toEqual([
        { status: "sent", subject: `Reminder: Skagerrak Forum starts on ${formatDay(start)}` },
      ]);
      const meetingRuns = await client.query<{ summary: string }>(
        "select summary from job_runs where job_name = 'meeting-reminders' and due_at > $1 and outcome = 'ok'",
        [dueFrom],
      );
      expect(meetingRuns.rows.filter((r) => r.summary.startsWith("1 meeting reminder queued"))).toHaveLength(1);

      // Several due times ran after it came due, each once, on one process or the other; one queued it.
      const runs = await client.query<{ due_at: string; runner: string; outcome: string; summary: string }>(
        "select due_at, runner, outcome, summary from job_runs where job_name = 'membership-renewals' and due_at > $1 order by id",
        [dueFrom],
      );
      expect(runs.rows.length).toBeGreaterThanOrEqual(3);
      expect(new Set(runs.rows.map((r) => r.due_at)).size).toBe(runs.rows.length);
      expect(runs.rows.every((r) => r.outcome === "ok")).toBe(true);
      expect(runs.rows.filter((r) => r.summary.startsWith("1 renewal reminder (1 mail)"))).toHaveLength(1);
      expect(runs.rows.filter((r) => r.summary.startsWith("0 renewal reminders (0 mails)")).length).toBe(
        runs.rows.length - 1,
      );
      // Both processes were at it: for each due time, the one that did not run it was refused it.
      const runnerOf = [a, b].map(
        (server) => server.logs().find((line) => line.msg === "job runner started")?.runner as string | undefined,
      );
      expect(runnerOf[0]).toBeTruthy();
      expect(runnerOf[1]).toBeTruthy();
      for (const run of runs.rows) {
        expect(runnerOf).toContain(run.runner);
        if (run.due_at > bothTried) continue;
        const loser = run.runner === runnerOf[0] ? b : a;
        const refused = loser
          .logs()
          .some(
            (line) =>
              line.msg === "job due time taken by another runner" &&
              line.job === "membership-renewals" &&
              line.due === run.due_at,
          );
        expect(refused, `${run.due_at}: the other process did not try it`).toBe(true);
      }
    } finally {
      await client.end();
    }

    // Sent once: one message in the outbox the two processes share (no SMTP_URL).
    const outbox = path.join(dataDir, "outbox");
    const sent = fs
      .readdirSync(outbox)
      .filter((file) => fs.readFileSync(path.join(outbox, file), "utf8").includes("Kattegat Echo A/S"));
    expect(sent).toHaveLength(1);
  });
});

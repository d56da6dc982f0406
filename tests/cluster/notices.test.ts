import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, dropDatabase, withDatabase } from "../../scripts/cluster/start";
import { type ServerProcess, startServer } from "../process/server";

/**
 * Issue 33: "Digests and batched notices are jobs of the job runner: sent once per member and
 * period across processes (test with two processes on PostgreSQL)." Two processes of the
 * production build on one database, both running `digest-weekly` and `notices` every second: each
 * member gets one weekly digest and the instant follower one notice, whichever process runs each
 * due time, however many pass (decision 0065).
 */
const serverUrl = process.env.TEST_DATABASE_URL ?? "";
const name = `${new URL(serverUrl || "postgres://x/masthead").pathname.slice(1).replace(/\W/g, "_")}_notices_${process.pid}_${randomBytes(3).toString("hex")}`;
let databaseUrl: string;
let dataDir: string;
const processes: ServerProcess[] = [];
const MEMBERS = 60;

beforeAll(async () => {
  if (!serverUrl) throw new Error("The cluster tests run on PostgreSQL: set TEST_DATABASE_URL.");
  databaseUrl = await createDatabase(withDatabase(serverUrl, "postgres"), name);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-notices-cluster-"));
});

afterAll(async () => {
  for (const server of processes) await server.stop();
  if (databaseUrl) await dropDatabase(withDatabase(serverUrl, "postgres"), name);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("notices and digests on two processes", () => {
  it("mails each member one weekly digest and the instant follower one notice", async () => {
    const env = {
      DATABASE_URL: databaseUrl,
      JOBS_SCHEDULES: "digest-weekly=* * * * * *;notices=* * * * * *",
      NOTIFY_BATCH_SECONDS: "5",
      LOG_LEVEL: "info",
    };
    // One process without jobs makes the tables; the data goes in before the two with jobs start, so
    // that this week's digest is not sent (empty) before there is anything in it.
    const setup = await startServer({ env: { ...env, JOBS: "off" }, dataDir });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const now = new Date().toISOString();
      // Members with no choices made (news and meetings in the weekly digest), and one who hears of meetings at once.
      const members = await client.query<{ id: number; email: string }>(
        `insert into users (first_name, last_name, email, role, is_active, created_at, updated_at)
         select 'Member', 'No ' || n, 'member-' || n || '@digest.example', 'member', 1, $1, $1
         from generate_series(1, ${MEMBERS}) as n returning id, email`,
        [now],
      );
      const instant = await client.query<{ id: number }>(
        `insert into users (first_name, last_name, email, role, is_active, created_at, updated_at)
         values ('Ines', 'Instant', 'instant@digest.example', 'member', 1, $1, $1) returning id`,
        [now],
      );
      await client.query(
        "insert into notification_preferences (user_id, digest, announcements, updated_at) values ($1, 'never', 1, $2)",
        [instant.rows[0].id, now],
      );
      await client.query(
        "insert into follows (user_id, kind, category_id, delivery, created_at) values ($1, 'meetings', null, 'instant', $2)",
        [instant.rows[0].id, now],
      );
      // A new meeting, as the admin's save records it.
      const meeting = await client.query<{ id: number }>(
        `insert into meetings (slug, title, type, start_date, timezone, created_at, updated_at)
         values ('oresund-forum', 'Öresund Forum', 'meeting', '2040-06-01', 'Europe/Copenhagen', $1, $1) returning id`,
        [now],
      );
      await client.query(
        "insert into notification_events (kind, ref_id, category_id, created_at) values ('meeting', $1, null, $2)",
        [meeting.rows[0].id, now],
      );
      expect(await setup.stop()).toBe(0);
      processes.push(await startServer({ env, dataDir }));
      processes.push(await startServer({ env, dataDir }));
      const [a, b] = processes;
      // Past the quiet time (a fifth of 5 s) and several due times of both jobs.
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      expect(await a.stop()).toBe(0);
      expect(await b.stop()).toBe(0);

      const digests = await client.query<{ to_address: string; status: string }>(
        "select to_address, status from mail_queue where purpose = 'digest' order by to_address",
      );
      expect(digests.rows.map((r) => r.to_address)).toEqual(members.rows.map((m) => m.email).sort());
      expect(digests.rows.every((r) => r.status === "sent")).toBe(true);
      const notices = await client.query<{ to_address: string; body_text: string }>(
        "select to_address, body_text from mail_queue where purpose = 'notice'",
      );
      expect(notices.rows.map((r) => r.to_address)).toEqual(["instant@digest.example"]);
      expect(notices.rows[0].body_text).toContain("Öresund Forum");
      const batches = await client.query<{ channel: string; done: boolean }>(
        "select channel, done_at is not null as done from notification_batches order by id",
      );
      expect(batches.rows).toEqual([expect.objectContaining({ done: true }), expect.objectContaining({ done: true })]);
      expect(batches.rows.map((r) => r.channel).sort()).toEqual(["instant", "weekly"]);
      // Both processes ran the jobs: each due time by one of them.
      const runners = await client.query<{ runner: string }>(
        "select distinct runner from job_runs where job_name in ('digest-weekly', 'notices')",
      );
      expect(runners.rows.length).toBe(2);
    } finally {
      await client.end();
    }
    // Sent once: one message per member in the outbox the two processes share (no SMTP_URL).
    const outbox = path.join(dataDir, "outbox");
    const files = fs.readdirSync(outbox).map((file) => fs.readFileSync(path.join(outbox, file), "utf8"));
    expect(files.filter((text) => text.includes("To: member-1@digest.example"))).toHaveLength(1);
    expect(files.filter((text) => text.includes("To: instant@digest.example"))).toHaveLength(1);
  });
});

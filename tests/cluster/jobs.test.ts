import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, dropDatabase, withDatabase } from "../../scripts/cluster/start";
import { type ServerProcess, startServer } from "../process/server";
import { filesUnder } from "../support/tmpfs";

/**
 * Two processes of the production build on one PostgreSQL database and one data directory, both
 * running the scheduled jobs (decision 0045), the upload sweep set to every second by JOBS_SCHEDULES:
 * each due time is run by exactly one of them, the other is refused the lease for it, and the
 * orphaned files go once.
 */
const serverUrl = process.env.TEST_DATABASE_URL ?? "";
// A database beside the test run's own (masthead_h5 → masthead_h5_jobs_…), dropped afterwards.
const name = `${new URL(serverUrl || "postgres://x/masthead").pathname.slice(1).replace(/\W/g, "_")}_jobs_${process.pid}_${randomBytes(3).toString("hex")}`;
let databaseUrl: string;
let dataDir: string;
const processes: ServerProcess[] = [];

beforeAll(async () => {
  if (!serverUrl) throw new Error("The cluster tests run on PostgreSQL: set TEST_DATABASE_URL.");
  databaseUrl = await createDatabase(withDatabase(serverUrl, "postgres"), name);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-jobs-cluster-"));
});

afterAll(async () => {
  for (const server of processes) await server.stop();
  if (databaseUrl) await dropDatabase(withDatabase(serverUrl, "postgres"), name);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

type Run = { due_at: string; runner: string; outcome: string; summary: string };

describe("scheduled jobs on two processes", () => {
  it("runs each due time once, on one of the two, whichever is up", async () => {
    const uploads = path.join(dataDir, "uploads");
    const old = new Date(Date.now() - 3 * 60 * 60 * 1000);
    fs.mkdirSync(path.join(uploads, "news"), { recursive: true });
    for (let i = 0; i < 40; i++) {
      const file = path.join(uploads, `news/${i.toString(16).padStart(16, "a")}-480.webp`);
      fs.writeFileSync(file, "x");
      fs.utimesSync(file, old, old);
    }
    const env = {
      DATABASE_URL: databaseUrl,
      JOBS_SCHEDULES: "uploads-sweep=* * * * * *",
      LOG_LEVEL: "debug",
    };
    // One first, so that the migrations run once; then the second on the same database and files.
    processes.push(await startServer({ env, dataDir }));
    processes.push(await startServer({ env, dataDir }));
    const bothUp = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const [a, b] = processes;
    // Both race only until the first is told to stop: from SIGTERM on, its runner takes no new due
    // time (a due time during its shutdown is the second's alone, with no refusal to log). A second
    // earlier still, as a due time's tick may reach the loser a little after the winner took it.
    const bothRacing = new Date(Date.now() - 1_000).toISOString();
    expect(await a.stop()).toBe(0);
    const aStopped = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await b.stop()).toBe(0);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<Run>(
      "select due_at, runner, outcome, summary from job_runs where job_name = 'uploads-sweep' order by id",
    );
    await client.end();

    // Each due time at most once, each run ended well.
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(new Set(rows.map((r) => r.due_at)).size).toBe(rows.length);
    expect(rows.every((r) => r.outcome === "ok")).toBe(true);
    // The orphans went in one run; no run found them again.
    expect(rows.filter((r) => r.summary.includes("; 40 removed;"))).toHaveLength(1);
    expect(rows.filter((r) => !r.summary.includes("; 0 removed;"))).toHaveLength(1);
    expect(filesUnder(uploads)).toEqual([]);

    // Both raced for the due times while both were up: each one the winner ran, the other was refused.
    const logs = [a, b].map((server) => server.logs());
    const runnerOf = logs.map(
      (lines) => lines.find((line) => line.msg === "job runner started")?.runner as string | undefined,
    );
    expect(runnerOf[0]).toBeTruthy();
    expect(runnerOf[1]).toBeTruthy();
    expect(runnerOf[0]).not.toBe(runnerOf[1]);
    const whileBoth = rows.filter((r) => r.due_at > bothUp && r.due_at < bothRacing);
    expect(whileBoth.length).toBeGreaterThanOrEqual(3);
    for (const run of whileBoth) {
      const loser = run.runner === runnerOf[0] ? 1 : 0;
      expect([runnerOf[0], runnerOf[1]]).toContain(run.runner);
      const refused = logs[loser].some(
        (line) => line.msg === "job due time taken by another runner" && line.due === run.due_at,
      );
      expect(refused, `${run.due_at}: the other process did not try it`).toBe(true);
    }
    // After the first stopped, the second ran every due time on its own.
    const afterA = rows.filter((r) => r.due_at > aStopped);
    expect(afterA.length).toBeGreaterThanOrEqual(1);
    expect(afterA.every((r) => r.runner === runnerOf[1])).toBe(true);
  });
});

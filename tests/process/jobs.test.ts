import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { filesUnder } from "../support/tmpfs";
import { SERVER_BUNDLE, type ServerProcess, startServer } from "./server";

/**
 * The scheduled jobs in the built server (decision 0045): SIGTERM in the middle of a run stops the
 * run at its next step and waits for it to be logged before the database closes; the due time it
 * did not finish is run by the next process to start; JOBS=off runs nothing; a JOBS_SCHEDULES for a
 * job that does not exist stops the start with a message.
 */
const dirs: string[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDirWithOrphans(count: number): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-jobs-"));
  dirs.push(dataDir);
  const old = new Date(Date.now() - 3 * 60 * 60 * 1000);
  for (let i = 0; i < count; i++) {
    const folder = path.join(dataDir, "uploads", "news", String(i % 100));
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${i.toString(16).padStart(16, "0")}-480.webp`);
    fs.writeFileSync(file, "x");
    fs.utimesSync(file, old, old);
  }
  return dataDir;
}

type Run = {
  due_at: string | null;
  finished_at: string | null;
  outcome: string | null;
  summary: string | null;
  error: string | null;
};

function runs(dataDir: string): Run[] {
  const db = new SQLite(path.join(dataDir, "site.db"), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        "select due_at, finished_at, outcome, summary, error from job_runs where job_name = 'uploads-sweep' order by id",
      )
      .all() as Run[];
  } catch {
    return []; // not migrated yet
  } finally {
    db.close();
  }
}

async function until<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const EVERY_SECOND = { JOBS_SCHEDULES: "uploads-sweep=* * * * * *" };

describe("scheduled jobs in the built server", () => {
  it("SIGTERM during a run: the run stops at its next step and is logged, the process exits 0, the next start runs it", async () => {
    const orphans = 20_000;
    const dataDir = dataDirWithOrphans(orphans);
    const server = await startServer({ dataDir, env: EVERY_SECOND });
    servers.push(server);
    await until(() => (runs(dataDir).some((run) => run.finished_at === null) ? true : undefined), 30_000, "a run");
    const signalled = Date.now();
    const code = await server.stop("SIGTERM");
    expect(code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);

    const [run] = runs(dataDir);
    expect(runs(dataDir)).toHaveLength(1);
    // Logged before the database closed: ended, and said how.
    expect(run).toMatchObject({ outcome: "failed", error: "Stopped before it finished: The process was stopping." });
    expect(run.finished_at).not.toBeNull();
    const left = filesUnder(path.join(dataDir, "uploads")).length;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(orphans + 1);
    const messages = server.logs().map((line) => line.msg);
    const order = ["shutting down", "waiting for running jobs to finish", "job stopped", "stopped"].map((msg) =>
      messages.indexOf(msg),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);

    // Its due time was left owed: the next process runs it (and the files left go).
    const next = await startServer({ dataDir, env: EVERY_SECOND });
    servers.push(next);
    const done = await until(() => runs(dataDir).find((r) => r.outcome === "ok"), 60_000, "the next process's run");
    expect(done.summary).toContain(`; ${left} removed;`);
    expect(filesUnder(path.join(dataDir, "uploads"))).toEqual([]);
    expect(await next.stop()).toBe(0);
  });

  it("JOBS=off: the process runs no job", async () => {
    const dataDir = dataDirWithOrphans(3);
    const server = await startServer({ dataDir, env: { ...EVERY_SECOND, JOBS: "off" } });
    servers.push(server);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await server.stop()).toBe(0);
    expect(runs(dataDir)).toEqual([]);
    expect(filesUnder(path.join(dataDir, "uploads"))).toHaveLength(3);
    expect(server.logs().some((line) => line.msg === "scheduled jobs off in this process (JOBS=off)")).toBe(true);
  });

  it("a JOBS_SCHEDULES for a job that does not exist stops the start, naming the jobs", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-jobs-"));
    dirs.push(dataDir);
    const result = spawnSync(process.execPath, [SERVER_BUNDLE], {
      env: {
        PATH: process.env.PATH ?? "",
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        JOBS_SCHEDULES: "nightly-digest=0 2 * * *",
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'JOBS_SCHEDULES names no job "nightly-digest"; the jobs are: uploads-sweep, audit-retention, retention, membership-renewals, meeting-reminders, notices, digest-daily, digest-weekly.',
    );
  });
});

import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineJob, type JobDefinition } from "../../core/jobs/job";
import { createJobsRepository, RUNS_KEPT_PER_JOB } from "../../core/jobs/jobs.repository";
import { createJobRunner, type JobRunner } from "../../core/jobs/jobs.service";
import { SITE_JOBS } from "../../core/jobs/site-jobs";
import { describeNoticesRun } from "../../core/notifications/notices.service";
import type { DatabaseHandle } from "../../db/connect";
import { createLogger } from "../../lib/logger";
import type { Runtime } from "../../server/env";
import { buildRuntime, createTestContext, type TestContext } from "../support/app";
import { reopen } from "../support/database";
import { filesUnder } from "../support/tmpfs";

/**
 * The job runner (decision 0045) on a real database, SQLite or PostgreSQL: a lease per job and due
 * time, taken by exactly one of two runners on two connections; runs logged; a dead runner's run
 * taken over once its lease expires; stop() waits for a running job; the site's upload sweep as a job.
 */
let t: TestContext;
let second: DatabaseHandle;
let secondRuntime: Runtime;
/** The runners' clock, moved by the tests. */
let now = new Date("2026-03-02T09:00:30.000Z");
const clock = () => new Date(now);
const silent = createLogger("silent");
const runners: JobRunner[] = [];

beforeAll(async () => {
  t = await createTestContext();
  second = reopen(t.database);
  secondRuntime = buildRuntime(t.runtime.config, second);
});
afterAll(async () => {
  for (const runner of runners) await runner.stop();
  await second.destroy();
  await t.close();
});

function runnerOn(runtime: Runtime, jobs: JobDefinition[], options: { leaseSeconds?: number } = {}) {
  const runner = createJobRunner({
    db: runtime.database.db,
    services: runtime.services,
    jobs,
    origin: runtime.config.baseUrl.origin,
    logger: silent,
    clock,
    ...options,
  });
  runners.push(runner);
  return runner;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job that counts its runs by due time, taking `ms` each. */
function countingJob(name: string, schedule: string, ms = 30) {
  const dues: (string | null)[] = [];
  const job = defineJob({
    name,
    schedule,
    description: "Counts its runs.",
    async run({ due }) {
      dues.push(due?.toISOString() ?? null);
      await sleep(ms);
      return `run ${dues.length}`;
    },
  });
  return { job, dues };
}

describe("the lease", () => {
  it("lets exactly one of two runners on two connections run each due time", async () => {
    now = new Date("2026-03-02T09:00:30.000Z");
    const { job, dues } = countingJob("race", "* * * * *");
    const a = runnerOn(t.runtime, [job]);
    const b = runnerOn(secondRuntime, [job]);
    // A new job owes nothing from before it existed: its first due time is the next one.
    expect((await a.runDue("race")).kind).toBe("taken");
    for (let minute = 1; minute <= 12; minute++) {
      now = new Date(Date.UTC(2026, 2, 2, 9, minute, 0, 5));
      const attempts = await Promise.all([a.runDue("race"), b.runDue("race")]);
      expect(attempts.filter((x) => x.kind === "ran")).toHaveLength(1);
      expect(attempts.filter((x) => x.kind === "taken")).toHaveLength(1);
      // Asked again for the same due time, neither runs it.
      expect((await Promise.all([a.runDue("race"), b.runDue("race")])).map((x) => x.kind)).toEqual(["taken", "taken"]);
    }
    expect(dues).toHaveLength(12);
    expect(new Set(dues).size).toBe(12);
    expect(dues[0]).toBe("2026-03-02T09:01:00.000Z");
    const runs = await a.runs("race", 50);
    expect(runs).toHaveLength(12);
    expect(runs.every((run) => run.outcome === "ok" && run.finished_at && run.summary?.startsWith("run "))).toBe(true);
    expect(new Set(runs.map((run) => run.due_at)).size).toBe(12);
  });

  it("runs a due time missed while no process ran once, not once per missed time", async () => {
    now = new Date("2026-03-03T10:00:00.000Z");
    const { job, dues } = countingJob("catch-up", "*/10 * * * *");
    const runner = runnerOn(t.runtime, [job]);
    expect((await runner.runDue("catch-up")).kind).toBe("taken"); // made now: nothing owed
    now = new Date("2026-03-03T11:05:00.000Z"); // six due times went by
    expect((await runner.runDue("catch-up")).kind).toBe("ran");
    expect((await runner.runDue("catch-up")).kind).toBe("taken");
    expect(dues).toEqual(["2026-03-03T11:00:00.000Z"]);
  });

  it("takes over a due time whose runner died, once its lease has expired, and says how the dead run ended", async () => {
    now = new Date("2026-03-04T08:00:00.000Z");
    const { job, dues } = countingJob("crash", "0 * * * *");
    const survivor = runnerOn(secondRuntime, [job], { leaseSeconds: 60 });
    await survivor.runDue("crash"); // makes the row
    // What a process killed in the middle of a run leaves behind: its lease and an unfinished run.
    now = new Date("2026-03-04T09:00:01.000Z");
    const dead = createJobsRepository(t.database.db);
    const due = "2026-03-04T09:00:00.000Z";
    expect(await dead.claimDue("crash", due, now.toISOString(), "2026-03-04T09:01:01.000Z", "dead-process")).toBe(true);
    await dead.startRun({ job_name: "crash", due_at: due, runner: "dead-process", started_at: now.toISOString() });

    now = new Date("2026-03-04T09:00:30.000Z");
    const whileLeased = await survivor.runDue("crash");
    expect(whileLeased).toMatchObject({ kind: "taken", leasedUntil: "2026-03-04T09:01:01.000Z" });
    expect(dues).toEqual([]);
    await expect(survivor.runNow("crash")).rejects.toThrow(/running in another process \(dead-process/);

    now = new Date("2026-03-04T09:01:02.000Z");
    expect((await survivor.runDue("crash")).kind).toBe("ran");
    expect(dues).toEqual([due]);
    const [latest, abandoned] = await survivor.runs("crash");
    expect(latest).toMatchObject({ due_at: due, outcome: "ok", runner: survivor.runner });
    expect(abandoned).toMatchObject({ due_at: due, outcome: "failed", runner: "dead-process" });
    expect(abandoned.error).toContain("stopped before it finished");
    expect(abandoned.finished_at).toBe(now.toISOString());
  });

  it("logs a failed run with its error and does not run it again until the next due time", async () => {
    now = new Date("2026-03-05T06:30:00.000Z");
    let calls = 0;
    const job = defineJob({
      name: "breaks",
      schedule: "0 7 * * *",
      description: "Fails.",
      async run() {
        calls++;
        throw new Error("the mail server said no");
      },
    });
    const runner = runnerOn(t.runtime, [job]);
    await runner.runDue("breaks");
    now = new Date("2026-03-05T07:00:02.000Z");
    const attempt = await runner.runDue("breaks");
    expect(attempt).toMatchObject({ kind: "ran", result: { outcome: "failed", error: "the mail server said no" } });
    expect((await runner.runDue("breaks")).kind).toBe("taken");
    expect(calls).toBe(1);
    const [run] = await runner.runs("breaks");
    expect(run).toMatchObject({ outcome: "failed", error: "the mail server said no", summary: null });
    now = new Date("2026-03-06T07:00:02.000Z");
    expect((await runner.runDue("breaks")).kind).toBe("ran");
    expect(calls).toBe(2);
  });

  it("runs a job by hand under its lease without settling a due time", async () => {
    now = new Date("2026-03-07T12:00:00.000Z");
    const { job, dues } = countingJob("by-hand", "0 13 * * *");
    const runner = runnerOn(t.runtime, [job]);
    const result = await runner.runNow("by-hand");
    expect(result).toMatchObject({ outcome: "ok", summary: "run 1", due: null });
    now = new Date("2026-03-07T13:00:01.000Z");
    expect((await runner.runDue("by-hand")).kind).toBe("ran"); // the 13:00 run still happens
    expect(dues).toEqual([null, "2026-03-07T13:00:00.000Z"]);
    await expect(runner.runNow("no-such-job")).rejects.toThrow(
      "There is no job named no-such-job. The jobs are: by-hand.",
    );
  });

  it("reads the schedule in the site's time zone", async () => {
    await t.runtime.services.settings.set({ "site.timezone": "Asia/Tokyo" });
    try {
      now = new Date("2026-03-08T00:00:00.000Z");
      const { job } = countingJob("zoned", "30 3 * * *");
      const runner = runnerOn(t.runtime, [job]);
      const [status] = await runner.list();
      expect(status).toMatchObject({ name: "zoned", schedule: "30 3 * * *", timeZone: "Asia/Tokyo", lastRun: null });
      expect(status.nextRun?.toISOString()).toBe("2026-03-08T18:30:00.000Z"); // 03:30 in Tokyo
      now = new Date("2026-03-08T18:30:00.500Z");
      expect((await runner.runDue("zoned")).kind).toBe("ran");
      expect((await runner.list())[0].lastRun).toMatchObject({ outcome: "ok", summary: "run 1" });
    } finally {
      await t.runtime.services.settings.set({ "site.timezone": "Europe/London" });
    }
  });

  it("keeps the newest runs of each job only", async () => {
    now = new Date("2026-03-09T00:00:00.000Z");
    const { job } = countingJob("chatty", "0 0 1 1 *", 0);
    const runner = runnerOn(t.runtime, [job]);
    const repository = createJobsRepository(t.database.db);
    for (let i = 0; i < RUNS_KEPT_PER_JOB + 5; i++) {
      const id = await repository.startRun({
        job_name: "chatty",
        due_at: null,
        runner: "earlier",
        started_at: now.toISOString(),
      });
      await repository.finishRun(id, {
        finished_at: now.toISOString(),
        outcome: "ok",
        summary: `earlier ${i}`,
        error: null,
      });
    }
    await runner.runNow("chatty");
    const runs = await runner.runs("chatty", RUNS_KEPT_PER_JOB + 10);
    expect(runs).toHaveLength(RUNS_KEPT_PER_JOB);
    expect(runs[0].summary).toBe("run 1");
    expect(runs.at(-1)?.summary).toBe(`earlier ${6}`);
  });

  it("takes schedules from JOBS_SCHEDULES, refusing jobs it does not have and patterns that are not cron", async () => {
    const { job } = countingJob("named", "* * * * *");
    const withSchedules = (schedules: Record<string, string>) => () =>
      createJobRunner({
        db: t.database.db,
        services: t.runtime.services,
        jobs: [job],
        origin: t.runtime.config.baseUrl.origin,
        logger: silent,
        schedules,
      });
    expect((await withSchedules({ named: "*/5 * * * *" })().list())[0].schedule).toBe("*/5 * * * *");
    expect(withSchedules({ nope: "* * * * *" })).toThrow('JOBS_SCHEDULES names no job "nope"; the jobs are: named.');
    expect(withSchedules({ named: "every day" })).toThrow(/not a cron pattern/);
    expect(() => defineJob({ ...job, name: "Not A Name" })).toThrow(/lower-case words/);
    expect(() => defineJob({ ...job, schedule: "0 0 31 2 *" })).toThrow(/never comes/);
  });
});

describe("the runner's loop", () => {
  it("runs a job due every second once per due time across two runners, on the real clock", async () => {
    const dues: string[] = [];
    const job = defineJob({
      name: "every-second",
      schedule: "* * * * * *",
      description: "Runs every second.",
      async run({ due }) {
        dues.push(due?.toISOString() ?? "by hand");
        await sleep(20);
        return "ok";
      },
    });
    const make = (runtime: Runtime) => {
      const runner = createJobRunner({
        db: runtime.database.db,
        services: runtime.services,
        jobs: [job],
        origin: runtime.config.baseUrl.origin,
        logger: silent,
      });
      runners.push(runner);
      return runner;
    };
    const a = make(t.runtime);
    const b = make(secondRuntime);
    a.start();
    b.start();
    await sleep(4_500);
    await Promise.all([a.stop(), b.stop()]);
    expect(dues.length).toBeGreaterThanOrEqual(3);
    expect(new Set(dues).size).toBe(dues.length);
    const runs = await a.runs("every-second", 50);
    expect(runs).toHaveLength(dues.length);
    expect(runs.every((run) => run.outcome === "ok")).toBe(true);
    // Whole seconds, each once (a second both runners slept through on a busy machine is folded into the next).
    expect(runs.every((run) => /:\d\d\.000Z$/.test(run.due_at ?? ""))).toBe(true);
  });

  it("waits for a running job when stopped, and a job that stops at the signal leaves its due time owed", async () => {
    now = new Date("2026-03-10T09:59:59.000Z");
    let finished = false;
    const patient = defineJob({
      name: "patient",
      schedule: "0 10 * * *",
      description: "Ignores the signal.",
      async run() {
        await sleep(400);
        finished = true;
        return "finished anyway";
      },
    });
    const careful = defineJob({
      name: "careful",
      schedule: "0 10 * * *",
      description: "Stops at the signal.",
      async run({ signal }) {
        for (let step = 0; step < 20; step++) {
          signal.throwIfAborted();
          await sleep(20);
        }
        return "all steps";
      },
    });
    const runner = runnerOn(t.runtime, [patient, careful]);
    await runner.list(); // makes the rows: 10:00 is owed from now on
    now = new Date("2026-03-10T10:00:00.200Z");
    runner.start();
    await sleep(150);
    await runner.stop();
    expect(finished).toBe(true);
    const [patientRun] = await runner.runs("patient");
    expect(patientRun).toMatchObject({ outcome: "ok", summary: "finished anyway", due_at: "2026-03-10T10:00:00.000Z" });
    const [carefulRun] = await runner.runs("careful");
    expect(carefulRun).toMatchObject({
      outcome: "failed",
      error: "Stopped before it finished: The process was stopping.",
    });

    // The careful job's 10:00 is still owed: the next runner to look runs it; the patient one's is not.
    const next = runnerOn(secondRuntime, [patient, careful]);
    expect((await next.runDue("careful")).kind).toBe("ran");
    expect((await next.runDue("patient")).kind).toBe("taken");
    expect((await next.runs("careful"))[0]).toMatchObject({ outcome: "ok", summary: "all steps" });
  });
});

describe("the runner's log", () => {
  it("writes a run at info, but a run its job calls idle (the notices job's quiet minute) at debug only", async () => {
    const lines: { level: number; msg: string; job?: string; summary?: string }[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    let busy = false;
    const job = defineJob({
      name: "quiet-minutes",
      schedule: "* * * * *",
      description: "Says whether it did anything.",
      async run() {
        return busy ? "2 mails queued." : "Nothing new to tell.";
      },
      idle: (summary) => summary === "Nothing new to tell.",
    });
    const runner = createJobRunner({
      db: t.runtime.database.db,
      services: t.runtime.services,
      jobs: [job],
      origin: t.runtime.config.baseUrl.origin,
      logger: pino({ level: "debug", base: undefined }, sink),
      clock,
    });
    runners.push(runner);
    const finished = () => lines.filter((l) => l.msg === "job finished" && l.job === "quiet-minutes");
    await runner.runNow("quiet-minutes");
    busy = true;
    await runner.runNow("quiet-minutes");
    await expect.poll(() => finished().length).toBe(2);
    // pino's levels: 20 debug, 30 info.
    expect(finished().map((l) => [l.level, l.summary])).toEqual([
      [20, "Nothing new to tell."],
      [30, "2 mails queued."],
    ]);
    // Both are in the run log all the same.
    const kept = await t.database.db
      .selectFrom("job_runs")
      .select("summary")
      .where("job_name", "=", "quiet-minutes")
      .orderBy("id")
      .execute();
    expect(kept.map((r) => r.summary)).toEqual(["Nothing new to tell.", "2 mails queued."]);
  });

  it("the notices job calls a run that mailed nothing idle, and one that mailed something not", async () => {
    const notices = SITE_JOBS.find((j) => j.name === "notices");
    expect(notices?.idle?.(describeNoticesRun({ outcome: "nothing new", mails: 0, items: 0 }))).toBe(true);
    expect(notices?.idle?.(describeNoticesRun({ outcome: "gathering", mails: 0, items: 0 }))).toBe(true);
    expect(notices?.idle?.(describeNoticesRun({ outcome: "sent", mails: 3, items: 5 }))).toBe(false);
  });
});

describe("the uploads-sweep job", () => {
  it("removes old files no row references, through the runner, and logs what it did", async () => {
    const uploads = t.runtime.config.uploadsDir;
    const old = new Date(Date.now() - 3 * 60 * 60 * 1000);
    for (const key of ["news/0a0a0a0a0a0a0a0a-1600.webp", "news/1b1b1b1b1b1b1b1b-960.webp"]) {
      fs.mkdirSync(path.join(uploads, "news"), { recursive: true });
      fs.writeFileSync(path.join(uploads, key), "x");
      fs.utimesSync(path.join(uploads, key), old, old);
    }
    fs.writeFileSync(path.join(uploads, "news/2c2c2c2c2c2c2c2c-480.webp"), "young");
    const runner = runnerOn(t.runtime, [...SITE_JOBS]);
    now = new Date("2026-03-11T03:40:00.100Z");
    const [status] = await runner.list();
    expect(status).toMatchObject({ name: "uploads-sweep", schedule: "40 3 * * *", timeZone: "Europe/London" });
    // The row is new at 03:40: today's run is not owed, tomorrow's is.
    expect(status.nextRun?.toISOString()).toBe("2026-03-12T03:40:00.000Z");
    now = new Date("2026-03-12T03:40:00.100Z");
    const attempt = await runner.runDue("uploads-sweep");
    expect(attempt).toMatchObject({
      kind: "ran",
      result: {
        outcome: "ok",
        due: "2026-03-12T03:40:00.000Z",
        summary: "3 files checked; 2 removed; 1 unreferenced but too recent to remove.",
      },
    });
    expect(filesUnder(uploads)).toEqual(["news/2c2c2c2c2c2c2c2c-480.webp"]);
  });

  it("stops before removing anything when the signal is aborted", async () => {
    const uploads = t.runtime.config.uploadsDir;
    const old = new Date(Date.now() - 3 * 60 * 60 * 1000);
    fs.writeFileSync(path.join(uploads, "news/3d3d3d3d3d3d3d3d-480.webp"), "x");
    fs.utimesSync(path.join(uploads, "news/3d3d3d3d3d3d3d3d-480.webp"), old, old);
    const controller = new AbortController();
    controller.abort(new Error("stopping"));
    await expect(t.runtime.services.media.sweepUploads({ signal: controller.signal })).rejects.toThrow("stopping");
    expect(filesUnder(uploads)).toContain("news/3d3d3d3d3d3d3d3d-480.webp");
  });
});

import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installDebianPackage } from "../../scripts/debian-package";
import { type ServerProcess, startServer } from "./server";

/**
 * Decision 0061 as the kernel sees it: the built server on SQLite, watched with strace. A commit is
 * on disk (its WAL frames flushed) before the answer that says it was saved leaves, although SQLite
 * itself no longer waits for the disk (synchronous = NORMAL): the driver's group commit does.
 */
const STRACE = ["/usr/bin/strace", "/bin/strace"];

function findStrace(): string | null {
  const found = STRACE.find((file) => fs.existsSync(file));
  if (found) return found;
  installDebianPackage("strace");
  return STRACE.find((file) => fs.existsSync(file)) ?? null;
}

let server: ServerProcess;
let strace: string | null;

beforeAll(async () => {
  strace = findStrace();
  server = await startServer({ env: { LOG_LEVEL: "warn" } });
});

afterAll(async () => {
  await server?.stop();
  server?.cleanup();
});

/** The files the process's descriptors are open on, by number. */
function openFiles(pid: number): Map<number, string> {
  const files = new Map<number, string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      files.set(Number(fd), fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // closed meanwhile
    }
  }
  return files;
}

async function traced<T>(pid: number, run: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  if (!strace) throw new Error("strace is needed (Debian's strace package, installed by apt-get as root).");
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "masthead-strace-")), "trace");
  // -f with -p: every thread of the process, the thread pool's included (the flush runs there).
  const tracer: ChildProcess = spawn(
    strace,
    ["-f", "-p", String(pid), "-s", "32", "-e", "trace=pwrite64,fdatasync,fsync,writev,write", "-o", out],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let attached = "";
  await new Promise<void>((resolve, reject) => {
    tracer.stderr?.on("data", (chunk: Buffer) => {
      attached += chunk.toString();
      if (/attached/.test(attached)) resolve();
    });
    tracer.on("exit", () => reject(new Error(`strace stopped: ${attached}`)));
  });
  const result = await run();
  const exited = new Promise((resolve) => tracer.once("exit", resolve));
  tracer.kill("SIGINT");
  await exited;
  const lines = fs.readFileSync(out, "utf8").split("\n");
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return { result, lines };
}

describe("a commit on SQLite is on disk before its answer leaves (decision 0061)", () => {
  it("flushes the WAL between the commit's last write and the response that says it was saved", async () => {
    const pid = server.child.pid as number;
    const { result, lines } = await traced(pid, async () => {
      const response = await fetch(`${server.url}/api/join`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          company_name: "Durable Marine Ltd",
          representative_name: "Dora Durable",
          email: "dora@durable.example",
          phone_number: "+31 10 555 0101",
        }),
      });
      return { status: response.status, body: await response.json(), files: openFiles(pid) };
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ status: "success" });

    const wal = new Set(
      [...result.files].filter(([, file]) => file.endsWith(`${path.sep}site.db-wal`)).map(([fd]) => fd),
    );
    expect(wal.size).toBeGreaterThan(0);
    const call = (line: string) => /^\d+\s+(\w+)\((\d+)/.exec(line);
    const answer = lines.findIndex((line) => /writev?\(\d+, .*HTTP\/1\.1 200/.test(line));
    expect(answer, lines.join("\n")).toBeGreaterThan(0);
    const before = lines.slice(0, answer);
    const lastWalWrite = before.findLastIndex((line) => {
      const c = call(line);
      return c?.[1] === "pwrite64" && wal.has(Number(c[2]));
    });
    expect(lastWalWrite, "the request's commit wrote into the WAL").toBeGreaterThanOrEqual(0);
    const flushed = before.slice(lastWalWrite + 1).some((line) => {
      const c = call(line);
      return (c?.[1] === "fdatasync" || c?.[1] === "fsync") && wal.has(Number(c[2])) && / = 0$/.test(line);
    });
    expect(flushed, before.slice(lastWalWrite).join("\n")).toBe(true);
  });
});

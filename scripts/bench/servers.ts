import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { rawRequest } from "./http";

export type ServerProcess = {
  name: string;
  /** http://host:port */
  origin: string;
  child: ChildProcess;
  /** Resident set size of the server process now, or null where /proc is not available. */
  rss: () => number | null;
  /** CPU time the process has used so far (user + system, all its threads) in ms, or null without /proc. */
  cpuMs: () => number | null;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL if it is still there after a few seconds. */
  stop: () => Promise<void>;
};

const running = new Set<ServerProcess>();

export type StartOptions = {
  name: string;
  /** Arguments to node. */
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  host: string;
  port: number;
  readyPath?: string;
  readyTimeoutMs?: number;
  /** "inherit" (the default): the server's log lines go to this process's output. */
  stdio?: "inherit" | "ignore";
};

/** Starts a node child process and waits until readyPath answers 200. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: options.stdio ?? "inherit",
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name}: the process did not start`);
  let stopping: Promise<void> | null = null;
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => {
      if (!stopping) {
        // The app exits 0 only after a SIGTERM or SIGINT (server/index.ts): someone else sent it.
        const hint = code === 0 ? " (the app's answer to SIGTERM or SIGINT: sent from outside the bench?)" : "";
        console.error(
          `\n${options.name} server (pid ${pid}) exited during the bench: ${signal ?? `exit code ${code}`}${hint}`,
        );
      }
      resolve(code ?? signal ?? "unknown");
    }),
  );
  const terminate = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const gone = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
      if (!gone) {
        child.kill("SIGKILL");
        await exited;
      }
    }
    running.delete(server);
  };
  const server: ServerProcess = {
    name: options.name,
    origin: `http://${options.host}:${options.port}`,
    child,
    rss: () => readRss(pid),
    cpuMs: () => readCpuMs(pid),
    exited,
    stop: () => {
      stopping ??= terminate();
      return stopping;
    },
  };
  running.add(server);
  await waitUntilReady(server, options.readyPath ?? "/readyz", options.readyTimeoutMs ?? 30_000);
  return server;
}

async function waitUntilReady(server: ServerProcess, readyPath: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { exitCode, signalCode } = server.child;
    if (exitCode !== null || signalCode !== null) {
      throw new Error(`${server.name} server exited before it was ready (${signalCode ?? `exit code ${exitCode}`})`);
    }
    try {
      const response = await rawRequest(server.origin, { method: "GET", path: readyPath, headers: {} }, 1_000);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${server.name} server not ready after ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

/** Stops every server started here that is still running. */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop()));
}

// Last resort when the bench process exits without cleaning up.
process.on("exit", () => {
  for (const server of running) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  }
});

export function readRss(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc/<pid>/stat's times (100 on nearly every Linux). */
const CLOCK_TICKS = (() => {
  const answer = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
  const ticks = Number(answer.stdout?.trim());
  return answer.status === 0 && Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
})();

/** utime + stime of a process from /proc/<pid>/stat, in ms (10 ms steps at 100 ticks a second). */
export function readCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[14 - 3]);
    const stime = Number(fields[15 - 3]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1000) / CLOCK_TICKS : null;
  } catch {
    return null;
  }
}

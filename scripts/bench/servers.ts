import { type ChildProcess, spawn } from "node:child_process";
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
};

/** Starts a node child process and waits until readyPath answers 200. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, options.args, { cwd: options.cwd, env: options.env, stdio: "inherit" });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name}: the process did not start`);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
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
  let stopping: Promise<void> | null = null;
  const server: ServerProcess = {
    name: options.name,
    origin: `http://${options.host}:${options.port}`,
    child,
    rss: () => readRss(pid),
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

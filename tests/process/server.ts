import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { readStartCommand } from "../../scripts/bench/start-command";

/**
 * The production build (`build/server.js`, made by `npm run build`) started as
 * an operator starts it: its own process, its own data directory, real TCP.
 * What only shows in a real process (proxies, shutdown, memory, disks) is
 * tested through this.
 */
export type ServerProcess = {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Every stdout line so far (JSON log lines when LOG_LEVEL allows). */
  stdout: string[];
  stderr: string[];
  /** Parsed JSON log lines so far. */
  logs: () => Record<string, unknown>[];
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string>;
  /** Sends the signal and waits for the exit (SIGKILL after `timeoutMs`). */
  stop: (signal?: NodeJS.Signals, timeoutMs?: number) => Promise<number | string>;
  /** Removes the data directory (call after stop). */
  cleanup: () => void;
};

export const SERVER_BUNDLE = path.resolve("build/server.js");

/** `npm start`'s variables and Node flags (package.json): each process runs as an operator's does. */
const START = readStartCommand(path.resolve("."));
const START_FLAGS = START.args.filter((arg) => arg.startsWith("-"));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startServer(
  options: {
    env?: Record<string, string>;
    dataDir?: string;
    readyTimeoutMs?: number;
    /** Another bundled entry than build/server.js (a test server, see upload-memory.ts). */
    entry?: string;
  } = {},
): Promise<ServerProcess> {
  const entry = options.entry ?? SERVER_BUNDLE;
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first.`);
  const port = await freePort();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "masthead-process-"));
  const env: Record<string, string> = {
    ...START.env,
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? os.tmpdir(),
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    ...options.env,
  };
  const child = spawn(process.execPath, [...START_FLAGS, entry], { env, stdio: ["ignore", "pipe", "pipe"] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const collect = (into: string[]) => {
    let rest = "";
    return (chunk: Buffer) => {
      rest += chunk.toString("utf8");
      const lines = rest.split("\n");
      rest = lines.pop() ?? "";
      into.push(...lines.filter((line) => line.length > 0));
    };
  };
  child.stdout?.on("data", collect(stdout));
  child.stderr?.on("data", collect(stderr));
  const exited = new Promise<number | string>((resolve) => {
    child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  let ready = false;
  let exitedEarly = false;
  void exited.then(() => {
    exitedEarly = true;
  });
  while (!ready && !exitedEarly && Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/readyz`);
      ready = response.ok;
      await response.arrayBuffer();
    } catch {
      // not listening yet
    }
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill("SIGKILL");
    throw new Error(`The server did not become ready.\nstdout:\n${stdout.join("\n")}\nstderr:\n${stderr.join("\n")}`);
  }
  const stop = async (signal: NodeJS.Signals = "SIGTERM", timeoutMs = 20_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return {
    url,
    port,
    dataDir,
    child,
    stdout,
    stderr,
    logs: () =>
      stdout.flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
    exited,
    stop,
    cleanup: () => {
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

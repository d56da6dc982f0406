import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort, rawRequest } from "../bench/http";
import { type ServerProcess, startServer } from "../bench/servers";
import { readStartCommand } from "../bench/start-command";
import { ensureNginx, proxyConfig, selfSignedCertificate } from "../nginx";

/**
 * A cluster as README "Deploying for more traffic" describes it: app
 * processes (build/server.js, started as `npm start` starts it) on one
 * PostgreSQL database, behind nginx on loopback (plain HTTP; TLS is the
 * operator's, docs/deploy/nginx-masthead.conf), with nginx's page cache.
 * Used by `npm run cluster`, the cluster tests (tests/cluster) and
 * `npm run bench -- --cluster`. Decision 0031.
 *
 * Files: every process gets the same DATA_DIR, so uploads live on one shared
 * disk. S3-compatible storage instead is a matter of `env` (STORAGE=s3 and its
 * S3_* keys), passed to every process as it is.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const HOST = "127.0.0.1";

export type AppProcess = ServerProcess & { port: number };

export type Nginx = {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  prefix: string;
  child: ChildProcess;
  stop: () => Promise<void>;
};

export type Cluster = {
  /** Where visitors go: nginx. */
  origin: string;
  nginx: Nginx;
  processes: AppProcess[];
  /** The data directory every process shares (uploads, private files, spooled uploads). */
  dataDir: string;
  databaseUrl: string;
  /** nginx's configuration as run. */
  config: string;
  /** Stops nginx and every process (SIGTERM: they drain and exit 0). */
  stop: () => Promise<void>;
};

export type ClusterOptions = {
  databaseUrl: string;
  /** App processes; 2 by default. */
  processes?: number;
  /** Variables for every process, over the cluster's own (ADMIN_EMAIL, PAGE_CACHE_S_MAXAGE, SMTP_URL, STORAGE…). */
  env?: Record<string, string>;
  /** Shared data directory; a new temporary one by default (removed by stop()). */
  dataDir?: string;
  /** nginx's port on 127.0.0.1; a free one by default. */
  port?: number;
  /** nginx's page cache (on by default). */
  cache?: boolean;
  /** X-Upstream on every answer: which process answered (the tests). */
  upstreamHeader?: boolean;
  /** "ignore" keeps the processes' log lines out of this process's output. */
  stdio?: "inherit" | "ignore";
  log?: (message: string) => void;
};

/** The status of GET /healthz through nginx's TLS port (its certificate is self-signed: not checked). */
function healthOverTls(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      { host: HOST, port, path: "/healthz", rejectUnauthorized: false, timeout: 1_000 },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", reject);
  });
}

/** Starts nginx in front of `upstreams`, its files under a new temporary prefix, and waits until it answers. */
export async function startNginx(options: {
  upstreams: string[];
  port?: number;
  cache?: boolean;
  upstreamHeader?: boolean;
  /** TLS (a self-signed certificate for 127.0.0.1) and HTTP/2, as the reference configuration serves the public. */
  tls?: boolean;
}): Promise<Nginx & { config: string }> {
  const binary = ensureNginx();
  if (!binary) throw new Error("nginx is not installed and could not be installed (apt-get as root).");
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-cluster-nginx-"));
  // Started as root, nginx's workers run as nobody: they must reach the cache and temp folders under the prefix.
  fs.chmodSync(prefix, 0o755);
  const port = options.port ?? (await freePort(HOST));
  const config = proxyConfig({
    prefix,
    listenPort: port,
    upstreams: options.upstreams,
    cache: options.cache ?? true,
    upstreamHeader: options.upstreamHeader,
    clientMaxBodySize: "60m",
    tls: options.tls ? selfSignedCertificate(prefix, HOST) : undefined,
  });
  const file = path.join(prefix, "nginx.conf");
  fs.writeFileSync(file, config);
  const child = spawn(binary, ["-p", prefix, "-c", file], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `${options.tls ? "https" : "http"}://${HOST}:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGQUIT: nginx's graceful stop (requests in flight finish).
      child.kill("SIGQUIT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(prefix, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = fs.existsSync(path.join(prefix, "error.log"))
        ? fs.readFileSync(path.join(prefix, "error.log"), "utf8")
        : "";
      throw new Error(`nginx exited at start:\n${log}`);
    }
    try {
      const ready = options.tls
        ? (await healthOverTls(port)) === 200
        : (await rawRequest(origin, { method: "GET", path: "/healthz", headers: {} }, 1_000)).status === 200;
      if (ready) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      const log = fs.readFileSync(path.join(prefix, "error.log"), "utf8");
      await stop();
      throw new Error(`nginx did not answer within 15 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin, port, prefix, child, stop, config };
}

/** Starts the app processes (the first alone, so that it applies the migrations), then nginx in front. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? console.log;
  const count = options.processes ?? 2;
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "masthead-cluster-data-"));
  const port = options.port ?? (await freePort(HOST));
  const command = readStartCommand(ROOT);
  const ports = await Promise.all(Array.from({ length: count }, () => freePort(HOST)));
  const startOne = async (index: number): Promise<AppProcess> => {
    const appPort = ports[index];
    const server = await startServer({
      name: `app ${index + 1}`,
      args: command.args,
      cwd: ROOT,
      host: HOST,
      port: appPort,
      stdio: options.stdio,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? os.tmpdir(),
        HOST,
        PORT: String(appPort),
        BASE_URL: `http://${HOST}:${port}`,
        TRUST_PROXY: "true",
        DATA_DIR: dataDir,
        DATABASE_URL: options.databaseUrl,
        LOG_LEVEL: "warn",
        ...options.env,
        // What the start script sets (NODE_ENV=production) wins, as under npm start.
        ...command.env,
      },
    });
    log(`app ${index + 1} ready on ${server.origin} (pid ${server.child.pid})`);
    return Object.assign(server, { port: appPort });
  };
  const processes: AppProcess[] = [];
  let nginx: (Nginx & { config: string }) | null = null;
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(processes.map((server) => server.stop()));
    if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    processes.push(await startOne(0));
    processes.push(...(await Promise.all(ports.slice(1).map((_, i) => startOne(i + 1)))));
    nginx = await startNginx({
      upstreams: processes.map((server) => `${HOST}:${server.port}`),
      port,
      cache: options.cache,
      upstreamHeader: options.upstreamHeader,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  log(`nginx ready on ${nginx.origin} in front of ${count} process(es)`);
  return {
    origin: nginx.origin,
    nginx,
    processes,
    dataDir,
    databaseUrl: options.databaseUrl,
    config: nginx.config,
    stop,
  };
}

/** `url` with another database name. */
export function withDatabase(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

/** Creates database `name` on the server `serverUrl` points at (unless it exists); answers its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  return withDatabase(serverUrl, name);
}

/** Drops database `name` on the server `serverUrl` points at, closing its connections. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

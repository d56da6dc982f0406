import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort, type RawResponse, rawRequest } from "./bench/http";
import { type LoadSettings, loadProblem, measure, stopLoad } from "./bench/load";
import { type Report, type Row, renderReport, renderTable } from "./bench/report";
import { prepareBenchData } from "./bench/seed";
import { type ServerProcess, startServer, stopAllServers } from "./bench/servers";
import { type BenchRequest, type BenchTarget, describeTarget, resolveTarget, TARGETS } from "./bench/targets";

/**
 * `npm run bench`: the production server on the demo content under load from
 * autocannon, beside a bare node:http server sending the same bytes; writes
 * BENCHMARKS.md. Options: --duration N, --warmup N, --connections N,
 * --only TEXT (repeatable), --no-build.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DATA_DIR = path.join(ROOT, "tmp", "bench-data");
const BASELINE_DIR = path.join(DATA_DIR, "baseline");
const STATIC_SERVER = path.join(ROOT, "scripts", "bench", "static-server.mjs");
const REPORT_FILE = path.join(ROOT, "BENCHMARKS.md");
const HOST = "127.0.0.1";
const BENCH_ADMIN = { email: "bench-admin@masthead.example", password: "bench-admin-password" };

type Options = LoadSettings & { build: boolean; only: string[] };

type Captured = { target: BenchTarget; request: BenchRequest; response: RawResponse };

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: "string", default: "10" },
      warmup: { type: "string", default: "2" },
      connections: { type: "string", default: "50" },
      only: { type: "string", multiple: true, default: [] },
      "no-build": { type: "boolean", default: false },
    },
  });
  const count = (name: string, value: string, min: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer of at least ${min}`);
    return n;
  };
  return {
    durationSeconds: count("duration", values.duration, 1),
    warmupSeconds: count("warmup", values.warmup, 0),
    connections: count("connections", values.connections, 1),
    only: values.only,
    build: !values["no-build"],
  };
}

function selectTargets(only: string[]): BenchTarget[] {
  if (only.length === 0) return TARGETS;
  const wanted = only.map((text) => text.toLowerCase());
  const selected = TARGETS.filter((target) =>
    wanted.some((text) => target.name.toLowerCase().includes(text) || target.path.toLowerCase().includes(text)),
  );
  if (selected.length === 0) throw new Error(`no target matches --only ${only.join(", ")}`);
  return selected;
}

async function login(app: ServerProcess): Promise<string> {
  const response = await rawRequest(app.origin, {
    method: "POST",
    path: "/api/login",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(BENCH_ADMIN),
  });
  const answer = JSON.parse(response.body.toString("utf8")) as { access_token?: string };
  if (response.status !== 200 || !answer.access_token) {
    throw new Error(`login failed: ${response.status} ${response.body.toString("utf8").slice(0, 300)}`);
  }
  return answer.access_token;
}

/** One request per target: checks it answers 200 and keeps the bytes for the baseline. */
async function capture(app: ServerProcess, target: BenchTarget, token: string): Promise<Captured> {
  const request = resolveTarget(target, { token });
  const response = await rawRequest(app.origin, request);
  if (response.status !== 200) {
    const excerpt = response.body.toString("utf8").slice(0, 300);
    throw new Error(`${describeTarget(target)} answered ${response.status}, not 200: ${excerpt}`);
  }
  return { target, request, response };
}

/** Headers the baseline repeats so that a client would read its bytes the same way. */
const REPEATED_HEADERS = ["content-type", "content-encoding"];

function writeBaselineManifest(captured: Captured[]): string {
  fs.mkdirSync(BASELINE_DIR, { recursive: true });
  const routes = captured.map(({ request, response }, index) => {
    const file = `response-${index}.bin`;
    fs.writeFileSync(path.join(BASELINE_DIR, file), response.body);
    const headers: Record<string, string> = {};
    for (const name of REPEATED_HEADERS) {
      const value = response.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    return {
      method: request.method,
      path: request.path,
      bearer: "Authorization" in request.headers,
      status: response.status,
      headers,
      file,
    };
  });
  const manifest = path.join(BASELINE_DIR, "manifest.json");
  fs.writeFileSync(manifest, `${JSON.stringify({ routes }, null, 2)}\n`);
  return manifest;
}

async function checkBaseline(baseline: ServerProcess, captured: Captured[]): Promise<void> {
  for (const { target, request, response } of captured) {
    const copy = await rawRequest(baseline.origin, request);
    if (copy.status !== response.status || !copy.body.equals(response.body)) {
      throw new Error(`the baseline does not send the app's bytes for ${describeTarget(target)}`);
    }
  }
}

function gitCommit(): string | null {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" });
  if (head.status !== 0) return null;
  const status = spawnSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" });
  return `${head.stdout.trim()}${status.stdout.trim() ? " with uncommitted changes" : ""}`;
}

async function main(): Promise<number> {
  const loadBefore = os.loadavg()[0];
  const options = parseOptions(process.argv.slice(2));
  const targets = selectTargets(options.only);

  if (options.build) {
    console.log("Building the production bundle…");
    const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
  const serverEntry = path.join(ROOT, "build", "server.js");
  if (!fs.existsSync(serverEntry)) throw new Error("build/server.js is missing: run without --no-build");

  console.log(`Preparing ${path.relative(ROOT, DATA_DIR)}…`);
  await prepareBenchData(DATA_DIR);

  const appPort = await freePort(HOST);
  const app = await startServer({
    name: "app",
    args: [serverEntry],
    cwd: ROOT,
    host: HOST,
    port: appPort,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST,
      PORT: String(appPort),
      BASE_URL: `http://${HOST}:${appPort}`,
      DATA_DIR,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
      TRUST_PROXY: "false",
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
    },
  });
  const idleAppRss = app.rss();
  console.log(`App server ready on ${app.origin} (pid ${app.child.pid}).`);

  const token = await login(app);
  const captured: Captured[] = [];
  for (const target of targets) captured.push(await capture(app, target, token));

  const baselinePort = await freePort(HOST);
  const baseline = await startServer({
    name: "baseline",
    args: [STATIC_SERVER, writeBaselineManifest(captured), String(baselinePort), HOST],
    cwd: ROOT,
    host: HOST,
    port: baselinePort,
    env: { ...process.env, NODE_ENV: "production" },
  });
  const idleBaselineRss = baseline.rss();
  await checkBaseline(baseline, captured);
  console.log(`Baseline server ready on ${baseline.origin} (pid ${baseline.child.pid}).`);

  const seconds = options.warmupSeconds + options.durationSeconds;
  console.log(
    `\nMeasuring ${captured.length} target(s), ${options.connections} connections, ` +
      `${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per run (about ${captured.length * 2 * seconds} s)…`,
  );
  const rows: Row[] = [];
  const failures: string[] = [];
  for (const { target, request, response } of captured) {
    console.log(`  ${describeTarget(target)}: app…`);
    const settings = { ...options, connections: target.connections ?? options.connections };
    const appFigures = await measure(app, request, settings);
    console.log(`  ${describeTarget(target)}: baseline…`);
    const baselineFigures = await measure(baseline, request, settings);
    for (const [server, figures] of [
      ["app", appFigures],
      ["baseline", baselineFigures],
    ] as const) {
      const problem = loadProblem(figures);
      if (problem) failures.push(`${describeTarget(target)} on the ${server}: ${problem}`);
    }
    rows.push({
      target,
      bytes: response.body.length,
      contentType: String(response.headers["content-type"] ?? ""),
      app: appFigures,
      baseline: baselineFigures,
    });
  }

  console.log(`\n${renderTable(rows)}\n`);
  if (failures.length > 0) {
    console.error(`Not written to BENCHMARKS.md:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
    return 1;
  }
  const report: Report = {
    date: new Date(),
    commit: gitCommit(),
    settings: options,
    loadBefore,
    idleRss: { app: idleAppRss, baseline: idleBaselineRss },
    rows,
  };
  fs.writeFileSync(REPORT_FILE, renderReport(report));
  console.log(`Written to ${path.relative(ROOT, REPORT_FILE)}.`);
  return 0;
}

let interrupted = false;
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the servers…`);
    stopLoad();
    stopAllServers().finally(() => process.exit(code));
  });
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  if (!interrupted) console.error(`\nBench failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await stopAllServers();
}
process.exit(exitCode);

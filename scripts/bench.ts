import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { runClusterBench } from "./bench/cluster";
import { type BeforeCheckout, prepareBefore, prepareBeforeData, removeBefore } from "./bench/compare";
import { runDigestBench } from "./bench/digest";
import { mib, ms } from "./bench/format";
import { freePort, type RawResponse, rawRequest } from "./bench/http";
import {
  AUTOCANNON_WARNING,
  chooseLoadGenerator,
  describeGenerator,
  type LoadFigures,
  type LoadGenerator,
  type LoadSettings,
  loadProblem,
  measure,
  stopLoad,
} from "./bench/load";
import {
  DEFAULT_CONNECTIONS,
  type Report,
  type Row,
  renderResults,
  renderTable,
  type Side,
  writeDocument,
} from "./bench/report";
import { BENCH_GROUP_CHAIR, BENCH_GROUP_MEMBER, prepareBenchData } from "./bench/seed";
import { type ServerProcess, startServer, stopAllServers } from "./bench/servers";
import { renderSoak, runSoak, SOAK_DEFAULT_CONNECTIONS, SOAK_DEFAULT_MINUTES } from "./bench/soak";
import { readStartCommand, type StartCommand } from "./bench/start-command";
import {
  type BenchCase,
  type BenchRequest,
  type BenchTarget,
  casesOf,
  describeCase,
  resolveTarget,
  shortLabel,
  soakCases,
  TARGETS,
} from "./bench/targets";

/**
 * `npm run bench`: the production server, started as `npm start` starts it, on
 * the demo content under load from wrk, beside a bare node:http server sending
 * the same bytes (precompressed with brotli for the br rows); with --compare, an
 * earlier commit's server too; with --soak, a long mixed load watching RSS.
 * Writes BENCHMARKS.md. Options: see parseOptions and BENCHMARKS.md "How to run".
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DATA_DIR = path.join(ROOT, "tmp", "bench-data");
const BEFORE_DATA_DIR = path.join(ROOT, "tmp", "bench-data-before");
const BASELINE_DIR = path.join(ROOT, "tmp", "bench-baseline");
const SCRIPT_DIR = path.join(ROOT, "tmp", "bench-wrk");
const STATIC_SERVER = path.join(ROOT, "scripts", "bench", "static-server.mjs");
const REPORT_FILE = path.join(ROOT, "BENCHMARKS.md");
const HOST = "127.0.0.1";
const BENCH_ADMIN = { email: "bench-admin@masthead.example", password: "bench-admin-password" };
/** JOIN_RATE_LIMIT's highest value (lib/env.ts): registrations an hour from one address. */
const BENCH_JOIN_RATE_LIMIT = 100_000;

type Options = LoadSettings & {
  build: boolean;
  only: string[];
  compare: string | null;
  soak: boolean;
  soakMinutes: number;
  soakConnections: number;
  autocannon: boolean;
  cluster: boolean;
  digest: boolean;
  postgresUrl: string;
};

/** A server of the app: the current checkout ("after") or the compared commit ("before"). */
type AppServer = {
  name: "before" | "after";
  process: ServerProcess;
  command: StartCommand;
  token: string;
  /** A member of the bench's working group (issue 36); empty where the build has no groups. */
  groupMemberToken: string;
  /** The group's chair (decision 0085); empty where the build has no chairs. */
  groupChairToken: string;
};

type Captured = { response: RawResponse; request: BenchRequest } | { skipped: string };

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: "string", default: "10" },
      warmup: { type: "string", default: "2" },
      connections: { type: "string", default: String(DEFAULT_CONNECTIONS) },
      only: { type: "string", multiple: true, default: [] },
      "no-build": { type: "boolean", default: false },
      compare: { type: "string" },
      soak: { type: "boolean", default: false },
      "soak-minutes": { type: "string", default: String(SOAK_DEFAULT_MINUTES) },
      "soak-connections": { type: "string", default: String(SOAK_DEFAULT_CONNECTIONS) },
      autocannon: { type: "boolean", default: false },
      cluster: { type: "boolean", default: false },
      digest: { type: "boolean", default: false },
      "postgres-url": { type: "string" },
    },
  });
  const count = (name: string, value: string, min: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer of at least ${min}`);
    return n;
  };
  if (values.soak && values.compare) throw new Error("--soak and --compare do not go together: soak one checkout");
  if (values.soak && values.only.length > 0) throw new Error("--only does not apply to --soak (its mix is fixed)");
  if (values.cluster && (values.soak || values.compare))
    throw new Error("--cluster goes alone (not with --soak or --compare)");
  return {
    durationSeconds: count("duration", values.duration, 1),
    warmupSeconds: count("warmup", values.warmup, 0),
    connections: count("connections", values.connections, 1),
    only: values.only,
    build: !values["no-build"],
    compare: values.compare ?? null,
    soak: values.soak,
    soakMinutes: count("soak-minutes", values["soak-minutes"], 1),
    soakConnections: count("soak-connections", values["soak-connections"], 1),
    autocannon: values.autocannon,
    cluster: values.cluster,
    digest: values.digest,
    postgresUrl:
      values["postgres-url"] ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
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

function commandLine(command: StartCommand): string {
  return [...Object.entries(command.env).map(([k, v]) => `${k}=${v}`), "node", ...command.args].join(" ");
}

/** An app server started from `checkout` exactly as its `npm start` would, on `dataDir`. */
async function startApp(name: AppServer["name"], checkout: string, dataDir: string): Promise<AppServer> {
  const command = readStartCommand(checkout);
  const port = await freePort(HOST);
  const process_ = await startServer({
    name,
    args: command.args,
    cwd: checkout,
    host: HOST,
    port,
    env: {
      ...process.env,
      HOST,
      PORT: String(port),
      BASE_URL: `http://${HOST}:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
      TRUST_PROXY: "false",
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      // The registration row sends thousands of registrations from one address: the per-address
      // limit (30 an hour by default) lifted to its highest, for the bench's server only.
      JOIN_RATE_LIMIT: String(BENCH_JOIN_RATE_LIMIT),
      // What the start script sets (NODE_ENV=production) wins, as under npm start.
      ...command.env,
    },
  });
  console.log(`${name} server ready on ${process_.origin} (pid ${process_.child.pid}): ${commandLine(command)}`);
  const token = await login(process_, BENCH_ADMIN);
  // A build before working groups has no such member: its group rows answer 401 and are skipped.
  const groupMemberToken = await login(process_, BENCH_GROUP_MEMBER).catch(() => "");
  const groupChairToken = await login(process_, BENCH_GROUP_CHAIR).catch(() => "");
  return { name, process: process_, command, token, groupMemberToken, groupChairToken };
}

async function login(app: ServerProcess, who: { email: string; password: string }): Promise<string> {
  const response = await rawRequest(app.origin, {
    method: "POST",
    path: "/api/login",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(who),
  });
  const answer = JSON.parse(response.body.toString("utf8")) as { access_token?: string };
  if (response.status !== 200 || !answer.access_token) {
    throw new Error(`login failed: ${response.status} ${response.body.toString("utf8").slice(0, 300)}`);
  }
  return answer.access_token;
}

/** One request for a row: does it answer 200 (with br when asked)? Keeps the bytes for the baseline. */
async function capture(app: AppServer, benchCase: BenchCase): Promise<Captured> {
  const request = resolveTarget(
    benchCase.target,
    { token: app.token, groupMemberToken: app.groupMemberToken, groupChairToken: app.groupChairToken },
    benchCase.encoding,
  );
  const response = await rawRequest(app.process.origin, request);
  if (response.status !== 200) {
    return { skipped: `answered ${response.status}, not 200: ${response.body.toString("utf8").slice(0, 200)}` };
  }
  if (benchCase.encoding === "br" && response.headers["content-encoding"] !== "br") {
    return { skipped: `answered with Content-Encoding ${response.headers["content-encoding"] ?? "none"}, not br` };
  }
  return { response, request };
}

/** Headers the baseline repeats so that a client would read its bytes the same way. */
const REPEATED_HEADERS = ["content-type"];

const routeKey = (request: BenchRequest) =>
  `${request.method} ${request.path}${"Authorization" in request.headers ? " (Bearer)" : ""}`;

/** The baseline's routes: each target's identity bytes from the app; pages also get a br variant. */
function writeBaselineManifest(cases: BenchCase[], captured: Map<BenchCase, Captured>): string {
  fs.rmSync(BASELINE_DIR, { recursive: true, force: true });
  fs.mkdirSync(BASELINE_DIR, { recursive: true });
  const seen = new Map<string, BenchTarget>();
  const routes = cases
    .filter((c) => c.encoding === "identity")
    .map((c, index) => {
      const answer = captured.get(c);
      if (!answer || "skipped" in answer) throw new Error(`${describeCase(c)}: nothing captured`);
      const key = routeKey(answer.request);
      const other = seen.get(key);
      if (other) throw new Error(`"${other.name}" and "${c.target.name}" are one request to the baseline (${key})`);
      seen.set(key, c.target);
      const file = `response-${index}.bin`;
      fs.writeFileSync(path.join(BASELINE_DIR, file), answer.response.body);
      const headers: Record<string, string> = {};
      for (const name of REPEATED_HEADERS) {
        const value = answer.response.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      return {
        method: answer.request.method,
        path: answer.request.path,
        bearer: "Authorization" in answer.request.headers,
        status: answer.response.status,
        headers,
        file,
        brotli: c.target.kind === "page" || c.target.encoded === true,
      };
    });
  const manifest = path.join(BASELINE_DIR, "manifest.json");
  fs.writeFileSync(manifest, `${JSON.stringify({ routes }, null, 2)}\n`);
  return manifest;
}

/** Checks the baseline sends the app's bytes (br rows: the app's identity bytes, brotli-compressed); returns its body size per row. */
async function checkBaseline(
  baseline: ServerProcess,
  cases: BenchCase[],
  captured: Map<BenchCase, Captured>,
): Promise<Map<BenchCase, number>> {
  const sizes = new Map<BenchCase, number>();
  for (const c of cases) {
    const answer = captured.get(c);
    const identity = captured.get(cases.find((o) => o.target === c.target && o.encoding === "identity") ?? c);
    if (!answer || "skipped" in answer || !identity || "skipped" in identity) throw new Error("nothing captured");
    const copy = await rawRequest(baseline.origin, answer.request);
    const body =
      c.encoding === "br" && copy.headers["content-encoding"] === "br"
        ? zlib.brotliDecompressSync(copy.body)
        : copy.body;
    const encodingRight =
      (copy.headers["content-encoding"] ?? "identity") === (c.encoding === "br" ? "br" : "identity");
    if (copy.status !== 200 || !encodingRight || !body.equals(identity.response.body)) {
      throw new Error(`the baseline does not send the app's bytes for ${describeCase(c)}`);
    }
    sizes.set(c, copy.body.length);
  }
  return sizes;
}

function gitCommit(): string | null {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" });
  if (head.status !== 0) return null;
  const status = spawnSync("git", ["status", "--porcelain", "--", ".", ":!BENCHMARKS.md"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return `${head.stdout.trim()}${status.stdout.trim() ? " with uncommitted changes" : ""}`;
}

function progress(label: string, server: string, figures: LoadFigures): void {
  const cpu = figures.cpuMsPerRequest === null ? "n/a" : figures.cpuMsPerRequest.toFixed(3);
  console.log(
    `  ${label} — ${server}: ${Math.round(figures.requestsPerSecond).toLocaleString("en-US")} req/s, ` +
      `p50 ${ms(figures.p50Ms)} ms, p99 ${ms(figures.p99Ms)} ms, ${cpu} CPU ms/req, peak RSS ${mib(figures.peakRss)} MiB` +
      `${figures.non2xx > 0 ? `, ${figures.non2xx} non-2xx` : ""}`,
  );
}

function buildApp(): void {
  console.log("Building the production bundle…");
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build failed");
}

let before: BeforeCheckout | null = null;
let comparing = false;

async function main(): Promise<number> {
  const loadBefore = os.loadavg()[0];
  const options = parseOptions(process.argv.slice(2));
  if (options.digest) return digest();
  const cases = casesOf(selectTargets(options.only));
  const generator = chooseLoadGenerator(options.autocannon, console.log);
  if (generator.kind === "autocannon") console.warn(`\nWARNING: ${AUTOCANNON_WARNING}\n`);
  console.log(`Load generator: ${describeGenerator(generator)}.`);

  fs.rmSync(SCRIPT_DIR, { recursive: true, force: true });
  if (options.build) buildApp();
  if (!fs.existsSync(path.join(ROOT, "build", "server.js"))) {
    throw new Error("build/server.js is missing: run without --no-build");
  }
  if (options.cluster) return cluster(options, generator);
  if (options.compare) {
    comparing = true;
    before = prepareBefore(ROOT, options.compare, console.log);
  }

  console.log(`Preparing ${path.relative(ROOT, DATA_DIR)}…`);
  await prepareBenchData(DATA_DIR);
  const beforeData = before ? prepareBeforeData(ROOT, before, DATA_DIR, BEFORE_DATA_DIR) : null;
  if (options.soak) return soak(options, generator, loadBefore);

  const apps: AppServer[] = [];
  if (before) apps.push(await startApp("before", before.dir, BEFORE_DATA_DIR));
  apps.push(await startApp("after", ROOT, DATA_DIR));
  const after = apps[apps.length - 1];
  const idleRss = new Map(apps.map((app) => [app.name, app.process.rss()]));

  const captures = new Map<AppServer["name"], Map<BenchCase, Captured>>();
  for (const app of apps) {
    const captured = new Map<BenchCase, Captured>();
    for (const c of cases) {
      const answer = await capture(app, c);
      if ("skipped" in answer) {
        if (app.name === "after") throw new Error(`${describeCase(c)} ${answer.skipped}`);
        console.warn(`  ${shortLabel(c)} on before: ${answer.skipped}; not measured there`);
      }
      captured.set(c, answer);
    }
    captures.set(app.name, captured);
  }
  const afterCaptured = captures.get("after") ?? new Map<BenchCase, Captured>();

  const baselinePort = await freePort(HOST);
  const baseline = await startServer({
    name: "baseline",
    args: [STATIC_SERVER, writeBaselineManifest(cases, afterCaptured), String(baselinePort), HOST],
    cwd: ROOT,
    host: HOST,
    port: baselinePort,
    env: { ...process.env, NODE_ENV: "production" },
  });
  const idleBaselineRss = baseline.rss();
  const baselineSizes = await checkBaseline(baseline, cases, afterCaptured);
  console.log(`Baseline server ready on ${baseline.origin} (pid ${baseline.child.pid}).`);

  const runs = cases.length * (apps.length + 1);
  const seconds = options.warmupSeconds + options.durationSeconds;
  console.log(
    `\nMeasuring ${cases.length} row(s) on ${apps.length + 1} servers, ${options.connections} connections ` +
      `(signed-in rows fewer), ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per run ` +
      `(about ${Math.ceil((runs * seconds) / 60)} min)…`,
  );
  const rows: Row[] = [];
  const failures: string[] = [];
  for (const [index, c] of cases.entries()) {
    const settings = { ...options, connections: c.target.connections ?? options.connections };
    const label = shortLabel(c);
    const sides = new Map<string, Side>();
    const servers: { name: string; process: ServerProcess; captured: Captured | undefined; bytes: number | null }[] = [
      ...apps.map((app) => {
        const captured = captures.get(app.name)?.get(c);
        return {
          name: app.name,
          process: app.process,
          captured,
          bytes: captured && "response" in captured ? captured.response.body.length : null,
        };
      }),
      { name: "baseline", process: baseline, captured: afterCaptured.get(c), bytes: baselineSizes.get(c) ?? null },
    ];
    for (const server of servers) {
      if (!server.captured || "skipped" in server.captured || server.bytes === null) {
        sides.set(server.name, {
          skipped: server.captured && "skipped" in server.captured ? server.captured.skipped : "not captured",
        });
        continue;
      }
      const scriptFile = path.join(SCRIPT_DIR, `${String(index).padStart(2, "0")}-${server.name}.lua`);
      const figures = await measure(generator, server.process, server.captured.request, settings, scriptFile);
      progress(label, server.name === "after" && !before ? "app" : server.name, figures);
      const problem = loadProblem(figures);
      if (problem) failures.push(`${describeCase(c)} on ${server.name}: ${problem}`);
      sides.set(server.name, { figures, bytes: figures.sentBytes ?? server.bytes });
    }
    const afterSide = sides.get("after");
    const baselineSide = sides.get("baseline");
    if (!afterSide || !baselineSide) throw new Error(`${label}: not measured`);
    rows.push({
      case: c,
      after: afterSide,
      baseline: baselineSide,
      ...(before ? { before: sides.get("before") } : {}),
    });
  }

  console.log(`\n${renderTable(rows)}\n`);
  if (failures.length > 0) {
    console.error(`Not written to BENCHMARKS.md:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
    return 1;
  }
  const beforeApp = apps.find((app) => app.name === "before");
  const report: Report = {
    date: new Date(),
    commit: gitCommit(),
    compare: before && beforeData ? { short: before.short, subject: before.subject, data: beforeData } : null,
    generator: describeGenerator(generator),
    settings: options,
    loadBefore,
    only: options.only,
    servers: {
      after: { command: commandLine(after.command), idleRss: idleRss.get("after") ?? null },
      before: beforeApp ? { command: commandLine(beforeApp.command), idleRss: idleRss.get("before") ?? null } : null,
      baseline: { command: "node scripts/bench/static-server.mjs", idleRss: idleBaselineRss },
    },
    rows,
  };
  writeDocument(REPORT_FILE, options.only.length > 0 ? "partial" : "results", renderResults(report));
  console.log(
    `Written to ${path.relative(ROOT, REPORT_FILE)} ("${options.only.length > 0 ? "Latest partial run" : "Latest run"}").`,
  );
  return 0;
}

/** `--digest`: the weekly digest job at 1 000 and 5 000 members (issue 33), written to "Weekly digest". */
async function digest(): Promise<number> {
  const { section, failures } = await runDigestBench({ root: ROOT, scratch: SCRIPT_DIR, log: console.log });
  console.log(`\n${section}\n`);
  writeDocument(REPORT_FILE, "digest", section);
  console.log(`Written to ${path.relative(ROOT, REPORT_FILE)} ("Weekly digest").`);
  if (failures.length > 0) {
    console.error(`Goals missed:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
    return 1;
  }
  return 0;
}

async function cluster(options: Options, generator: LoadGenerator): Promise<number> {
  const { section, failures } = await runClusterBench({
    root: ROOT,
    generator,
    settings: options,
    generatorName: describeGenerator(generator),
    scriptDir: SCRIPT_DIR,
    postgresUrl: options.postgresUrl,
    log: console.log,
  });
  console.log(`\n${section}\n`);
  if (failures.length > 0) {
    console.error(`Not written to BENCHMARKS.md:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
    return 1;
  }
  writeDocument(REPORT_FILE, "cluster", section);
  console.log(`Written to ${path.relative(ROOT, REPORT_FILE)} ("Cluster").`);
  return 0;
}

async function soak(options: Options, generator: LoadGenerator, loadBefore: number): Promise<number> {
  const app = await startApp("after", ROOT, DATA_DIR);
  const idleRss = app.process.rss();
  const mix = soakCases();
  const requests: BenchRequest[] = [];
  for (const c of mix) {
    const answer = await capture(app, c);
    if ("skipped" in answer) throw new Error(`${describeCase(c)} ${answer.skipped}`);
    requests.push(answer.request);
  }
  console.log(
    `\nSoak: ${mix.length} requests in turn, ${options.soakConnections} connections, ${options.soakMinutes} min; ` +
      "RSS every 5 s…",
  );
  const { run, samples, cpuMs } = await runSoak(generator, app.process, requests, {
    minutes: options.soakMinutes,
    connections: options.soakConnections,
    scriptFile: path.join(SCRIPT_DIR, "soak.lua"),
  });
  const section = renderSoak({
    date: new Date(),
    commit: gitCommit(),
    generator: describeGenerator(generator),
    command: commandLine(app.command),
    loadBefore,
    minutes: options.soakMinutes,
    connections: options.soakConnections,
    mix,
    idleRss,
    run,
    cpuMs,
    samples,
  });
  console.log(`\n${section}\n`);
  writeDocument(REPORT_FILE, "soak", section);
  console.log(`Written to ${path.relative(ROOT, REPORT_FILE)} ("Soak").`);
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
    stopAllServers().finally(() => {
      if (comparing) removeBefore(ROOT);
      process.exit(code);
    });
  });
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  if (!interrupted) console.error(`\nBench failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await stopAllServers();
  if (comparing && !interrupted) {
    removeBefore(ROOT);
    console.log("Removed tmp/bench-before.");
  }
}
process.exit(exitCode);

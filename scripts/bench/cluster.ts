import os from "node:os";
import path from "node:path";
import {
  type AppProcess,
  createDatabase,
  dropDatabase,
  startCluster,
  startNginx,
  withDatabase,
} from "../cluster/start";
import { mib, ms } from "./format";
import { freePort, rawRequest } from "./http";
import { type LoadFigures, type LoadGenerator, type LoadSettings, loadProblem, measure } from "./load";
import { EXTRA_DATA, prepareBenchData } from "./seed";
import { type ServerProcess, startServer } from "./servers";
import { readStartCommand } from "./start-command";
import { type BenchCase, type BenchRequest, casesOf, describeCase, resolveTarget, TARGETS } from "./targets";

/**
 * `npm run bench -- --cluster`: the site on two processes on PostgreSQL behind
 * nginx, beside one process on SQLite (what `npm start` runs by default), for
 * a cached page and a rendered one (decision 0031). Kept short: two rows,
 * four setups. Writes the "Cluster" section of BENCHMARKS.md.
 */
const HOST = "127.0.0.1";
const ADMIN = { email: "bench-admin@masthead.example", password: "bench-admin-password" };
/** Only the news posts: the rows are the news list, cached and rendered. */
const DATA = EXTRA_DATA.filter((step) => step.name.startsWith("10 000 news"));
const ROWS = TARGETS.filter(
  (target) => target.name === "News list, 10 000 posts" || target.name === "News list, signed in",
);
const DATABASE = "masthead_bench_cluster";

type Measured = { figures: LoadFigures; processes: number };
type Setup = { name: string; origin: string; processes: ServerProcess[]; skip?: (c: BenchCase) => boolean };

/** The cluster's processes as one server for `measure`: their CPU time and RSS added up. */
function together(origin: string, processes: ServerProcess[]) {
  const sum = (read: (p: ServerProcess) => number | null) => {
    const values = processes.map(read);
    return values.some((v) => v === null) ? null : (values as number[]).reduce((a, b) => a + b, 0);
  };
  return { origin, rss: () => sum((p) => p.rss()), cpuMs: () => sum((p) => p.cpuMs()) };
}

async function tokenAt(origin: string): Promise<string> {
  const response = await rawRequest(origin, {
    method: "POST",
    path: "/api/login",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  const token = (JSON.parse(response.body.toString("utf8")) as { access_token?: string }).access_token;
  if (!token) throw new Error(`login at ${origin} failed: ${response.status}`);
  return token;
}

export async function runClusterBench(options: {
  root: string;
  generator: LoadGenerator;
  settings: LoadSettings;
  generatorName: string;
  scriptDir: string;
  postgresUrl: string;
  log: (message: string) => void;
}): Promise<{ section: string; failures: string[] }> {
  const { root, log } = options;
  const loadBefore = os.loadavg()[0];
  const sqliteDir = path.join(root, "tmp", "bench-cluster-sqlite");
  const clusterDir = path.join(root, "tmp", "bench-cluster-data");
  const serverUrl = withDatabase(options.postgresUrl, "postgres");
  await dropDatabase(serverUrl, DATABASE);
  const databaseUrl = await createDatabase(serverUrl, DATABASE);
  log("Seeding the SQLite data and the PostgreSQL database (demo content and 10 000 news posts)…");
  await prepareBenchData(sqliteDir, DATA);
  await prepareBenchData(clusterDir, DATA, databaseUrl);

  const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: "warn" };
  const command = readStartCommand(root);
  const port = await freePort(HOST);
  const single = await startServer({
    name: "SQLite",
    args: command.args,
    cwd: root,
    host: HOST,
    port,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      HOST,
      PORT: String(port),
      BASE_URL: `http://${HOST}:${port}`,
      DATA_DIR: sqliteDir,
      ...env,
      ...command.env,
    },
  });
  const cluster = await startCluster({ databaseUrl, dataDir: clusterDir, env, cache: false, log });
  const processes: AppProcess[] = cluster.processes;
  const oneBehindNginx = await startNginx({ upstreams: [`${HOST}:${processes[0].port}`], cache: false });
  const nginxCache = await startNginx({ upstreams: processes.map((p) => `${HOST}:${p.port}`), cache: true });
  try {
    const setups: Setup[] = [
      { name: "1 process, SQLite (direct)", origin: single.origin, processes: [single] },
      { name: "1 process, PostgreSQL, behind nginx", origin: oneBehindNginx.origin, processes: [processes[0]] },
      { name: "2 processes, PostgreSQL, behind nginx", origin: cluster.origin, processes },
      {
        name: "2 processes, PostgreSQL, nginx's cache on",
        origin: nginxCache.origin,
        processes,
        skip: (c) => c.target.kind !== "page",
      },
    ];
    const tokens = new Map<string, string>();
    for (const setup of setups) tokens.set(setup.name, await tokenAt(setup.origin));
    const cases = casesOf(ROWS).filter((c) => c.target.kind !== "page" || c.encoding === "br");
    const results = new Map<string, Map<BenchCase, Measured>>();
    const failures: string[] = [];
    for (const c of cases) {
      for (const setup of setups) {
        if (setup.skip?.(c)) continue;
        const request: BenchRequest = resolveTarget(c.target, { token: tokens.get(setup.name) ?? "" }, c.encoding);
        const check = await rawRequest(setup.origin, request);
        if (check.status !== 200) throw new Error(`${describeCase(c)} on ${setup.name} answered ${check.status}`);
        const settings = { ...options.settings, connections: c.target.connections ?? options.settings.connections };
        const scriptFile = path.join(options.scriptDir, `cluster-${results.size}-${setup.processes.length}.lua`);
        const figures = await measure(
          options.generator,
          together(setup.origin, setup.processes),
          request,
          settings,
          scriptFile,
        );
        const problem = loadProblem(figures);
        if (problem) failures.push(`${describeCase(c)} on ${setup.name}: ${problem}`);
        log(
          `  ${c.target.name} — ${setup.name}: ${Math.round(figures.requestsPerSecond)} req/s, p99 ${ms(figures.p99Ms)} ms`,
        );
        const row = results.get(setup.name) ?? new Map<BenchCase, Measured>();
        row.set(c, { figures, processes: setup.processes.length });
        results.set(setup.name, row);
      }
    }
    return { section: render({ ...options, loadBefore }, setups, cases, results), failures };
  } finally {
    await nginxCache.stop();
    await oneBehindNginx.stop();
    await cluster.stop();
    await single.stop();
    await dropDatabase(serverUrl, DATABASE);
  }
}

function render(
  options: { settings: LoadSettings; generatorName: string; loadBefore: number },
  setups: Setup[],
  cases: BenchCase[],
  results: Map<string, Map<BenchCase, Measured>>,
): string {
  const lines = [
    "## Cluster",
    "",
    `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with ${options.generatorName}, ` +
      `${options.settings.warmupSeconds} s warm-up + ${options.settings.durationSeconds} s per row, on this machine's ` +
      "2 cores, which the app processes, PostgreSQL, nginx and wrk all share. nginx's page cache is off except in " +
      "the last setup; CPU ms/req and RSS are the app processes' (added up), not nginx's or PostgreSQL's. " +
      `Load average before the run: ${options.loadBefore.toFixed(2)}.`,
    "",
  ];
  for (const c of cases) {
    lines.push(
      `### ${describeCase(c)}`,
      "",
      "| setup | req/s | p50 ms | p99 ms | app CPU ms/req | app RSS MiB |",
      "|---|---:|---:|---:|---:|---:|",
    );
    for (const setup of setups) {
      const measured = results.get(setup.name)?.get(c);
      if (!measured) continue;
      const f = measured.figures;
      lines.push(
        `| ${setup.name} | ${Math.round(f.requestsPerSecond).toLocaleString("en-US")} | ${ms(f.p50Ms)} | ${ms(f.p99Ms)} | ` +
          `${f.cpuMsPerRequest === null ? "n/a" : f.cpuMsPerRequest.toFixed(2)} | ${mib(f.peakRss)} |`,
      );
    }
    const one = results.get(setups[1].name)?.get(c)?.figures.requestsPerSecond;
    const two = results.get(setups[2].name)?.get(c)?.figures.requestsPerSecond;
    if (one && two) lines.push("", `Two processes behind nginx against one: ×${(two / one).toFixed(2)}.`);
    lines.push("");
  }
  return lines.join("\n").trimEnd();
}

import os from "node:os";
import type { LoadFigures, LoadSettings } from "./load";
import { type BenchTarget, describeTarget } from "./targets";

export type Row = {
  target: BenchTarget;
  /** Body bytes of the response, identical for the app and the baseline. */
  bytes: number;
  contentType: string;
  app: LoadFigures;
  baseline: LoadFigures;
};

export type Report = {
  date: Date;
  commit: string | null;
  settings: LoadSettings;
  /** 1-minute load average when the bench started: other work on the machine skews the figures. */
  loadBefore: number;
  /** RSS of each server once ready, before any load. */
  idleRss: { app: number | null; baseline: number | null };
  rows: Row[];
};

const MIB = 1024 * 1024;

const rate = (value: number) => Math.round(value).toLocaleString("en-US");
/** autocannon records latency in whole milliseconds; 0 means under one. */
const ms = (value: number) => (value < 1 ? "<1" : Math.round(value).toString());
const mib = (bytes: number | null) => (bytes === null ? "n/a" : (bytes / MIB).toFixed(1));
const ratio = (app: number, baseline: number) => (baseline > 0 ? `${Math.round((app / baseline) * 100)} %` : "n/a");

export function machine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() ?? "unknown CPU";
  const memory = (os.totalmem() / 1024 ** 3).toFixed(1);
  return `${model} × ${cpus.length}, ${memory} GiB RAM, ${os.type()} ${os.release()} (${os.arch()}), Node ${process.version}`;
}

export function renderTable(rows: Row[]): string {
  const header = [
    "Target",
    "App req/s",
    "App p50 ms",
    "App p99 ms",
    "App peak RSS MiB",
    "Baseline req/s",
    "Baseline p50 ms",
    "Baseline p99 ms",
    "Baseline peak RSS MiB",
    "App / baseline req/s",
    "Response bytes",
  ];
  const lines = rows.map((row) => [
    describeTarget(row.target),
    rate(row.app.requestsPerSecond),
    ms(row.app.p50Ms),
    ms(row.app.p99Ms),
    mib(row.app.peakRss),
    rate(row.baseline.requestsPerSecond),
    ms(row.baseline.p50Ms),
    ms(row.baseline.p99Ms),
    mib(row.baseline.peakRss),
    ratio(row.app.requestsPerSecond, row.baseline.requestsPerSecond),
    row.bytes.toLocaleString("en-US"),
  ]);
  const align = header.map((_, i) => (i === 0 ? "---" : "---:"));
  return [header, align, ...lines].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

export function renderReport(report: Report): string {
  const { settings } = report;
  const date = `${report.date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return `# Benchmarks

Written by \`npm run bench\` (scripts/bench.ts); run it again to refresh these figures.

- **Date:** ${date}${report.commit ? ` — commit ${report.commit}` : ""}
- **Machine:** ${machine()}; 1-minute load average ${report.loadBefore.toFixed(2)} before the run
- **Load:** autocannon, ${settings.connections} connections over loopback, ${settings.warmupSeconds} s warm-up then ${settings.durationSeconds} s measured per target and server
- **Data:** a fresh SQLite database with the demo content
- **Idle RSS once ready:** app ${mib(report.idleRss.app)} MiB, baseline ${mib(report.idleRss.baseline)} MiB

${renderTable(report.rows)}

Every measured request was answered 2xx, without socket errors or timeouts.

## How to run

\`\`\`sh
npm run bench                     # build, seed, measure (10 s per target and server)
npm run bench -- --duration 5     # shorter runs
npm run bench -- --no-build       # reuse build/ as it is
npm run bench -- --only login     # only the targets whose name or path contains "login"
\`\`\`

Other options: \`--connections N\` (default 50), \`--warmup N\` seconds (default 2).
The bench builds the app, seeds a fresh \`tmp/bench-data\` with the demo content, starts
\`node build/server.js\` (NODE_ENV=production, LOG_LEVEL=warn), signs in once for a Bearer
token, fetches every target once and checks it answers 200, then starts the baseline
(scripts/bench/static-server.mjs) with the captured bytes. Each target is then loaded
on the app and on the baseline in turn. The targets are listed in scripts/bench/targets.ts;
data beyond the demo content goes in \`EXTRA_DATA\` in scripts/bench/seed.ts.

## Reading the figures

- **App** is the production server doing its full work for every request: the
  middleware chain (request log, security headers with a fresh CSP nonce, session
  lookup in SQLite, CSRF check, compression negotiation) and, for pages, React
  Router's loaders and server rendering of the HTML.
- Pages for anonymous visitors come from the page cache (server/middleware/page-cache.ts):
  rendered once, then served from memory with a fresh nonce until the content version
  in the database moves or a minute passes; each hit still reads that version. Rows
  marked "signed in" carry a Bearer token, which bypasses the cache, so they show the
  cost of rendering the page on every request.
- **Baseline** is a bare \`node:http\` server answering the same request with the same
  body bytes and Content-Type, held in memory. It is the ceiling for one Node process
  on this machine; the gap between the two columns is what our code costs. The
  baseline sends none of the app's security headers, which matters most for small
  responses such as the API call.
- Requests carry no Accept-Encoding, so both servers send identical uncompressed bytes.
  Browsers ask for br or gzip, which adds compression work in the app on every page.
- **req/s** is the mean of per-second samples. **p50/p99** are latencies under
  saturation with ${settings.connections} requests always in flight, so they are roughly
  connections ÷ throughput, not the latency of a lone request.
- Rows that name their own number of connections use it instead. The rendered-each-time rows
  use 10: at 50 a render-bound process is saturated, and a saturated Node process serves its
  sockets unevenly, so a few requests wait many seconds (p99 of 5–7 s, some client timeouts).
  That is Node, not our code: a bare \`node:http\` server that spends 11 ms per request shows
  the same p99 of about 6 s at 50 connections; the time from Node's \`request\` event to the
  last byte written stays under 25 ms at p99 in both.
- **RSS** is the server process's resident memory, sampled every 250 ms during the
  measured run; the peak is reported. The same app process serves all targets in turn,
  so a row includes what earlier rows left in memory.
- autocannon runs on the same machine as the server and competes with it for CPU, so
  compare rows and ratios within one run rather than absolute figures across machines.
`;
}

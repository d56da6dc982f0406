import fs from "node:fs";
import { cpu, machine, mib, ms, percent, rate } from "./format";
import type { LoadFigures, LoadSettings } from "./load";
import { SOAK_DEFAULT_CONNECTIONS, SOAK_DEFAULT_MINUTES } from "./soak";
import { type BenchCase, describeCase, RENDERED_CONNECTIONS } from "./targets";

/** One server's answer to a row: its figures and the body bytes it sent, or why it was not measured. */
export type Side = { figures: LoadFigures; bytes: number } | { skipped: string };

export type Row = {
  case: BenchCase;
  /** The current checkout's server ("app" without --compare). */
  after: Side;
  /** The --compare commit's server. */
  before?: Side;
  baseline: Side;
};

export type ServerInfo = {
  /** How it was started, e.g. "NODE_ENV=production node build/server.js". */
  command: string;
  /** RSS once ready, before any load. */
  idleRss: number | null;
};

export type Report = {
  date: Date;
  commit: string | null;
  compare: { short: string; subject: string; data: string } | null;
  generator: string;
  settings: LoadSettings;
  /** 1-minute load average when the bench started: other work on the machine skews the figures. */
  loadBefore: number;
  only: string[];
  servers: { after: ServerInfo; before: ServerInfo | null; baseline: ServerInfo };
  rows: Row[];
};

export const DEFAULT_CONNECTIONS = 50;
/** Goals of issue 15. */
const PAGE_RATIO_GOAL = 0.5;
const PAGE_P99_GOAL_MS = 10;
const API_P99_GOAL_MS = 20;
/** Signed-in pages: this many times the compared (older) build's req/s. */
const SIGNED_IN_SPEEDUP_GOAL = 3;

const figuresOf = (side: Side | undefined): LoadFigures | null => (side && "figures" in side ? side.figures : null);

function cell(side: Side | undefined, show: (figures: LoadFigures) => string): string {
  if (!side) return "";
  return "figures" in side ? show(side.figures) : "—";
}

function bytesCell(sides: (Side | undefined)[]): string {
  return sides
    .filter((side): side is Side => side !== undefined)
    .map((side) => ("bytes" in side ? side.bytes.toLocaleString("en-US") : "—"))
    .join(" / ");
}

/** The goal of issue 15 for this row, met or not; "—" where there is none. */
export function goalCheck(row: Row): string {
  const app = figuresOf(row.after);
  const baseline = figuresOf(row.baseline);
  if (!app) return "—";
  const kind = row.case.target.kind;
  if (kind === "page" && baseline) {
    const ratio = app.requestsPerSecond / baseline.requestsPerSecond;
    const misses = [
      ratio < PAGE_RATIO_GOAL ? `${percent(app.requestsPerSecond, baseline.requestsPerSecond)} of baseline` : "",
      app.p99Ms >= PAGE_P99_GOAL_MS ? `p99 ${ms(app.p99Ms)} ms` : "",
    ].filter(Boolean);
    return misses.length === 0 ? "met" : `missed: ${misses.join(", ")}`;
  }
  if (kind === "signed-in") {
    const before = figuresOf(row.before);
    if (!before) return "—";
    const speedup = app.requestsPerSecond / before.requestsPerSecond;
    return speedup >= SIGNED_IN_SPEEDUP_GOAL ? "met" : `missed: ×${speedup.toFixed(2)} of before`;
  }
  if (kind === "api-list") return app.p99Ms < API_P99_GOAL_MS ? "met" : `missed: p99 ${ms(app.p99Ms)} ms`;
  return "—";
}

export function renderTable(rows: Row[]): string {
  const compared = rows.some((row) => row.before !== undefined);
  const servers: { label: string; side: (row: Row) => Side | undefined }[] = compared
    ? [
        { label: "before", side: (row) => row.before },
        { label: "after", side: (row) => row.after },
        { label: "baseline", side: (row) => row.baseline },
      ]
    : [
        { label: "app", side: (row) => row.after },
        { label: "baseline", side: (row) => row.baseline },
      ];
  const appServers = servers.filter((server) => server.label !== "baseline");
  const appLabel = compared ? "after" : "app";
  const columns: { header: string; value: (row: Row) => string }[] = [
    { header: "Target", value: (row) => describeCase(row.case) },
    {
      header: `Bytes ${servers.map((s) => s.label).join(" / ")}`,
      value: (row) => bytesCell(servers.map((s) => s.side(row))),
    },
    ...servers.map((s) => ({
      header: `req/s ${s.label}`,
      value: (row: Row) => cell(s.side(row), (f) => rate(f.requestsPerSecond)),
    })),
    ...servers.map((s) => ({
      header: `p50 ms ${s.label}`,
      value: (row: Row) => cell(s.side(row), (f) => ms(f.p50Ms)),
    })),
    ...servers.map((s) => ({
      header: `p99 ms ${s.label}`,
      value: (row: Row) => cell(s.side(row), (f) => ms(f.p99Ms)),
    })),
    ...servers.map((s) => ({
      header: `CPU ms/req ${s.label}`,
      value: (row: Row) => cell(s.side(row), (f) => cpu(f.cpuMsPerRequest)),
    })),
    ...appServers.map((s) => ({
      header: `peak RSS MiB ${s.label}`,
      value: (row: Row) => cell(s.side(row), (f) => mib(f.peakRss)),
    })),
    {
      header: `${appLabel} / baseline req/s`,
      value: (row) => {
        const app = figuresOf(row.after);
        const baseline = figuresOf(row.baseline);
        return app && baseline ? percent(app.requestsPerSecond, baseline.requestsPerSecond) : "—";
      },
    },
    ...(compared
      ? [
          {
            header: "after / before req/s",
            value: (row: Row) => {
              const after = figuresOf(row.after);
              const before = figuresOf(row.before);
              return after && before ? percent(after.requestsPerSecond, before.requestsPerSecond) : "—";
            },
          },
        ]
      : []),
    { header: "Goal (issue 15)", value: goalCheck },
  ];
  const header = columns.map((c) => c.header);
  const align = columns.map((_, i) => (i === 0 ? "---" : i === columns.length - 1 ? "---" : "---:"));
  const lines = rows.map((row) => columns.map((c) => c.value(row)));
  return [header, align, ...lines].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

/** The generated results of a normal run. */
export function renderResults(report: Report): string {
  const { settings, servers } = report;
  const date = `${report.date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const skipped = report.rows.flatMap((row) =>
    (["before", "after"] as const).flatMap((name) => {
      const side = row[name];
      return side && "skipped" in side ? [`- ${describeCase(row.case)} on ${name}: ${side.skipped}`] : [];
    }),
  );
  const facts = [
    `- **Date:** ${date}${report.commit ? ` — commit ${report.commit}` : ""}`,
    report.compare
      ? `- **Compared with:** ${report.compare.short} (“${report.compare.subject}”), built in tmp/bench-before, on ${report.compare.data}`
      : "",
    report.only.length > 0
      ? `- **Partial run:** only the targets matching ${report.only.map((o) => `\`${o}\``).join(", ")}`
      : "",
    `- **Machine:** ${machine()}; 1-minute load average ${report.loadBefore.toFixed(2)} before the run`,
    `- **Load:** ${report.generator}, ${settings.connections} connections over loopback (signed-in rows ${RENDERED_CONNECTIONS}), ${settings.warmupSeconds} s warm-up then ${settings.durationSeconds} s measured per row and server, one server under load at a time`,
    `- **Servers:** ${report.compare ? "before and after each" : "the app"} started as \`npm start\` does (\`${servers.after.command}\`${
      servers.before && servers.before.command !== servers.after.command
        ? `; before: \`${servers.before.command}\``
        : ""
    }); the baseline is \`node scripts/bench/static-server.mjs\``,
    "- **Data:** a fresh SQLite database with the demo content and the bench's extra data (scripts/bench/seed.ts)",
    `- **Idle RSS once ready:** ${[
      servers.before ? `before ${mib(servers.before.idleRss)} MiB` : "",
      `${report.compare ? "after" : "app"} ${mib(servers.after.idleRss)} MiB`,
      `baseline ${mib(servers.baseline.idleRss)} MiB`,
    ]
      .filter(Boolean)
      .join(", ")}`,
  ];
  return [
    report.only.length > 0 ? "## Latest partial run" : "## Latest run",
    "",
    ...(report.only.length > 0
      ? [
          "Only some rows, measured alone (`--only`): the full run above is another run, on its own commit and load.",
          "",
        ]
      : []),
    ...facts.filter(Boolean),
    "",
    renderTable(report.rows),
    "",
    "Every measured request was answered 2xx, without socket errors or timeouts.",
    ...(skipped.length > 0 ? ["", "Not measured:", ...skipped] : []),
  ].join("\n");
}

export const BEFORE_ISSUE_15 = `## Before issue 15 (measured with wrk, from the issue)

| what | req/s | p50 |
|---|---:|---:|
| bare \`node:http\` serving the bytes from memory, identity | 60 000–67 000 | 0.5 ms |
| bare \`node:http\`, brotli precompressed, \`Accept-Encoding: br, gzip\` | 81 000 | 0.6 ms |
| the app, page cache hit, identity | 3 600–4 100 | 13–20 ms |
| the app, page cache hit, \`Accept-Encoding: br, gzip\` (what browsers send) | 1 700–1 800 | 28–30 ms |
| nginx compressing on the fly (gzip 5) | 2 060 | 24 ms |

Signed-in pages (never cached) render at 93–140 req/s with 10 connections (/events 93, /news 104–140, a post 135, /conference 133): 7–10 ms of CPU each. RSS reached 333 MB after these runs and 278 MB (still rising) in a 3-minute load at 200 connections.`;

/** "partial": a run with --only, kept beside the last full run ("results") rather than replacing it. */
const SECTIONS = ["results", "partial", "soak", "cluster", "digest"] as const;
export type SectionName = (typeof SECTIONS)[number];

const start = (name: SectionName) => `<!-- bench:${name} (written by npm run bench) -->`;
const end = (name: SectionName) => `<!-- /bench:${name} -->`;

/** A generated section of the current BENCHMARKS.md, or null when it has none. */
export function readSection(file: string, name: SectionName): string | null {
  if (!fs.existsSync(file)) return null;
  const text = fs.readFileSync(file, "utf8");
  const from = text.indexOf(start(name));
  const to = text.indexOf(end(name));
  if (from < 0 || to < from) return null;
  return text.slice(from + start(name).length, to).trim();
}

const PLACEHOLDER: Record<Exclude<SectionName, "partial">, string> = {
  results: "## Latest run\n\nNo run recorded yet: `npm run bench`.",
  soak: "## Soak\n\nNo soak recorded yet: `npm run bench -- --soak`.",
  cluster: "## Cluster\n\nNo cluster run recorded yet: `npm run bench -- --cluster`.",
  digest: "## Weekly digest\n\nNo digest run recorded yet: `npm run bench -- --digest`.",
};

/**
 * BENCHMARKS.md: the figures from before issue 15 (fixed), the latest normal run and the
 * latest soak (each kept from the file when this run did not write it), how to run, how to read.
 */
export function renderDocument(sections: Partial<Record<SectionName, string | null>>): string {
  const generated = (name: Exclude<SectionName, "partial">) =>
    `${start(name)}\n${sections[name] ?? PLACEHOLDER[name]}\n${end(name)}`;
  // A partial run has a section only while it is newer than the last full run.
  const partial = sections.partial ? `\n\n${start("partial")}\n${sections.partial}\n${end("partial")}` : "";
  return `# Benchmarks

Written by \`npm run bench\` (scripts/bench.ts): a normal run rewrites "Latest run" (and drops "Latest
partial run"), a run with \`--only\` rewrites "Latest partial run", \`--soak\` rewrites "Soak", \`--cluster\`
rewrites "Cluster", \`--digest\` rewrites "Weekly digest"; each keeps the other sections and the figures from before issue 15.

${BEFORE_ISSUE_15}

${generated("results")}${partial}

${generated("soak")}

${generated("cluster")}

${generated("digest")}

${HOW_TO_RUN}

${READING}
`;
}

export function writeDocument(file: string, name: SectionName, content: string): void {
  const kept = Object.fromEntries(SECTIONS.map((section) => [section, readSection(file, section)]));
  // A full run measures every row: a partial run before it says nothing more.
  const dropped = name === "results" ? { partial: null } : {};
  fs.writeFileSync(file, renderDocument({ ...kept, ...dropped, [name]: content }));
}

const HOW_TO_RUN = `## How to run

\`\`\`sh
npm run bench                              # build, seed, measure every row (10 s per row and server)
npm run bench -- --duration 5              # shorter runs
npm run bench -- --no-build                # reuse build/ as it is
npm run bench -- --only home --only news   # only the targets whose name or path contains one of these
npm run bench -- --only "5 000 companies"  # the membership rows (issue 31) alone
npm run bench -- --only "5 000 registrations"  # the registration rows (issue 32) alone
npm run bench -- --compare 9f1f4bd         # also build that commit and measure it beside this checkout
npm run bench -- --soak                    # 10 minutes of mixed load at 200 connections, RSS every 5 s
npm run bench -- --soak --soak-minutes 30  # a longer soak
npm run bench -- --cluster                 # 2 processes on PostgreSQL behind nginx beside 1 on SQLite
npm run bench -- --digest                  # the weekly digest job for 1 000, 5 000 and 20 000 members, 50 new items
\`\`\`

Other options: \`--connections N\` (default ${DEFAULT_CONNECTIONS}; the signed-in rows use ${RENDERED_CONNECTIONS}),
\`--warmup N\` seconds (default 2), \`--soak-connections N\` (default 200), \`--autocannon\` (use the
fallback load generator even where wrk is available).

What a run does:

1. Finds wrk, or installs Debian's \`wrk\` package with apt-get when it runs as root (as the tests do for
   nginx and Chromium). Without it (not root, no apt-get) it falls back to autocannon and says so: a
   JavaScript load generator on the same cores caps near 8 000 req/s, so the baseline's figures are
   then the load generator's ceiling.
2. Builds the app (\`npm run build\`) and seeds a fresh \`tmp/bench-data\`: the demo content plus
   \`EXTRA_DATA\` (scripts/bench/seed.ts): 10 000 news posts, 1 000 meetings, two library categories
   of 10 000 papers, 5 000 member companies (about 18 000 product tags, 650 not current, 2 500
   representatives), a meeting with 5 000 registrations in every state (full at 4 226 places, 258 on
   its waiting list) and a meeting with room for a million, which the registration row
   (\`POST /api/join\`) fills: each of its requests carries an address of its own (the body's \`{n}\`,
   numbered by wrk's Lua script), or the one-per-address rule would refuse it. Each registration is a
   durable commit (decision 0061: on disk before its answer) and two queued mails; at 10 connections
   the server's one event loop is saturated, so that row's p50 and p99 are mostly the queue of ten
   requests at about 2 ms of the event loop each, not a person's wait at a real registration rate.
3. With \`--compare <rev>\`: checks that commit out as a git worktree in \`tmp/bench-before\`
   (node_modules linked to this checkout's when package-lock.json is identical, else \`npm ci\` there),
   builds it, and gives it an identical copy of the seeded data in \`tmp/bench-data-before\` (or, when
   it lacks one of this checkout's migrations, data seeded by its own bench seed). The worktree is
   removed when the bench ends.
4. Starts each app server exactly as its \`npm start\` does: package.json's start script is read
   (\`NODE_ENV=production node [flags] build/server.js\`) and run with the same node flags, plus the
   bench's settings (HOST, PORT, DATA_DIR, LOG_LEVEL=warn, the bench admin, and JOIN_RATE_LIMIT at its
   highest, 100 000 an hour, so that the registration row is not refused with 429 from one address).
5. Signs in for a Bearer token, requests every row once and checks it answers 200 (a br row must
   answer with \`Content-Encoding: br\`), then starts the baseline, \`scripts/bench/static-server.mjs\`,
   with the captured identity bytes; it compresses each page's bytes once at start (brotli quality 11)
   for the br rows, and the bench checks it sends what the app sent.
6. Loads each row on each server in turn (before, after, baseline; one at a time): a warm-up, then the
   measured run, \`wrk -t1 -c<connections> -d<duration> --timeout 10s\` with a Lua script per row
   (\`tmp/bench-wrk/\`) that sets the method, headers and body and prints requests, duration, p50,
   p99, answers of 400 and more and socket errors (connect, read, write, timeout) as JSON from
   \`done\`. It has no \`response\` hook: with one, wrk copies every body into Lua and, for a 200 KB
   page, that copy sets the pace. Each request is sent once more after the run and must still
   answer 2xx (a redirect mid-run spoils the run). The server's CPU time is read from
   \`/proc/<pid>/stat\` before and after the measured run.
7. Writes "Latest run" here ("Latest partial run" with \`--only\`, beside the last full run), unless some
   request failed (non-2xx, socket errors, timeouts): then it prints the table and the failures and
   leaves this file alone.

The targets are listed in scripts/bench/targets.ts; a target of kind "page" is measured twice
(identity and br).

\`--soak\` builds, seeds and starts the app the same way, then runs one wrk for \`--soak-minutes\`
(default ${SOAK_DEFAULT_MINUTES}) at \`--soak-connections\` (default ${SOAK_DEFAULT_CONNECTIONS}) with a script that sends in turn,
one request each: every cached page (identity and br), every signed-in page with the Bearer token,
and the API lists marked \`soak\` in targets.ts (\`POST /api/getPosts\`, \`GET /api/meetings\`,
\`POST /api/dashboard/getPapersByCategory/9001\`, \`GET /api/search?search_query=radar\`). It
samples the app's RSS every 5 s and writes "Soak" whatever the answers were, with their counts:
requests, non-2xx, socket errors (a request over 10 s counts as a timeout).`;

const READING = `## Reading the figures

- **App** (**after** with \`--compare\`) is the production server doing its full work for every
  request, as it is built. **Before** is the same for the compared commit.
- Pages for anonymous visitors come from the page cache (server/middleware/page-cache.ts, decisions
  0006 and 0026): rendered once, then answered from memory until the content version in the
  database moves or the entry expires. Rows marked "signed in" carry a Bearer token: the page
  of a route that allows it comes from the render of the user's role in the same cache (decision
  0032), after the middleware chain (request log, security headers, session lookup, CSRF); the
  members' dashboard, the person's own page, is rendered on every request (React Router's loaders
  and server rendering, then compression).
- Each cached page has two rows: without Accept-Encoding (identity), and with
  \`Accept-Encoding: br, gzip\`, what browsers send, which the app answers with brotli.
- **Baseline** is a bare \`node:http\` server answering the same request with bytes held in memory:
  the app's bytes for identity rows, and for br rows the app's identity bytes of that page compressed
  once at start with brotli quality 11 and sent with \`Content-Encoding: br\`, as a server with
  precompressed pages would. It is the ceiling for one Node process on this machine; the gap is what
  our code costs. **Bytes** are the response bodies each side sent, read from the row's request
  sent once more after the measured run (the app first stores a page's brotli at quality 3 and
  replaces it with quality 11 in the background); br bodies differ in size where the app
  compresses at another quality. The baseline sends none of the app's headers (security
  headers, request id), which matters most for small responses such as the API calls.
- **req/s** is requests completed ÷ the measured duration. **p50/p99** are latencies under saturation
  with all connections always busy, so they are roughly connections ÷ throughput, not the latency of a
  lone request.
- **CPU ms/req** is the server process's CPU time (user + system, all its threads, from
  \`/proc/<pid>/stat\`) over the measured run ÷ the requests it answered: the cost of one request,
  which depends much less than req/s on what else the machine is doing (though a busy machine still
  inflates it). Its resolution is 10 ms per run, so it is exact enough from a few hundred requests on.
- **peak RSS** is the server process's resident memory, sampled every 250 ms during the measured run.
  The same app process serves all rows in turn, so a row includes what earlier rows left in memory.
- **Goal (issue 15)**: cached page rows should reach half the baseline's req/s with p99 under 10 ms;
  signed-in rows 3× the compared build's req/s (judged only with \`--compare\`); API list rows p99
  under 20 ms.
- The signed-in rows use ${RENDERED_CONNECTIONS} connections: at ${DEFAULT_CONNECTIONS} a render-bound process is saturated,
  and a saturated Node process serves its sockets unevenly, so a few requests wait many seconds. That
  is Node, not our code: a bare \`node:http\` server that spends 11 ms per request shows the same p99
  of about 6 s at ${DEFAULT_CONNECTIONS} connections.
- wrk runs with one thread on the same machine as the server, so on 2 cores each has one. Compare
  rows and ratios within one run rather than absolute figures across machines; the load average
  before the run says whether something else was running.
- **Soak**: RSS over time under a steady mix. "Flat" means the mean RSS of the last minute is within
  5 % of the mean of minutes 3–5 (the first minutes fill the page cache and the JIT); it needs a
  soak of 6 minutes or more.`;

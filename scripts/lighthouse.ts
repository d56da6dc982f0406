import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort } from "./bench/http";
import { ensureChromium } from "./browser";
import { type Nginx, startNginx } from "./cluster/start";
import { publicPages, startDemoServer } from "./page-weight/server";

/**
 * `npm run lighthouse`: Lighthouse's default (mobile, simulated throttling)
 * run on the home page, /news, a post and /events of the production build
 * with the demo content, in Debian's Chromium. Prints the four category
 * scores per page and every audit that keeps a score from its goal (issue 15:
 * performance ≥ 95, accessibility, best practices and SEO 100); exits 1 when
 * a goal is missed.
 *
 *   npm run lighthouse                          build, start it on the demo content, run
 *   npm run lighthouse -- --url http://127.0.0.1:3950   run against a running server
 *   npm run lighthouse -- --behind-nginx        the same behind nginx with TLS and HTTP/2, as
 *                                               docs/deploy/nginx-masthead.conf serves a public site
 *   options: --no-build, --runs N (median performance of N runs), --page /path (repeatable),
 *            --out DIR (writes each report as HTML and JSON)
 */
const { values } = parseArgs({
  options: {
    url: { type: "string" },
    "no-build": { type: "boolean", default: false },
    runs: { type: "string", default: "1" },
    page: { type: "string", multiple: true },
    out: { type: "string" },
    "behind-nginx": { type: "boolean", default: false },
  },
});

const GOALS = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 } as const;
type Category = keyof typeof GOALS;
const CATEGORIES = Object.keys(GOALS) as Category[];
const METRICS = [
  "first-contentful-paint",
  "largest-contentful-paint",
  "total-blocking-time",
  "cumulative-layout-shift",
  "speed-index",
];

type Audit = {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  numericValue?: number;
};
type Lhr = {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, Audit>;
  runtimeError?: { message: string };
  runWarnings?: string[];
};

if (!values.url && !values["no-build"]) {
  console.log("Building the production bundle…");
  if (spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" }).status !== 0) process.exit(1);
}
const runs = Math.max(1, Number.parseInt(values.runs ?? "1", 10) || 1);
const chromePath = ensureChromium() ?? undefined;
if (values["behind-nginx"] && values.url) {
  console.error("--behind-nginx starts its own server and nginx; it cannot be used with --url.");
  process.exit(2);
}
const behindNginx = values["behind-nginx"];
let server: Awaited<ReturnType<typeof startDemoServer>> | null = null;
let nginx: Nginx | null = null;
if (behindNginx) {
  // nginx's port first: the app must know the address visitors use (BASE_URL) before it starts.
  const port = await freePort();
  server = await startDemoServer(console.log, { baseUrl: `https://127.0.0.1:${port}` });
  nginx = await startNginx({ upstreams: [new URL(server.url).host], port, tls: true });
} else if (!values.url) {
  server = await startDemoServer();
}
const base = nginx?.origin ?? values.url ?? (server?.url as string);
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    // nginx's certificate is self-signed for the run.
    ...(behindNginx ? ["--ignore-certificate-errors"] : []),
  ],
});

/** One Lighthouse run; a trace that failed to record (it happens on a busy machine) is tried again. */
async function audit(url: string) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: ["html", "json"],
      logLevel: "error",
      onlyCategories: CATEGORIES,
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const error = (result.lhr as unknown as Lhr).runtimeError;
    if (!error) return result;
    if (attempt === 3) throw new Error(`${url}: ${error.message}`);
    console.log(`  (${error.message.split(".")[0]}; running again)`);
  }
}

let missed = 0;
try {
  // Found over plain HTTP from the app itself: Node's fetch would refuse nginx's self-signed certificate.
  const pages =
    values.page ??
    (await publicPages(server?.url ?? base)).filter((page) => /^\/(news|events|post\/[^/]+)?$/.test(page));
  for (const page of pages) {
    const url = new URL(page, base).href;
    const results: Lhr[] = [];
    for (let run = 0; run < runs; run++) {
      const result = await audit(url);
      const lhr = result.lhr as unknown as Lhr;
      results.push(lhr);
      if (values.out) {
        fs.mkdirSync(values.out, { recursive: true });
        const name = `${page.replace(/[^\w]+/g, "-").replace(/^-|-$/g, "") || "home"}${runs > 1 ? `-${run + 1}` : ""}`;
        const [html, json] = result.report as string[];
        fs.writeFileSync(path.join(values.out, `${name}.html`), html);
        fs.writeFileSync(path.join(values.out, `${name}.json`), json);
      }
    }
    // The run with the median performance score stands for the page.
    const sorted = [...results].sort(
      (a, b) => (a.categories.performance.score ?? 0) - (b.categories.performance.score ?? 0),
    );
    const lhr = sorted[Math.floor((sorted.length - 1) / 2)];
    const scores = CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)] as const);
    const summary = scores.map(([id, score]) => `${id} ${score}${score < GOALS[id] ? " ✗" : ""}`).join("  ");
    const perfRuns =
      runs > 1
        ? ` (performance of ${runs} runs: ${results.map((r) => Math.round((r.categories.performance.score ?? 0) * 100)).join(", ")})`
        : "";
    console.log(`\n${page}\n  ${summary}${perfRuns}`);
    console.log(
      `  ${METRICS.map((id) => `${lhr.audits[id]?.title}: ${lhr.audits[id]?.displayValue ?? "?"}`).join(" · ")}`,
    );
    for (const [id, score] of scores) {
      if (score < GOALS[id]) missed += 1;
      const failing = lhr.categories[id].auditRefs
        .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
        .filter(
          ({ audit }) =>
            audit &&
            audit.score !== null &&
            audit.score < (id === "performance" ? 0.9 : 1) &&
            !["notApplicable", "informative", "manual"].includes(audit.scoreDisplayMode),
        );
      for (const { ref, audit } of failing)
        console.log(
          `  [${id}] ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""} score ${Math.round((audit.score ?? 0) * 100)}, weight ${ref.weight}`,
        );
    }
    for (const warning of lhr.runWarnings ?? []) console.log(`  warning: ${warning}`);
  }
} finally {
  chrome.kill();
  await nginx?.stop();
  await server?.stop();
}
console.log(
  missed === 0
    ? "\nEvery page meets the goals (performance ≥ 95, accessibility, best practices and SEO 100)."
    : `\n${missed} score(s) below the goals (performance ≥ 95, accessibility, best practices and SEO 100).`,
);
process.exit(missed === 0 ? 0 : 1);

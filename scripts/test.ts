import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { ensureChromium } from "./browser";
import { ensureNginx } from "./nginx";
import { NODE24, node24Env, settleMachineSqlite } from "./node24";
import {
  type PlaywrightReport,
  playwrightReportProblems,
  problemLines,
  type VitestReport,
  vitestProblems,
} from "./test-report";

/**
 * `npm test`: lint, typecheck, unit + integration tests on PostgreSQL on the machine's Node when
 * TEST_DATABASE_URL is set (while Node 24 is made ready beside them: scripts/node24.ts, decisions
 * 0038 and 0084), then on SQLite on Node 24, the production build, the tests of the built server as a process on
 * Node 24 (tests/process), the cluster tests (two processes on PostgreSQL behind nginx,
 * tests/cluster: when TEST_DATABASE_URL is set; nginx is installed from Debian's package if
 * missing) and the end-to-end tests in Chromium. Each suite runs once (decision 0080). Ends with
 * one line: `N passed, N failed`.
 */
/**
 * notRun: tests that were listed but did not run (Playwright's admin-edits project when a test it depends on failed).
 * problems: the failed (and, for Playwright, flaky) tests by name with the first line of their error, for the summary.
 */
type Step = { name: string; passed: number; failed: number; notRun?: number; problems?: string[] };
const steps: Step[] = [];
fs.mkdirSync("tmp", { recursive: true });

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(command, args, { stdio: "inherit", env }).status === 0;
}

function check(name: string, command: string, args: string[]) {
  console.log(`\n▶ ${name}`);
  const ok = run(command, args);
  steps.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
  return ok;
}

function vitest(name: string, env: NodeJS.ProcessEnv, extraArgs: string[] = []) {
  console.log(`\n▶ ${name}`);
  const output = `tmp/vitest-${name.replace(/\W+/g, "-")}.json`;
  fs.rmSync(output, { force: true });
  const ok = run(
    "npx",
    ["vitest", "run", ...extraArgs, "--reporter=default", "--reporter=json", `--outputFile.json=${output}`],
    env,
  );
  let passed = 0;
  let failed = 0;
  const problems: string[] = [];
  if (fs.existsSync(output)) {
    const report = JSON.parse(fs.readFileSync(output, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      numTotalTestSuites: number;
      numFailedTestSuites: number;
    } & VitestReport;
    problems.push(...vitestProblems(report, process.cwd()));
    passed = report.numPassedTests;
    failed =
      report.numFailedTests +
      (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? report.numFailedTestSuites : 0);
  }
  if (!ok && failed === 0) {
    failed = 1; // the run itself broke (setup, crash)
    if (problems.length === 0)
      problems.push("the run failed outside any test (an unhandled error, a crash): see the log above");
  }
  steps.push({ name, passed, failed, problems });
}

check("lint", "npx", ["biome", "check", "."]);
check("typecheck", "sh", ["-c", "npx react-router typegen && npx tsc --noEmit"]);

// Each suite runs once, on one of the two Nodes (decision 0080): the SQLite integration suite and the
// built server as a process on Node 24, the Node operators run (22 or 24 LTS; decision 0038); the
// PostgreSQL suite, the cluster and the browser on the machine's Node (20).
// Node 24 is made ready (about six minutes on two cores: better-sqlite3 compiled for it) while the
// PostgreSQL suite runs, which waits on its server most of the time (decision 0084).
const node24Step = `Node ${NODE24.version} ready (native modules, npm's engine check)`;
const node24Log = "tmp/node24-ready.log";
const node24Out = fs.openSync(node24Log, "w");
// The machine's better-sqlite3 binary is put in its place first, before any test process loads it.
try {
  settleMachineSqlite();
} catch (error) {
  console.error((error as Error).message);
}
const node24Child = spawn("npx", ["tsx", "scripts/node24.ts"], { stdio: ["ignore", node24Out, node24Out] });
const node24Done = new Promise<boolean>((resolve) => {
  node24Child.on("exit", (code) => resolve(code === 0));
  node24Child.on("error", () => resolve(false));
});
console.log(`\n▶ ${node24Step}: started beside the PostgreSQL suite (its output: ${node24Log})`);

const { TEST_DATABASE_URL } = process.env;
if (TEST_DATABASE_URL) vitest("unit+integration (PostgreSQL)", process.env);
else console.log("\nTEST_DATABASE_URL is not set: the integration tests run on SQLite only.");

const node24Ok = await node24Done;
fs.closeSync(node24Out);
console.log(`\n▶ ${node24Step}`);
console.log(fs.readFileSync(node24Log, "utf8").trim());
const node24 = node24Ok ? node24Env(process.env) : null;
steps.push({ name: node24Step, passed: node24 ? 1 : 0, failed: node24 ? 0 : 1 });
// Without Node 24 (its step failed above, and the run with it) the suites still run, on the machine's Node.
const operatorsNode = node24 ?? process.env;
const onOperatorsNode = node24 ? ` on Node ${NODE24.version}` : "";

const { TEST_DATABASE_URL: _postgres, ...operatorsNodeEnv } = operatorsNode;
vitest(`unit+integration (SQLite)${onOperatorsNode}`, operatorsNodeEnv);

const built = check("production build", "npm", ["run", "build", "--silent"]);
// The built server as an operator runs it: a real process, real sockets, signals, proxies, disks.
const processStep = `built server as a process${onOperatorsNode}`;
if (built) vitest(processStep, operatorsNode, ["--config", "vitest.process.config.ts"]);
else steps.push({ name: processStep, passed: 0, failed: 1 });
// Several processes on one PostgreSQL database behind nginx (decision 0031).
if (built && TEST_DATABASE_URL) {
  ensureNginx();
  vitest("cluster on PostgreSQL behind nginx", process.env, ["--config", "vitest.cluster.config.ts"]);
} else if (!TEST_DATABASE_URL) {
  console.log("\nTEST_DATABASE_URL is not set: the cluster tests (PostgreSQL behind nginx) did not run.");
} else steps.push({ name: "cluster on PostgreSQL behind nginx", passed: 0, failed: 1 });
if (built) {
  console.log("\n▶ end-to-end (Chromium)");
  let executable: string | null = null;
  try {
    executable = ensureChromium();
  } catch (error) {
    console.error((error as Error).message);
  }
  const report = "tmp/e2e-results.json";
  fs.rmSync(report, { force: true });
  const ok = run("npx", ["playwright", "test"], {
    ...process.env,
    ...(executable ? { CHROMIUM_PATH: executable } : {}),
  });
  let passed = 0;
  let failed = 0;
  let notRun = 0;
  const problems: string[] = [];
  if (fs.existsSync(report)) {
    const parsed = JSON.parse(fs.readFileSync(report, "utf8")) as PlaywrightReport;
    const stats = parsed.stats;
    problems.push(...playwrightReportProblems(parsed));
    passed = stats.expected + stats.flaky;
    failed = stats.unexpected;
    // No test is skipped by choice (no .skip): these are the ones a failed dependency kept from running.
    notRun = stats.skipped;
  }
  if (!ok && failed === 0) {
    failed = 1;
    if (problems.length === 0) problems.push("the run failed outside any scenario: see the log above");
  }
  steps.push({ name: "end-to-end (Chromium)", passed, failed, notRun, problems });
} else {
  steps.push({ name: "end-to-end (Chromium)", passed: 0, failed: 1 });
}

console.log("\nSummary");
for (const step of steps) {
  console.log(
    `  ${step.failed ? "✗" : "✓"} ${step.name}: ${step.passed} passed, ${step.failed} failed${step.notRun ? `, ${step.notRun} did not run` : ""}`,
  );
  // Named here, at the end of a long log, so that whoever reads only its tail knows what to look at.
  for (const line of problemLines(step.problems ?? [])) console.log(`      ${line}`);
}
const passed = steps.reduce((n, s) => n + s.passed, 0);
const failed = steps.reduce((n, s) => n + s.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

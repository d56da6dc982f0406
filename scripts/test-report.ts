import { stripVTControlCharacters } from "node:util";

/** The failed tests of the test runs' JSON reports, named for the closing summary of `npm test` (decision 0067). */

/** The first line of an error message, without terminal colours, short enough for a summary line. */
export function firstLine(message: string | undefined): string {
  const line =
    stripVTControlCharacters(message ?? "")
      .split("\n")
      .find((l) => l.trim()) ?? "";
  return line.trim().slice(0, 200);
}

export type VitestReport = {
  testResults?: {
    name: string;
    status: string;
    message?: string;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
};

/** Each failed test of a Vitest JSON report (file › full name: first line of its error), and each file that failed to run. */
export function vitestProblems(report: VitestReport, root: string): string[] {
  const found: string[] = [];
  for (const file of report.testResults ?? []) {
    const where = file.name.replace(`${root}/`, "");
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const test of failedTests) found.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (file.status === "failed" && failedTests.length === 0) {
      // A hook that failed (beforeAll, afterAll) leaves the file failed with no message of its own.
      found.push(`${where}: ${firstLine(file.message) || "failed outside its tests (a hook); see the log above"}`);
    }
  }
  return found;
}

export type PlaywrightSuite = {
  suites?: PlaywrightSuite[];
  specs?: {
    title: string;
    file: string;
    line: number;
    tests: { projectName: string; status: string; results: { status: string; error?: { message?: string } }[] }[];
  }[];
};
export type PlaywrightReport = {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites?: PlaywrightSuite[];
  /** What broke outside a test: a web server that did not start, a file that did not load. */
  errors?: { message?: string }[];
};

/** Everything a Playwright JSON report holds against the run: its errors outside tests, then its failed and flaky tests. */
export function playwrightReportProblems(report: PlaywrightReport): string[] {
  return [
    ...(report.errors ?? []).map((error) => `(outside a test): ${firstLine(error.message)}`),
    ...(report.suites ?? []).flatMap(playwrightProblems),
  ];
}

/** The failed and the flaky (passed on its retry) tests of a Playwright JSON report, by file, line and title. */
export function playwrightProblems(suite: PlaywrightSuite): string[] {
  const found: string[] = [];
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests)
      if (test.status === "unexpected" || test.status === "flaky") {
        const error = test.results.find((r) => r.error)?.error?.message;
        const label = test.status === "flaky" ? "flaky, passed on its retry" : "failed";
        found.push(`[${test.projectName}] ${spec.file}:${spec.line} › ${spec.title} (${label}): ${firstLine(error)}`);
      }
  for (const child of suite.suites ?? []) found.push(...playwrightProblems(child));
  return found;
}

/** The summary's lines for one step: at most `max` problems, then how many more there were. */
export function problemLines(problems: string[], max = 20): string[] {
  const shown = problems.slice(0, max);
  return problems.length > max ? [...shown, `… and ${problems.length - max} more (see the log above)`] : shown;
}

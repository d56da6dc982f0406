import { describe, expect, it } from "vitest";
import { playwrightReportProblems, problemLines, vitestProblems } from "../../scripts/test-report";

// Shapes as the runners write them (trimmed from real reports: tmp/e2e-results.json, tmp/vitest-*.json).
const passedRun = { workerIndex: 0, status: "passed", duration: 900, errors: [], retry: 0 };
const failedRun = (message: string) => ({
  workerIndex: 0,
  status: "failed",
  duration: 60_000,
  error: { message },
  errors: [{ message }],
  retry: 0,
});

describe("the test summary names what failed (decision 0067)", () => {
  it("names each failed and each flaky Playwright scenario with its project, place and first error line", () => {
    const report = {
      stats: { expected: 1, unexpected: 1, flaky: 1, skipped: 18 },
      errors: [],
      suites: [
        {
          title: "users.spec.ts",
          file: "users.spec.ts",
          specs: [
            {
              title: "the admin changes a role",
              file: "users.spec.ts",
              line: 83,
              tests: [{ projectName: "chromium", status: "expected", results: [passedRun] }],
            },
          ],
          suites: [
            {
              title: "layout behaviour",
              file: "public-site.spec.ts",
              specs: [
                {
                  title: "the hamburger toggles the mobile menu",
                  file: "public-site.spec.ts",
                  line: 71,
                  tests: [
                    {
                      projectName: "empty-install",
                      status: "unexpected",
                      results: [
                        failedRun("\u001b[31mTest timeout of 60000ms exceeded.\u001b[39m\n\nCall log: ..."),
                        failedRun("Test timeout of 60000ms exceeded."),
                      ],
                    },
                  ],
                },
                {
                  title: "a submenu closes with Escape",
                  file: "public-site.spec.ts",
                  line: 55,
                  tests: [
                    {
                      projectName: "chromium",
                      status: "flaky",
                      results: [failedRun("\nexpect(locator).toBeFocused() failed"), passedRun],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(playwrightReportProblems(report)).toEqual([
      "[empty-install] public-site.spec.ts:71 › the hamburger toggles the mobile menu (failed): Test timeout of 60000ms exceeded.",
      "[chromium] public-site.spec.ts:55 › a submenu closes with Escape (flaky, passed on its retry): expect(locator).toBeFocused() failed",
    ]);
  });

  it("names a Playwright error outside any test (a web server that did not start)", () => {
    const report = {
      stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 0 },
      errors: [{ message: "Error: Timed out waiting 360000ms from config.webServer.\n    at ..." }],
      suites: [],
    };
    expect(playwrightReportProblems(report)).toEqual([
      "(outside a test): Error: Timed out waiting 360000ms from config.webServer.",
    ]);
  });

  it("names each failed Vitest test by file and full name, and a file that failed before its tests", () => {
    const report = {
      testResults: [
        {
          name: "/repo/tests/integration/notices.test.ts",
          status: "failed",
          message: "",
          assertionResults: [
            { fullName: "notices sends one mail", status: "passed", failureMessages: [] },
            {
              fullName: "notices batches twenty papers",
              status: "failed",
              failureMessages: ["AssertionError: expected 2 to be 1\n    at notices.test.ts:40"],
            },
          ],
        },
        {
          name: "/repo/tests/integration/broken.test.ts",
          status: "failed",
          message: "Failed to load url ./missing (resolved id: ./missing)",
          assertionResults: [],
        },
        { name: "/repo/tests/unit/fine.test.ts", status: "passed", assertionResults: [] },
        // A beforeAll that threw: the file failed, its tests did not run, and it has no message.
        {
          name: "/repo/tests/integration/hooked.test.ts",
          status: "failed",
          message: "",
          assertionResults: [{ fullName: "hooked runs", status: "skipped", failureMessages: [] }],
        },
      ],
    };
    expect(vitestProblems(report, "/repo")).toEqual([
      "tests/integration/notices.test.ts › notices batches twenty papers: AssertionError: expected 2 to be 1",
      "tests/integration/broken.test.ts: Failed to load url ./missing (resolved id: ./missing)",
      "tests/integration/hooked.test.ts: failed outside its tests (a hook); see the log above",
    ]);
  });

  it("shows twenty problems at most per step, and says how many more there were", () => {
    const many = Array.from({ length: 23 }, (_, i) => `problem ${i + 1}`);
    expect(problemLines(many)).toHaveLength(21);
    expect(problemLines(many).at(-1)).toBe("… and 3 more (see the log above)");
    expect(problemLines(many.slice(0, 20))).toEqual(many.slice(0, 20));
  });
});

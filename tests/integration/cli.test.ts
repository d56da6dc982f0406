import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** The command-line entry points, run as a user would run them (SQLite in a temporary DATA_DIR). */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-cli-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function run(script: string, args: string[], env: Record<string, string> = {}) {
  // Vite puts BASE_URL=/ into the test process's environment; a real shell has none.
  const { TEST_DATABASE_URL, DATABASE_URL, BASE_URL, ...base } = process.env;
  const result = spawnSync(process.execPath, ["--import", "tsx", script, ...args], {
    env: { ...base, DATA_DIR: dataDir, LOG_LEVEL: "silent", ...env },
    encoding: "utf8",
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe("npm run user", () => {
  it("adds users with a given or generated password and lists them", () => {
    const given = run("scripts/user.ts", [
      "add",
      "--email",
      "Chair@Example.org",
      "--role",
      "admin",
      "--password",
      "a long enough password",
      "--first-name",
      "Ana",
      "--last-name",
      "Silva",
    ]);
    expect(given.code).toBe(0);
    expect(given.out).toContain("Created admin chair@example.org");
    expect(given.out).not.toContain("Password:");
    const generated = run("scripts/user.ts", ["add", "--email", "member@example.org", "--role", "member"]);
    expect(generated.code).toBe(0);
    expect(generated.out).toMatch(/Password: \S{16,}/);
    const list = run("scripts/user.ts", ["list"]);
    expect(list.out).toMatch(/admin\s+active\s+chair@example\.org\s+Ana Silva/);
    expect(list.out).toMatch(/member\s+active\s+member@example\.org/);
  });

  it("refuses a duplicate e-mail, a bad role and a short password with a clear message", () => {
    const duplicate = run("scripts/user.ts", ["add", "--email", "CHAIR@example.org", "--role", "member"]);
    expect(duplicate.code).toBe(1);
    expect(duplicate.err).toContain("The email has already been taken.");
    const role = run("scripts/user.ts", ["add", "--email", "x@example.org", "--role", "owner"]);
    expect(role.code).toBe(1);
    expect(role.err).toContain("The role must be admin, editor or member.");
    const short = run("scripts/user.ts", [
      "add",
      "--email",
      "y@example.org",
      "--role",
      "member",
      "--password",
      "short",
    ]);
    expect(short.code).toBe(1);
    expect(short.err).toContain("at least 10 characters");
    expect(run("scripts/user.ts", ["remove"]).code).toBe(2);
  });
});

describe("the server process", () => {
  it("stops at start with a message naming a bad variable", () => {
    const result = run("server/index.ts", [], { PORT: "eighty" });
    expect(result.code).toBe(1);
    expect(result.err).toContain("PORT:");
    expect(result.err).not.toMatch(/\n\s+at /); // no stack trace
  });
});

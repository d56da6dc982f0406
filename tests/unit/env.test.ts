import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseDurationSeconds } from "../../lib/env";

describe("configuration", () => {
  it("has working defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ dialect: "sqlite", file: expect.stringMatching(/data\/site\.db$/) });
    expect(config.sessionTtlSeconds).toBe(30 * 86400);
    expect(config.sessionIdleSeconds).toEqual({ short: 2 * 3600, remembered: 14 * 86400 });
    expect(config.baseUrl.href).toBe("http://localhost:3000/");
    expect(config.env).toBe("production");
    expect(config.paperMaxBytes).toBe(52_428_800);
    expect(config.tmpDir).toBe(`${config.dataDir}/tmp`);
  });

  it("reads PAPER_MAX_BYTES", () => {
    expect(loadConfig({ PAPER_MAX_BYTES: "104857600" }).paperMaxBytes).toBe(104_857_600);
  });

  it("selects PostgreSQL from DATABASE_URL", () => {
    const config = loadConfig({ DATABASE_URL: "postgres://u@db:5432/site" });
    expect(config.database).toEqual({ dialect: "postgres", url: "postgres://u@db:5432/site" });
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["BASE_URL", "ftp://example.org"],
    ["DATABASE_URL", "mysql://x"],
    ["SESSION_TTL", "forever"],
    ["SESSION_IDLE_TIMEOUT", "0"],
    ["SESSION_REMEMBER_IDLE_TIMEOUT", "two weeks"],
    ["SMTP_URL", "http://mail"],
    ["ADMIN_EMAIL", "not-an-email"],
    ["UPLOAD_MAX_BYTES", "-5"],
    ["PAPER_MAX_BYTES", "50MB"],
    ["PAPER_MAX_BYTES", "100"],
    ["LOG_LEVEL", "loud"],
    ["TRUST_PROXY", "maybe"],
  ])("stops at start when %s is %s, naming the variable", (key, value) => {
    expect(() =>
      loadConfig({ [key]: value, ...(key === "ADMIN_EMAIL" ? { ADMIN_PASSWORD: "long enough password" } : {}) }),
    ).toThrow(new RegExp(`${key}:`));
  });

  it("requires ADMIN_EMAIL and ADMIN_PASSWORD together", () => {
    expect(() => loadConfig({ ADMIN_EMAIL: "a@example.org" })).toThrow(ConfigError);
    expect(() => loadConfig({ ADMIN_PASSWORD: "long enough password" })).toThrow(/ADMIN_EMAIL/);
    expect(() => loadConfig({ ADMIN_EMAIL: "a@example.org", ADMIN_PASSWORD: "short" })).toThrow(/ADMIN_PASSWORD:/);
  });

  it("parses durations", () => {
    expect(parseDurationSeconds("30d")).toBe(2_592_000);
    expect(parseDurationSeconds("12h")).toBe(43_200);
    expect(parseDurationSeconds("90m")).toBe(5_400);
    expect(parseDurationSeconds("3600")).toBe(3_600);
    expect(parseDurationSeconds("0")).toBeNull();
    expect(parseDurationSeconds("1w")).toBeNull();
  });
});

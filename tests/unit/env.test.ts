import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseDurationSeconds } from "../../lib/env";

describe("configuration", () => {
  it("has working defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ dialect: "sqlite", file: expect.stringMatching(/data\/site\.db$/) });
    expect(config.sessionTtlSeconds).toBe(30 * 86400);
    expect(config.sessionIdleSeconds).toEqual({ short: 2 * 3600, admin: 30 * 60, remembered: 14 * 86400 });
    expect(config.baseUrl.href).toBe("http://localhost:3000/");
    expect(config.env).toBe("production");
    expect(config.paperMaxBytes).toBe(52_428_800);
    expect(config.tmpDir).toBe(`${config.dataDir}/tmp`);
  });

  it("reads the idle timeouts (members', admins', with Remember me)", () => {
    const config = loadConfig({
      SESSION_IDLE_TIMEOUT: "90m",
      SESSION_ADMIN_IDLE_TIMEOUT: "15m",
      SESSION_REMEMBER_IDLE_TIMEOUT: "7d",
    });
    expect(config.sessionIdleSeconds).toEqual({ short: 90 * 60, admin: 15 * 60, remembered: 7 * 86400 });
  });

  it("runs the scheduled jobs unless JOBS=off, and reads JOBS_SCHEDULES as name=pattern pairs", () => {
    expect(loadConfig({}).jobs).toEqual({ enabled: true, schedules: {} });
    expect(loadConfig({ JOBS: "off" }).jobs.enabled).toBe(false);
    expect(() => loadConfig({ JOBS: "no" })).toThrow("JOBS: must be on or off");
    expect(
      loadConfig({ JOBS_SCHEDULES: " uploads-sweep = 15 2 * * * ; digest-weekly=0 8 * * 1;" }).jobs.schedules,
    ).toEqual({ "uploads-sweep": "15 2 * * *", "digest-weekly": "0 8 * * 1" });
    expect(loadConfig({ JOBS_SCHEDULES: "uploads-sweep=*/2 * * * * *" }).jobs.schedules).toEqual({
      "uploads-sweep": "*/2 * * * * *",
    });
    expect(() => loadConfig({ JOBS_SCHEDULES: "uploads-sweep=every night" })).toThrow(
      /JOBS_SCHEDULES: "uploads-sweep=every night": invalid configuration format/,
    );
    expect(() => loadConfig({ JOBS_SCHEDULES: "15 2 * * *" })).toThrow(/JOBS_SCHEDULES: .*must be name=cron pattern/);
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
    ["STORAGE", "ftp"],
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

  it("keeps files on local disk unless STORAGE=s3", () => {
    expect(loadConfig({}).storage).toEqual({ kind: "local" });
    expect(loadConfig({ STORAGE: "local" }).storage).toEqual({ kind: "local" });
  });

  it("reads the S3 settings, with defaults", () => {
    expect(loadConfig({ STORAGE: "s3", S3_BUCKET: "site-files" }).storage).toEqual({
      kind: "s3",
      bucket: "site-files",
      privateBucket: "site-files",
      region: "us-east-1",
      endpoint: undefined,
      credentials: undefined,
      forcePathStyle: false,
      prefix: "",
      publicUrl: undefined,
    });
    const full = loadConfig({
      STORAGE: "s3",
      S3_BUCKET: "site-public",
      S3_PRIVATE_BUCKET: "site-private",
      S3_REGION: "eu-central-1",
      S3_ENDPOINT: "https://s3.example.net",
      S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
      S3_PREFIX: "masthead",
      S3_PUBLIC_URL: "https://cdn.example.org/uploads/",
    }).storage;
    expect(full).toEqual({
      kind: "s3",
      bucket: "site-public",
      privateBucket: "site-private",
      region: "eu-central-1",
      endpoint: "https://s3.example.net",
      credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret" },
      forcePathStyle: true,
      prefix: "masthead/",
      publicUrl: "https://cdn.example.org/uploads",
    });
  });

  it.each([
    [{ STORAGE: "s3" }, "S3_BUCKET: must be set when STORAGE=s3"],
    [{ STORAGE: "s3", S3_BUCKET: "Bad_Bucket" }, "S3_BUCKET: must be a bucket name"],
    [{ STORAGE: "s3", S3_BUCKET: "b-1", S3_ACCESS_KEY_ID: "AKIA" }, "S3_SECRET_ACCESS_KEY: must be set together"],
    [{ STORAGE: "s3", S3_BUCKET: "b-1", S3_ENDPOINT: "s3.example.net" }, "S3_ENDPOINT: must be an http(s) URL"],
    [{ STORAGE: "s3", S3_BUCKET: "b-1", S3_PREFIX: "../up" }, "S3_PREFIX: must be a folder"],
    [{ STORAGE: "s3", S3_BUCKET: "b-1", S3_PUBLIC_URL: "cdn" }, "S3_PUBLIC_URL: must be an http(s) URL"],
    [{ S3_BUCKET: "b-1" }, "S3_BUCKET: is set, but STORAGE is not s3"],
  ])("stops at start on bad storage settings: %j", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
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

import path from "node:path";
import { z } from "zod";
import { cronProblem } from "./cron";

/**
 * The only place that reads process.env. Everything else receives a Config.
 * A bad value stops the process at start with a message naming the variable.
 */

const DURATION = /^(\d+)\s*(s|m|h|d)?$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** Parses "30d", "12h", "90m", "45s" or a bare number of seconds into seconds. */
export function parseDurationSeconds(value: string): number | null {
  const match = DURATION.exec(value.trim());
  if (!match) return null;
  const unit = (match[2] ?? "s") as keyof typeof UNIT_SECONDS;
  const seconds = Number(match[1]) * UNIT_SECONDS[unit];
  return seconds > 0 ? seconds : null;
}

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const integer = (fallback: number, min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(fallback));

const duration = (fallback: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(fallback)
      .transform((v, ctx) => {
        const seconds = parseDurationSeconds(v);
        if (seconds === null) {
          ctx.addIssue({ code: "custom", message: "must be a duration such as 30d, 12h or 3600" });
          return z.NEVER;
        }
        return seconds;
      }),
  );

/** true/false or 1/0, false when unset. */
const flag = () =>
  z.preprocess(
    emptyToUndefined,
    z
      .enum(["true", "false", "1", "0"])
      .default("false")
      .transform((v) => v === "true" || v === "1"),
  );

/** An S3 bucket name (3 to 63 lower-case letters, digits, dots and hyphens). */
const bucketName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3-63 of a-z, 0-9, . and -)");

/**
 * JOBS_SCHEDULES: `name=pattern` pairs separated by `;`, e.g. `uploads-sweep=15 2 * * *`. Only the
 * patterns are checked here; the names are checked against the jobs when the runner is made.
 */
const jobSchedules = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const schedules: Record<string, string> = {};
      for (const part of (value ?? "").split(";")) {
        if (part.trim() === "") continue;
        const match = /^\s*([a-z0-9-]+)\s*=\s*(.+?)\s*$/.exec(part);
        const problem = match ? cronProblem(match[2]) : "must be name=cron pattern";
        if (!match || problem) {
          ctx.addIssue({
            code: "custom",
            message: `"${part.trim()}": ${problem} (write name=pattern; name=pattern, e.g. uploads-sweep=15 2 * * *)`,
          });
          return z.NEVER;
        }
        schedules[match[1]] = match[2];
      }
      return schedules;
    }),
);

const schema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(["development", "production", "test"]).default("production")),
  PORT: integer(3000, 1, 65535),
  HOST: z.preprocess(emptyToUndefined, z.string().default("127.0.0.1")),
  BASE_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://example.org" }).optional(),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^(postgres|postgresql):\/\//.test(v) || /^(sqlite|file):/.test(v), {
        message: "must start with postgres:// (PostgreSQL) or sqlite: (a SQLite file path)",
      })
      .optional(),
  ),
  SESSION_TTL: duration("30d"),
  SESSION_IDLE_TIMEOUT: duration("2h"),
  SESSION_ADMIN_IDLE_TIMEOUT: duration("30m"),
  SESSION_REMEMBER_IDLE_TIMEOUT: duration("14d"),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  ),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default("Masthead <no-reply@localhost>")),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email({ error: "must be an e-mail address" }).optional()),
  ADMIN_PASSWORD: z.preprocess(
    emptyToUndefined,
    z.string().min(10, { error: "must be at least 10 characters" }).optional(),
  ),
  UPLOAD_MAX_BYTES: integer(10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  PAPER_MAX_BYTES: integer(50 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  BODY_MAX_BYTES: integer(1024 * 1024, 1024, 100 * 1024 * 1024),
  PAGE_CACHE_MB: integer(32, 0, 4096),
  PAGE_CACHE_S_MAXAGE: integer(60, 0, 86_400),
  PAGE_CACHE_STALE_WHILE_REVALIDATE: integer(300, 0, 604_800),
  JOIN_RATE_LIMIT: integer(30, 1, 100_000),
  NOTIFY_BATCH_SECONDS: integer(300, 5, 86_400),
  RECAPTCHA_SITE_KEY: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  RECAPTCHA_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().max(500).optional()),
  RECAPTCHA_VERIFY_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  RECAPTCHA_MODE: z.preprocess(emptyToUndefined, z.enum(["standard", "enterprise"]).default("standard")),
  RECAPTCHA_PROJECT_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, "must be a Google Cloud project id such as masthead-site")
      .optional(),
  ),
  RECAPTCHA_API_KEY: z.preprocess(emptyToUndefined, z.string().max(500).optional()),
  RECAPTCHA_SCORE_THRESHOLD: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(1).default(0.5)),
  GTM_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^GTM-[A-Z0-9]{4,12}$/, { error: "must look like GTM-XXXXXXX" })
      .optional(),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
  TRUST_PROXY: flag(),
  JOBS: z.preprocess(emptyToUndefined, z.enum(["on", "off"], { error: "must be on or off" }).default("on")),
  JOBS_SCHEDULES: jobSchedules,
  STORAGE: z.preprocess(emptyToUndefined, z.enum(["local", "s3"]).default("local")),
  S3_BUCKET: z.preprocess(emptyToUndefined, bucketName.optional()),
  S3_PRIVATE_BUCKET: z.preprocess(emptyToUndefined, bucketName.optional()),
  S3_REGION: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, "must be a region such as eu-west-1")
      .default("us-east-1"),
  ),
  S3_ENDPOINT: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://s3.eu-central-1.example.com" })
      .optional(),
  ),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().max(256).optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().max(256).optional()),
  S3_FORCE_PATH_STYLE: flag(),
  S3_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*\/?$/,
        "must be a folder such as masthead/ (a-z, 0-9, - and _)",
      )
      .transform((v) => (v.endsWith("/") ? v : `${v}/`))
      .optional(),
  ),
  S3_PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://cdn.example.org/uploads" })
      .transform((v) => v.replace(/\/+$/, ""))
      .optional(),
  ),
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  baseUrl: URL;
  dataDir: string;
  uploadsDir: string;
  /** Members-only files (paper files): outside the uploads, never served statically (decision 0024). */
  privateDir: string;
  /**
   * Uploads spooled to disk while their request runs (large files, lib/spool.ts): inside the data
   * directory, so on its file system and a move into storage is a rename.
   */
  tmpDir: string;
  database: { dialect: "sqlite"; file: string } | { dialect: "postgres"; url: string };
  sessionTtlSeconds: number;
  /** A session ends after this long without a request: a member's and an admin's without 'Remember me', and with it. */
  sessionIdleSeconds: { short: number; admin: number; remembered: number };
  smtpUrl?: string;
  mailFrom: string;
  admin?: { email: string; password: string };
  uploadMaxBytes: number;
  /** The largest paper file (document library), streamed to disk, never held in memory. */
  paperMaxBytes: number;
  bodyMaxBytes: number;
  /** Join and registration requests accepted per IP address and hour. */
  joinRatePerHour: number;
  /** reCAPTCHA on the join form: standard (site and secret key) or Enterprise (decision 0040); unset, none. */
  recaptcha?: RecaptchaConfig;
  /** Google Tag Manager container, loaded only when set. */
  gtmId?: string;
  /** Where mails are written as .eml files when SMTP_URL is not set. */
  outboxDir: string;
  /** Memory for rendered anonymous pages; 0 turns the page cache off. */
  pageCacheBytes: number;
  /**
   * How long a shared cache (CDN, nginx proxy_cache) may keep an anonymous page
   * (`s-maxage`; 0: `no-cache`), and serve it stale while it fetches it again
   * (`stale-while-revalidate`). Decision 0031.
   */
  sharedCache: { sMaxAgeSeconds: number; staleWhileRevalidateSeconds: number };
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  trustProxy: boolean;
  /**
   * Scheduled jobs (decision 0045): whether this process runs them (JOBS=off for processes that
   * should not), and schedules that replace the declared ones, by job name (JOBS_SCHEDULES).
   */
  jobs: { enabled: boolean; schedules: Record<string, string> };
  /**
   * NOTIFY_BATCH_SECONDS: the longest an instant notice of what a member follows waits for more to
   * come with it (issue 33, decision 0065); what comes together is sent together.
   */
  notifyBatchSeconds: number;
  /**
   * Where uploads and private files live: `uploadsDir` and `privateDir` on local disk, or an
   * S3-compatible bucket (decision 0030).
   */
  storage: { kind: "local" } | S3StorageConfig;
};

/** STORAGE=s3: one bucket (or two) holding the public uploads and the private files under their own prefixes. */
export type S3StorageConfig = {
  kind: "s3";
  bucket: string;
  /** The private files' bucket: S3_PRIVATE_BUCKET, else the same bucket as the uploads. */
  privateBucket: string;
  region: string;
  endpoint?: string;
  /** Unset: the SDK's own chain (AWS_* variables, the instance's or container's role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
  /** Keys are `<prefix>uploads/<key>` and `<prefix>private/<key>`; empty or ending in "/". */
  prefix: string;
  /** Public uploads are redirected there (`<url>/<key>`, a CDN in front of the uploads prefix) instead of streamed. */
  publicUrl?: string;
};

/**
 * reCAPTCHA, invisible v2 in English (SPEC §7). `standard`: the siteverify protocol with a secret
 * key. `enterprise`: Google Cloud's reCAPTCHA Enterprise, an assessment per token through its REST
 * API (project id and API key), passed when the token is valid, for the form's action, and its
 * score is at least `scoreThreshold`. `verifyUrl` is siteverify's address, or the Enterprise API's
 * root (`/v1/projects/{id}/assessments` is added); tests point it at a local stand-in.
 */
export type RecaptchaConfig =
  | { mode: "standard"; siteKey: string; secretKey: string; verifyUrl: string }
  | {
      mode: "enterprise";
      siteKey: string;
      projectId: string;
      apiKey: string;
      verifyUrl: string;
      scoreThreshold: number;
    };

export const RECAPTCHA_SITEVERIFY_URL = "https://www.google.com/recaptcha/api/siteverify";
export const RECAPTCHA_ENTERPRISE_URL = "https://recaptchaenterprise.googleapis.com";

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`));
  }
  const v = parsed.data;
  if ((v.ADMIN_EMAIL && !v.ADMIN_PASSWORD) || (!v.ADMIN_EMAIL && v.ADMIN_PASSWORD)) {
    throw new ConfigError([
      `${v.ADMIN_EMAIL ? "ADMIN_PASSWORD" : "ADMIN_EMAIL"}: must be set together with ${v.ADMIN_EMAIL ? "ADMIN_EMAIL" : "ADMIN_PASSWORD"}`,
    ]);
  }
  const storage = storageConfig(v);
  const dataDir = path.resolve(v.DATA_DIR);
  const baseUrl = new URL(v.BASE_URL ?? `http://localhost:${v.PORT}`);
  let database: Config["database"];
  if (v.DATABASE_URL && /^postgres(ql)?:\/\//.test(v.DATABASE_URL)) {
    database = { dialect: "postgres", url: v.DATABASE_URL };
  } else if (v.DATABASE_URL) {
    database = { dialect: "sqlite", file: path.resolve(v.DATABASE_URL.replace(/^(sqlite|file):(\/\/)?/, "")) };
  } else {
    database = { dialect: "sqlite", file: path.join(dataDir, "site.db") };
  }
  return {
    env: v.NODE_ENV,
    port: v.PORT,
    host: v.HOST,
    baseUrl,
    dataDir,
    uploadsDir: path.join(dataDir, "uploads"),
    privateDir: path.join(dataDir, "private"),
    tmpDir: path.join(dataDir, "tmp"),
    database,
    sessionTtlSeconds: v.SESSION_TTL,
    sessionIdleSeconds: {
      short: v.SESSION_IDLE_TIMEOUT,
      admin: v.SESSION_ADMIN_IDLE_TIMEOUT,
      remembered: v.SESSION_REMEMBER_IDLE_TIMEOUT,
    },
    smtpUrl: v.SMTP_URL,
    mailFrom: v.MAIL_FROM,
    admin: v.ADMIN_EMAIL && v.ADMIN_PASSWORD ? { email: v.ADMIN_EMAIL, password: v.ADMIN_PASSWORD } : undefined,
    uploadMaxBytes: v.UPLOAD_MAX_BYTES,
    paperMaxBytes: v.PAPER_MAX_BYTES,
    bodyMaxBytes: v.BODY_MAX_BYTES,
    pageCacheBytes: v.PAGE_CACHE_MB * 1024 * 1024,
    sharedCache: {
      sMaxAgeSeconds: v.PAGE_CACHE_S_MAXAGE,
      staleWhileRevalidateSeconds: v.PAGE_CACHE_STALE_WHILE_REVALIDATE,
    },
    joinRatePerHour: v.JOIN_RATE_LIMIT,
    recaptcha: recaptchaConfig(v),
    gtmId: v.GTM_ID,
    outboxDir: path.join(dataDir, "outbox"),
    logLevel: v.LOG_LEVEL,
    trustProxy: v.TRUST_PROXY,
    jobs: { enabled: v.JOBS === "on", schedules: v.JOBS_SCHEDULES },
    notifyBatchSeconds: v.NOTIFY_BATCH_SECONDS,
    storage,
  };
}

function recaptchaConfig(v: z.infer<typeof schema>): RecaptchaConfig | undefined {
  if (v.RECAPTCHA_MODE === "standard") {
    return v.RECAPTCHA_SITE_KEY && v.RECAPTCHA_SECRET_KEY
      ? {
          mode: "standard",
          siteKey: v.RECAPTCHA_SITE_KEY,
          secretKey: v.RECAPTCHA_SECRET_KEY,
          verifyUrl: v.RECAPTCHA_VERIFY_URL ?? RECAPTCHA_SITEVERIFY_URL,
        }
      : undefined;
  }
  // Asked for by name: a missing piece stops the start rather than leave the form unguarded.
  const missing = (["RECAPTCHA_SITE_KEY", "RECAPTCHA_PROJECT_ID", "RECAPTCHA_API_KEY"] as const).filter(
    (key) => !v[key],
  );
  if (missing.length)
    throw new ConfigError(missing.map((key) => `${key}: must be set when RECAPTCHA_MODE is enterprise`));
  return {
    mode: "enterprise",
    siteKey: v.RECAPTCHA_SITE_KEY as string,
    projectId: v.RECAPTCHA_PROJECT_ID as string,
    apiKey: v.RECAPTCHA_API_KEY as string,
    verifyUrl: v.RECAPTCHA_VERIFY_URL ?? RECAPTCHA_ENTERPRISE_URL,
    scoreThreshold: v.RECAPTCHA_SCORE_THRESHOLD,
  };
}

const S3_KEYS = [
  "S3_BUCKET",
  "S3_PRIVATE_BUCKET",
  "S3_ENDPOINT",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_PREFIX",
  "S3_PUBLIC_URL",
] as const;

function storageConfig(v: z.infer<typeof schema>): Config["storage"] {
  if (v.STORAGE === "local") {
    // S3 settings without STORAGE=s3 would leave files on local disk while the operator expects the bucket.
    const stray = S3_KEYS.filter((key) => v[key] !== undefined);
    if (stray.length)
      throw new ConfigError(stray.map((key) => `${key}: is set, but STORAGE is not s3 (set STORAGE=s3, or remove it)`));
    return { kind: "local" };
  }
  const problems: string[] = [];
  if (!v.S3_BUCKET) problems.push("S3_BUCKET: must be set when STORAGE=s3");
  if (!v.S3_ACCESS_KEY_ID !== !v.S3_SECRET_ACCESS_KEY) {
    const missing = v.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID";
    problems.push(
      `${missing}: must be set together with ${missing === "S3_ACCESS_KEY_ID" ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"}`,
    );
  }
  if (problems.length || !v.S3_BUCKET) throw new ConfigError(problems);
  return {
    kind: "s3",
    bucket: v.S3_BUCKET,
    privateBucket: v.S3_PRIVATE_BUCKET ?? v.S3_BUCKET,
    region: v.S3_REGION,
    endpoint: v.S3_ENDPOINT,
    credentials:
      v.S3_ACCESS_KEY_ID && v.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: v.S3_ACCESS_KEY_ID, secretAccessKey: v.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: v.S3_FORCE_PATH_STYLE,
    prefix: v.S3_PREFIX ?? "",
    publicUrl: v.S3_PUBLIC_URL,
  };
}

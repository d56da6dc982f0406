import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { captchaCheckFor } from "../../core/join/captcha";
import { createServices } from "../../core/services";
import type { DatabaseHandle } from "../../db/connect";
import type { Clock } from "../../lib/clock";
import { loadConfig } from "../../lib/env";
import { createLogger } from "../../lib/logger";
import { createMailTransport, type MailTransport } from "../../lib/mail";
import { createStorages } from "../../lib/storages";
import { createApp } from "../../server/app";
import type { AppEnv, Runtime } from "../../server/env";
import { createTestDatabase, type TestDatabase } from "./database";

export const ORIGIN = "http://localhost:3000";

export type TestContext = {
  runtime: Runtime;
  app: ReturnType<typeof createApp>;
  database: TestDatabase;
  dataDir: string;
  close: () => Promise<void>;
};

/** The real app over a real database, driven through app.request(). */
export async function createTestContext(
  env: Record<string, string> = {},
  options: {
    clock?: Clock;
    database?: TestDatabase;
    mailTransport?: MailTransport;
    /** API routes the site does not have (yet), declared by the test with the runtime's config. */
    extraApi?: (runtime: Runtime) => OpenAPIHono<AppEnv>[];
  } = {},
): Promise<TestContext> {
  const database = options.database ?? (await createTestDatabase());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-data-"));
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir, BASE_URL: ORIGIN, ...env });
  fs.mkdirSync(config.uploadsDir, { recursive: true });
  fs.mkdirSync(config.tmpDir, { recursive: true });
  const runtime = buildRuntime(config, database, options.clock, options.mailTransport);
  return {
    runtime,
    app: createApp(runtime, { extraApi: options.extraApi?.(runtime) }),
    database,
    dataDir,
    close: async () => {
      if (!options.database) await database.cleanup();
      // Retried: a mail the app was still writing to its outbox can land while the folder goes.
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
}

export function buildRuntime(
  config: Runtime["config"],
  database: DatabaseHandle,
  clock?: Clock,
  mailTransport?: MailTransport,
): Runtime {
  const logger = createLogger(config.logLevel);
  const storage = createStorages(config);
  return {
    config,
    database,
    storage,
    services: createServices({
      mailFrom: config.mailFrom,
      origin: config.baseUrl.origin,
      db: database.db,
      dialect: database.dialect,
      sqlite: database.sqlite,
      notifications: database.notifications,
      storage: storage.uploads,
      privateStorage: storage.private,
      sessionTtlSeconds: config.sessionTtlSeconds,
      sessionIdleSeconds: config.sessionIdleSeconds,
      logger,
      clock,
      mailTransport:
        mailTransport ??
        createMailTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.outboxDir }),
      joinRatePerHour: config.joinRatePerHour,
      notifyBatchSeconds: config.notifyBatchSeconds,
      captcha: config.recaptcha ? captchaCheckFor(config.recaptcha, { logger }) : undefined,
    }),
    logger,
  };
}

type RequestOptions = {
  json?: unknown;
  form?: Record<string, string | Blob>;
  multipart?: boolean;
  body?: BodyInit;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
};

/** One HTTP request against the app, as a same-origin browser or an API client would send it. */
export async function call(app: TestContext["app"], method: string, url: string, options: RequestOptions = {}) {
  const headers = new Headers(options.headers);
  let body: BodyInit | undefined = options.body;
  if (options.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.json);
  } else if (options.form) {
    if (options.multipart) {
      const form = new FormData();
      for (const [key, value] of Object.entries(options.form)) form.append(key, value);
      body = form;
    } else {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(options.form as Record<string, string>).toString();
    }
  }
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  if (options.cookie) {
    headers.set("cookie", options.cookie);
    if (!headers.has("origin") && method !== "GET") headers.set("origin", ORIGIN);
  }
  const response = await app.request(url, { method, headers, body });
  const text = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, text, json };
}

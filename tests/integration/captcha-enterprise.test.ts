import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { captchaFaultOf, recaptchaEnterpriseCheck } from "../../core/join/captcha";
import { captchaMisconfiguredText, captchaUnreachableText } from "../../core/join/join.values";
import { ConfigError, loadConfig } from "../../lib/env";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { capturedLogger } from "../support/logs";

/**
 * reCAPTCHA Enterprise (SPEC §7 'enterprise mode', decision 0040) against a stand-in of its
 * assessment endpoint: a real HTTP server on this machine, never Google.
 */

const VALID = {
  company_name: "Nordic Bridge Systems AS",
  representative_name: "Ingrid Solberg",
  email: "ingrid@nordicbridge.example",
  phone_number: "+47 22 33 44 55",
};
const REFUSED = "The spam check failed. Please try again.";

/** What the stand-in answers for each token, as the Enterprise API would. */
const ASSESSMENTS: Record<string, { status: number; body: string }> = {
  good: ok({ tokenProperties: { valid: true, action: "join" }, riskAnalysis: { score: 0.9 } }),
  threshold: ok({ tokenProperties: { valid: true, action: "join" }, riskAnalysis: { score: 0.7 } }),
  middling: ok({ tokenProperties: { valid: true, action: "join" }, riskAnalysis: { score: 0.5 } }),
  low: ok({ tokenProperties: { valid: true, action: "join" }, riskAnalysis: { score: 0.1 } }),
  "wrong-action": ok({ tokenProperties: { valid: true, action: "login" }, riskAnalysis: { score: 0.9 } }),
  invalid: ok({ tokenProperties: { valid: false, invalidReason: "MALFORMED" }, riskAnalysis: { score: 0 } }),
  expired: ok({ tokenProperties: { valid: false, invalidReason: "EXPIRED", action: "join" } }),
  "no-score": ok({ tokenProperties: { valid: true, action: "join" } }),
  "server-error": { status: 500, body: JSON.stringify({ error: { code: 500, status: "INTERNAL" } }) },
  "key-refused": { status: 403, body: JSON.stringify({ error: { code: 403, status: "PERMISSION_DENIED" } }) },
  "key-invalid": { status: 400, body: JSON.stringify({ error: { code: 400, message: "API key not valid." } }) },
  "no-project": { status: 404, body: JSON.stringify({ error: { code: 404, status: "NOT_FOUND" } }) },
  quota: { status: 429, body: JSON.stringify({ error: { code: 429, status: "RESOURCE_EXHAUSTED" } }) },
  unavailable: { status: 503, body: JSON.stringify({ error: { code: 503, status: "UNAVAILABLE" } }) },
  "not-json": { status: 200, body: "<html>captive portal</html>" },
};
function ok(body: unknown) {
  return { status: 200, body: JSON.stringify(body) };
}

type Seen = { method: string; url: string; contentType: string; body: { event?: Record<string, unknown> } };
let seen: Seen[] = [];
let standIn: http.Server;
let standInUrl: string;
let t: TestContext;

const ENTERPRISE = {
  RECAPTCHA_MODE: "enterprise",
  RECAPTCHA_SITE_KEY: "6Lc-enterprise-site-key",
  RECAPTCHA_PROJECT_ID: "masthead-test",
  RECAPTCHA_API_KEY: "test-api-key",
  RECAPTCHA_SCORE_THRESHOLD: "0.7",
  JOIN_RATE_LIMIT: "1000",
};

beforeAll(async () => {
  standIn = http.createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => {
      const body = JSON.parse(text || "{}") as Seen["body"];
      seen.push({
        method: request.method ?? "",
        url: request.url ?? "",
        contentType: request.headers["content-type"] ?? "",
        body,
      });
      const answer = ASSESSMENTS[String(body.event?.token)] ?? ASSESSMENTS.invalid;
      response.writeHead(answer.status, { "Content-Type": "application/json" });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
  standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
  t = await createTestContext({ ...ENTERPRISE, RECAPTCHA_VERIFY_URL: standInUrl });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => standIn.close(resolve));
});
beforeEach(async () => {
  seen = [];
  await t.database.db.deleteFrom("join_requests").execute();
  await t.database.db.deleteFrom("rate_limits").execute();
});

const requests = () => t.database.db.selectFrom("join_requests").select("email").execute();
const send = (app: TestContext["app"], captcha_token?: string) =>
  call(app, "POST", "/api/join", {
    json: captcha_token === undefined ? VALID : { ...VALID, captcha_token },
    headers: { "x-forwarded-for": "203.0.113.7" },
  });

describe("reCAPTCHA Enterprise on the join form", () => {
  it("asks the assessment API of the project with the key, the token, the site key and the join action", async () => {
    const res = await send(t.app, "good");
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ status: "success" });
    expect(await requests()).toHaveLength(1);
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe("POST");
    expect(seen[0].url).toBe("/v1/projects/masthead-test/assessments?key=test-api-key");
    expect(seen[0].contentType).toMatch(/^application\/json/);
    expect(seen[0].body.event).toMatchObject({
      token: "good",
      siteKey: "6Lc-enterprise-site-key",
      expectedAction: "join",
    });
    expect(typeof seen[0].body.event?.userIpAddress).toBe("string");
  });

  it("passes a score at the threshold and refuses one below it, a wrong action and an invalid token with the 422", async () => {
    expect((await send(t.app, "threshold")).status).toBe(200);
    for (const token of ["middling", "low", "wrong-action", "invalid", "expired", "no-score"]) {
      const res = await send(t.app, token);
      expect(res.status, token).toBe(422);
      expect(res.json?.errors, token).toEqual({ captcha_token: [REFUSED] });
    }
    expect(await requests()).toHaveLength(1);
  });

  it("refuses a request without a token and does not ask the service", async () => {
    const res = await send(t.app);
    expect(res.status).toBe(422);
    expect(res.json?.errors).toEqual({ captcha_token: [REFUSED] });
    expect(seen).toHaveLength(0);
    expect(await requests()).toHaveLength(0);
  });

  it("answers 503 'try again' with Retry-After when the service fails, is over its quota or answers something else", async () => {
    const unreachable = captchaUnreachableText();
    expect(unreachable).toBe("The spam check could not be reached just now. Please try again in 1 minute.");
    for (const token of ["server-error", "unavailable", "quota", "not-json"]) {
      const res = await send(t.app, token);
      expect(res.status, token).toBe(503);
      expect(res.json, token).toMatchObject({
        status: "error",
        message: unreachable,
        errors: { captcha_token: [unreachable] },
      });
      expect(res.headers.get("retry-after"), token).toBe("60");
    }
    expect(await requests()).toHaveLength(0);
  });

  it("answers a refused key or project (a 4xx) as the site's fault, not the visitor's: 503 naming where to write, no Retry-After", async () => {
    await t.runtime.services.settings.set({ "site.email": "secretariat@masthead.test" });
    const misconfigured = captchaMisconfiguredText({ email: "secretariat@masthead.test", phone: "" });
    expect(misconfigured).toBe(
      "This form cannot be checked for spam just now because of a fault on our side, not yours. Please write to the secretariat at secretariat@masthead.test instead.",
    );
    for (const token of ["key-refused", "key-invalid", "no-project"]) {
      const res = await send(t.app, token);
      expect(res.status, token).toBe(503);
      expect(res.json, token).toMatchObject({ message: misconfigured, errors: { captcha_token: [misconfigured] } });
      // Trying again will not help until the operator mends the key.
      expect(res.headers.get("retry-after"), token).toBeNull();
    }
    // The message form says the same.
    const message = await call(t.app, "POST", "/api/contact", {
      json: { name: "Ingrid", email: VALID.email, subject: "Hi", message: "Hello", captcha_token: "key-refused" },
      headers: { "x-forwarded-for": "203.0.113.7" },
    });
    expect(message.status).toBe(503);
    expect(message.json?.message).toBe(misconfigured);
    // Without an address of the secretariat, its phone number; without either, another way or later.
    await t.runtime.services.settings.set({ "site.email": "", "site.phone": "+44 20 7946 0321" });
    expect((await send(t.app, "key-refused")).json?.message).toBe(
      "This form cannot be checked for spam just now because of a fault on our side, not yours. Please call the secretariat at +44 20 7946 0321 instead.",
    );
    await t.runtime.services.settings.set({ "site.phone": "" });
    const nothing = await send(t.app, "key-refused");
    expect(nothing.json?.message).toBe(captchaMisconfiguredText({ email: "", phone: "" }));
    expect(nothing.json?.message).toContain("contact the secretariat another way, or try again later");
    expect(await requests()).toHaveLength(0);
  });

  it("logs a refused key as an error naming the settings to check, and an outage as an error", async () => {
    const { logger, lines } = capturedLogger();
    const check = recaptchaEnterpriseCheck({
      siteKey: "k",
      projectId: "masthead-test",
      apiKey: "test-api-key",
      verifyUrl: standInUrl,
      scoreThreshold: 0.5,
      logger,
    });
    const faultOf = (token: string) => check.verify(token, "203.0.113.7").then(() => null, captchaFaultOf);
    expect(await faultOf("key-refused")).toBe("misconfigured");
    expect(await faultOf("quota")).toBe("unreachable");
    expect(await faultOf("good")).toBeNull();
    const errors = lines.filter((line) => line.level === 50);
    expect(errors.map((line) => line.msg)).toEqual([
      "captcha misconfigured: the verification service refused the site's request",
      "captcha verification service unreachable",
    ]);
    const cause = (errors[0].err as { message: string }).message;
    expect(cause).toContain("403");
    expect(cause).toContain("RECAPTCHA_API_KEY");
    // The API key travels in the address; it is never written to the log.
    expect(JSON.stringify(lines)).not.toContain("test-api-key");
  });

  it("answers 503, never a pass nor a 500, when the service cannot be reached", async () => {
    // Port 9 (discard) has nothing listening: the connection is refused.
    const down = await createTestContext(
      { ...ENTERPRISE, RECAPTCHA_VERIFY_URL: "http://127.0.0.1:9" },
      { database: t.database },
    );
    try {
      const res = await send(down.app, "good");
      expect(res.status).toBe(503);
      expect(res.json?.message).toBe(captchaUnreachableText());
      expect(res.headers.get("retry-after")).toBe("60");
      expect(await requests()).toHaveLength(0);
    } finally {
      await down.close();
    }
  });

  it("takes the threshold from RECAPTCHA_SCORE_THRESHOLD (0.5 unless set)", async () => {
    const { RECAPTCHA_SCORE_THRESHOLD: _, ...withDefault } = ENTERPRISE;
    const lenient = await createTestContext(
      { ...withDefault, RECAPTCHA_VERIFY_URL: standInUrl },
      { database: t.database },
    );
    try {
      expect((await send(lenient.app, "middling")).status).toBe(200);
      expect((await send(lenient.app, "low")).status).toBe(422);
    } finally {
      await lenient.close();
    }
  });

  it("does not ask a signed-in API client for a token", async () => {
    const member = await signIn(t.runtime.services, "member");
    const res = await call(t.app, "POST", "/api/join", { json: VALID, token: member.token });
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(0);
  });

  it("lets the browser load the widget from Google only when a captcha is configured", async () => {
    const csp = (await call(t.app, "GET", "/healthz")).headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src [^;]*https:\/\/www\.google\.com\/recaptcha\//);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/www\.google\.com\/recaptcha\//);
    const plain = await createTestContext({}, { database: t.database });
    try {
      const without = (await call(plain.app, "GET", "/healthz")).headers.get("content-security-policy") ?? "";
      expect(without).not.toContain("google.com");
      expect(without).not.toContain("gstatic.com");
    } finally {
      await plain.close();
    }
  });
});

describe("RECAPTCHA_MODE=enterprise configuration", () => {
  it("needs the site key, the project id and the API key, and says which is missing", () => {
    expect(() => loadConfig({ RECAPTCHA_MODE: "enterprise", RECAPTCHA_SITE_KEY: "k" })).toThrow(ConfigError);
    try {
      loadConfig({ RECAPTCHA_MODE: "enterprise", RECAPTCHA_SITE_KEY: "k" });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        "RECAPTCHA_PROJECT_ID: must be set when RECAPTCHA_MODE is enterprise",
        "RECAPTCHA_API_KEY: must be set when RECAPTCHA_MODE is enterprise",
      ]);
    }
    expect(() => loadConfig({ ...ENTERPRISE, RECAPTCHA_SCORE_THRESHOLD: "1.5" })).toThrow(/RECAPTCHA_SCORE_THRESHOLD/);
    expect(() => loadConfig({ ...ENTERPRISE, RECAPTCHA_PROJECT_ID: "Not A Project" })).toThrow(/RECAPTCHA_PROJECT_ID/);
  });

  it("defaults to Google's endpoints: the Enterprise API, or siteverify in the standard mode", () => {
    expect(loadConfig(ENTERPRISE).recaptcha).toEqual({
      mode: "enterprise",
      siteKey: "6Lc-enterprise-site-key",
      projectId: "masthead-test",
      apiKey: "test-api-key",
      verifyUrl: "https://recaptchaenterprise.googleapis.com",
      scoreThreshold: 0.7,
    });
    expect(loadConfig({ RECAPTCHA_SITE_KEY: "k", RECAPTCHA_SECRET_KEY: "s" }).recaptcha).toEqual({
      mode: "standard",
      siteKey: "k",
      secretKey: "s",
      verifyUrl: "https://www.google.com/recaptcha/api/siteverify",
    });
    expect(loadConfig({}).recaptcha).toBeUndefined();
  });
});

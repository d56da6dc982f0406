import type { RecaptchaConfig } from "../../lib/env";
import type { Logger } from "../../lib/logger";
import type { CaptchaCheck } from "./join.service";
import { JOIN_CAPTCHA_ACTION } from "./join.values";

/**
 * Why the verification service gave no answer we can judge (decision 0040):
 * - `unreachable`: down, slow (timeout), a 5xx, a 408 or 429 (its own load or quota), something
 *   other than JSON. It may answer in a moment: the visitor is asked to try again shortly.
 * - `misconfigured`: it refused the site's own request (another 4xx: a bad or restricted API key,
 *   an unknown project; siteverify's invalid-input-secret or missing-input-secret). Only the
 *   operator can mend that: logged as an error naming the setting, and the visitor, who did
 *   nothing wrong, is told so and where to write instead.
 * Never a pass (the captcha would be off whenever the service is), never "the spam check failed",
 * which would blame the visitor, never a 500. The join service turns it into the answer.
 */
export type CaptchaFault = "unreachable" | "misconfigured";
export class CaptchaUnavailable extends Error {
  readonly captchaFault: CaptchaFault;
  constructor(fault: CaptchaFault, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CaptchaUnavailable";
    this.captchaFault = fault;
  }
}

/** The fault of a captcha check that could not be made, or null for any other error. */
export function captchaFaultOf(error: unknown): CaptchaFault | null {
  const fault = (error as { captchaFault?: unknown } | null)?.captchaFault;
  return fault === "unreachable" || fault === "misconfigured" ? fault : null;
}

/** Statuses of the service's own load or quota: a moment later it may answer. */
const TRANSIENT_CLIENT_STATUSES = new Set([408, 429]);

function fail(fault: CaptchaFault, message: string, logger: Logger | undefined, cause?: unknown): never {
  const error = new CaptchaUnavailable(fault, message, { cause });
  if (fault === "misconfigured")
    logger?.error({ err: error }, "captcha misconfigured: the verification service refused the site's request");
  else logger?.error({ err: error }, "captcha verification service unreachable");
  throw error;
}

async function postJson(
  url: string,
  init: RequestInit,
  options: { timeoutMs: number; logger?: Logger; setting: string },
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    fail("unreachable", `captcha verification not reached: ${String(error)}`, options.logger, error);
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) {
    const said = `captcha verification answered ${response.status}: ${text.slice(0, 300)}`;
    if (response.status >= 500 || TRANSIENT_CLIENT_STATUSES.has(response.status))
      fail("unreachable", said, options.logger);
    fail("misconfigured", `${said} (check ${options.setting})`, options.logger);
  }
  try {
    const answer = JSON.parse(text) as unknown;
    if (typeof answer !== "object" || answer === null) throw new Error("not an object");
    return answer as Record<string, unknown>;
  } catch {
    fail(
      "unreachable",
      `captcha verification answered something else than JSON: ${text.slice(0, 300)}`,
      options.logger,
    );
  }
}

type Options = { timeoutMs?: number; logger?: Logger };

/** siteverify's error codes that speak of the site's secret, not of the visitor's token. */
const SECRET_ERRORS = ["invalid-input-secret", "missing-input-secret"];

/**
 * reCAPTCHA's server-side check (the siteverify protocol): the token the
 * browser got, the secret and the visitor's address; only `success` counts.
 */
export function recaptchaCheck(options: { secretKey: string; verifyUrl: string } & Options): CaptchaCheck {
  return {
    required: true,
    async verify(token, ip) {
      const body = new URLSearchParams({ secret: options.secretKey, response: token });
      if (ip) body.set("remoteip", ip);
      const answer = await postJson(
        options.verifyUrl,
        { method: "POST", body },
        { timeoutMs: options.timeoutMs ?? 5000, logger: options.logger, setting: "RECAPTCHA_VERIFY_URL" },
      );
      const errors = Array.isArray(answer["error-codes"]) ? (answer["error-codes"] as unknown[]).map(String) : [];
      const secretFault = errors.filter((code) => SECRET_ERRORS.includes(code));
      if (answer.success !== true && secretFault.length > 0)
        fail(
          "misconfigured",
          `siteverify refused the site's secret (${secretFault.join(", ")}): check RECAPTCHA_SECRET_KEY`,
          options.logger,
        );
      if (answer.success !== true) options.logger?.info({ errors }, "captcha refused");
      return answer.success === true;
    },
  };
}

/** Why an assessment is not a pass, or null when it is one. */
export function assessmentRefusal(
  answer: Record<string, unknown>,
  expected: { action: string; scoreThreshold: number },
): string | null {
  const token = (answer.tokenProperties ?? {}) as { valid?: unknown; invalidReason?: unknown; action?: unknown };
  const risk = (answer.riskAnalysis ?? {}) as { score?: unknown };
  if (token.valid !== true) return `invalid token (${String(token.invalidReason ?? "no reason given")})`;
  if (token.action !== expected.action) return `action ${JSON.stringify(token.action)}, not ${expected.action}`;
  if (typeof risk.score !== "number") return "no score";
  if (risk.score < expected.scoreThreshold) return `score ${risk.score} below ${expected.scoreThreshold}`;
  return null;
}

/**
 * reCAPTCHA Enterprise's check: an assessment through its REST API
 * (`POST {verifyUrl}/v1/projects/{project}/assessments?key={apiKey}`), passed when the token is
 * valid, was made for the join form's action and scores at least the threshold.
 */
export function recaptchaEnterpriseCheck(
  options: { siteKey: string; projectId: string; apiKey: string; verifyUrl: string; scoreThreshold: number } & Options,
): CaptchaCheck {
  const url = new URL(
    `v1/projects/${encodeURIComponent(options.projectId)}/assessments`,
    options.verifyUrl.endsWith("/") ? options.verifyUrl : `${options.verifyUrl}/`,
  );
  url.searchParams.set("key", options.apiKey);
  return {
    required: true,
    async verify(token, ip) {
      const event: Record<string, string> = { token, siteKey: options.siteKey, expectedAction: JOIN_CAPTCHA_ACTION };
      if (ip) event.userIpAddress = ip;
      const answer = await postJson(
        url.href,
        { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ event }) },
        {
          timeoutMs: options.timeoutMs ?? 5000,
          logger: options.logger,
          setting: "RECAPTCHA_API_KEY, RECAPTCHA_PROJECT_ID and RECAPTCHA_VERIFY_URL",
        },
      );
      const refusal = assessmentRefusal(answer, {
        action: JOIN_CAPTCHA_ACTION,
        scoreThreshold: options.scoreThreshold,
      });
      // The operator tunes the threshold from these lines (the score says how human the sender looked).
      if (refusal) options.logger?.info({ reason: refusal }, "captcha refused");
      return refusal === null;
    },
  };
}

/** The check the configuration asks for. */
export function captchaCheckFor(config: RecaptchaConfig, options: Options = {}): CaptchaCheck {
  return config.mode === "enterprise"
    ? recaptchaEnterpriseCheck({ ...config, ...options })
    : recaptchaCheck({ ...config, ...options });
}

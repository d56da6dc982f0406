import {
  ALREADY_REGISTERED,
  ALREADY_REGISTERED_YOURS,
  FIX_FIELDS,
  JOIN_CAPTCHA_ACTION,
  KEPT_IN_FORM,
  MY_REGISTRATIONS_PATH,
  REGISTRATION_REFUSED,
  type RegistrationStatus,
  SERVER_FAILED,
  sendFailed,
} from "../../../core/join/join.values";
import { CAPTCHA_VERSION, captchaToken } from "../../lib/third-party";

/**
 * What became of a form's request (decision 0039): sent, or refused with what to tell the person
 * and the fields to correct. The confirm modal opens before the answer (SPEC §4) and shows this
 * instead of the thanks when the server refuses.
 */
export type SendOutcome =
  /** `registration`: the state a meeting's registration arrived in (decision 0052: waitlisted is said so). */
  | { sent: true; registration?: { status: RegistrationStatus } | null }
  | { sent: false; message: string; fields: Record<string, string>; link?: { to: string; label: string } };

type ErrorAnswer = { message?: unknown; errors?: Record<string, unknown> };

/** The first message of each field in an error answer. */
function firstOfEach(errors: Record<string, unknown> | undefined): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [field, messages] of Object.entries(errors ?? {})) {
    if (Array.isArray(messages) && typeof messages[0] === "string") found[field] = messages[0];
  }
  return found;
}

/** Retry-After in seconds (a date is read as the seconds until it), or null. */
function retryAfterOf(response: Response): number | null {
  const header = response.headers.get("retry-after");
  if (!header) return null;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null;
}

/**
 * Posts the form's fields as multipart (as the spec's client does) and reads the answer. The
 * server's own message is shown as it is (it says how long to wait: the rate limit, a captcha
 * service that is away, decision 0040); an answer without one (the connection failed, a proxy's
 * error page) says so, with Retry-After's wait when one came.
 */
export async function sendForm(url: string, fields: Record<string, string>): Promise<SendOutcome> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", body, headers: { Accept: "application/json" } });
  } catch (error) {
    console.error("Form not sent", error);
    return { sent: false, message: sendFailed(), fields: {} };
  }
  if (response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { registration?: { status?: unknown } };
    const status = answer.registration?.status;
    return {
      sent: true,
      registration: status === "pending" || status === "confirmed" || status === "waitlisted" ? { status } : null,
    };
  }
  const answer = (await response.json().catch(() => ({}))) as ErrorAnswer;
  console.error("Form not accepted", response.status, answer);
  const message = typeof answer.message === "string" && answer.message ? answer.message : null;
  if (!message) return { sent: false, message: sendFailed(retryAfterOf(response)), fields: {} };
  // "Internal server error." tells a person nothing; what to do does.
  if (response.status === 500) return { sent: false, message: SERVER_FAILED, fields: {} };
  const { page_path, captcha_token, altcha, ...fieldErrors } = firstOfEach(answer.errors);
  // A meeting that takes no more registrations: why, and where to turn instead.
  if (page_path) return { sent: false, message: `${page_path} ${REGISTRATION_REFUSED}`, fields: {} };
  // Registered already: nothing to correct; where the registration is, or that its link was mailed (decision 0060).
  if (fieldErrors.email?.startsWith(ALREADY_REGISTERED)) {
    const yours = fieldErrors.email === ALREADY_REGISTERED_YOURS;
    return {
      sent: false,
      message: fieldErrors.email,
      fields: {},
      ...(yours ? { link: { to: MY_REGISTRATIONS_PATH, label: "Open My registrations" } } : {}),
    };
  }
  if (captcha_token) return { sent: false, message: `${captcha_token} ${KEPT_IN_FORM}`, fields: {} };
  // The proof of work did not pass (decision 0077): what to do, never a thank-you; nothing in the fields to correct.
  if (altcha) return { sent: false, message: `${altcha} ${KEPT_IN_FORM}`, fields: {} };
  if (Object.keys(fieldErrors).length > 0) return { sent: false, message: FIX_FIELDS, fields: fieldErrors };
  // The rate limit (with the wait), a body too large, a full disk…: the server's own words.
  return { sent: false, message: `${message} ${KEPT_IN_FORM}`, fields: {} };
}

/** What the server's spam checks read beside a public form's fields (decisions 0039, 0040). */
export type SpamChecks = {
  /** The captcha's site key and the element its widget goes in, when one is configured. */
  captcha: { siteKey: string; container: HTMLElement; enterprise: boolean } | null;
  /** When the form was shown, as the server signed it (decision 0039): a form sent much faster is kept as probable spam. */
  shownAt: string;
  /** The hidden field only robots fill in. */
  honeypot: string;
  /** The page the form was sent from (a meeting's page makes a registration). */
  pagePath: string;
  /**
   * The proof-of-work widget's answer (decision 0077), "" when it could not solve; null when the
   * widget did not run (reCAPTCHA configured, or a browser without what it needs): then not sent.
   */
  proof: string | null;
};

/**
 * Sends a public form (the join form, the message form) with what the spam checks read: a captcha
 * token when one is configured (both forms share the join action the server checks), otherwise the
 * proof of work, the time it was shown (signed by the server) and the honeypot.
 */
export async function sendPublicForm(
  url: string,
  fields: Record<string, string>,
  checks: SpamChecks,
): Promise<SendOutcome> {
  let captcha = "";
  if (checks.captcha) {
    try {
      captcha = await captchaToken({
        siteKey: checks.captcha.siteKey,
        version: CAPTCHA_VERSION,
        container: checks.captcha.container,
        enterprise: checks.captcha.enterprise,
        action: JOIN_CAPTCHA_ACTION,
      });
    } catch (error) {
      // SPEC §8: captcha errors go to the console, never to the visitor.
      console.error(error instanceof Error ? error.message : error);
    }
  }
  return sendForm(url, {
    ...fields,
    captcha_token: captcha,
    page_path: checks.pagePath,
    started_at: checks.shownAt,
    website: checks.honeypot,
    ...(checks.proof === null ? {} : { altcha: checks.proof }),
  });
}

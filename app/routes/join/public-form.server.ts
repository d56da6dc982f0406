import { data, redirect } from "react-router";
import { groupsOf, hasMembersAccess } from "../../../core/access/access";
import { safeRedirectPath } from "../../../core/auth/auth.schema";
import {
  type FormKind,
  JOIN_FIELDS,
  joinSubmissionSchema,
  MESSAGE_FIELDS,
  messageSubmissionSchema,
} from "../../../core/join/join.schema";
import { KEPT_IN_FORM, REGISTRATION_REFUSED } from "../../../core/join/join.values";
import type { RequestContext } from "../../../core/request-context";
import { parseOrThrow } from "../../../lib/validation";
import { comeBackLaterOf, fieldFailureOf, firstMessages } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";

/** What /join and /message show again after a refusal (decision 0039). */
export type PublicFormActionData = {
  /** The page the form was sent from, kept so that a corrected registration is still one. */
  pagePath?: string;
  errors?: Record<string, string>;
  failure?: string;
  values: Record<string, string>;
  /**
   * The shown-at time the form was sent with (decision 0039): the form shown again sends it once
   * more, as the visitor first saw the form then, not now.
   */
  startedAt?: string;
};

const FIELDS: Record<FormKind, readonly string[]> = { join: JOIN_FIELDS, message: MESSAGE_FIELDS };

/**
 * Where a public form posts without JavaScript (with it, the form sends to the API and thanks in
 * a modal): /join for the join form, /message for the message form. Errors and refusals (a meeting
 * that takes no more registrations, the rate limit or a captcha service that is away, each with
 * its wait and Retry-After, the spam checks) come back on the page with the visitor's values, never
 * the thanks; a stored request (also one kept as probable spam) leads to the thank-you page.
 */
export async function publicFormAction(kind: FormKind, request: Request, context: RequestContext) {
  const { services, client, auth } = context;
  const form = await readForm(request);
  const sentFrom = safeRedirectPath(form.page_path, "/");
  const shown = {
    pagePath: sentFrom === "/" ? undefined : sentFrom,
    values: Object.fromEntries([
      ...FIELDS[kind].map((field) => [field, typeof form[field] === "string" ? (form[field] as string) : ""]),
      // A registration's note, when its form had one: shown again with the rest, never dropped.
      ...(kind === "join" && typeof form.note === "string" ? [["note", form.note]] : []),
    ]),
    startedAt: typeof form.started_at === "string" ? form.started_at.slice(0, 200) : undefined,
  };
  // A lapsed company's representative registers as a visitor would (decision 0044).
  const sender = {
    ip: client.ip,
    signedIn: hasMembersAccess(auth),
    groups: groupsOf(auth),
    userId: auth?.user.id ?? null,
  };
  let waitlisted = false;
  try {
    if (kind === "join") {
      const outcome = await services.join.submit(parseOrThrow(joinSubmissionSchema, form), sender);
      waitlisted = outcome.registration?.status === "waitlisted";
    } else await services.join.sendMessage(parseOrThrow(messageSubmissionSchema, form), sender);
  } catch (error) {
    const later = comeBackLaterOf(error);
    if (later) return data<PublicFormActionData>({ ...shown, failure: `${later.message} ${KEPT_IN_FORM}` }, later.init);
    const { errors, status } = fieldFailureOf(error);
    // The spam check and a meeting that no longer takes registrations are not fields the visitor
    // can correct: said above the form.
    const { captcha_token, altcha, page_path, ...fields } = firstMessages(errors);
    const check = captcha_token ?? altcha;
    const failure = page_path ? `${page_path} ${REGISTRATION_REFUSED}` : check ? `${check} ${KEPT_IN_FORM}` : undefined;
    return data<PublicFormActionData>({ ...shown, errors: fields, failure }, { status });
  }
  return redirect(`/join/thank-you?from=${encodeURIComponent(sentFrom)}${waitlisted ? "&waitlisted=1" : ""}`);
}

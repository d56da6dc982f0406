import { data } from "react-router";
import { isAppError } from "../../lib/errors";
import { parseId } from "../../lib/ids";

export { firstMessages } from "../../lib/validation";

/**
 * Field errors of a service's refusal (invalid input 422, a refused upload 415), to show beside the
 * fields, with the status to answer; anything else is rethrown.
 */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  return fieldFailureOf(error).errors;
}

export function fieldFailureOf(error: unknown): { errors: Record<string, string[]>; status: number } {
  if (isAppError(error) && error.details.errors) return { errors: error.details.errors, status: error.status };
  throw error;
}

/** The id a row's form posts; anything but decimal digits is a 400. */
export function formId(form: Record<string, FormDataEntryValue>): number {
  const id = parseId(form.id);
  if (id === null) throw data("Unknown item.", { status: 400 });
  return id;
}

/**
 * A service's refusal of an admin list action (the row is gone, the last admin)
 * as `{ error }` with its status, which the page or ConfirmDelete shows; anything
 * else is rethrown.
 */
export function actionRefusal(error: unknown) {
  if (isAppError(error)) return data({ error: error.message }, { status: error.status });
  throw error;
}

/** A service's "too many attempts": its message and the 429 with Retry-After to answer; null for anything else. */
export function rateLimitOf(error: unknown): { message: string; init: ResponseInit } | null {
  if (!isAppError(error) || error.code !== "rate_limited") return null;
  const retryAfter = String(error.details.retryAfter ?? 60);
  return { message: error.message, init: { status: 429, headers: { "Retry-After": retryAfter } } };
}

/**
 * A service's refusal that asks to come back later: the rate limit (429) or a service it depends on
 * that cannot answer (503, e.g. the captcha's verification, decision 0040). Its message, and its
 * status with Retry-After when the service says how long; null for anything else.
 */
export function comeBackLaterOf(error: unknown): { message: string; init: ResponseInit } | null {
  if (!isAppError(error) || (error.code !== "rate_limited" && error.code !== "unavailable")) return null;
  const retryAfter = error.details.retryAfter ?? (error.code === "rate_limited" ? 60 : undefined);
  return {
    message: error.message,
    init: { status: error.status, headers: retryAfter ? { "Retry-After": String(retryAfter) } : undefined },
  };
}

/**
 * A page's `headers`: the wait of an action's refusal (429, 503) reaches the browser as Retry-After
 * (React Router sends a route's own headers only, not those of the `data()` it answered with).
 */
export function retryAfterOf({ actionHeaders }: { actionHeaders: Headers }): HeadersInit {
  const wait = actionHeaders.get("Retry-After");
  return wait ? { "Retry-After": wait } : {};
}

/**
 * The length a schema's text field allows, as the input's maxLength: the rule is
 * declared once, in the schema, and the browser stops typing where the server would refuse.
 */
export function lengthLimit(field: unknown): { maxLength?: number } {
  const max = maxLengthOf(field, 0);
  return max === undefined ? {} : { maxLength: max };
}

type SchemaLike = {
  maxLength?: number | null;
  unwrap?: () => unknown;
  def?: { in?: unknown; out?: unknown };
};

/** A string schema's maximum length, also inside optional, default and pipe (preprocess) wrappers. */
function maxLengthOf(field: unknown, depth: number): number | undefined {
  const schema = field as SchemaLike | null;
  if (!schema || depth > 5) return undefined;
  if (typeof schema.maxLength === "number") return schema.maxLength;
  if (typeof schema.unwrap === "function") return maxLengthOf(schema.unwrap(), depth + 1);
  return maxLengthOf(schema.def?.out, depth + 1) ?? maxLengthOf(schema.def?.in, depth + 1);
}

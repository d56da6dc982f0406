import { data } from "react-router";
import { isAppError } from "../../lib/errors";

/**
 * The submitted form of an action as a plain object. A body that is not a
 * readable form (garbage multipart, JSON, wrong encoding) is the client's
 * error: 400, not a 500.
 */
export async function readForm(request: Request): Promise<Record<string, FormDataEntryValue>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) {
    throw data("The form could not be read.", { status: 415 });
  }
  try {
    return Object.fromEntries(await request.formData());
  } catch {
    throw data("The form could not be read.", { status: 400 });
  }
}

/** Field errors of a service's validation failure, to show beside the fields; anything else is rethrown. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  if (isAppError(error) && error.code === "validation") return error.details.errors ?? {};
  throw error;
}

import { z } from "zod";
import { AppError, type FieldErrors } from "./errors";

export type Validated<T> = { success: true; data: T } | { success: false; errors: FieldErrors };

/**
 * Runs a shared schema over untrusted input. Invalid input is a value, not an
 * exception: callers decide (the API throws invalidInput below; a page shows the messages by its fields).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): Validated<z.output<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { success: true, data: parsed.data };
  return { success: false, errors: fieldErrors(parsed.error) };
}

/** A schema's failure as messages by field (`_` for the input as a whole). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.join(".") : "_";
    errors[field] ??= [];
    if (!errors[field].includes(issue.message)) errors[field].push(issue.message);
  }
  return errors;
}

/** The one 422 every service throws for input that breaks its rules. */
export function invalidInput(errors: FieldErrors): AppError {
  return new AppError("validation", "The given data was invalid.", { errors });
}

/** The parsed input, or the 422 with its field messages. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = validate(schema, input);
  if (!parsed.success) throw invalidInput(parsed.errors);
  return parsed.data;
}

/** A yes/no field as JSON and forms send it: true/false, "true"/"false", 1/0, "1"/"0". */
export function flagSchema(message: string) {
  return z
    .union([z.boolean(), z.enum(["true", "false", "1", "0"]), z.literal(1), z.literal(0)], { error: message })
    .transform((v) => v === true || v === "true" || v === "1" || v === 1);
}

// A local part, then a domain of at least two non-empty labels ("b..com" and "b.com." are refused).
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const PHONE = /^[\d+-]{8,15}$/;

/** The e-mail form every form of the site checks (join, profile, forgotten password). */
export const isEmailAddress = (value: string) => EMAIL.test(value);
/** SPEC §5/§9: after removing spaces, 8 to 15 characters, each a digit, a hyphen or a plus sign. */
export const isPhoneNumber = (value: string) => PHONE.test(value.replace(/\s+/g, ""));

/** The first message of each field, for forms that show one line under a field. */
export function firstMessages(errors: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field, messages[0]]));
}

import { joinSchema, messageSchema } from "../../../core/join/join.schema";
import type { FormKind } from "../../../core/join/join.values";
import { firstMessages, validate } from "../../../lib/validation";

const SCHEMAS = { join: joinSchema, message: messageSchema } as const;

/**
 * A public form's checks in the browser: the shared schema, loaded (with Zod) once the visitor
 * starts on the form rather than with every page (decision 0028).
 */
export function errorsOf(kind: FormKind, values: Record<string, string>): Record<string, string> {
  const result = validate(SCHEMAS[kind], values);
  return result.success ? {} : firstMessages(result.errors);
}

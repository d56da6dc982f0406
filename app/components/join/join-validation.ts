import { joinSchema } from "../../../core/join/join.schema";
import { firstMessages, validate } from "../../../lib/validation";

/**
 * The join form's checks in the browser: the shared schema, loaded (with Zod)
 * once the visitor starts on the form rather than with every page (decision 0028).
 */
export function errorsOf(values: Record<string, string>): Record<string, string> {
  const result = validate(joinSchema, values);
  return result.success ? {} : firstMessages(result.errors);
}

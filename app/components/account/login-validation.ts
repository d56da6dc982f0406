import { loginSchema } from "../../../core/auth/auth.schema";
import { validate } from "../../../lib/validation";

/**
 * The login form's checks in the browser: the server's schema, loaded (with
 * Zod) once the visitor starts on the form rather than with the page (decision 0028).
 */
export function fieldErrors(values: { email: string; password: string }): Record<string, string[]> {
  const result = validate(loginSchema, values);
  return result.success ? {} : result.errors;
}

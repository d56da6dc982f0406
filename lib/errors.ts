/**
 * The one error type. Services throw AppError; adapters (API, loaders) map the
 * code to an HTTP status through STATUS_BY_CODE and never show a stack trace.
 */
export const STATUS_BY_CODE = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;
export type FieldErrors = Record<string, string[]>;

export type AppErrorDetails = {
  errors?: FieldErrors;
  /** Seconds until a rate-limited client may try again (Retry-After). */
  retryAfter?: number;
  /** Allowed methods for a 405 (Allow header). */
  allow?: string[];
};

/**
 * The server bundle (esbuild) and the React Router bundle (Vite) each carry a
 * copy of this module, so `instanceof` is decided by a registered brand rather
 * than by class identity.
 */
const BRAND = Symbol.for("masthead.AppError");

export class AppError extends Error {
  readonly status: number;
  readonly [BRAND] = true;

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: AppErrorDetails = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = STATUS_BY_CODE[code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

import { isForeignKeyViolation } from "./db-errors";

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
  insufficient_storage: 507,
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
  /**
   * React Router reads a thrown object of this shape (what its `data()` makes)
   * as an error response with this status and message, so an AppError that a
   * page's loader or action lets through reaches the error page as itself
   * (e.g. 507 and its message), not as a sanitized 500. See decision 0014.
   */
  readonly type = "DataWithResponseInit";
  get data(): string {
    return this.message;
  }
  get init(): { status: number } {
    return { status: this.status };
  }

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

export const FILE_STORE_UNAVAILABLE_MESSAGE = "Stored files cannot be read just now. Please try again in a moment.";

/**
 * A file store that failed to answer (S3 down or refusing, a disk error), as a 503 that says so,
 * with the cause kept for the log: not a 404 that a browser or proxy would take for an answer about
 * the file, nor an anonymous 500.
 */
export function fileStoreUnavailable(cause: unknown): AppError {
  const error = new AppError("unavailable", FILE_STORE_UNAVAILABLE_MESSAGE, { retryAfter: 30 });
  error.cause = cause;
  return error;
}

export const STORAGE_FULL_MESSAGE = "The server has run out of storage space. Please try again later.";

/**
 * Error codes that mean "no space left", from the file system (ENOSPC, EDQUOT),
 * SQLite (SQLITE_FULL; SQLITE_IOERR_SHMSIZE when the shared-memory index
 * cannot grow on a full disk) and PostgreSQL (SQLSTATE 53100 disk_full).
 */
const STORAGE_FULL_CODES = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL", "SQLITE_IOERR_SHMSIZE", "53100"]);

export function isStorageFull(error: unknown): boolean {
  // The code may sit on a wrapped error's cause (an AppError made by asStorageFull, a driver's wrapper).
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && STORAGE_FULL_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The one translation of a full disk or database into 507 with a message a
 * person can act on; any other error comes back as it was. Applied where
 * files and rows are written (lib/storage, db/connect) and again by the HTTP
 * error handler, so a full disk is never answered as bad input or a bare 500.
 */
export function asStorageFull<E>(error: E): E | AppError {
  if (isAppError(error) || !isStorageFull(error)) return error;
  const full = new AppError("insufficient_storage", STORAGE_FULL_MESSAGE);
  (full as { cause?: unknown }).cause = error;
  return full;
}

/** A write that met another person's change of the same rows, refused by a foreign key (asRaceRefusal). */
export const CHANGED_MEANWHILE =
  "Someone else changed something this refers to at the same moment. Reload the page and try again.";

/**
 * A foreign key's refusal as a 409 the person can act on (decision 0020): services check what a
 * write refers to before it, and another person may remove that row (or add one that refers to
 * what is being deleted) in the moment between; the transaction keeps nothing. Applied by the
 * database layer (db/connect), so the API and the pages' actions answer it alike; the cause stays
 * on the error for the operator's log.
 */
export function asRaceRefusal<E>(error: E): E | AppError {
  if (isAppError(error) || !isForeignKeyViolation(error)) return error;
  const refused = new AppError("conflict", CHANGED_MEANWHILE);
  (refused as { cause?: unknown }).cause = error;
  return refused;
}

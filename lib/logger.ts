import pino from "pino";
import type { Config } from "./env";

export type Logger = pino.Logger;

/**
 * JSON lines on stdout, written asynchronously: lines logged while a write is
 * in flight go out together in the next one, so a busy server makes one write
 * per batch instead of one per request. pino flushes what is left on exit.
 */
export function createLogger(level: Config["logLevel"], options: { stderr?: boolean } = {}): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ["password", "*.password", "headers.authorization", "headers.cookie", "access_token"],
        censor: "[redacted]",
      },
    },
    // A command-line tool logs to stderr: its stdout is its report.
    pino.destination({ dest: options.stderr ? 2 : 1, sync: false }),
  );
}

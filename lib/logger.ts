import pino from "pino";
import type { Config } from "./env";

export type Logger = pino.Logger;

export function createLogger(level: Config["logLevel"]): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ["password", "*.password", "headers.authorization", "headers.cookie", "access_token"],
      censor: "[redacted]",
    },
  });
}

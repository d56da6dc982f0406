import { Writable } from "node:stream";
import pino from "pino";
import type { Logger } from "../../lib/logger";

/** A real pino logger whose JSON lines land in `lines`, for tests that read what an operator would. */
export function capturedLogger(level: pino.Level = "info"): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level, base: undefined },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  return { logger, lines };
}

import type { MiddlewareHandler } from "hono";

/**
 * At most `size` page renders at a time; the rest wait in arrival order.
 *
 * Renders are CPU-bound. Fifty of them interleaved on one event loop all finish
 * late, and some very late (a p99 of seconds and client timeouts at 50
 * connections); queued, each waits only for those that came before it.
 * Cached pages never reach this queue.
 */
export function renderSlots(size: number): MiddlewareHandler {
  let busy = 0;
  const waiting: (() => void)[] = [];
  return async (_c, next) => {
    if (busy < size) busy += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      await next();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const following = waiting.shift();
      if (following) following();
      else busy -= 1;
    }
  };
}

import type { MiddlewareHandler } from "hono";
import { createSlots } from "../../lib/slots";

/**
 * At most `size` page renders at a time; the rest wait in arrival order.
 *
 * Renders are CPU-bound. Fifty of them interleaved on one event loop all finish
 * late, and some very late (a p99 of seconds and client timeouts at 50
 * connections); queued, each waits only for those that came before it.
 * Cached pages never reach this queue.
 */
export function renderSlots(size: number): MiddlewareHandler {
  const slots = createSlots(size);
  return (_c, next) => slots.run(next);
}

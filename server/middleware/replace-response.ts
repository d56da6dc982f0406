import type { Context } from "hono";

/**
 * Puts `response` in place of the context's answer as it is. Assigning `c.res`
 * over an earlier answer makes Hono copy that answer's headers onto the new
 * one (a stale Content-Length with them) and re-wrap its body as a stream;
 * clearing it first hands the response over untouched.
 */
// biome-ignore lint/suspicious/noExplicitAny: any app's context
export function replaceResponse(c: Context<any>, response: Response): void {
  c.res = undefined;
  c.res = response;
}

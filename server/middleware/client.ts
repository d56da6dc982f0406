import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import type { AppEnv } from "../env";

/**
 * The client's address. Behind a trusted proxy (TRUST_PROXY) it is the last
 * X-Forwarded-For entry, the one our own proxy appended; earlier entries are
 * whatever the client claimed.
 */
export function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for");
    const last = forwarded?.split(",").pop()?.trim();
    if (last) return last.slice(0, 64);
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * The address the visitor used, as React Router must see it: its action check
 * compares the browser's Origin with the request URL, and behind a proxy that
 * terminates TLS Node only sees http://<upstream>. A request for our public
 * host (Host, or X-Forwarded-Host from a trusted proxy) is given BASE_URL's
 * origin; any other host (an internal health check, a direct hit on the port)
 * keeps its own, with the scheme a trusted proxy reports.
 */
export function publicUrl(c: Context<AppEnv>, baseUrl: URL, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  const forwardedHost = trustProxy ? firstForwarded(c.req.header("x-forwarded-host")) : undefined;
  const host = forwardedHost ?? c.req.header("host") ?? url.host;
  if (host.toLowerCase() === baseUrl.host.toLowerCase()) {
    return `${baseUrl.origin}${url.pathname}${url.search}`;
  }
  const forwardedProto = trustProxy ? firstForwarded(c.req.header("x-forwarded-proto"))?.toLowerCase() : undefined;
  if (forwardedProto === "https" || forwardedProto === "http") url.protocol = `${forwardedProto}:`;
  if (forwardedHost && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(forwardedHost)) {
    url.host = forwardedHost;
  }
  return url.href;
}

/** The first value of a forwarded header (the one the proxy nearest the visitor set). */
function firstForwarded(value: string | undefined): string | undefined {
  const first = value?.split(",")[0]?.trim();
  return first ? first : undefined;
}

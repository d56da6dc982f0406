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
 *
 * What comes from configuration (the public host, origin and scheme) is worked out once here, not
 * per request; per request, whether the visit is secure is a few string compares (the session
 * middleware asks it of every request) and the full address is built only where it is needed.
 */
export function publicAddress(baseUrl: URL, trustProxy: boolean) {
  const publicHost = baseUrl.host.toLowerCase();
  const publicOrigin = baseUrl.origin;
  const publicSecure = baseUrl.protocol === "https:";

  const forwardedHostOf = (c: Context<AppEnv>) =>
    trustProxy ? firstForwarded(c.req.header("x-forwarded-host")) : undefined;
  const forwardedProtoOf = (c: Context<AppEnv>) => {
    const proto = trustProxy ? firstForwarded(c.req.header("x-forwarded-proto"))?.toLowerCase() : undefined;
    return proto === "https" || proto === "http" ? proto : undefined;
  };
  const isPublicHost = (host: string | undefined) => host !== undefined && host.toLowerCase() === publicHost;

  return {
    /** Whether the visitor came over https: BASE_URL's scheme for our host, else the proxy's or the request's. */
    secure(c: Context<AppEnv>): boolean {
      const host = forwardedHostOf(c) ?? c.req.header("host") ?? new URL(c.req.url).host;
      if (isPublicHost(host)) return publicSecure;
      const proto = forwardedProtoOf(c);
      return proto ? proto === "https" : c.req.url.startsWith("https:");
    },

    /** The request's full address as the visitor used it. */
    url(c: Context<AppEnv>): string {
      const url = new URL(c.req.url);
      const forwardedHost = forwardedHostOf(c);
      const host = forwardedHost ?? c.req.header("host") ?? url.host;
      if (isPublicHost(host)) return `${publicOrigin}${url.pathname}${url.search}`;
      const proto = forwardedProtoOf(c);
      if (proto) url.protocol = `${proto}:`;
      if (forwardedHost && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(forwardedHost)) {
        url.host = forwardedHost;
      }
      return url.href;
    },
  };
}
export type PublicAddress = ReturnType<typeof publicAddress>;

/** The first value of a forwarded header (the one the proxy nearest the visitor set). */
function firstForwarded(value: string | undefined): string | undefined {
  const first = value?.split(",")[0]?.trim();
  return first ? first : undefined;
}

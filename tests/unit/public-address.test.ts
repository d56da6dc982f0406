import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../server/env";
import { publicAddress } from "../../server/middleware/client";

/**
 * The address a visitor used (decision 0010) and whether it was https (decision 0035's cookie
 * name): `secure` is worked out without building the address, so it must say what the address says.
 */
async function answer(baseUrl: string, trustProxy: boolean, target: string, headers: Record<string, string>) {
  const address = publicAddress(new URL(baseUrl), trustProxy);
  const app = new Hono<AppEnv>();
  app.all("*", (c) => c.json({ secure: address.secure(c), url: address.url(c) }));
  const res = await app.request(target, { headers });
  return (await res.json()) as { secure: boolean; url: string };
}

const cases: [string, string, boolean, string, Record<string, string>, string][] = [
  [
    "our host over a TLS proxy",
    "https://masthead.test",
    true,
    "http://10.0.0.5:3000/x?y=1",
    { host: "masthead.test" },
    "https://masthead.test/x?y=1",
  ],
  [
    "our host named by the proxy",
    "https://masthead.test",
    true,
    "http://10.0.0.5:3000/x",
    { "x-forwarded-host": "MASTHEAD.test" },
    "https://masthead.test/x",
  ],
  [
    "our host, proxy not trusted: BASE_URL still decides",
    "https://masthead.test",
    false,
    "http://masthead.test/x",
    { host: "masthead.test", "x-forwarded-proto": "http" },
    "https://masthead.test/x",
  ],
  [
    "the internal address, forwarded as http",
    "https://masthead.test",
    true,
    "http://10.0.0.5:3000/x",
    { host: "10.0.0.5:3000", "x-forwarded-proto": "http" },
    "http://10.0.0.5:3000/x",
  ],
  [
    "the internal address, forwarded as https",
    "https://masthead.test",
    true,
    "http://10.0.0.5:3000/x",
    { host: "10.0.0.5:3000", "x-forwarded-proto": "HTTPS, http" },
    "https://10.0.0.5:3000/x",
  ],
  [
    "a forwarded scheme from an untrusted client",
    "https://masthead.test",
    false,
    "http://10.0.0.5:3000/x",
    { host: "10.0.0.5:3000", "x-forwarded-proto": "https" },
    "http://10.0.0.5:3000/x",
  ],
  [
    "an http site in development",
    "http://localhost:3000",
    false,
    "http://localhost:3000/x",
    { host: "localhost:3000" },
    "http://localhost:3000/x",
  ],
  [
    "a direct https hit on another host",
    "http://localhost:3000",
    false,
    "https://other.test/x",
    { host: "other.test" },
    "https://other.test/x",
  ],
];

describe("publicAddress", () => {
  it.each(cases)("%s", async (_name, baseUrl, trustProxy, target, headers, url) => {
    const seen = await answer(baseUrl, trustProxy, target, headers);
    expect(seen.url).toBe(url);
    expect(seen.secure).toBe(url.startsWith("https:"));
  });
});

import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { REFERENCE_CONFIG_FILE, referenceConfig } from "../../scripts/nginx";

describe("the nginx reference configuration (docs/deploy)", () => {
  it("is the one scripts/nginx.ts writes (npm run cluster -- --write-reference)", () => {
    expect(fs.readFileSync(REFERENCE_CONFIG_FILE, "utf8")).toBe(referenceConfig());
  });

  it("keeps signed-in callers out of nginx's cache and honours the app's Cache-Control", () => {
    const config = referenceConfig();
    expect(config).toContain("proxy_cache_bypass $masthead_session $http_authorization;");
    expect(config).toContain("proxy_no_cache $masthead_session $http_authorization;");
    expect(config).not.toMatch(/^\s*proxy_cache_valid\b/m);
    expect(config).not.toMatch(/proxy_ignore_headers/);
  });

  it("finds the session cookie under both its names (https and http), and nothing else", () => {
    const pattern = /"~(.+)" 1;/.exec(referenceConfig().split("map $http_cookie $masthead_session")[1] ?? "")?.[1];
    expect(pattern).toBeDefined();
    const session = new RegExp(pattern ?? "");
    expect(session.test("__Host-auth.session=abc")).toBe(true);
    expect(session.test("theme=dark; __Host-auth.session=abc")).toBe(true);
    expect(session.test("auth.session=abc")).toBe(true);
    expect(session.test("theme=dark;auth.session=abc")).toBe(true);
    expect(session.test("theme=dark; flash=1")).toBe(false);
    expect(session.test("xauth.session=abc")).toBe(false);
    expect(session.test("auth.sessionx=abc")).toBe(false);
  });
});

import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, signIn } from "../support/factories";
import { pagesBuild } from "../support/pages";

/**
 * Issue 30 point 2: the two places that send a visitor on to a path the request names, through
 * the real pages (route modules by Vite's SSR loader, as `npm run dev` serves them): the login's
 * `redirect` (its loader for someone already signed in, its action after a sign-in) and the join
 * form's thank-you page (`from`, rendered as the "Back to the page" link). None of them may lead
 * off the site, whatever dot segments or encodings the path uses.
 */
let t: TestContext;
let build: () => Promise<ServerBuild>;
let pages: TestContext["app"];
let member: string;

const OFF_SITE = [
  "/.//evil.example",
  "/..//evil.example",
  "/x/..//evil.example",
  "/%2e//evil.example",
  "//evil.com",
  "/\\evil.com",
  "https:evil.com",
  "http:\\\\\\evil.com",
  "javascript:alert(1)",
  "%2F%2Fevil.com",
];

/** Where a browser on our origin would go with this Location or href. */
function resolved(target: string | null): string {
  return new URL(target ?? "", ORIGIN).origin;
}

beforeAll(async () => {
  t = await createTestContext();
  build = await pagesBuild();
  pages = createApp(t.runtime, { build });
  member = (await signIn(t.runtime.services, "member")).cookie;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("the login's redirect (issue 30 point 2)", () => {
  it.each(OFF_SITE)(
    "sends a signed-in visitor of /login?redirect=%s to the members' area, not off the site",
    async (target) => {
      const res = await call(pages, "GET", `/login?redirect=${encodeURIComponent(target)}`, { cookie: member });
      expect(res.status).toBe(302);
      const location = res.headers.get("location");
      expect(location).toBe("/manager");
      expect(resolved(location)).toBe(ORIGIN);
    },
  );

  it("is the attack of the report as sent: %2F.%2F%2Fevil.example", async () => {
    const res = await call(pages, "GET", "/login?redirect=%2F.%2F%2Fevil.example", { cookie: member });
    expect(res.headers.get("location")).toBe("/manager");
  });

  it("still follows a path on the site, dot segments resolved", async () => {
    const res = await call(pages, "GET", `/login?redirect=${encodeURIComponent("/dashboard/./library")}`, {
      cookie: member,
    });
    expect(res.headers.get("location")).toBe("/dashboard/library");
  });

  it.each(OFF_SITE)("after signing in with redirect=%s, lands in the members' area", async (target) => {
    const { user, password } = await createUser(t.runtime.services);
    const res = await call(pages, "POST", `${ORIGIN}/login`, {
      form: { email: user.email, password, redirect: target },
      headers: { origin: ORIGIN },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(302);
    expect(res.headers.get("set-cookie")).toMatch(/auth\.session=/);
    expect(res.headers.get("location")).toBe("/manager");
  });
});

describe("the join form's thank-you page (issue 30 point 2)", () => {
  /** The href of the page's "Back to the page" link. */
  async function backLink(from: string): Promise<string | null> {
    const res = await call(pages, "GET", `/join/thank-you?from=${encodeURIComponent(from)}`);
    expect(res.status).toBe(200);
    const html = res.text;
    const link = /<a [^>]*href="([^"]*)"[^>]*>\s*Back to the page/.exec(html);
    expect(link, "the Back to the page link").not.toBeNull();
    return link?.[1].replace(/&amp;/g, "&") ?? null;
  }

  it.each(OFF_SITE)("links from=%s back to the home page", async (from) => {
    const href = await backLink(from);
    expect(href).toBe("/");
    expect(resolved(href)).toBe(ORIGIN);
  });

  it("links a page of the site back to it", async () => {
    expect(await backLink("/conference")).toBe("/conference");
  });
});

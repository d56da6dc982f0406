import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_TITLE_MAX } from "../../core/pages/pages.schema";
import { type ServerProcess, startServer } from "./server";

/**
 * Page forms without JavaScript, on the built server: a refused save answers
 * 422 with what the admin typed still in the form, and the form carries the
 * limits the schema declares.
 */
const ADMIN = { email: "forms-admin@masthead.test", password: "forms admin long password" };
let server: ServerProcess;
let cookie: string;

beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: "warn" } });
  const login = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  cookie = login.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
});
afterAll(async () => {
  await server?.stop();
  server?.cleanup();
});

describe("the page editor without JavaScript", () => {
  it("keeps the typed text on a 422 and declares the title's maximum length", async () => {
    const typed = "Our history began on the water in 1946 & it goes on.";
    const response = await fetch(`${server.url}/manager/pages/history`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ title: "   ", content: `<p>${typed}</p>` }).toString(),
    });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain("The title is required.");
    expect(html).toContain("Our history began on the water in 1946 &amp; it goes on.");
    expect(html).toMatch(
      new RegExp(
        `<input[^>]*name="title"[^>]*maxLength="${PAGE_TITLE_MAX}"|<input[^>]*maxLength="${PAGE_TITLE_MAX}"[^>]*name="title"`,
        "i",
      ),
    );
  });

  it("never shows words a link puts in the news list's address", async () => {
    const html = await (
      await fetch(`${server.url}/manage-news?notice=${encodeURIComponent("Your account is suspended")}`, {
        headers: { cookie },
      })
    ).text();
    expect(html).toContain("<h1");
    expect(html).not.toContain("Your account is suspended");
  });
});

import sharp from "sharp";
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

describe("the meeting editor without JavaScript", () => {
  const post = (path: string, body: FormData | URLSearchParams) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { cookie, origin: server.url },
      body,
      redirect: "manual",
    });

  it("creates a meeting with several pictures in one post, then refuses a session outside its dates beside the field", async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#0a7c75" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("title", "Plain form symposium");
    form.set("type", "workshop");
    form.set("start_date", "2031-05-04");
    form.set("end_date", "2031-05-05");
    form.set("audience", "members");
    for (const name of ["a.png", "b.png"]) {
      form.append("images[]", new Blob([png], { type: "image/png" }), name);
      form.append("images_alt[]", `Picture ${name}`);
    }
    const created = await post("/manage-events/new", form);
    expect(created.status).toBe(302);
    const id = /^\/manage-events\/(\d+)\/edit$/.exec(created.headers.get("location") ?? "")?.[1];
    expect(id).toBeDefined();
    const answer = await (await fetch(`${server.url}/api/dashboard/meeting/${id}`, { headers: { cookie } })).json();
    expect(answer.event).toMatchObject({ title: "Plain form symposium", visibility: "members", type: "workshop" });
    expect(answer.event.images).toHaveLength(2);

    const refused = await post(
      `/manage-events/${id}/edit`,
      new URLSearchParams({
        intent: "add-session",
        meeting_date: "2031-05-07",
        start: "09:00",
        description: "Late arrival",
      }),
    );
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain("The date must be within the meeting&#x27;s dates (2031-05-04 to 2031-05-05).");
    expect(html).toContain("Late arrival");

    // A session gone meanwhile (or of another meeting) is said on the page, not a 500.
    const gone = await post(
      `/manage-events/${id}/edit`,
      new URLSearchParams({ intent: "update-session", id: "999999", meeting_date: "2031-05-04" }),
    );
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain("Schedule not found.");

    const unknown = await post(`/manage-events/${id}/edit`, new URLSearchParams({ intent: "launch" }));
    expect(unknown.status).toBe(400);
  });
});

describe("the password links' forms without JavaScript", () => {
  it("answers a form a no-referrer page posts (Origin: null, same-origin) with the page, not a 400", async () => {
    // The reset page sets `referrer: no-referrer`, so a browser posts its form with `Origin: null`.
    const response = await fetch(`${server.url}/reset-password?token=not-a-real-token`, {
      method: "POST",
      headers: { origin: "null", "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: "not-a-real-token", password: "short", password_confirmation: "short" }),
    });
    expect(response.status).toBe(422);
    expect(await response.text()).toContain("Choose a new password");
  });

  it("still refuses the same form from another site", async () => {
    const response = await fetch(`${server.url}/reset-password?token=not-a-real-token`, {
      method: "POST",
      headers: { origin: "null", "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: "not-a-real-token", password: "short", password_confirmation: "short" }),
    });
    expect(response.status).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EDITOR_REFUSED } from "../../app/lib/guards";
import { ANNOUNCE_ADMINS_ONLY } from "../../app/routes/news/manage-news-edit";
import { LAST_ADMIN } from "../../core/accounts/accounts.schema";
import { ADMIN_TWO_FACTOR_REQUIRED } from "../../server/api/http";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pagesApp, pageText } from "../support/pages";

/**
 * The editor (issue 36): the content's screens and routes (news, pages, meetings, the library),
 * none of the admins' own (users, companies, join requests, settings, privacy, the audit log).
 * Who may call each route is the authorization matrix's (authorization.test.ts); this file is
 * what an editor's work looks like from end to end.
 */
let t: TestContext;
let site: Awaited<ReturnType<typeof pagesApp>>;
beforeAll(async () => {
  t = await createTestContext();
  site = await pagesApp(t);
}, 120_000);
afterAll(async () => {
  await site?.close();
  await t.close();
});

type AuditJson = { data: { actor: { id: number | null; name: string }; action: string; entity: string }[] };

describe("an editor", () => {
  it("publishes news and edits a page through the API, each write in the audit log under their name", async () => {
    const editor = await signIn(t.runtime.services, "editor");
    const admin = await signIn(t.runtime.services, "admin");
    const post = await call(t.app, "POST", "/api/dashboard/news", {
      token: editor.token,
      json: { title: "Editors publish too", content: "<p>From the secretariat.</p>", author_name: "Secretariat" },
    });
    expect(post.status).toBe(201);
    const page = await call(t.app, "POST", "/api/dashboard/pages", {
      token: editor.token,
      json: { slug: "working-groups", title: "Working groups", content: "<p>Our groups.</p>" },
    });
    expect(page.status).toBe(201);
    const audit = await call(t.app, "GET", `/api/dashboard/audit?actor=${editor.user.id}`, { token: admin.token });
    const rows = (audit.json as AuditJson).data;
    expect(rows.map((r) => `${r.entity} ${r.action}`)).toEqual(expect.arrayContaining(["news create", "page create"]));
    expect(new Set(rows.map((r) => r.actor.id))).toEqual(new Set([editor.user.id]));
  });

  it("is refused the admins' own API routes with 403, and they stay unchanged", async () => {
    const editor = await signIn(t.runtime.services, "editor");
    for (const path of [
      "/api/dashboard/users",
      "/api/dashboard/companies",
      "/api/dashboard/join-requests",
      "/api/dashboard/settings",
      "/api/dashboard/audit",
      "/api/dashboard/privacy?email=someone@example.org",
    ]) {
      const res = await call(t.app, "GET", path, { token: editor.token });
      expect(res.status, path).toBe(403);
    }
    // Making themselves an admin is an admin's act.
    const promote = await call(t.app, "POST", `/api/dashboard/users/${editor.user.id}`, {
      token: editor.token,
      json: { _method: "PATCH", role: "admin" },
    });
    expect(promote.status).toBe(403);
    const row = await t.database.db
      .selectFrom("users")
      .select("role")
      .where("id", "=", editor.user.id)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe("editor");
  });

  it("sees the content's shortcuts on the admin home, and reads why on an admin's screen (403, logged)", async () => {
    const editor = await signIn(t.runtime.services, "editor");
    const home = await call(site.pages, "GET", `${ORIGIN}/manager`, { cookie: editor.cookie });
    expect(home.status).toBe(200);
    const text = pageText(home.text);
    expect(text).toContain("You're logged in as: editor");
    for (const shown of ["News", "Events", "Categories and papers", "Pages"]) expect(text).toContain(shown);
    for (const hidden of ['href="/manager/users"', 'href="/manager/settings"', 'href="/manager/requests"']) {
      expect(home.text).not.toContain(hidden);
    }
    const users = await call(site.pages, "GET", `${ORIGIN}/manager/users`, { cookie: editor.cookie });
    expect(users.status).toBe(403);
    expect(pageText(users.text)).toContain(EDITOR_REFUSED);
    expect(users.text).toContain('href="/manager"');
    const refused = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "summary"])
      .where("actor_id", "=", editor.user.id)
      .where("action", "=", "access_refused")
      .execute();
    expect(refused.map((r) => r.summary)).toEqual(["Refused (403): GET /manager/users"]);
    // The content's screens are theirs.
    for (const path of ["/manage-news", "/manage-events", "/manager/library", "/manager/pages"]) {
      const res = await call(site.pages, "GET", `${ORIGIN}${path}`, { cookie: editor.cookie });
      expect(res.status, path).toBe(200);
    }
  });

  it("writes news but does not send it to the members by e-mail: no panel, and the form refused (403)", async () => {
    const editor = await signIn(t.runtime.services, "editor");
    const admin = await signIn(t.runtime.services, "admin");
    const post = await t.runtime.services.news.create({
      title: "Editors do not mail the members",
      content: "<p>An admin sends it.</p>",
      author_name: null,
      image_alt: "",
      image_decorative: false,
    } as never);
    const path = `${ORIGIN}/manage-news/${post.id}/edit`;
    const asEditor = await call(site.pages, "GET", path, { cookie: editor.cookie });
    expect(asEditor.status).toBe(200);
    expect(pageText(asEditor.text)).not.toContain("Send to the members by e-mail");
    const asAdmin = await call(site.pages, "GET", path, { cookie: admin.cookie });
    expect(pageText(asAdmin.text)).toContain("Send to the members by e-mail");
    const forms: Record<string, string>[] = [{ intent: "announce", audience: "all" }, { intent: "announce-test" }];
    for (const fields of forms) {
      const sent = await call(site.pages, "POST", path, {
        cookie: editor.cookie,
        form: fields,
        headers: { origin: ORIGIN },
      });
      expect(sent.status, fields.intent).toBe(403);
      expect(pageText(sent.text)).toContain(ANNOUNCE_ADMINS_ONLY);
    }
    expect(await t.database.db.selectFrom("announcements").selectAll().execute()).toEqual([]);
    expect(await t.database.db.selectFrom("mail_queue").select("id").execute()).toEqual([]);
  });

  it("must use two-factor sign-in when the site asks it of admins and editors", async () => {
    const editor = await signIn(t.runtime.services, "editor");
    await t.runtime.services.settings.update({ "security.admin_two_factor": "1" });
    try {
      const refused = await call(t.app, "GET", "/api/dashboard/news", { token: editor.token });
      expect(refused.status).toBe(403);
      expect(refused.json?.message).toBe(ADMIN_TWO_FACTOR_REQUIRED);
      const page = await call(site.pages, "GET", `${ORIGIN}/manage-news`, { cookie: editor.cookie });
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toMatch(/^\/dashboard\/user-settings\?two-factor=required/);
    } finally {
      await t.runtime.services.settings.update({ "security.admin_two_factor": "0" });
    }
  });
});

describe("the admins and the editor role", () => {
  it("invite an editor, make a member an editor and back; the last admin cannot become an editor", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const member = await signIn(t.runtime.services, "member");
    const made = await call(t.app, "POST", `/api/dashboard/users/${member.user.id}`, {
      token: admin.token,
      json: { _method: "PATCH", role: "editor" },
    });
    expect(made.status).toBe(200);
    expect((made.json as { user: { role: { name: string } } }).user.role.name).toBe("editor");
    // Their next request is an editor's: the news admin list answers.
    expect((await call(t.app, "GET", "/api/dashboard/news", { token: member.token })).status).toBe(200);
    const back = await call(t.app, "POST", `/api/dashboard/users/${member.user.id}`, {
      token: admin.token,
      json: { _method: "PATCH", role: "member" },
    });
    expect(back.status).toBe(200);
    expect((await call(t.app, "GET", "/api/dashboard/news", { token: member.token })).status).toBe(403);

    // The only admin left may not step down to editor (the site would have no admin).
    const admins = await t.database.db.selectFrom("users").select("id").where("role", "=", "admin").execute();
    const others = admins.filter((a) => a.id !== admin.user.id).map((a) => a.id);
    if (others.length)
      await t.database.db.updateTable("users").set({ role: "member" }).where("id", "in", others).execute();
    const lastAdmin = await t.runtime.services.accounts
      .change(0, admin.user.id, { role: "editor" })
      .then(() => "changed")
      .catch((error: Error) => error.message);
    expect(lastAdmin).toBe(LAST_ADMIN);
  });
});

import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ABOUT_PAGES, SERVICES_PAGES } from "../../core/pages/fixed-pages";
import { type ServerProcess, startServer } from "./server";

/**
 * `npm run build && npm start` on an empty database, without `npm run db:seed`:
 * every route of SPEC §2 answers 200, so no menu or footer link leads to the
 * error page. Runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set.
 */
const ADMIN = { email: "first-admin@masthead.test", password: "first admin long password" };

const PUBLIC_ROUTES = [
  "/",
  "/tributes",
  "/news",
  "/events",
  "/conference",
  "/workshop",
  "/members-list",
  "/members-join",
  "/login",
  "/forgot-password",
  "/welcome",
  "/reset-password",
  "/library",
  ...ABOUT_PAGES.map((page) => page.to),
  ...SERVICES_PAGES.map((page) => page.to),
];
const SIGNED_IN_ROUTES = [
  "/dashboard",
  "/dashboard/user-settings",
  "/dashboard/events",
  "/manager",
  "/manage-news",
  "/manage-events",
  "/manage-events/new",
  "/manager/library",
  // Issue 34's screens, on an empty database: pages of one's own, the audit log and its export.
  "/manager/pages",
  "/manager/pages/new",
  "/manager/pages/history",
  "/manager/audit",
  "/manager/audit/export.csv",
  "/manager/settings",
  "/manager/users",
];

const postgresUrl = process.env.TEST_DATABASE_URL || null;
const dialects: { name: string; postgres: boolean }[] = [
  { name: "SQLite", postgres: false },
  ...(postgresUrl ? [{ name: "PostgreSQL", postgres: true }] : []),
];

for (const dialect of dialects) {
  describe(`a fresh install on ${dialect.name}`, () => {
    let server: ServerProcess;
    let database: string | null = null;

    beforeAll(async () => {
      const env: Record<string, string> = {
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: "warn",
      };
      if (dialect.postgres && postgresUrl) {
        database = `masthead_fresh_${randomBytes(4).toString("hex")}`;
        const client = new pg.Client({ connectionString: postgresUrl });
        await client.connect();
        await client.query(`create database "${database}"`);
        await client.end();
        const url = new URL(postgresUrl);
        url.pathname = `/${database}`;
        env.DATABASE_URL = url.href;
      }
      server = await startServer({ env });
    });

    afterAll(async () => {
      await server?.stop();
      server?.cleanup();
      if (database && postgresUrl) {
        const client = new pg.Client({ connectionString: postgresUrl });
        await client.connect();
        await client.query(`drop database if exists "${database}" with (force)`);
        await client.end();
      }
    });

    it("answers 200 on every public route of SPEC §2", async () => {
      const statuses: Record<string, number> = {};
      for (const route of PUBLIC_ROUTES) {
        const response = await fetch(`${server.url}${route}`, { redirect: "manual" });
        await response.arrayBuffer();
        statuses[route] = response.status;
      }
      expect(statuses).toEqual(Object.fromEntries(PUBLIC_ROUTES.map((route) => [route, 200])));
    });

    it("shows each fixed page under its menu title, with a neutral text until an admin writes it", async () => {
      for (const page of [...ABOUT_PAGES, ...SERVICES_PAGES]) {
        const html = await (await fetch(`${server.url}${page.to}`)).text();
        expect(html).toContain(`>${page.label.replace("&", "&amp;")}</h1>`);
        expect(html).toContain("This page is being prepared.");
      }
    });

    it("serves the privacy policy to the modal's API call", async () => {
      const response = await fetch(`${server.url}/api/page/privacy-policy`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { content?: string };
      expect(body.content).toContain("This page is being prepared.");
    });

    it("answers 200 on the member and admin routes for the first admin, and a post once one is written", async () => {
      const login = await fetch(`${server.url}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ADMIN),
      });
      expect(login.status).toBe(200);
      const { access_token: token } = (await login.json()) as { access_token: string };
      const authorization = { authorization: `Bearer ${token}` };
      const cookie = login.headers
        .getSetCookie()
        .map((value) => value.split(";")[0])
        .join("; ");
      const statuses: Record<string, number> = {};
      for (const route of SIGNED_IN_ROUTES) {
        const response = await fetch(`${server.url}${route}`, { headers: { cookie }, redirect: "manual" });
        await response.arrayBuffer();
        statuses[route] = response.status;
      }
      expect(statuses).toEqual(Object.fromEntries(SIGNED_IN_ROUTES.map((route) => [route, 200])));

      const form = new FormData();
      form.set("title", "First news of a fresh install");
      form.set("content", "<p>We are live.</p>");
      form.set("author_name", "The secretariat");
      const created = await fetch(`${server.url}/api/dashboard/news`, {
        method: "POST",
        headers: authorization,
        body: form,
      });
      expect(created.status).toBe(201);
      const { post } = (await created.json()) as { post: { slug: string } };
      const page = await fetch(`${server.url}/post/${post.slug}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("First news of a fresh install");
    });

    it("takes a first category and paper: its page, its file for members, 404 for visitors", async () => {
      const login = await fetch(`${server.url}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ADMIN),
      });
      const { access_token: token } = (await login.json()) as { access_token: string };
      const authorization = { authorization: `Bearer ${token}` };
      const created = await fetch(`${server.url}/api/dashboard/papers-categories`, {
        method: "POST",
        headers: { ...authorization, "content-type": "application/json" },
        body: JSON.stringify({ name: "First documents", view_type: "masthead-technical-papers" }),
      });
      expect(created.status).toBe(201);
      const { category } = (await created.json()) as { category: { id: number; slug: string } };
      const form = new FormData();
      form.set("papers_category_id", String(category.id));
      form.set("name", "First paper of a fresh install");
      const pdf =
        "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";
      form.set("uploaded_file", new File([pdf], "first.pdf", { type: "application/pdf" }));
      const paper = await fetch(`${server.url}/api/dashboard/papers`, {
        method: "POST",
        headers: authorization,
        body: form,
      });
      expect(paper.status).toBe(201);
      const { paper: stored } = (await paper.json()) as { paper: { id: number; file: { url: string } } };

      const page = await fetch(`${server.url}/dashboard/${category.slug}`, { headers: authorization });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("First paper of a fresh install");
      const file = await fetch(`${server.url}${stored.file.url}`, { headers: authorization });
      expect(file.status).toBe(200);
      expect(await file.text()).toBe(pdf);
      expect((await fetch(`${server.url}${stored.file.url}`)).status).toBe(404);
      expect((await fetch(`${server.url}/library/${category.slug}`)).status).toBe(404);
    });

    it("takes a first meeting: its page, its calendar file and the calendar feed answer", async () => {
      const login = await fetch(`${server.url}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ADMIN),
      });
      const { access_token: token } = (await login.json()) as { access_token: string };
      const created = await fetch(`${server.url}/api/dashboard/meeting`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "First meeting of a fresh install", type: "meeting", start_date: "2030-03-04" }),
      });
      expect(created.status).toBe(201);
      const { event } = (await created.json()) as { event: { slug: string; timezone: string } };
      // The site's default zone, though no setting was ever saved.
      expect(event.timezone).toBe("Europe/London");
      for (const path of [`/events/${event.slug}`, `/events/${event.slug}.ics`, "/events.ics", "/events"]) {
        const response = await fetch(`${server.url}${path}`);
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toContain("First meeting of a fresh install");
      }
    });
  });
}

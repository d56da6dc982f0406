import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryCreateSchema, paperInputSchema } from "../../core/library/library.schema";
import { MAIL_LOGO_PATH } from "../../core/mail/mail-html";
import { postInputSchema } from "../../core/news/news.schema";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, signIn } from "../support/factories";
import { formTimeAt } from "../support/form-time";
import { registerThroughForm } from "../support/registrations";

/**
 * Issue 33, "E-mail worth opening": every mail the site sends leaves with a plain-text part and an
 * HTML part (decision 0062), the same links in both, nothing fetched from another host, and a
 * footer with the association's address and why the person gets it. Real flows queue the mails
 * (a membership request with its notice, a registration, a password reset); the outbox transport
 * writes them as .eml files, which are parsed back as a mail client would.
 */
let t: TestContext;
let now = new Date("2026-11-20T10:00:00Z");
const clock = () => new Date(now);
const ADDRESS = "Mariner House, 1 Harbour Street, Southampton SO14 2AQ, United Kingdom";

beforeAll(async () => {
  t = await createTestContext({ JOIN_RATE_LIMIT: "1000" }, { clock });
  await t.runtime.services.settings.set({
    "site.email": "secretariat@masthead.test",
    "site.address": ADDRESS,
  });
}, 120_000);
afterAll(async () => t?.close());

/** Where the HTML's links go (its anchors; React's preload hint for the logo is not a link). */
const hrefs = (html: string) =>
  [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
const preloads = (html: string) =>
  [...html.matchAll(/<link\b[^>]*\bhref="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
const sources = (html: string) => [...html.matchAll(/\bsrc="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
const textLinks = (text: string) => [...text.matchAll(/https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g)].map((m) => m[0]);

describe("every mail has an HTML part and a text part (decision 0062)", () => {
  it("with the same links in both, only the site's own resources, and the footer's address and reason", async () => {
    const origin = t.runtime.config.baseUrl.origin;
    const stamp = now.toISOString();
    const meeting = await t.database.db
      .insertInto("meetings")
      .values({
        slug: "mail-parts-meeting",
        title: "Mail Parts Meeting",
        type: "workshop",
        start_date: "2026-12-10",
        end_date: null,
        location: "Gdańsk, Poland",
        timezone: "Europe/Warsaw",
        capacity: 10,
        registration_open: 1,
        registration_waitlist: 1,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning("slug")
      .executeTakeFirstOrThrow();
    const join = await call(t.app, "POST", "/api/join", {
      json: {
        company_name: "Harbour Instruments Ltd",
        representative_name: "Hana Harbour",
        email: "hana@harbour.example",
        phone_number: "+44 23 8000 0000",
        page_path: "/join",
        started_at: await formTimeAt(t.database.db, "join", now.getTime() - 20_000),
      },
    });
    expect(join.status).toBe(200);
    await registerThroughForm(t, `/events/${meeting.slug}`, { now, email: "rita@registrant.example" });
    const { user } = await createUser(t.runtime.services, { email: "paul@member.example" });
    expect((await call(t.app, "POST", "/api/forgot-password", { json: { email: user.email } })).status).toBe(200);
    // An admin invites someone; a member changes their address (the old one is told).
    const admin = await signIn(t.runtime.services, "admin");
    const invited = await call(t.app, "POST", "/api/dashboard/users", {
      token: admin.token,
      json: { first_name: "Ines", last_name: "Invited", email: "ines@invited.example", role: "member" },
    });
    expect(invited.status).toBe(201);
    const member = await signIn(t.runtime.services);
    const moved = await call(t.app, "PATCH", "/api/dashboard/user/settings", {
      token: member.token,
      json: { email: "moved@member.example", password: member.password },
    });
    expect(moved.status).toBe(200);
    // Issue 33's mails: an instant notice of a followed category, the weekly digest, an announcement.
    const { services } = t.runtime;
    const follower = await createUser(services, { email: "fiona@follower.example", first_name: "Fiona" });
    const standards = await services.libraryAdmin.createCategory(
      categoryCreateSchema.parse({ name: "Mail parts standards" }),
      null,
    );
    await services.notifications.follow(
      follower.user.id,
      { signedIn: true, admin: false },
      { kind: "category", id: standards.id, delivery: "instant" },
    );
    await services.libraryAdmin.createPaper(
      paperInputSchema.parse({
        papers_category_id: String(standards.id),
        name: "Radar interfaces",
        number: "MP-1",
        description: "See also https://standards.example.org/radar for the older edition.",
      }),
      null,
    );
    const news = await services.news.create(
      postInputSchema.parse({ title: "Annual plenary in Gdańsk", content: "<p>Register by the end of the month.</p>" }),
    );
    now = new Date(now.getTime() + 400_000);
    expect((await services.notices.sendInstant()).mails).toBeGreaterThan(0);
    expect((await services.notices.sendDigest("weekly")).mails).toBeGreaterThan(0);
    await services.announcements.send(news.id, { audience: "all", again: false, by: admin.user.id });
    now = new Date(now.getTime() + 3_600_000);

    await t.runtime.services.mail.deliverDue();
    const outbox = t.runtime.config.outboxDir;
    const files = fs.readdirSync(outbox).filter((f) => f.endsWith(".eml"));
    const mails = await Promise.all(files.map(async (f) => simpleParser(fs.readFileSync(path.join(outbox, f)))));
    const subjects = mails.map((m) => m.subject ?? "");
    // The membership request's notice and acknowledgement, the registration's, the reset link.
    expect(subjects.some((s) => s.startsWith("New membership request"))).toBe(true);
    expect(subjects.some((s) => s.startsWith("Thank you for contacting"))).toBe(true);
    expect(subjects.some((s) => /registration/i.test(s))).toBe(true);
    expect(subjects.some((s) => /password/i.test(s))).toBe(true);
    expect(subjects.some((s) => /invitation/i.test(s))).toBe(true);
    expect(subjects.some((s) => /e-mail address/i.test(s))).toBe(true);
    expect(subjects.some((s) => s.endsWith("new item you follow"))).toBe(true);
    expect(subjects.some((s) => s.includes("weekly digest"))).toBe(true);
    expect(subjects).toContain("Annual plenary in Gdańsk");
    // A copy of each to look at (MAIL_SHOTS_DIR: rendered in Chromium at 390 px by hand).
    const shots = process.env.MAIL_SHOTS_DIR;
    if (shots) {
      fs.mkdirSync(shots, { recursive: true });
      for (const [i, mail] of mails.entries()) fs.writeFileSync(path.join(shots, `${i}.html`), String(mail.html));
    }

    for (const mail of mails) {
      const html = typeof mail.html === "string" ? mail.html : "";
      const text = mail.text ?? "";
      expect(html, mail.subject).toContain("<html");
      expect(text.length, mail.subject).toBeGreaterThan(0);
      // The same links in both parts: what the text says can be clicked in the HTML, and nothing else.
      expect(new Set(hrefs(html)), mail.subject).toEqual(new Set(textLinks(text)));
      for (const link of [...hrefs(html), ...sources(html), ...preloads(html)]) {
        // The one address of another host is what an admin wrote in a paper's description (the sender's own data).
        if (link === "https://standards.example.org/radar") continue;
        expect(new URL(link).origin, `${mail.subject}: ${link}`).toBe(origin);
      }
      expect(sources(html)).toEqual([`${origin}${MAIL_LOGO_PATH}`]);
      // The footer, in both: why the person gets it and the association's address.
      for (const part of [html, text]) {
        expect(part, mail.subject).toContain("You receive this e-mail because");
        expect(part, mail.subject).toContain(ADDRESS);
      }
    }
    const reset = mails.find((m) => /password/i.test(m.subject ?? ""));
    const resetLink = textLinks(reset?.text ?? "").find((l) => l.includes("/reset-password"));
    expect(resetLink).toBeDefined();
    // The link a mail is about is a button too: the same address.
    expect(String(reset?.html)).toMatch(/Open the link/);
    now = new Date(now.getTime() + 1000);
  });

  it("shows a logo the site publishes itself: a PNG (mail clients do not show SVG), twice its shown size", async () => {
    const meta = await sharp(path.join("public", MAIL_LOGO_PATH)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 80, 80]);
  });
});

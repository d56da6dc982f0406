import { simpleParser } from "mailparser";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestContext } from "../../app/context";
import { action, loader } from "../../app/routes/news/manage-news-edit";
import type { Authenticated } from "../../core/auth/auth.service";
import type { MembershipType } from "../../core/members/members.values";
import { postInputSchema } from "../../core/news/news.schema";
import type { RequestContext } from "../../core/request-context";
import { createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, signIn } from "../support/factories";
import { startSmtpServer } from "../support/smtp";

/**
 * Issue 33, 'Announcements' (decision 0066): a news post sent to the members by e-mail, to all or
 * to one membership type, at the site's pace whatever the number of processes, never twice by
 * mistake, without those who turned announcements off or have no members' access.
 */
let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let now = new Date("2032-02-02T09:00:00Z");
const clock = () => new Date(now);

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url }, { clock });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const services = () => t.runtime.services;
let companies = 0;
async function representative(type: MembershipType, options: { lapsed?: boolean } = {}) {
  companies += 1;
  const company = await services().members.create({
    name: `Announce ${companies} AS`,
    country: "NO",
    member_since: "2020-01-01",
    membership_type: type,
    renews_on: options.lapsed ? "2021-01-01" : null,
  } as never);
  const { user } = await createUser(services(), { first_name: `Rep${companies}` });
  await t.database.db
    .insertInto("company_representatives")
    .values({ user_id: user.id, company_id: company.id, is_primary: 1, created_at: now.toISOString() })
    .execute();
  return user;
}
const post = (title: string) =>
  services().news.create(postInputSchema.parse({ title, content: `<p>${title}: the details.</p>` }));
const queuedFor = (announcementId: number) =>
  t.database.db
    .selectFrom("mail_queue")
    .selectAll()
    .where("announcement_id", "=", announcementId)
    .orderBy("next_attempt_at")
    .execute();
const announcementsOf = (postId: number) =>
  t.database.db.selectFrom("announcements").selectAll().where("post_id", "=", postId).orderBy("id").execute();

describe("announcements", () => {
  it("go to the members who may hear them, by membership type too, and skip those who turned them off", async () => {
    const full = await representative("full");
    const associate = await representative("associate");
    const lapsed = await representative("full", { lapsed: true });
    const individual = (await createUser(services(), { first_name: "Solo" })).user;
    const off = (await createUser(services(), { first_name: "Off" })).user;
    await services().notifications.update(off.id, { signedIn: true, admin: false }, { announcements: false });
    const admin = (await createUser(services(), { role: "admin", first_name: "Ada" })).user;

    const first = await post("Plenary agenda");
    await services().announcements.send(first.id, { audience: "all", again: false, by: admin.id });
    const [all] = await announcementsOf(first.id);
    const to = (await queuedFor(all.id)).map((m) => m.to_address);
    for (const user of [full, associate, individual, admin]) expect(to).toContain(user.email);
    for (const user of [lapsed, off]) expect(to).not.toContain(user.email);
    expect(all.recipients).toBe(to.length);

    const second = await post("Full members' meeting");
    await services().announcements.send(second.id, { audience: "full", again: false, by: admin.id });
    const [fullOnly] = await announcementsOf(second.id);
    const fullTo = (await queuedFor(fullOnly.id)).map((m) => m.to_address);
    expect(fullTo).toContain(full.email);
    for (const user of [associate, individual, admin, lapsed]) expect(fullTo).not.toContain(user.email);
  });

  it("leave at the site's pace, after any announcement still leaving, whatever the number of processes", async () => {
    await services().settings.set({ "mail.announcements_per_second": "4" });
    const admin = (await createUser(services(), { role: "admin" })).user;
    const a = await post("Paced one");
    const b = await post("Paced two");
    await services().announcements.send(a.id, { audience: "all", again: false, by: admin.id });
    await services().announcements.send(b.id, { audience: "all", again: false, by: admin.id });
    const slots = [
      ...(await queuedFor((await announcementsOf(a.id))[0].id)),
      ...(await queuedFor((await announcementsOf(b.id))[0].id)),
    ].map((m) => Date.parse(m.next_attempt_at));
    // Over the two, never more than 4 in any second.
    for (const [i, slot] of slots.entries()) {
      const inSecond = slots.filter((other) => other >= slot && other < slot + 1000).length;
      expect(inSecond, `from slot ${i}`).toBeLessThanOrEqual(4);
    }
    expect(slots.length).toBeGreaterThan(8);
    // A mail not due yet is not sent: the queue sends what is due.
    const before = smtp.received.length;
    await services().mail.deliverDue();
    const sentNow = smtp.received.length - before;
    expect(sentNow).toBeLessThanOrEqual(4);
    now = new Date(now.getTime() + 60_000);
    await services().mail.deliverDue();
    await services().settings.set({ "mail.announcements_per_second": "5" });
  });

  it("are not sent twice by mistake: a second send says when the first went, and goes only when asked again", async () => {
    const admin = (await createUser(services(), { role: "admin" })).user;
    const once = await post("Sent once");
    await services().announcements.send(once.id, { audience: "all", again: false, by: admin.id });
    await expect(
      services().announcements.send(once.id, { audience: "all", again: false, by: admin.id }),
    ).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("This post was sent to the members on 2 February 2032"),
    });
    expect(await announcementsOf(once.id)).toHaveLength(1);
    await services().announcements.send(once.id, { audience: "all", again: true, by: admin.id });
    expect(await announcementsOf(once.id)).toHaveLength(2);
  });

  it("carry a one-click unsubscribe from announcements, both parts and the footer; the progress counts the queue", async () => {
    now = new Date(now.getTime() + 3600_000);
    const member = (await createUser(services(), { first_name: "Una" })).user;
    const admin = (await createUser(services(), { role: "admin" })).user;
    const news = await post("Unsubscribe test");
    await services().announcements.send(news.id, { audience: "all", again: false, by: admin.id });
    now = new Date(now.getTime() + 3600_000);
    await services().mail.deliverDue();
    const mail = smtp.received.filter((m) => m.to.includes(member.email)).at(-1);
    const parsed = await simpleParser(mail?.raw ?? "");
    const header = (name: string) =>
      parsed.headerLines.find((h) => h.key === name)?.line.replace(/\r?\n\s+/g, " ") ?? "";
    expect(header("list-unsubscribe")).toMatch(
      /^List-Unsubscribe: <http[^>]+\/unsubscribe\/\d+\.announcements\.[\w-]{43}>$/,
    );
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    const text = parsed.text ?? "";
    const html = parsed.html || "";
    expect(text).toContain("Unsubscribe test: the details.");
    expect(text).toContain("/dashboard/notifications");
    expect(html).toContain("Unsubscribe test: the details.");
    const [progress] = await services().announcements.progress(news.id);
    expect(progress.sent).toBe(progress.recipients);
    expect(progress.pending).toBe(0);

    const token = /\/unsubscribe\/([^>\s]+)>/.exec(header("list-unsubscribe"))?.[1] ?? "";
    expect(await services().notifications.unsubscribe(token)).toBe("announcements");
    const later = await post("After unsubscribing");
    await services().announcements.send(later.id, { audience: "all", again: false, by: admin.id });
    const [record] = await announcementsOf(later.id);
    expect((await queuedFor(record.id)).map((m) => m.to_address)).not.toContain(member.email);
  });

  it("are offered on the post's edit screen: the audiences, a confirmation, the send and its progress", async () => {
    const admin = await signIn(services(), "admin");
    const auth = (await services().auth.authenticate(admin.token)) as Authenticated;
    const context = new RouterContextProvider();
    const value: RequestContext = {
      services: services(),
      auth,
      sessionToken: admin.token,
      client: { ip: "192.0.2.45", userAgent: "vitest" },
      nonce: "",
      requestId: "announcements-1",
      secureCookies: false,
      origin: ORIGIN,
      logger: t.runtime.logger,
      publicConfig: { recaptchaSiteKey: null, gtmId: null },
    };
    context.set(requestContext, value);
    const news = await post("On the screen");
    const params = { id: String(news.id) };
    const url = new URL(`${ORIGIN}/manage-news/${news.id}/edit`);
    const screen = (await loader({ request: new Request(url), context, params, url } as never)) as {
      announcement: { audiences: { value: string; count: number }[]; progress: unknown[] };
    };
    expect(screen.announcement.audiences.map((a) => a.value)).toEqual(["all", "full", "associate"]);
    expect(screen.announcement.audiences[0].count).toBe(await services().announcements.count("all"));
    expect(screen.announcement.progress).toEqual([]);

    const send = async (fields: Record<string, string>) => {
      const request = new Request(url, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      });
      const answer = (await action({ request, context, params, url } as never)) as {
        data: { announce: Record<string, unknown> };
        init: { status?: number } | null;
      };
      return { status: answer.init?.status ?? 200, announce: answer.data.announce };
    };
    const asked = await send({ intent: "announce-confirm", audience: "associate" });
    expect(asked.announce.confirm).toMatchObject({ audience: "associate", sentBefore: null });
    expect(await announcementsOf(news.id)).toHaveLength(0);
    const sent = await send({ intent: "announce", audience: "associate" });
    expect(sent.announce.notice).toMatch(/e-mails? (is|are) queued/);
    expect(await announcementsOf(news.id)).toHaveLength(1);
    // Again: the confirmation says when it went; without "Send it again" it is refused, saying why.
    const again = await send({ intent: "announce-confirm", audience: "all" });
    expect((again.announce.confirm as { sentBefore: string }).sentBefore).toMatch(/^2032-/);
    const refused = await send({ intent: "announce", audience: "all" });
    expect(refused.status).toBe(409);
    expect(refused.announce.error).toContain("This post was sent to the members on");
    expect(await announcementsOf(news.id)).toHaveLength(1);
    // An audience nobody is in: refused, nothing recorded.
    await t.database.db
      .updateTable("member_companies")
      .set({ status: "left" })
      .where("membership_type", "=", "associate")
      .execute();
    const empty = await send({ intent: "announce", audience: "associate", again: "1" });
    expect(empty.status).toBe(422);
    expect(empty.announce.error).toContain("Nobody would receive it");
    expect(await announcementsOf(news.id)).toHaveLength(1);
    const unknown = await send({ intent: "announce", audience: "everyone" });
    expect(unknown.status).toBe(422);
    const test = await send({ intent: "announce-test" });
    expect(test.announce.notice).toBe(`A test is on its way to ${auth.user.email}.`);
    const screenAfter = (await loader({ request: new Request(url), context, params, url } as never)) as {
      announcement: { progress: { recipients: number; pending: number }[] };
    };
    expect(screenAfter.announcement.progress).toHaveLength(1);
  });
});

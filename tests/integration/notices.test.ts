import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryCreateSchema, paperInputSchema } from "../../core/library/library.schema";
import { meetingInputSchema } from "../../core/meetings/meetings.schema";
import { postInputSchema } from "../../core/news/news.schema";
import { createTestContext, type TestContext } from "../support/app";
import { createUser } from "../support/factories";
import { pagesApp } from "../support/pages";
import { type ReceivedMail, startSmtpServer } from "../support/smtp";

/**
 * Issue 33, decision 0065: members hear of what they follow. Real writes through the services
 * record what happened; the notices and digest runs turn it into mails, queued and sent through a
 * real SMTP server, parsed back as a mail client would: who gets one, what it lists, that twenty
 * things together are one mail, that only what the member may see is listed, that a period's
 * digest goes once, and that the one-click address stops it.
 */
let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let now = new Date("2031-03-03T09:00:00Z");
const clock = () => new Date(now);
const BATCH_SECONDS = 100;
const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, NOTIFY_BATCH_SECONDS: String(BATCH_SECONDS) }, { clock });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const services = () => t.runtime.services;

let names = 0;
async function category(name: string, options: { parent?: number; is_public?: string; is_active?: string } = {}) {
  names += 1;
  return services().libraryAdmin.createCategory(
    categoryCreateSchema.parse({
      name: `${name} ${names}`,
      ...(options.parent ? { parent_id: String(options.parent) } : {}),
      ...(options.is_public ? { is_public: options.is_public } : {}),
      ...(options.is_active ? { is_active: options.is_active } : {}),
    }),
    null,
  );
}
const paper = (categoryId: number, name: string) =>
  services().libraryAdmin.createPaper(
    paperInputSchema.parse({
      papers_category_id: String(categoryId),
      name,
      number: `N-${name.length}`,
      description: `About ${name}.`,
    }),
    null,
  );

async function member(first_name: string) {
  return (await createUser(services(), { first_name })).user;
}

/** Sends what is queued and answers the mails that reached the SMTP server meanwhile, parsed. */
async function delivered() {
  const before = smtp.received.length;
  await services().mail.deliverDue();
  return Promise.all(
    smtp.received.slice(before).map(async (m: ReceivedMail) => ({ ...m, parsed: await simpleParser(m.raw) })),
  );
}
const to = (mails: Awaited<ReturnType<typeof delivered>>, email: string) => mails.filter((m) => m.to.includes(email));
const header = (mail: Awaited<ReturnType<typeof delivered>>[number], name: string) =>
  mail.parsed.headerLines.find((h) => h.key === name.toLowerCase())?.line.replace(/\r?\n\s+/g, " ");

/** Settles whatever is pending, so that each test starts from a quiet state. */
async function drain() {
  later(BATCH_SECONDS);
  await services().notices.sendInstant();
  await delivered();
}

describe("instant notices (decision 0065)", () => {
  it("lists three papers uploaded together in one mail, with both parts and the one-click headers", async () => {
    await drain();
    const standards = await category("Standards");
    const follower = await member("Freya");
    const bystander = await member("Bo");
    await services().notifications.follow(
      follower.id,
      { signedIn: true, admin: false },
      {
        kind: "category",
        id: standards.id,
        delivery: "instant",
      },
    );
    await paper(standards.id, "Radar clutter");
    later(5);
    await paper(standards.id, "AIS base stations");
    later(5);
    await paper(standards.id, "ECDIS updates");

    // Still coming in: nothing is sent yet.
    later(5);
    expect((await services().notices.sendInstant()).outcome).toBe("gathering");
    // A fifth of the batching time without anything new: the three go together.
    later(BATCH_SECONDS / 5);
    const run = await services().notices.sendInstant();
    expect(run).toMatchObject({ outcome: "sent", mails: 1, items: 3 });
    const mails = await delivered();
    expect(to(mails, bystander.email)).toHaveLength(0);
    const mine = to(mails, follower.email);
    expect(mine).toHaveLength(1);
    const [mail] = mine;
    expect(mail.parsed.subject).toContain("3 new items you follow");
    for (const name of ["Radar clutter", "AIS base stations", "ECDIS updates"]) {
      expect(mail.parsed.text).toContain(name);
      expect(mail.parsed.html).toContain(name);
    }
    expect(mail.parsed.text).toContain("About Radar clutter.");
    const origin = t.runtime.config.baseUrl.origin;
    expect(mail.parsed.text).toContain(`${origin}/dashboard/notifications`);
    expect(mail.parsed.html).toContain(`${origin}/dashboard/notifications`);
    const unsubscribe = header(mail, "List-Unsubscribe");
    expect(unsubscribe).toMatch(
      new RegExp(`^List-Unsubscribe: <${origin}/unsubscribe/${follower.id}\\.notices\\.[\\w-]{43}>$`),
    );
    expect(header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");

    // Run again: nothing new, nothing sent twice.
    later(BATCH_SECONDS);
    expect((await services().notices.sendInstant()).outcome).toBe("nothing new");
    expect(await delivered()).toHaveLength(0);
  });

  it("sends within the batching time while things keep coming", async () => {
    await drain();
    const busy = await category("Busy");
    const follower = await member("Greta");
    await services().notifications.follow(
      follower.id,
      { signedIn: true, admin: false },
      {
        kind: "category",
        id: busy.id,
        delivery: "instant",
      },
    );
    // One paper every 15 s: never quiet for 20 s, so the oldest's wait decides (four fifths of 100 s).
    let sent: string | undefined;
    for (let i = 0; i < 8 && !sent; i++) {
      await paper(busy.id, `Busy paper ${i}`);
      later(15);
      const run = await services().notices.sendInstant();
      if (run.outcome === "sent") sent = `after ${(i + 1) * 15} s`;
    }
    expect(sent).toBe("after 90 s");
  });

  it("reaches a followed category's sub-categories, and lists only what the member may see when it is sent", async () => {
    await drain();
    const parent = await category("Navigation");
    const child = await category("Radar", { parent: parent.id });
    const hidden = await category("Drafts", { parent: parent.id, is_active: "0" });
    const follower = await member("Hugo");
    const lapsed = await member("Lapsed");
    const admin = (await createUser(services(), { role: "admin", first_name: "Ada" })).user;
    for (const user of [follower, lapsed, admin]) {
      await services().notifications.follow(
        user.id,
        { signedIn: true, admin: user === admin },
        {
          kind: "category",
          id: parent.id,
          delivery: "instant",
        },
      );
    }
    // A company that lapsed long ago: its representative sees the site as a visitor does.
    const company = await services().members.create({
      name: "Lapsed Marine Ltd",
      country: "NO",
      member_since: "2020-01-01",
      renews_on: "2021-01-01",
    } as never);
    await t.database.db
      .insertInto("company_representatives")
      .values({ user_id: lapsed.id, company_id: company.id, is_primary: 1, created_at: now.toISOString() })
      .execute();

    await paper(child.id, "Radar in rain");
    await paper(hidden.id, "Unfinished draft");
    later(BATCH_SECONDS);
    await services().notices.sendInstant();
    const mails = await delivered();
    const [mine] = to(mails, follower.email);
    expect(mine.parsed.text).toContain("Radar in rain");
    expect(mine.parsed.text).not.toContain("Unfinished draft");
    const [admins] = to(mails, admin.email);
    expect(admins.parsed.text).toContain("Unfinished draft");
    expect(to(mails, lapsed.email)).toHaveLength(0);
  });

  it("leaves out a paper deleted before the notice goes", async () => {
    await drain();
    const standards = await category("Deleted");
    const follower = await member("Ida");
    await services().notifications.follow(
      follower.id,
      { signedIn: true, admin: false },
      {
        kind: "category",
        id: standards.id,
        delivery: "instant",
      },
    );
    const gone = await paper(standards.id, "Withdrawn at once");
    await paper(standards.id, "Kept paper");
    await services().libraryAdmin.deletePaper(gone.id);
    later(BATCH_SECONDS);
    await services().notices.sendInstant();
    const [mine] = to(await delivered(), follower.email);
    expect(mine.parsed.text).toContain("Kept paper");
    expect(mine.parsed.text).not.toContain("Withdrawn at once");
  });
});

describe("a meeting's new time or place", () => {
  it("reaches those registered by their registration's own mail, not as a notice; confirmed attendees get the invitation (decision 0068)", async () => {
    await drain();
    const meeting = await services().meetingsAdmin.create(
      meetingInputSchema.parse({
        title: "Bergen radar forum",
        type: "meeting",
        start_date: "2031-06-10",
        location: "Bergen",
      }),
    );
    const pending = await member("Petra");
    const confirmed = await member("Conrad");
    const bystander = await member("Bjorn");
    for (const [user, status] of [
      [pending, "pending"],
      [confirmed, "confirmed"],
    ] as const) {
      await t.database.db
        .insertInto("join_requests")
        .values({
          kind: "registration",
          meeting_id: meeting.id,
          company_name: "Fjord Radar AS",
          representative_name: `${user.first_name} Registrant`,
          email: user.email,
          phone_number: "+47 55 00 00 00",
          created_at: now.toISOString(),
          registration_status: status,
          registration_email: user.email,
          user_id: user.id,
        } as never)
        .execute();
    }
    later(BATCH_SECONDS);
    await services().notices.sendInstant();
    await delivered();
    await services().meetingsAdmin.update(
      meeting.id,
      meetingInputSchema.parse({
        title: "Bergen radar forum",
        type: "meeting",
        start_date: "2031-06-17",
        location: "Stavanger",
      }),
    );
    later(BATCH_SECONDS);
    await services().notices.sendInstant();
    const mails = await delivered();
    const notices = (email: string) => to(mails, email).filter((m) => m.parsed.subject?.includes("you follow"));
    // One mail each, about their registration: never a notice beside it.
    expect(notices(pending.email)).toHaveLength(0);
    expect(to(mails, pending.email).map((m) => m.parsed.subject)).toEqual(["Changed: Bergen radar forum"]);
    expect(to(mails, pending.email)[0].parsed.text).toContain("New place: Stavanger");
    expect(notices(confirmed.email)).toHaveLength(0);
    expect(to(mails, confirmed.email).map((m) => m.parsed.subject)).toEqual(["Updated: Bergen radar forum"]);
    expect(to(mails, bystander.email)).toHaveLength(0);
  });
});

describe("digests (decision 0065)", () => {
  it("goes once a week to the members who chose nothing (news and meetings), not to those on daily or never", async () => {
    await drain();
    // Last week's digest went out: this week's lists what came since.
    await services().notices.sendDigest("weekly");
    await delivered();
    const byDefault = await member("Default");
    const daily = await member("Daily");
    const never = await member("Never");
    await services().notifications.update(daily.id, { signedIn: true, admin: false }, { digest: "daily" });
    await services().notifications.update(never.id, { signedIn: true, admin: false }, { digest: "never" });
    await services().news.create(
      postInputSchema.parse({ title: "Spring plenary announced", content: "<p>In Oslo.</p>" }),
    );
    await services().meetingsAdmin.create(
      meetingInputSchema.parse({ title: "Radar working group", type: "meeting", start_date: "2031-05-04" }),
    );
    later(7 * 86_400);
    const run = await services().notices.sendDigest("weekly");
    expect(run.outcome).toBe("sent");
    const mails = await delivered();
    const [mine] = to(mails, byDefault.email);
    expect(mine.parsed.subject).toContain("weekly digest");
    expect(mine.parsed.text).toContain("Spring plenary announced");
    expect(mine.parsed.text).toContain("Radar working group");
    expect(header(mine, "List-Unsubscribe")).toContain(`/unsubscribe/${byDefault.id}.digest.`);
    expect(to(mails, daily.email)).toHaveLength(0);
    expect(to(mails, never.email)).toHaveLength(0);

    // The same week again: answered from the record, nobody mailed twice.
    const again = await services().notices.sendDigest("weekly");
    expect(again.outcome).toBe("sent before");
    expect(again.mails).toBe(run.mails);
    expect(await delivered()).toHaveLength(0);

    // The daily digest goes to the daily member, with what came since yesterday's (the first: the last day).
    await services().news.create(postInputSchema.parse({ title: "Secretariat closed on Friday", content: "<p>—</p>" }));
    later(3600);
    await services().notices.sendDigest("daily");
    const dailies = await delivered();
    expect(to(dailies, daily.email)).toHaveLength(1);
    expect(to(dailies, daily.email)[0].parsed.text).toContain("Secretariat closed on Friday");
    expect(to(dailies, byDefault.email)).toHaveLength(0);
  });

  it("taken up again after a crash, mails every member once: none lost, none repeated", {
    timeout: 120_000,
  }, async () => {
    await drain();
    await services().notices.sendDigest("weekly");
    later(7 * 86_400);
    await services().notices.sendDigest("weekly");
    await delivered();
    // More members than one page of the run (200), with no choices made: all get the weekly digest.
    const stamp = now.toISOString();
    const emails = Array.from({ length: 210 }, (_, i) => `crash-${i}@example.org`);
    await t.database.db
      .insertInto("users")
      .values(
        emails.map((email, i) => ({
          email,
          first_name: `Crash ${i}`,
          last_name: "Member",
          role: "member" as const,
          is_active: 1,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .execute();
    await services().news.create(postInputSchema.parse({ title: "Crash-proof news", content: "<p>Once.</p>" }));
    later(7 * 86_400);
    // The process stops after the first page: the rest stays owed.
    const controller = new AbortController();
    let asks = 0;
    const signal = controller.signal;
    signal.throwIfAborted = () => {
      asks += 1;
      if (asks === 2) throw new Error("stopped");
    };
    await expect(services().notices.sendDigest("weekly", { signal })).rejects.toThrow("stopped");
    const first = await delivered();
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(emails.length);
    const run = await services().notices.sendDigest("weekly");
    expect(run.outcome).toBe("sent");
    const second = await delivered();
    const reached = [...first, ...second].flatMap((m) => m.to).filter((a) => a.startsWith("crash-"));
    expect(reached.sort()).toEqual([...emails].sort());
  });
});

describe("events committed out of order (decision 0065)", () => {
  it("a batch waits for an event still being written below its end: nothing is skipped", async () => {
    await drain();
    await services().notices.sendDigest("weekly");
    later(7 * 86_400);
    await services().notices.sendDigest("weekly");
    await delivered();
    const reader = await member("Orla");
    later(7 * 86_400);
    // A: a meeting saved in a transaction that takes its time; its event's id comes first.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let recorded = () => {};
    const isRecorded = new Promise<void>((resolve) => {
      recorded = resolve;
    });
    const slow = t.database.db.transaction().execute(async (trx) => {
      const stamp = now.toISOString();
      const meeting = await trx
        .insertInto("meetings")
        .values({
          slug: `slow-${Date.now()}`,
          title: "Slowly saved meeting",
          type: "meeting",
          start_date: "2040-01-01",
          created_at: stamp,
          updated_at: stamp,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await services().notices.record({ kind: "meeting", ref_id: meeting.id, category_id: null }, trx);
      recorded();
      await held;
    });
    await isRecorded;
    // B: a news post saved and committed meanwhile (on SQLite it waits for A: one writer).
    const quick = services().news.create(
      postInputSchema.parse({ title: "Quickly saved news", content: "<p>Quick.</p>" }),
    );
    const digest = services().notices.sendDigest("weekly");
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await Promise.all([slow, quick]);
    expect((await digest).outcome).toBe("sent");
    const [mine] = to(await delivered(), reader.email);
    expect(mine.parsed.text).toContain("Slowly saved meeting");
  });
});

describe("one-click unsubscribe (RFC 8058)", () => {
  let app: TestContext["app"];
  let close = async () => {};
  beforeAll(async () => {
    ({ pages: app, close } = await pagesApp(t));
  }, 120_000);
  afterAll(async () => close());

  it("stops that kind of mail with a POST from anywhere, no session; the page shows one button", async () => {
    await drain();
    const standards = await category("Unsubscribe");
    const follower = await member("Jon");
    await services().notifications.follow(
      follower.id,
      { signedIn: true, admin: false },
      {
        kind: "category",
        id: standards.id,
        delivery: "instant",
      },
    );
    await paper(standards.id, "Before unsubscribing");
    later(BATCH_SECONDS);
    await services().notices.sendInstant();
    const [mail] = to(await delivered(), follower.email);
    const address = /<([^>]+)>/.exec(header(mail, "List-Unsubscribe") ?? "")?.[1] ?? "";
    const path = new URL(address).pathname;

    const page = await app.request(path);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    const html = await page.text();
    expect(html).toContain("Stop the notices sent at once about what you follow?");
    expect(html).toContain('name="List-Unsubscribe" value="One-Click"');
    // A GET changes nothing.
    expect((await services().notifications.preferences(follower.id)).follows).toContainEqual({
      kind: "category",
      id: standards.id,
      delivery: "instant",
    });

    // What a mail provider sends: from its own servers, another origin or none, no cookie.
    const posted = await app.request(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example.net" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(posted.status, await posted.clone().text()).toBe(200);
    expect(await posted.text()).toContain("You will receive no more notices at once");
    const after = await services().notifications.preferences(follower.id);
    expect(after.follows.some((f) => f.delivery === "instant")).toBe(false);
    // The digest follows stay: only the instant notices stopped.
    expect(after.follows).toContainEqual({ kind: "news", delivery: "digest" });

    await paper(standards.id, "After unsubscribing");
    later(BATCH_SECONDS);
    await services().notices.sendInstant();
    expect(to(await delivered(), follower.email)).toHaveLength(0);
  });

  it("refuses an address that was not signed by the site, or altered to name another member or kind", async () => {
    const victim = await member("Kim");
    const own = await member("Lea");
    const key = await services().notifications.unsubscribeTarget("1.digest.x");
    expect(key).toBeNull();
    const { unsubscribeToken } = await import("../../core/notifications/unsubscribe");
    const { UNSUBSCRIBE_KEY } = await import("../../core/notifications/unsubscribe");
    // The site's key as every process reads it (core/secrets): made on first use.
    await services().notifications.unsubscribeTarget(`${own.id}.digest.${"A".repeat(43)}`);
    const stored = await t.database.db
      .selectFrom("app_secrets")
      .select("value")
      .where("name", "=", UNSUBSCRIBE_KEY)
      .executeTakeFirstOrThrow();
    const secret = Buffer.from(stored.value, "base64url");
    const mine = unsubscribeToken(secret, own.id, "digest");
    const signature = mine.split(".")[2];
    for (const token of [
      `${victim.id}.digest.${signature}`,
      `${own.id}.announcements.${signature}`,
      `${own.id}.digest.${"A".repeat(43)}`,
      "not-a-token",
    ]) {
      const res = await app.request(`/unsubscribe/${token}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(res.status, token).toBe(404);
    }
    expect((await services().notifications.preferences(victim.id)).digest).toBe("weekly");
    // Without the one-click field, nothing happens either.
    const res = await app.request(`/unsubscribe/${mine}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "other=1",
    });
    expect(res.status).toBe(400);
    expect((await services().notifications.preferences(own.id)).digest).toBe("weekly");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner } from "../../core/jobs/jobs.service";
import { SITE_JOBS } from "../../core/jobs/site-jobs";
import type { CompanyCreate } from "../../core/members/members.schema";
import { createRenewalsRepository } from "../../core/members/renewals.repository";
import type { DatabaseHandle } from "../../db/connect";
import { createLogger } from "../../lib/logger";
import type { Runtime } from "../../server/env";
import { buildRuntime, call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { reopen } from "../support/database";
import { createUser, signIn } from "../support/factories";
import { pagesApp } from "../support/pages";
import { mailText, startSmtpServer } from "../support/smtp";

/**
 * Renewal reminders and lapse notices (issue 31, decision 0049) on a real database, SQLite or
 * PostgreSQL, through the mail queue to a real SMTP server: who is mailed, when, and only once —
 * over repeated runs, from two connections at once, and again after a renewal moves renews_on.
 */
let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let second: DatabaseHandle;
let secondRuntime: Runtime;
/** The services' clock: 10:00 in London on 15 January 2027 to start with. */
let now = new Date("2027-01-15T10:00:00Z");
const clock = () => new Date(now);
const DAY_MS = 86_400_000;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url }, { clock });
  second = reopen(t.database);
  secondRuntime = buildRuntime(t.runtime.config, second, clock);
});
afterAll(async () => {
  await second.destroy();
  await t.close();
  await smtp.close();
});

const services = () => t.runtime.services;
const origin = ORIGIN;

/** `days` from the clock's today (London), as YYYY-MM-DD. */
function day(days: number): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY_MS)
    .toISOString()
    .slice(0, 10);
}

let companies = 0;
async function company(input: Partial<CompanyCreate> & { renews_on: string | null }) {
  companies += 1;
  return services().members.create({
    name: `Renewal Test ${companies} Ltd`,
    country: "NO",
    member_since: "2020-01-01",
    ...input,
  } as CompanyCreate);
}

async function represent(companyId: number, primary: boolean, options: { first_name?: string } = {}) {
  const { user } = await createUser(services(), { first_name: options.first_name ?? "Kari" });
  await t.database.db
    .insertInto("company_representatives")
    .values({ user_id: user.id, company_id: companyId, is_primary: primary ? 1 : 0, created_at: now.toISOString() })
    .execute();
  return user;
}

/** The renewal mails queued since `afterId`, in order. */
async function queued(afterId = 0) {
  return t.database.db
    .selectFrom("mail_queue")
    .select(["id", "purpose", "to_address", "subject", "body_text", "reply_to"])
    .where("purpose", "in", ["renewal_reminder", "membership_lapsed"])
    .where("id", ">", afterId)
    .orderBy("id")
    .execute();
}
async function lastMailId(): Promise<number> {
  const row = await t.database.db
    .selectFrom("mail_queue")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

const run = (runtime: Runtime = t.runtime) => runtime.services.renewals.sendNotices({ origin });

describe("renewal reminders", () => {
  it("are queued to each active primary contact of an active company whose renews_on is 30 days away, once", async () => {
    now = new Date("2027-01-15T10:00:00Z");
    const due = await company({ renews_on: day(30), name: "Fjord Radar AS" });
    const primaryA = await represent(due.id, true, { first_name: "Ingrid" });
    const primaryB = await represent(due.id, true, { first_name: "Ola" });
    const colleague = await represent(due.id, false);
    const deactivated = await represent(due.id, true);
    await t.database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", deactivated.id).execute();
    // Not yet: a day further out; never: no renewal date; not for a suspended or left company.
    const later = await company({ renews_on: day(31) });
    const laterContact = await represent(later.id, true);
    const undated = await company({ renews_on: null });
    await represent(undated.id, true);
    const suspended = await company({ renews_on: day(10), status: "suspended" });
    await represent(suspended.id, true);
    const left = await company({ renews_on: day(10), status: "left" });
    await represent(left.id, true);

    const before = await lastMailId();
    const first = await run();
    expect(first).toEqual({ reminders: 1, reminderMails: 2, lapses: 0, lapseMails: 0, withoutContact: 0 });
    const mails = await queued(before);
    expect(mails.map((m) => m.to_address).sort()).toEqual([primaryA.email, primaryB.email].sort());
    expect(mails.map((m) => m.to_address)).not.toContain(colleague.email);
    expect(mails.map((m) => m.to_address)).not.toContain(deactivated.email);
    expect(mails.every((m) => m.purpose === "renewal_reminder")).toBe(true);
    expect(await services().renewals.noticesOf(due.id)).toEqual([
      expect.objectContaining({ kind: "reminder", renews_on: day(30), recipients: 2 }),
    ]);
    for (const other of [undated, suspended, left]) expect(await services().renewals.noticesOf(other.id)).toEqual([]);

    // Sent once: the same day again, and the next day (the reminder window still holds it).
    expect(await run()).toEqual({ reminders: 0, reminderMails: 0, lapses: 0, lapseMails: 0, withoutContact: 0 });
    now = new Date(now.getTime() + DAY_MS);
    const nextDay = await lastMailId();
    expect(await run()).toEqual({ reminders: 1, reminderMails: 1, lapses: 0, lapseMails: 0, withoutContact: 0 });
    // ...where only the company that came into the window is reminded.
    expect((await queued(nextDay)).map((m) => m.to_address)).toEqual([laterContact.email]);
    expect(await run()).toMatchObject({ reminders: 0, reminderMails: 0 });
  });

  it("says, in plain text, the association, the company, the date and what to do, with an absolute link", async () => {
    now = new Date("2028-02-02T10:00:00Z");
    await services().settings.set({
      "site.name": "Marine Electronics Association",
      "site.email": "office@mea.example",
    });
    const due = await company({ renews_on: "2028-03-03", name: "Baltic Sonar Oy" });
    const contact = await represent(due.id, true, { first_name: "Aino" });
    const before = await lastMailId();
    await run();
    const [mail] = await queued(before);
    expect(mail).toMatchObject({
      to_address: contact.email,
      reply_to: "office@mea.example",
      subject: "Baltic Sonar Oy: your Marine Electronics Association membership is due for renewal on 3 March 2028",
    });
    expect(mail.body_text).toBe(
      "Dear Aino,\n\nThe membership of Baltic Sonar Oy in Marine Electronics Association is due for renewal on 3 March 2028.\n\n" +
        `To renew it, please contact the secretariat: write to office@mea.example or through ${origin}/message.\n\n` +
        "If it is not renewed, the membership lapses after 2 April 2028, and your company's representatives then no longer see the members' area.\n\n" +
        `You receive this message as a primary contact of Baltic Sonar Oy in the members area of Marine Electronics Association (${origin}).\n\n` +
        "Kind regards,\nMarine Electronics Association",
    );
    // It leaves through the queue to the mail server.
    await services().mail.deliverDue();
    const received = smtp.received.find((m) => m.to.includes(contact.email));
    expect(received).toBeDefined();
    expect(mailText(received as (typeof smtp.received)[number])).toContain(
      "The membership of Baltic Sonar Oy in Marine Electronics Association is due for renewal on 3 March 2028.",
    );
    const sent = await t.database.db
      .selectFrom("mail_queue")
      .select("status")
      .where("id", "=", mail.id)
      .executeTakeFirst();
    expect(sent?.status).toBe("sent");
    await services().settings.set({ "site.name": "Masthead", "site.email": "" });
  });

  it("is owed again once a renewal moves renews_on on, and not before the next window", async () => {
    now = new Date("2029-01-15T10:00:00Z");
    const firstDate = day(20);
    const due = await company({ renews_on: firstDate });
    const contact = await represent(due.id, true);
    expect(await run()).toMatchObject({ reminders: 1, reminderMails: 1 });
    const renewed = await services().members.renew(due.id);
    expect(renewed.renews_on).toBe("2030-02-04");
    // Renewed: the new date is a year away, so nothing is owed now.
    expect(await run()).toMatchObject({ reminders: 0, lapses: 0 });
    // 30 days before the new date, the next reminder goes out, once.
    now = new Date(Date.parse(`${renewed.renews_on}T10:00:00Z`) - 30 * DAY_MS);
    const before = await lastMailId();
    expect(await run()).toMatchObject({ reminders: 1, reminderMails: 1 });
    expect((await queued(before)).map((m) => m.to_address)).toEqual([contact.email]);
    expect(await run()).toMatchObject({ reminders: 0 });
    expect((await services().renewals.noticesOf(due.id)).map((n) => [n.kind, n.renews_on])).toEqual([
      ["reminder", firstDate],
      ["reminder", "2030-02-04"],
    ]);
  });

  it("follows the setting members.reminder_days, which the settings API takes and checks", async () => {
    now = new Date("2032-01-15T10:00:00Z");
    const { cookie } = await signIn(services(), "admin");
    const bad = await call(t.app, "PATCH", "/api/dashboard/settings", {
      cookie,
      json: { "members.reminder_days": "0" },
    });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({
      errors: {
        "members.reminder_days": [
          "The reminder must be sent a whole number of days from 1 to 365 before the renewal date.",
        ],
      },
    });
    const due = await company({ renews_on: day(45) });
    await represent(due.id, true);
    expect(await run()).toMatchObject({ reminders: 0 });
    const good = await call(t.app, "PATCH", "/api/dashboard/settings", {
      cookie,
      json: { "members.reminder_days": "60" },
    });
    expect(good.status).toBe(200);
    expect(await run()).toMatchObject({ reminders: 1 });
    await services().settings.set({ "members.reminder_days": "30" });
  });

  it("waits for a primary contact: a company without one is counted, and reminded once it has one", async () => {
    now = new Date("2033-01-15T10:00:00Z");
    const due = await company({ renews_on: day(5) });
    await represent(due.id, false);
    expect(await run()).toMatchObject({ reminders: 0, withoutContact: 1 });
    expect(await services().renewals.noticesOf(due.id)).toEqual([]);
    const contact = await represent(due.id, true);
    const before = await lastMailId();
    expect(await run()).toMatchObject({ reminders: 1, withoutContact: 0 });
    expect((await queued(before)).map((m) => m.to_address)).toEqual([contact.email]);
  });

  it("is queued once when two processes run at the same moment (the unique key, not the job's lease)", async () => {
    now = new Date("2034-01-15T10:00:00Z");
    const contacts: string[] = [];
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const due = await company({ renews_on: day(3 + i) });
      ids.push(due.id);
      contacts.push((await represent(due.id, true)).email);
    }
    const before = await lastMailId();
    // On PostgreSQL (several processes, decision 0031) both runs at once: each company's insert
    // waits for the other's commit and finds the key taken. SQLite's two connections in one Node
    // process cannot interleave transactions (better-sqlite3 waits for a lock synchronously), so
    // there the second connection runs after the first.
    const [a, b] =
      t.database.dialect === "postgres"
        ? await Promise.all([run(t.runtime), run(secondRuntime)])
        : [await run(t.runtime), await run(secondRuntime)];
    expect(a.reminders + b.reminders).toBe(6);
    const mails = await queued(before);
    expect(mails.map((m) => m.to_address).sort()).toEqual([...contacts].sort());
    for (const id of ids) expect(await services().renewals.noticesOf(id)).toHaveLength(1);
  });

  it("checks each company again as it settles it: one renewed, suspended or left after the run read it is not mailed", async () => {
    now = new Date("2040-01-15T10:00:00Z");
    // The order the run reads them in (renews_on, then id): the first, three others, then the three to change.
    const contacts: string[] = [];
    const dueIds: number[] = [];
    for (const renewsOn of [day(1), day(2), day(2), day(2)]) {
      const due = await company({ renews_on: renewsOn });
      dueIds.push(due.id);
      contacts.push((await represent(due.id, true)).email);
    }
    const renewed = await company({ renews_on: day(5) });
    const suspended = await company({ renews_on: day(5) });
    const left = await company({ renews_on: day(5) });
    for (const changed of [renewed, suspended, left]) await represent(changed.id, true);

    // The run reads a batch of companies, then settles them one by one, asking its signal before
    // each: at the first ask, the secretariat's changes start, through the members service, so
    // that they land after the read and before the changed companies are settled. On SQLite the
    // one connection takes the transactions in the order they ask, so the changes come first. On
    // PostgreSQL they run beside the run: a second connection holds the second company's notice
    // in an open transaction, so that the run waits on that insert until the changes have landed.
    let change: Promise<void> | undefined;
    let landed = false;
    let release = () => {};
    let holding: Promise<unknown> = Promise.resolve();
    if (t.database.dialect === "postgres") {
      let held = () => {};
      const isHeld = new Promise<void>((resolve) => {
        held = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holding = second.db
        .transaction()
        .execute(async (trx) => {
          await createRenewalsRepository(trx).record(dueIds[1], "reminder", day(2), now.toISOString());
          held();
          await released;
          throw new Error("rolled back on purpose");
        })
        .catch(() => {});
      await isHeld;
    }
    const landedAtEachAsk: boolean[] = [];
    const signal = new AbortController().signal;
    signal.throwIfAborted = () => {
      landedAtEachAsk.push(landed);
      change ??= Promise.all([
        services().members.renew(renewed.id),
        services().members.update(suspended.id, { status: "suspended", remove_logo: false }),
        services().members.update(left.id, { status: "left", remove_logo: false }),
      ]).then(() => {
        landed = true;
        release();
      });
    };
    const before = await lastMailId();
    const result = await services().renewals.sendNotices({ origin, signal });
    await change;
    await holding;
    // Read before the changes, settled after them (else this test would prove nothing).
    expect(landedAtEachAsk[0]).toBe(false);
    expect(landedAtEachAsk.slice(4, 7)).toEqual([true, true, true]);
    expect(result).toMatchObject({ reminders: 4, reminderMails: 4 });
    expect((await queued(before)).map((m) => m.to_address).sort()).toEqual([...contacts].sort());
    for (const changed of [renewed, suspended, left]) {
      expect(await services().renewals.noticesOf(changed.id)).toEqual([]);
    }
  });
});

describe("many companies due at once", () => {
  it("reminds every one, read a hundred at a time, and stops between companies when asked", async () => {
    now = new Date("2038-01-15T10:00:00Z");
    const stamp = now.toISOString();
    const count = 230;
    const rows = Array.from({ length: count }, (_, i) => ({
      name: `Batch Marine ${i} Ltd`,
      slug: `batch-marine-${i}`,
      country: "SE",
      member_since: "2020-01-01",
      // Several companies on each date, so that the pages part within a date too.
      renews_on: day(1 + (i % 7)),
      created_at: stamp,
      updated_at: stamp,
    }));
    const companyIds = (await t.database.db.insertInto("member_companies").values(rows).returning("id").execute()).map(
      (r) => r.id,
    );
    const users = (
      await t.database.db
        .insertInto("users")
        .values(
          companyIds.map((id) => ({
            first_name: "Batch",
            last_name: String(id),
            email: `batch-${id}@example.org`,
            role: "member" as const,
            is_active: 1,
            created_at: stamp,
            updated_at: stamp,
          })),
        )
        .returning("id")
        .execute()
    ).map((r) => r.id);
    await t.database.db
      .insertInto("company_representatives")
      .values(companyIds.map((id, i) => ({ user_id: users[i], company_id: id, is_primary: 1, created_at: stamp })))
      .execute();

    // Asked to stop: what was settled stays settled, the rest is owed to the next run.
    const controller = new AbortController();
    controller.abort(new Error("The process was stopping."));
    await expect(services().renewals.sendNotices({ origin, signal: controller.signal })).rejects.toThrow(
      "The process was stopping.",
    );
    const before = await lastMailId();
    expect(await run()).toEqual({
      reminders: count,
      reminderMails: count,
      lapses: 0,
      lapseMails: 0,
      withoutContact: 0,
    });
    const mails = await queued(before);
    expect(new Set(mails.map((m) => m.to_address)).size).toBe(count);
    expect(await run()).toMatchObject({ reminders: 0 });
  }, 60_000);
});

describe("the record of what was sent", () => {
  it("takes a company, kind and renews_on once: a second record is refused, another date or kind is not", async () => {
    now = new Date("2037-01-15T10:00:00Z");
    const { id } = await company({ renews_on: day(10) });
    const repository = createRenewalsRepository(t.database.db);
    const at = now.toISOString();
    expect(await repository.record(id, "reminder", day(10), at)).toBe(true);
    expect(await createRenewalsRepository(second.db).record(id, "reminder", day(10), at)).toBe(false);
    expect(await repository.record(id, "lapse", day(10), at)).toBe(true);
    expect(await repository.record(id, "reminder", day(375), at)).toBe(true);
    expect((await services().renewals.noticesOf(id)).map((n) => [n.kind, n.renews_on])).toEqual([
      ["reminder", day(10)],
      ["lapse", day(10)],
      ["reminder", day(375)],
    ]);
    // A company deleted takes its record with it.
    await services().members.remove(id);
    expect(await services().renewals.noticesOf(id)).toEqual([]);
  });
});

describe("the settings screen", () => {
  let pages: TestContext["app"];
  let closePages: () => Promise<void>;
  // The pages are compiled by Vite here: a minute on a busy machine.
  beforeAll(async () => {
    ({ pages, close: closePages } = await pagesApp(t));
  }, 300_000);
  afterAll(async () => closePages?.());

  it("shows the reminder setting and refuses a bad one with its message", async () => {
    const { token } = await signIn(services(), "admin");
    await services().settings.set({ "members.reminder_days": "45" });
    try {
      const screen = await call(pages, "GET", "/manager/settings", { token });
      expect(screen.status).toBe(200);
      expect(screen.text).toContain("Renewal reminder (days before the renewal date)");
      expect(screen.text).toMatch(/<input[^>]*name="members.reminder_days"[^>]*value="45"/);
      const form = { ...(await services().settings.getAll()), "members.reminder_days": "400" };
      const refused = await call(pages, "POST", "/manager/settings", { token, form });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain(
        "The reminder must be sent a whole number of days from 1 to 365 before the renewal date.",
      );
      expect((await services().settings.getAll())["members.reminder_days"]).toBe("45");
    } finally {
      await services().settings.set({ "members.reminder_days": "30" });
    }
  }, 180_000);
});

describe("lapse notices", () => {
  it("go once to the primary contacts of an active company that lapsed by the date, not for old lapses or suspended ones", async () => {
    now = new Date("2035-01-15T10:00:00Z");
    // Grace 30 days: renews_on 31 days ago lapsed today; 29 days ago is still current.
    const lapsed = await company({ renews_on: day(-31), name: "Adriatic AIS d.o.o." });
    const primary = await represent(lapsed.id, true, { first_name: "Marko" });
    const colleague = await represent(lapsed.id, false);
    const inGrace = await company({ renews_on: day(-29) });
    const inGraceContact = await represent(inGrace.id, true);
    const longAgo = await company({ renews_on: day(-31 - 31) });
    await represent(longAgo.id, true);
    const suspended = await company({ renews_on: day(-31), status: "suspended" });
    await represent(suspended.id, true);

    const before = await lastMailId();
    // The company in its grace period is still current: it gets its (late) reminder, not a notice.
    expect(await run()).toEqual({ reminders: 1, reminderMails: 1, lapses: 1, lapseMails: 1, withoutContact: 0 });
    const mails = await queued(before);
    expect(mails.map((m) => [m.purpose, m.to_address])).toEqual([
      ["renewal_reminder", inGraceContact.email],
      ["membership_lapsed", primary.email],
    ]);
    expect(mails[0].body_text).toContain("was due for renewal on 17 December 2034.");
    const mail = mails[1];
    expect(mail.subject).toBe("Adriatic AIS d.o.o.: your Masthead membership has lapsed");
    expect(mail.body_text).toBe(
      "Dear Marko,\n\nThe membership of Adriatic AIS d.o.o. in Masthead was due for renewal on 15 December 2034 and has lapsed: your company's representatives now see the site as visitors do, without the members' area.\n\n" +
        `To renew it, please contact the secretariat: write to us through ${origin}/message. Once it is renewed, the members' area opens again at once.\n\n` +
        `You receive this message as a primary contact of Adriatic AIS d.o.o. in the members area of Masthead (${origin}).\n\n` +
        "Kind regards,\nMasthead",
    );
    expect(mails.some((m) => m.to_address === colleague.email)).toBe(false);
    expect(await services().renewals.noticesOf(longAgo.id)).toEqual([]);
    expect(await services().renewals.noticesOf(suspended.id)).toEqual([]);

    // Once: the same day again.
    expect(await run()).toEqual({ reminders: 0, reminderMails: 0, lapses: 0, lapseMails: 0, withoutContact: 0 });
    expect((await services().renewals.noticesOf(lapsed.id)).map((n) => n.kind)).toEqual(["lapse"]);

    // Its renews_on was 29 days ago: current on the 30th day of grace, lapsed on the 31st; its notice, once.
    now = new Date(now.getTime() + DAY_MS);
    expect(await run()).toEqual({ reminders: 0, reminderMails: 0, lapses: 0, lapseMails: 0, withoutContact: 0 });
    now = new Date(now.getTime() + DAY_MS);
    expect(await run()).toMatchObject({ lapses: 1, lapseMails: 1, reminders: 0 });
    expect(await run()).toMatchObject({ lapses: 0 });
    expect((await services().renewals.noticesOf(inGrace.id)).map((n) => n.kind)).toEqual(["reminder", "lapse"]);
  });
});

describe("the membership-renewals job", () => {
  it("runs through the job runner and logs what it queued", async () => {
    now = new Date("2036-01-15T10:00:00Z");
    const due = await company({ renews_on: day(7) });
    await represent(due.id, true);
    await represent(due.id, true);
    const lapsed = await company({ renews_on: day(-40) });
    await represent(lapsed.id, true);
    const orphan = await company({ renews_on: day(8) });
    const runner = createJobRunner({
      db: t.database.db,
      services: services(),
      jobs: SITE_JOBS,
      origin,
      logger: createLogger("silent"),
      clock,
    });
    const result = await runner.runNow("membership-renewals");
    expect(result.outcome).toBe("ok");
    expect(result.summary).toBe(
      "1 renewal reminder (2 mails), 1 lapse notice (1 mail) queued. 1 company is owed one but has no primary contact to mail.",
    );
    expect(await services().renewals.noticesOf(orphan.id)).toEqual([]);
    const [logged] = await runner.runs("membership-renewals", 1);
    expect(logged).toMatchObject({ outcome: "ok", summary: result.summary });
    const again = await runner.runNow("membership-renewals");
    expect(again.summary).toBe(
      "0 renewal reminders (0 mails), 0 lapse notices (0 mails) queued. 1 company is owed one but has no primary contact to mail.",
    );
    expect(SITE_JOBS.find((job) => job.name === "membership-renewals")?.schedule).toBe("0 7 * * *");
  });
});

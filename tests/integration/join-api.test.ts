import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MIN_FILL_MS } from "../../core/join/join.service";
import { captchaMisconfiguredText, captchaUnreachableText } from "../../core/join/join.values";
import { RETRY_DELAYS_SECONDS } from "../../core/mail/mail.service";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { formTimeAt } from "../support/form-time";
import { mailText, type ReceivedMail, startSmtpServer } from "../support/smtp";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestContext;
let now = new Date("2026-11-20T10:00:00Z");
const clock = () => now;

const VALID = {
  company_name: "Nordic Bridge Systems AS",
  representative_name: "Ingrid Solberg",
  email: "ingrid@nordicbridge.example",
  phone_number: "+47 22 33 44 55",
};

/** The body text of a received mail, with quoted-printable soft line breaks undone. */

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, JOIN_RATE_LIMIT: "5" }, { clock });
  await t.runtime.services.settings.set({ "site.email": "secretariat@masthead.test" });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  now = new Date(now.getTime() + 2 * 3600_000); // a fresh rate-limit window for every test
  smtp.setRefusing(false);
  // A delivery the last test started in the background may still be on the wire: let it land
  // before counting from zero, or it arrives in this test's count (seen on a loaded machine).
  await t.runtime.services.mail.deliverDue();
  smtp.received.length = 0;
  await t.database.db.deleteFrom("join_requests").execute();
  // Other contexts in this file share the database on the real clock; each test starts with no hits counted.
  await t.database.db.deleteFrom("rate_limits").execute();
});

/** The shown-at time a page rendered `seconds` ago carried for this form (decision 0039). */
const shown = (kind: "join" | "message" = "join", seconds = 20) =>
  formTimeAt(t.database.db, kind, now.getTime() - seconds * 1000);
/** The spec's four fields as a person sends them from the site's page. */
const person = async (fields: Partial<typeof VALID> = {}) => ({ ...VALID, ...fields, started_at: await shown() });

const requests = () => t.database.db.selectFrom("join_requests").selectAll().orderBy("id").execute();
const mails = () => t.database.db.selectFrom("mail_queue").selectAll().orderBy("id").execute();

describe("POST /api/join", () => {
  it("stores a request sent from the site's form and mails the secretariat and the sender", async () => {
    const res = await call(t.app, "POST", "/api/join", {
      json: await person(),
      headers: { "x-forwarded-for": "1.2.3.4" },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "success" });
    const [stored] = await requests();
    expect(stored).toMatchObject({
      kind: "join",
      ...VALID,
      page_path: null,
      meeting_id: null,
      handled_at: null,
      spam_reason: null,
    });

    await t.runtime.services.mail.deliverDue();
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual([
      "ingrid@nordicbridge.example",
      "secretariat@masthead.test",
    ]);
    const notification = smtp.received.find((m) => m.to[0] === "secretariat@masthead.test") as ReceivedMail;
    expect(mailText(notification)).toContain("Subject: New membership request: Nordic Bridge Systems AS");
    expect(mailText(notification)).toContain("Reply-To: ingrid@nordicbridge.example");
    expect(mailText(notification)).toContain("Phone: +47 22 33 44 55");
    const acknowledgement = mailText(smtp.received.find((m) => m.to[0] === VALID.email) as ReceivedMail);
    expect(acknowledgement).toContain("will get in touch with you soon");
    // Nothing the sender typed goes to the address they typed (decision 0039): not even the name.
    for (const typed of [VALID.company_name, VALID.representative_name, VALID.phone_number, "Ingrid"])
      expect(acknowledgement).not.toContain(typed);
    expect((await mails()).every((m) => m.status === "sent" && m.attempts === 1)).toBe(true);
  });

  it("keeps an API client's spec fields without the form's time as probable spam, acknowledged to no one", async () => {
    const res = await call(t.app, "POST", "/api/join", { json: VALID });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "success" });
    expect((await requests()).map((r) => [r.email, r.spam_reason])).toEqual([[VALID.email, "no_form_time"]]);
    await t.runtime.services.mail.deliverDue();
    expect(smtp.received.map((m) => m.to[0])).toEqual(["secretariat@masthead.test"]);
    expect(mailText(smtp.received[0])).toContain("Subject: Probable spam: New membership request");
    expect(mailText(smtp.received[0])).toContain("the sender was not sent an acknowledgement");

    // A signed-in API client is shown no form: it needs no time, and is treated as a person.
    const member = await signIn(t.runtime.services, "member");
    const trusted = await call(t.app, "POST", "/api/join", {
      json: { ...VALID, email: "api@nordicbridge.example" },
      token: member.token,
    });
    expect(trusted.status).toBe(200);
    expect((await requests()).map((r) => r.spam_reason)).toEqual(["no_form_time", null]);
    await t.runtime.services.mail.deliverDue();
    expect(smtp.received.map((m) => m.to[0])).toContain("api@nordicbridge.example");
  });

  it("accepts multipart from the web form and stores a registration from a conference page", async () => {
    const res = await call(t.app, "POST", "/api/join", {
      form: { ...VALID, page_path: "/conference", started_at: await shown(), website: "" },
      multipart: true,
    });
    expect(res.status).toBe(200);
    expect((await requests())[0]).toMatchObject({ kind: "registration", page_path: "/conference", spam_reason: null });
    await t.runtime.services.mail.deliverDue();
    const acknowledgement = smtp.received.find((m) => m.to[0] === VALID.email) as ReceivedMail;
    expect(mailText(acknowledgement)).toContain("Thank you for registering");
    expect(mailText(acknowledgement)).toContain("within 48 hours");
  });

  it("answers 422 with the spec's messages, field by field", async () => {
    const empty = await call(t.app, "POST", "/api/join", { json: {} });
    expect(empty.status).toBe(422);
    expect(empty.json?.errors).toEqual({
      company_name: ["Company Name is required."],
      representative_name: ["Representative name is required."],
      email: ["Email is required."],
      phone_number: ["Phone number is required."],
    });
    const blank = await call(t.app, "POST", "/api/join", {
      json: { company_name: "  ", representative_name: "\t", email: " ", phone_number: " " },
    });
    expect(Object.values(blank.json?.errors as Record<string, string[]>).map((e) => e.length)).toEqual([1, 1, 1, 1]);
    const wrong = await call(t.app, "POST", "/api/join", {
      json: { ...VALID, email: "ingrid@", phone_number: "12-34 56" },
    });
    expect(wrong.json?.errors).toEqual({
      email: ["Email is not valid."],
      phone_number: ["Phone format is incorrect."],
    });
    for (const phone of ["+47 22 33 44 55", "0047-22334455", "+4722334455123"]) {
      const res = await call(t.app, "POST", "/api/join", { json: { ...VALID, phone_number: phone } });
      expect(res.status, phone).toBe(200);
    }
    for (const phone of ["(47) 22334455", "1234567", "+1234567890123456", "22.33.44.55"]) {
      const res = await call(t.app, "POST", "/api/join", { json: { ...VALID, phone_number: phone } });
      expect(res.status, phone).toBe(422);
    }
    const file = await call(t.app, "POST", "/api/join", {
      form: { ...VALID, company_name: new Blob(["x"]) },
      multipart: true,
    });
    expect(file.status).toBe(422);
    expect(await requests()).toHaveLength(3);
  });

  it("keeps what the honeypot or the form's time catches as probable spam, answering as if stored", async () => {
    const honeypot = await call(t.app, "POST", "/api/join", {
      json: { ...(await person()), website: "http://spam.example" },
    });
    const hasty = await call(t.app, "POST", "/api/join", {
      json: {
        ...VALID,
        email: "autofill@nordicbridge.example",
        started_at: await shown("join", MIN_FILL_MS / 1000 - 0.5),
      },
    });
    expect(honeypot.json).toEqual({ status: "success" });
    expect(hasty.json).toEqual({ status: "success" });
    expect((await requests()).map((r) => [r.email, r.spam_reason])).toEqual([
      [VALID.email, "honeypot"],
      ["autofill@nordicbridge.example", "too_fast"],
    ]);
    // Nobody is mailed on a honeypot's word, and probable spam gets no acknowledgement (its address may be
    // anyone's); the secretariat is told it looks like spam.
    await t.runtime.services.mail.deliverDue();
    expect(smtp.received.map((m) => m.to[0])).toEqual(["secretariat@masthead.test"]);
    const notification = smtp.received.find((m) => m.to[0] === "secretariat@masthead.test") as ReceivedMail;
    expect(mailText(notification)).toContain("Subject: Probable spam: New membership request");

    const admin = await signIn(t.runtime.services, "admin");
    const inbox = async (query: string) =>
      (
        (await call(t.app, "GET", `/api/dashboard/join-requests${query}`, { token: admin.token })).json as {
          data: { email: string; spam_reason: string | null }[];
        }
      ).data.map((r) => [r.email, r.spam_reason]);
    await call(t.app, "POST", "/api/join", { json: await person({ email: "person@nordicbridge.example" }) });
    expect(await inbox("?spam=only")).toEqual([
      ["autofill@nordicbridge.example", "too_fast"],
      [VALID.email, "honeypot"],
    ]);
    expect(await inbox("?spam=none")).toEqual([["person@nordicbridge.example", null]]);
    expect(await inbox("")).toHaveLength(3);
  });

  it("judges the time on its own clock, from a time only the site can sign, for that form", async () => {
    const good = await shown("join", 60);
    const [at, signature] = good.split(".");
    const cases: [string, unknown, string | null][] = [
      ["missing", undefined, "no_form_time"],
      ["the client's clock (a number, as before)", now.getTime() - 60_000, "no_form_time"],
      ["the client's clock as text", String(now.getTime() - 60_000), "no_form_time"],
      ["an earlier time under the same signature", `${Number(at) - 60_000}.${signature}`, "no_form_time"],
      ["the message form's time", await shown("message", 60), "no_form_time"],
      ["garbage", "not-a-time", "no_form_time"],
      ["over-long", "9".repeat(5000), "no_form_time"],
      ["signed, 2 s ago", await shown("join", 2), "too_fast"],
      ["signed, a minute ago", good, null],
    ];
    for (const [label, started_at] of cases) {
      // More than this file's limit of 5 an hour: each case from a fresh count.
      await t.database.db.deleteFrom("rate_limits").execute();
      const res = await call(t.app, "POST", "/api/join", { json: { ...VALID, company_name: label, started_at } });
      expect(res.status, label).toBe(200);
      expect(res.json, label).toEqual({ status: "success" });
    }
    expect((await requests()).map((r) => [r.company_name, r.spam_reason])).toEqual(
      cases.map(([label, , reason]) => [label, reason]),
    );
    // The same time from a page of the message form does for a message, and no more for a join request.
    const message = await call(t.app, "POST", "/api/contact", {
      json: { name: "Ingrid", email: VALID.email, subject: "Hello", message: "Hi", started_at: await shown("message") },
    });
    expect(message.status).toBe(200);
    expect((await requests()).at(-1)?.spam_reason).toBeNull();
  });

  it("lets an admin mark probable spam as not spam through the API, 404 for an unknown request", async () => {
    await call(t.app, "POST", "/api/join", { json: VALID });
    const [row] = await requests();
    expect(row.spam_reason).toBe("no_form_time");
    const admin = await signIn(t.runtime.services, "admin");
    const member = await signIn(t.runtime.services, "member");
    const path = `/api/dashboard/join-requests/${row.id}/not-spam`;
    expect((await call(t.app, "POST", path)).status).toBe(401);
    expect((await call(t.app, "POST", path, { token: member.token })).status).toBe(403);
    expect((await requests())[0].spam_reason).toBe("no_form_time");
    const marked = await call(t.app, "POST", path, { token: admin.token });
    expect(marked.status).toBe(200);
    expect(marked.json).toEqual({ status: "success" });
    expect((await requests())[0].spam_reason).toBeNull();
    // Said twice: still a person's request.
    expect((await call(t.app, "POST", path, { token: admin.token })).status).toBe(200);
    const unknown = await call(t.app, "POST", `/api/dashboard/join-requests/${row.id + 1000}/not-spam`, {
      token: admin.token,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json?.message).toBe("Request not found.");
    expect(
      (await call(t.app, "POST", "/api/dashboard/join-requests/abc/not-spam", { token: admin.token })).status,
    ).toBe(404);
    // Nothing is mailed by it: the secretariat answers the person itself.
    await t.runtime.services.mail.deliverDue();
    expect(smtp.received.map((m) => m.to[0])).toEqual(["secretariat@masthead.test"]);
    const doc = (await call(t.app, "GET", "/api/openapi.json")).json as {
      paths: Record<string, { post?: { "x-access"?: unknown; responses?: Record<string, unknown> } }>;
    };
    const declared = doc.paths["/api/dashboard/join-requests/{id}/not-spam"]?.post;
    expect(declared?.["x-access"]).toBe("admin");
    expect(Object.keys(declared?.responses ?? {})).toEqual(expect.arrayContaining(["200", "401", "403", "404"]));
  });

  it("limits requests per IP address with 429 and Retry-After, other addresses unaffected", async () => {
    const from = (ip: string) => ({ json: VALID, headers: { "x-forwarded-for": ip } });
    // TRUST_PROXY is off in tests: every request comes from the same socket address.
    for (let i = 0; i < 5; i += 1) expect((await call(t.app, "POST", "/api/join", from("9.9.9.9"))).status).toBe(200);
    const limited = await call(t.app, "POST", "/api/join", from("9.9.9.9"));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBe(3600);
    // The answer says how long to wait, for the form's modal to show.
    expect(limited.json).toMatchObject({
      status: "error",
      message: "Too many requests from your network. Please try again in 60 minutes.",
    });
    expect(await requests()).toHaveLength(5);
    // Probable spam counts too (it is stored now), and the contact form shares the limit.
    const message = await call(t.app, "POST", "/api/contact", {
      json: { name: "Ingrid", email: VALID.email, subject: "Hello", message: "Hi" },
    });
    expect(message.status).toBe(429);
    now = new Date(now.getTime() + 3570_000);
    const later = await call(t.app, "POST", "/api/join", from("9.9.9.9"));
    expect(later.json?.message).toBe("Too many requests from your network. Please try again in 30 seconds.");
  });

  it("keeps the request when the mail server refuses, retries with backoff, and sends once it accepts", async () => {
    smtp.setRefusing(true);
    const res = await call(t.app, "POST", "/api/join", { json: await person() });
    expect(res.status).toBe(200);
    await t.runtime.services.mail.deliverDue();
    expect(await requests()).toHaveLength(1);
    let queued = await mails();
    expect(queued.map((m) => [m.status, m.attempts])).toEqual([
      ["pending", 1],
      ["pending", 1],
    ]);
    expect(queued[0].last_error).toContain("Mailbox unavailable");

    smtp.setRefusing(false);
    await t.runtime.services.mail.deliverDue();
    expect(smtp.received).toHaveLength(0); // not due yet
    now = new Date(now.getTime() + RETRY_DELAYS_SECONDS[0] * 1000);
    await t.runtime.services.mail.deliverDue();
    expect(smtp.received).toHaveLength(2);
    queued = await mails();
    expect(queued.map((m) => [m.status, m.attempts])).toEqual([
      ["sent", 2],
      ["sent", 2],
    ]);
  });

  it("sends a mail left 'sending' by a process that died, once its lock ran out, and only once across processes", async () => {
    const other = await createTestContext({ SMTP_URL: smtp.url }, { clock, database: t.database });
    const past = new Date(now.getTime() - 60_000).toISOString();
    await t.database.db
      .insertInto("mail_queue")
      .values({
        join_request_id: null,
        purpose: "notification",
        to_address: "orphan@example.org",
        reply_to: null,
        subject: "Left behind",
        body_text: "A process died while sending this.",
        status: "sending",
        attempts: 0,
        next_attempt_at: past,
        locked_until: past,
        created_at: past,
      })
      .execute();
    // Two server processes find the expired lock at the same moment.
    await Promise.all([t.runtime.services.mail.deliverDue(), other.runtime.services.mail.deliverDue()]);
    expect(smtp.received.map((m) => m.to[0])).toEqual(["orphan@example.org"]);
    expect((await mails()).map((m) => m.status)).toEqual(["sent"]);
    expect(RETRY_DELAYS_SECONDS).toEqual([60, 300, 1800, 7200, 43200]);
    await other.close();
    await t.database.db.deleteFrom("mail_queue").execute();
  });

  it("gives up after the last retry, shows it in the inbox, and an admin can resend", async () => {
    smtp.setRefusing(true);
    await call(t.app, "POST", "/api/join", { json: await person() });
    for (const delay of [0, ...RETRY_DELAYS_SECONDS]) {
      now = new Date(now.getTime() + delay * 1000);
      await t.runtime.services.mail.deliverDue();
    }
    const admin = await signIn(t.runtime.services, "admin");
    const inbox = await call(t.app, "GET", "/api/dashboard/join-requests", { token: admin.token });
    const [row] = (inbox.json as { data: { mails: { id: number; status: string; attempts: number }[] }[] }).data;
    expect(row.mails.map((m) => [m.status, m.attempts])).toEqual([
      ["failed", 6],
      ["failed", 6],
    ]);
    smtp.setRefusing(false);
    const resent = await call(t.app, "POST", `/api/dashboard/mail/${row.mails[0].id}/resend`, { token: admin.token });
    expect(resent.status).toBe(200);
    await t.runtime.services.mail.deliverDue();
    expect(smtp.received).toHaveLength(1);
    const again = await call(t.app, "POST", `/api/dashboard/mail/${row.mails[0].id}/resend`, { token: admin.token });
    expect(again.status).toBe(404);
  });

  it("keeps only a local page path", async () => {
    for (const page_path of ["//evil.example/conference", "https://evil.example/", "javascript:alert(1)"]) {
      await call(t.app, "POST", "/api/join", { json: { ...VALID, page_path } });
    }
    // An over-long page is no page (it used to be an uncaught validation error: a 500).
    const long = await call(t.app, "POST", "/api/join", {
      json: { ...VALID, page_path: `/conference/${"x".repeat(400)}` },
    });
    expect(long.status).toBe(200);
    expect((await requests()).map((r) => [r.page_path, r.kind])).toEqual([
      [null, "join"],
      [null, "join"],
      [null, "join"],
      [null, "join"],
    ]);
  });

  it("treats an over-long honeypot as filled and an over-long captcha token as none, never as a 500", async () => {
    const honeypot = await call(t.app, "POST", "/api/join", { json: { ...VALID, website: "x".repeat(600) } });
    expect(honeypot.json).toEqual({ status: "success" });
    const token = await call(t.app, "POST", "/api/join", {
      json: { ...(await person()), captcha_token: "t".repeat(5000) },
    });
    expect(token.status).toBe(200);
    expect((await requests()).map((r) => r.spam_reason)).toEqual(["honeypot", null]);
  });
});

describe("a mail server that cannot be reached", () => {
  it("leaves the request stored and its mails queued for a retry", async () => {
    // Port 9 (discard) has no SMTP server: the connection is refused.
    const offline = await createTestContext({ SMTP_URL: "smtp://127.0.0.1:9" }, { database: t.database, clock });
    try {
      await offline.runtime.services.settings.set({ "site.email": "secretariat@masthead.test" });
      const res = await call(offline.app, "POST", "/api/join", { json: await person() });
      expect(res.json).toEqual({ status: "success" });
      await offline.runtime.services.mail.deliverDue();
      expect(await requests()).toHaveLength(1);
      const queued = await mails();
      expect(queued.map((m) => [m.status, m.attempts])).toEqual([
        ["pending", 1],
        ["pending", 1],
      ]);
      expect(queued[0].last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(new Date(queued[0].next_attempt_at).getTime()).toBe(now.getTime() + RETRY_DELAYS_SECONDS[0] * 1000);
    } finally {
      await offline.close();
    }
  });
});

describe("a process that stops with mail queued", () => {
  it("finishes the mail it is sending, takes no other, and leaves the rest pending for the next start", async () => {
    const local = await createTestContext({}, { database: t.database });
    try {
      const at = new Date().toISOString();
      await t.database.db
        .insertInto("mail_queue")
        .values(
          Array.from({ length: 200 }, (_, i) => ({
            join_request_id: null,
            purpose: "notification" as const,
            to_address: `backlog-${i}@example.org`,
            reply_to: null,
            subject: `Backlog ${i}`,
            body_text: "One of many.",
            status: "pending" as const,
            attempts: 0,
            next_attempt_at: at,
            created_at: at,
          })),
        )
        .execute();
      const delivering = local.runtime.services.mail.deliverDue();
      const sentSoFar = async () => (await mails()).filter((m) => m.status === "sent").length;
      while ((await sentSoFar()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await local.runtime.services.mail.stop();
      const sent = await delivering;
      const states = (await mails()).map((m) => m.status);
      expect(states.filter((s) => s === "sent")).toHaveLength(sent);
      expect(states.filter((s) => s === "pending").length).toBeGreaterThan(0);
      expect(states).not.toContain("sending");
      // Asked again while stopping, it sends nothing.
      expect(await local.runtime.services.mail.deliverDue()).toBe(0);
    } finally {
      await local.close();
      await t.database.db.deleteFrom("mail_queue").execute();
    }
  });
});

describe("without SMTP_URL", () => {
  it("writes each mail as an .eml file under the outbox", async () => {
    const local = await createTestContext({}, { database: t.database });
    try {
      await local.runtime.services.settings.set({ "site.email": "secretariat@masthead.test" });
      expect(
        (
          await call(local.app, "POST", "/api/join", {
            json: { ...VALID, started_at: await formTimeAt(t.database.db, "join", Date.now() - 20_000) },
          })
        ).status,
      ).toBe(200);
      await local.runtime.services.mail.deliverDue();
      const outbox = local.runtime.config.outboxDir;
      const files = fs.readdirSync(outbox).filter((f) => f.endsWith(".eml"));
      expect(files).toHaveLength(2);
      const texts = files.map((f) => fs.readFileSync(path.join(outbox, f), "utf8"));
      expect(texts.some((text) => text.includes("To: secretariat@masthead.test"))).toBe(true);
    } finally {
      await local.close();
    }
  });
});

describe("the admin's inbox", () => {
  it("lists newest first, filters by kind, status and search, marks handled, deletes, exports safe CSV", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const send = async (fields: Partial<typeof VALID>, page_path?: string) => {
      now = new Date(now.getTime() + 60_000);
      await call(t.app, "POST", "/api/join", { json: { ...VALID, ...fields, page_path } });
    };
    await send({ company_name: "Alpha Marine" });
    await send({ company_name: '=HYPERLINK("http://evil.example","x")' }, "/conference");
    await send({ company_name: "Gamma Radio" });

    const list = async (query = "") =>
      (
        (await call(t.app, "GET", `/api/dashboard/join-requests${query}`, { token: admin.token })).json as {
          data: { id: number; company_name: string }[];
          total: number;
        }
      ).data;
    expect((await list()).map((r) => r.company_name)).toEqual([
      "Gamma Radio",
      '=HYPERLINK("http://evil.example","x")',
      "Alpha Marine",
    ]);
    expect((await list("?kind=registration")).map((r) => r.company_name)).toHaveLength(1);
    const [conference] = await t.database.db
      .insertInto("meetings")
      .values({
        slug: "inbox-conference",
        title: "Inbox Conference",
        type: "conference",
        start_date: "2099-01-10",
        created_at: "2026-01-01",
        updated_at: "2026-01-01",
      })
      .returning("id")
      .execute();
    await t.database.db
      .updateTable("join_requests")
      .set({ meeting_id: conference.id })
      .where("kind", "=", "registration")
      .execute();
    expect((await list(`?meeting=${conference.id}`)).map((r) => r.company_name)).toEqual([
      '=HYPERLINK("http://evil.example","x")',
    ]);
    expect(await list(`?meeting=${conference.id + 1000}`)).toHaveLength(0);
    expect((await list("?search=ALPHA")).map((r) => r.company_name)).toEqual(["Alpha Marine"]);
    expect(await list("?search=%25")).toHaveLength(0);

    const gamma = (await list())[0];
    await call(t.app, "PATCH", `/api/dashboard/join-requests/${gamma.id}`, {
      token: admin.token,
      json: { handled: true },
    });
    expect((await list("?status=open")).map((r) => r.company_name)).not.toContain("Gamma Radio");
    expect((await list("?status=handled")).map((r) => r.company_name)).toEqual(["Gamma Radio"]);
    // Anything but a yes/no is refused, not read as "reopen".
    for (const json of [{}, { handled: "yes" }]) {
      const bad = await call(t.app, "PATCH", `/api/dashboard/join-requests/${gamma.id}`, { token: admin.token, json });
      expect(bad.status).toBe(422);
      expect(bad.json?.errors).toEqual({ handled: ["handled must be true or false."] });
    }
    expect((await list("?status=handled")).map((r) => r.company_name)).toEqual(["Gamma Radio"]);
    await call(t.app, "PATCH", `/api/dashboard/join-requests/${gamma.id}`, {
      token: admin.token,
      form: { handled: "0" },
    });
    expect((await list("?status=open")).map((r) => r.company_name)).toContain("Gamma Radio");
    await call(t.app, "PATCH", `/api/dashboard/join-requests/${gamma.id}`, {
      token: admin.token,
      json: { handled: 1 },
    });

    const csv = await call(t.app, "GET", "/api/dashboard/join-requests/export", { token: admin.token });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csv.text).toContain(`"'+47 22 33 44 55"`);
    expect(csv.text.split("\r\n").filter(Boolean)).toHaveLength(4);

    const removed = await call(t.app, "DELETE", `/api/dashboard/join-requests/${gamma.id}`, { token: admin.token });
    expect(removed.status).toBe(200);
    expect(
      (await call(t.app, "DELETE", `/api/dashboard/join-requests/${gamma.id}`, { token: admin.token })).status,
    ).toBe(404);
    expect(await list()).toHaveLength(2);

    await t.database.db.deleteFrom("meetings").where("slug", "=", "inbox-conference").execute();
    const member = await signIn(t.runtime.services, "member");
    expect((await call(t.app, "GET", "/api/dashboard/join-requests", { token: member.token })).status).toBe(403);
    expect((await call(t.app, "GET", "/api/dashboard/join-requests/export")).status).toBe(401);
  });
});

describe("with reCAPTCHA configured", () => {
  it("requires a token the verification service accepts, except from signed-in API clients", async () => {
    // A real HTTP server speaking reCAPTCHA's siteverify protocol.
    const seen: URLSearchParams[] = [];
    const verifier = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        const form = new URLSearchParams(body);
        seen.push(form);
        const success = form.get("secret") === "test-secret" && form.get("response") === "good-token";
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ success }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, "127.0.0.1", resolve));
    const { port } = verifier.address() as AddressInfo;
    const guarded = await createTestContext(
      {
        RECAPTCHA_SITE_KEY: "test-site-key",
        RECAPTCHA_SECRET_KEY: "test-secret",
        RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/siteverify`,
        JOIN_RATE_LIMIT: "5",
      },
      { database: t.database },
    );
    try {
      const missing = await call(guarded.app, "POST", "/api/join", { json: VALID });
      expect(missing.status).toBe(422);
      expect(missing.json?.errors).toEqual({ captcha_token: ["The spam check failed. Please try again."] });
      const wrong = await call(guarded.app, "POST", "/api/join", { json: { ...VALID, captcha_token: "bad-token" } });
      expect(wrong.status).toBe(422);
      const right = await call(guarded.app, "POST", "/api/join", { json: { ...VALID, captcha_token: "good-token" } });
      expect(right.status).toBe(200);
      expect(seen.at(-1)?.get("remoteip")).toBeTruthy();
      const member = await signIn(guarded.runtime.services, "member");
      const trusted = await call(guarded.app, "POST", "/api/join", { json: VALID, token: member.token });
      expect(trusted.status).toBe(200);
      expect(await requests()).toHaveLength(2);

      // A flood of bad tokens is counted before the verifier is asked: once limited, it is not called.
      const calls = seen.length;
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        statuses.push(
          (await call(guarded.app, "POST", "/api/join", { json: { ...VALID, captcha_token: "bad" } })).status,
        );
      }
      expect(statuses).toEqual([422, 429, 429]);
      expect(seen.length).toBe(calls + 1);

      // The browser may load the captcha's scripts and frames; nothing else from Google.
      const csp = (await call(guarded.app, "GET", "/healthz")).headers.get("content-security-policy") ?? "";
      expect(csp).toContain("https://www.google.com/recaptcha/");
      expect(csp).not.toContain("googletagmanager");
    } finally {
      await guarded.close();
      await new Promise((resolve) => verifier.close(resolve));
    }
  });

  it("fails closed with a 503 that says to try again, and when, when the verification service cannot be reached", async () => {
    const guarded = await createTestContext(
      {
        RECAPTCHA_SITE_KEY: "k",
        RECAPTCHA_SECRET_KEY: "s",
        RECAPTCHA_VERIFY_URL: "http://127.0.0.1:9/siteverify",
      },
      { database: t.database },
    );
    try {
      const res = await call(guarded.app, "POST", "/api/join", { json: { ...VALID, captcha_token: "any" } });
      expect(res.status).toBe(503);
      expect(res.json?.message).toBe(captchaUnreachableText());
      expect(res.json?.message).toContain("Please try again in 1 minute.");
      expect(res.headers.get("retry-after")).toBe("60");
      expect(await requests()).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });

  it("takes siteverify's complaint about the site's secret as the site's fault, a bad token as the visitor's", async () => {
    const answers: Record<string, unknown> = {
      good: { success: true },
      bad: { success: false, "error-codes": ["invalid-input-response"] },
      "wrong-secret": { success: false, "error-codes": ["invalid-input-secret"] },
      "no-secret": { success: false, "error-codes": ["missing-input-secret", "invalid-input-response"] },
    };
    const verifier = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end(JSON.stringify(answers[new URLSearchParams(body).get("response") ?? ""] ?? answers.bad));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, "127.0.0.1", resolve));
    const guarded = await createTestContext(
      {
        RECAPTCHA_SITE_KEY: "k",
        RECAPTCHA_SECRET_KEY: "s",
        RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`,
      },
      { database: t.database },
    );
    try {
      const misconfigured = captchaMisconfiguredText({ email: "secretariat@masthead.test", phone: "" });
      for (const token of ["wrong-secret", "no-secret"]) {
        const res = await call(guarded.app, "POST", "/api/join", { json: { ...VALID, captcha_token: token } });
        expect(res.status, token).toBe(503);
        expect(res.json?.message, token).toBe(misconfigured);
        expect(res.headers.get("retry-after"), token).toBeNull();
      }
      const bad = await call(guarded.app, "POST", "/api/join", { json: { ...VALID, captcha_token: "bad" } });
      expect(bad.status).toBe(422);
      expect(bad.json?.errors).toEqual({ captcha_token: ["The spam check failed. Please try again."] });
      const good = await call(guarded.app, "POST", "/api/join", { json: { ...VALID, captcha_token: "good" } });
      expect(good.status).toBe(200);
      expect(await requests()).toHaveLength(1);
    } finally {
      await guarded.close();
      await new Promise((resolve) => verifier.close(resolve));
    }
  });
});

describe("Google Tag Manager", () => {
  it("is allowed by the CSP only when GTM_ID is set", async () => {
    const plain = (await call(t.app, "GET", "/healthz")).headers.get("content-security-policy") ?? "";
    expect(plain).not.toContain("googletagmanager");
    const tagged = await createTestContext({ GTM_ID: "GTM-AB12CD3" }, { database: t.database });
    try {
      const csp = (await call(tagged.app, "GET", "/healthz")).headers.get("content-security-policy") ?? "";
      expect(csp).toMatch(/script-src [^;]*https:\/\/www\.googletagmanager\.com/);
    } finally {
      await tagged.close();
    }
  });
});

describe("registrations from meeting pages", () => {
  it("record the meeting the page shows and name it in the sender's mail", async () => {
    const stamp = now.toISOString();
    const meeting = (slug: string, type: string, start: string) => ({
      slug,
      title: `Title of ${slug}`,
      type,
      start_date: start,
      end_date: start,
      created_at: stamp,
      updated_at: stamp,
    });
    const rows = await t.database.db
      .insertInto("meetings")
      .values([
        meeting("conference-2027", "conference", "2027-05-10"),
        meeting("radar-webinar", "webinar", "2027-02-01"),
      ])
      .returning(["id", "slug"])
      .execute();
    const id = (slug: string) => rows.find((r) => r.slug === slug)?.id;
    try {
      for (const page_path of ["/conference", "/events/radar-webinar", "/events/no-such-meeting", "/workshop"]) {
        const res = await call(t.app, "POST", "/api/join", { json: { ...VALID, page_path } });
        expect(res.status, `${page_path}: ${res.text}`).toBe(200);
      }
      expect((await requests()).map((r) => [r.kind, r.meeting_id])).toEqual([
        ["registration", id("conference-2027")],
        ["registration", id("radar-webinar")],
        ["registration", null],
        ["registration", null],
      ]);
      await t.runtime.services.mail.deliverDue();
      const acknowledgements = smtp.received.filter((m) => m.to[0] === VALID.email).map(mailText);
      expect(
        acknowledgements.some((text) => text.includes("Thank you for registering for Title of conference-2027")),
      ).toBe(true);
    } finally {
      await t.database.db.deleteFrom("join_requests").execute();
      await t.database.db.deleteFrom("meetings").where("slug", "in", ["conference-2027", "radar-webinar"]).execute();
    }
  });
});

describe("a registration the meeting no longer takes", () => {
  it("is refused with 422 saying why (full, closed), stored nowhere; probable spam holds its seat until deleted", async () => {
    const stamp = now.toISOString();
    const rows = await t.database.db
      .insertInto("meetings")
      .values([
        {
          slug: "full-workshop",
          title: "Full Workshop",
          type: "workshop",
          start_date: "2099-03-01",
          capacity: 1,
          registration_open: 1,
          // Without its waiting list, a full meeting refuses (with one, see registrations.test.ts).
          registration_waitlist: 0,
          created_at: stamp,
          updated_at: stamp,
        },
        {
          slug: "closed-seminar",
          title: "Closed Seminar",
          type: "seminar",
          start_date: "2099-03-01",
          registration_open: 0,
          capacity: null,
          registration_waitlist: 1,
          created_at: stamp,
          updated_at: stamp,
        },
      ])
      .returning("id")
      .execute();
    try {
      const register = (page_path: string, extra: Record<string, unknown> = {}) =>
        call(t.app, "POST", "/api/join", { json: { ...VALID, page_path, ...extra } });
      // A hasty registration is kept as probable spam and told it is registered: it holds the last seat.
      const hasty = await register("/events/full-workshop", { started_at: await shown("join", 1) });
      expect(hasty.status).toBe(200);
      const full = await register("/events/full-workshop", {
        email: "another@nordicbridge.example",
        started_at: await shown(),
      });
      expect(full.status).toBe(422);
      expect(full.json).toMatchObject({
        status: "error",
        errors: { page_path: ["This meeting is full: registration is closed."] },
      });
      const [held] = await requests();
      expect(held).toMatchObject({ kind: "registration", spam_reason: "too_fast" });
      // The admin's list of meetings counts it too.
      expect(await t.runtime.services.registrations.seatsTaken([rows[0].id])).toEqual(new Map([[rows[0].id, 1]]));
      // It was told "registered": its acknowledgement went out (quoting nothing it typed), marked for the
      // secretariat.
      await t.runtime.services.mail.deliverDue();
      expect(smtp.received.map((m) => m.to[0]).sort()).toEqual([VALID.email, "secretariat@masthead.test"]);
      const acknowledgement = mailText(smtp.received.find((m) => m.to[0] === VALID.email) as ReceivedMail);
      expect(acknowledgement).toContain("Thank you for registering for Full Workshop.");
      expect(acknowledgement).not.toContain(VALID.company_name);
      // The secretariat deletes it: the seat is free again.
      const admin = await signIn(t.runtime.services, "admin");
      expect(
        (await call(t.app, "DELETE", `/api/dashboard/join-requests/${held.id}`, { token: admin.token })).status,
      ).toBe(200);
      expect((await register("/events/full-workshop", { started_at: await shown() })).status).toBe(200);
      const closed = await register("/events/closed-seminar");
      expect(closed.status).toBe(422);
      expect(closed.json?.errors).toEqual({ page_path: ["Registration for this meeting is closed."] });
      expect((await requests()).map((r) => r.spam_reason)).toEqual([null]);
    } finally {
      await t.database.db.deleteFrom("join_requests").execute();
      await t.database.db
        .deleteFrom("meetings")
        .where(
          "id",
          "in",
          rows.map((r) => r.id),
        )
        .execute();
    }
  });
});

describe("POST /api/contact", () => {
  const MESSAGE = {
    name: "Lena Lotsen",
    email: "lena@pilots.example",
    subject: "ECDIS alarm flood",
    message: "On our ships the ECDIS raises\nforty alarms an hour.",
  };

  it("keeps a message in the inbox as its own kind, mails the secretariat and acknowledges to the sender", async () => {
    const res = await call(t.app, "POST", "/api/contact", {
      form: { ...MESSAGE, page_path: "/feedback-forum", started_at: await shown("message", 30), website: "" },
      multipart: true,
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "success" });
    const [stored] = await requests();
    expect(stored).toMatchObject({
      kind: "message",
      representative_name: MESSAGE.name,
      email: MESSAGE.email,
      subject: MESSAGE.subject,
      message: MESSAGE.message,
      company_name: null,
      phone_number: null,
      page_path: "/feedback-forum",
      spam_reason: null,
    });
    await t.runtime.services.mail.deliverDue();
    const notification = smtp.received.find((m) => m.to[0] === "secretariat@masthead.test") as ReceivedMail;
    expect(mailText(notification)).toContain("Subject: Message from the website: ECDIS alarm flood");
    expect(mailText(notification)).toContain("Reply-To: lena@pilots.example");
    expect(mailText(notification)).toContain("forty alarms an hour");
    const acknowledgement = mailText(smtp.received.find((m) => m.to[0] === MESSAGE.email) as ReceivedMail);
    expect(acknowledgement).toContain("Subject: We received your message to Masthead");
    expect(acknowledgement).toMatch(/We received your message on \d{1,2} \w+ \d{4} and will get in touch/);
    // Nothing the sender typed is quoted back (decision 0039): the form relays no one's words to anyone.
    for (const typed of [MESSAGE.subject, "forty alarms", "ECDIS", MESSAGE.name, "Lena", "/feedback-forum"])
      expect(acknowledgement, typed).not.toContain(typed);

    const admin = await signIn(t.runtime.services, "admin");
    const inbox = await call(t.app, "GET", "/api/dashboard/join-requests?kind=message", { token: admin.token });
    expect((inbox.json as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ kind: "message", subject: MESSAGE.subject, message: MESSAGE.message }),
    ]);
    const search = await call(t.app, "GET", "/api/dashboard/join-requests?search=alarm%20flood", {
      token: admin.token,
    });
    expect((search.json as { total: number }).total).toBe(1);
    const csv = await call(t.app, "GET", "/api/dashboard/join-requests/export?kind=message", { token: admin.token });
    expect(csv.text).toContain('"ECDIS alarm flood"');
    // Declared with its contract: in the OpenAPI document, public.
    const doc = (await call(t.app, "GET", "/api/openapi.json")).json as {
      paths: Record<string, { post?: { "x-access"?: unknown } }>;
    };
    expect(doc.paths["/api/contact"]?.post?.["x-access"]).toBe("public");
  });

  it("answers 422 field by field, and keeps a hasty or honeypot message as probable spam", async () => {
    const empty = await call(t.app, "POST", "/api/contact", { json: {} });
    expect(empty.status).toBe(422);
    expect(empty.json?.errors).toEqual({
      name: ["Name is required."],
      email: ["Email is required."],
      subject: ["Subject is required."],
      message: ["Message is required."],
    });
    const wrong = await call(t.app, "POST", "/api/contact", {
      json: { ...MESSAGE, email: "lena@", message: "x".repeat(5001) },
    });
    expect(wrong.json?.errors).toEqual({ email: ["Email is not valid."], message: ["At most 5000 characters."] });
    expect(await requests()).toHaveLength(0);

    await call(t.app, "POST", "/api/contact", { json: { ...MESSAGE, started_at: await shown("message", 1) } });
    await call(t.app, "POST", "/api/contact", {
      json: { ...MESSAGE, website: "x", started_at: await shown("message") },
    });
    expect((await requests()).map((r) => [r.kind, r.spam_reason])).toEqual([
      ["message", "too_fast"],
      ["message", "honeypot"],
    ]);
  });

  it("relays nothing: a message sent too fast or without the form's time mails only the secretariat", async () => {
    const relay = {
      name: "Cheap pills at pills.example",
      email: "victim@elsewhere.example",
      subject: "You won! Claim at prize.example",
      message: "Visit https://prize.example now to claim your prize.",
    };
    const answers = [
      await call(t.app, "POST", "/api/contact", { json: { ...relay, started_at: await shown("message", 1) } }),
      await call(t.app, "POST", "/api/contact", { json: relay }),
      await call(t.app, "POST", "/api/contact", { json: { ...relay, started_at: String(now.getTime() - 60_000) } }),
    ];
    // Told truthfully that it arrived: it is kept, marked for the secretariat.
    for (const answer of answers) expect(answer.json).toEqual({ status: "success" });
    expect((await requests()).map((r) => [r.kind, r.email, r.spam_reason])).toEqual([
      ["message", relay.email, "too_fast"],
      ["message", relay.email, "no_form_time"],
      ["message", relay.email, "no_form_time"],
    ]);
    await t.runtime.services.mail.deliverDue();
    expect(smtp.received.map((m) => m.to[0])).toEqual([
      "secretariat@masthead.test",
      "secretariat@masthead.test",
      "secretariat@masthead.test",
    ]);
    expect(mailText(smtp.received[0])).toContain("Subject: Probable spam: Message from the website");
    const admin = await signIn(t.runtime.services, "admin");
    const inbox = await call(t.app, "GET", "/api/dashboard/join-requests?kind=message&spam=only", {
      token: admin.token,
    });
    expect((inbox.json as { total: number }).total).toBe(3);
  });
});

import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MIN_FILL_MS } from "../../core/join/join.service";
import { RETRY_DELAYS_SECONDS } from "../../core/mail/mail.service";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
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

const requests = () => t.database.db.selectFrom("join_requests").selectAll().orderBy("id").execute();
const mails = () => t.database.db.selectFrom("mail_queue").selectAll().orderBy("id").execute();

describe("POST /api/join", () => {
  it("accepts exactly the spec's four fields as JSON, stores the request and mails the secretariat and the sender", async () => {
    const res = await call(t.app, "POST", "/api/join", { json: VALID, headers: { "x-forwarded-for": "1.2.3.4" } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "success" });
    const [stored] = await requests();
    expect(stored).toMatchObject({ kind: "join", ...VALID, page_path: null, meeting_id: null, handled_at: null });

    await t.runtime.services.mail.deliverDue();
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual([
      "ingrid@nordicbridge.example",
      "secretariat@masthead.test",
    ]);
    const notification = smtp.received.find((m) => m.to[0] === "secretariat@masthead.test") as ReceivedMail;
    expect(mailText(notification)).toContain("Subject: New membership request: Nordic Bridge Systems AS");
    expect(mailText(notification)).toContain("Reply-To: ingrid@nordicbridge.example");
    expect(mailText(notification)).toContain("Phone: +47 22 33 44 55");
    const acknowledgement = smtp.received.find((m) => m.to[0] === VALID.email) as ReceivedMail;
    expect(mailText(acknowledgement)).toContain("Dear Ingrid Solberg,");
    expect(mailText(acknowledgement)).toContain("we will get in touch with you soon");
    expect((await mails()).every((m) => m.status === "sent" && m.attempts === 1)).toBe(true);
  });

  it("accepts multipart from the web form and stores a registration from a conference page", async () => {
    const res = await call(t.app, "POST", "/api/join", {
      form: { ...VALID, page_path: "/conference", started_at: String(now.getTime() - 20_000), website: "" },
      multipart: true,
    });
    expect(res.status).toBe(200);
    expect((await requests())[0]).toMatchObject({ kind: "registration", page_path: "/conference" });
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

  it("drops what the honeypot or the fill time catches, answering as if stored", async () => {
    const honeypot = await call(t.app, "POST", "/api/join", { json: { ...VALID, website: "http://spam.example" } });
    const hasty = await call(t.app, "POST", "/api/join", {
      json: { ...VALID, started_at: now.getTime() - (MIN_FILL_MS - 500) },
    });
    expect(honeypot.json).toEqual({ status: "success" });
    expect(hasty.json).toEqual({ status: "success" });
    expect(await requests()).toHaveLength(0);
    expect(await mails()).toHaveLength(0);
  });

  it("limits requests per IP address with 429 and Retry-After, other addresses unaffected", async () => {
    const from = (ip: string) => ({ json: VALID, headers: { "x-forwarded-for": ip } });
    // TRUST_PROXY is off in tests: every request comes from the same socket address.
    for (let i = 0; i < 5; i += 1) expect((await call(t.app, "POST", "/api/join", from("9.9.9.9"))).status).toBe(200);
    const limited = await call(t.app, "POST", "/api/join", from("9.9.9.9"));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await requests()).toHaveLength(5);
  });

  it("keeps the request when the mail server refuses, retries with backoff, and sends once it accepts", async () => {
    smtp.setRefusing(true);
    const res = await call(t.app, "POST", "/api/join", { json: VALID });
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
    await call(t.app, "POST", "/api/join", { json: VALID });
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
    const token = await call(t.app, "POST", "/api/join", { json: { ...VALID, captcha_token: "t".repeat(5000) } });
    expect(token.status).toBe(200);
    expect(await requests()).toHaveLength(1);
  });
});

describe("a mail server that cannot be reached", () => {
  it("leaves the request stored and its mails queued for a retry", async () => {
    // Port 9 (discard) has no SMTP server: the connection is refused.
    const offline = await createTestContext({ SMTP_URL: "smtp://127.0.0.1:9" }, { database: t.database, clock });
    try {
      await offline.runtime.services.settings.set({ "site.email": "secretariat@masthead.test" });
      const res = await call(offline.app, "POST", "/api/join", { json: VALID });
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

describe("without SMTP_URL", () => {
  it("writes each mail as an .eml file under the outbox", async () => {
    const local = await createTestContext({}, { database: t.database });
    try {
      await local.runtime.services.settings.set({ "site.email": "secretariat@masthead.test" });
      expect((await call(local.app, "POST", "/api/join", { json: VALID })).status).toBe(200);
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

  it("fails closed when the verification service cannot be reached", async () => {
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
      expect(res.status).toBe(422);
      expect(await requests()).toHaveLength(0);
    } finally {
      await guarded.close();
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

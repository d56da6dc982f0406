import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ALREADY_DECIDED,
  NO_SUCH_COMPANY,
  NOT_AN_APPLICATION,
  REASON_REQUIRED,
  TYPE_REQUIRED,
} from "../../core/join/join.schema";
import { ADMIN_ACCOUNT, COUNTRY_MESSAGE, OTHER_COMPANY } from "../../core/members/members.schema";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, signIn } from "../support/factories";
import { mailText, type ReceivedMail, startSmtpServer, tokenIn } from "../support/smtp";

/**
 * Issue 31, "Applications become members" (decision 0047): the secretariat approves a membership
 * request (a company created or linked, the applicant invited as its representative, one
 * transaction, one mail) or declines it with a reason that is mailed; each request keeps its history.
 */
let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let admin: string;
let adminName: string;
let member: string;

type Json = Record<string, unknown>;
const api = (method: string, url: string, options: Parameters<typeof call>[3] = {}) =>
  call(t.app, method, url, options);
const asAdmin = (method: string, url: string, json?: unknown) => api(method, url, { token: admin, json });
/** The rows of a list answer. */
const rowsOf = (answer: { json: Json | null }) => (answer.json?.data ?? []) as Json[];

let sequence = 0;
/** A membership request as the join form's API takes it (a signed-in client: no spam checks). */
async function application(fields: Partial<Record<string, string>> = {}): Promise<Json> {
  sequence += 1;
  const company = fields.company_name ?? `Applicant Marine ${sequence} Ltd`;
  const res = await api("POST", "/api/join", {
    token: member,
    json: {
      company_name: company,
      representative_name: "Adaeze Nwosu",
      email: `applicant${sequence}@lagoon.example`,
      phone_number: "+234803555014",
      ...fields,
    },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const row = await t.database.db
    .selectFrom("join_requests")
    .selectAll()
    .where("company_name", "=", company)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return row as unknown as Json;
}

const requestRow = (id: unknown) =>
  t.database.db.selectFrom("join_requests").selectAll().where("id", "=", Number(id)).executeTakeFirstOrThrow();
const eventsOf = (id: unknown) =>
  t.database.db.selectFrom("join_request_events").selectAll().where("join_request_id", "=", Number(id)).execute();
const mailsOf = (id: unknown) =>
  t.database.db
    .selectFrom("mail_queue")
    .selectAll()
    .where("join_request_id", "=", Number(id))
    .where("purpose", "not in", ["notification", "acknowledgement"])
    .orderBy("id")
    .execute();
const companiesNamed = (name: string) =>
  t.database.db.selectFrom("member_companies").select("id").where("name", "=", name).execute();
/** The mails that reached the SMTP server for this address (the join form's acknowledgement aside), once sent. */
async function received(to: string): Promise<ReceivedMail[]> {
  await t.runtime.services.mail.deliverDue();
  return smtp.received.filter((m) => m.to.includes(to) && !mailText(m).includes("Subject: Thank you for contacting"));
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, JOIN_RATE_LIMIT: "1000" });
  await t.runtime.services.settings.set({ "site.email": "secretariat@masthead.test", "site.name": "Masthead" });
  const signedIn = await signIn(t.runtime.services, "admin");
  admin = signedIn.token;
  adminName = `${signedIn.user.first_name} ${signedIn.user.last_name}`;
  member = (await signIn(t.runtime.services, "member")).token;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.runtime.services.mail.deliverDue();
  smtp.received.length = 0;
});

describe("who may decide", () => {
  it("is the admin: 401 without a session, 403 for a member", async () => {
    for (const [method, url] of [
      ["GET", "/api/dashboard/join-requests?status=new"],
      ["POST", "/api/dashboard/join-requests/1/approve"],
      ["POST", "/api/dashboard/join-requests/1/decline"],
    ]) {
      const json = method === "GET" ? undefined : { country: "NO", membership_type: "full", reason: "x" };
      expect((await api(method, url, { json })).status, url).toBe(401);
      expect((await api(method, url, { token: member, json })).status, url).toBe(403);
    }
  });
});

describe("the application's state", () => {
  it("starts new (a registration has none) and the inbox filters by it, paginated", async () => {
    const app = await application();
    expect(app.status).toBe("new");
    const res = await asAdmin("GET", "/api/dashboard/join-requests?status=new");
    expect(res.status).toBe(200);
    const rows = rowsOf(res);
    const found = rows.find((r) => r.id === app.id);
    expect(found).toMatchObject({ status: "new", kind: "join", history: [] });
    expect(rows.every((r) => r.status === "new" && r.kind === "join")).toBe(true);
    expect(res.json).toMatchObject({ current_page: 1, per_page: 25, query: { status: "new" } });
    expect(rowsOf(await asAdmin("GET", "/api/dashboard/join-requests?status=declined")).map((r) => r.id)).not.toContain(
      app.id,
    );
  });
});

describe("approving", () => {
  it("creates the company, invites the applicant as its primary contact and mails them, who then accept", async () => {
    const app = await application({ company_name: "Lagoon Coast Marine Radio Ltd", email: "a.nwosu@lagoon.example" });
    const res = await asAdmin("POST", `/api/dashboard/join-requests/${app.id}/approve`, {
      country: "ng",
      membership_type: "associate",
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json?.status).toBe("success");
    expect(res.json?.invited).toBe(true);
    const company = res.json?.company as Json;
    expect(company).toMatchObject({
      name: "Lagoon Coast Marine Radio Ltd",
      country: "NG",
      country_name: "Nigeria",
      membership_type: "associate",
      status: "active",
      seats_used: 1,
      current: true,
    });

    const people = await asAdmin("GET", `/api/dashboard/companies/${company.id}/representatives`);
    expect(people.json?.data).toMatchObject([
      { email: "a.nwosu@lagoon.example", first_name: "Adaeze", last_name: "Nwosu", primary: true, status: "invited" },
    ]);

    const stored = await requestRow(app.id);
    expect(stored.status).toBe("approved");
    expect(stored.handled_at).not.toBeNull();
    expect(await eventsOf(app.id)).toMatchObject([
      { event: "approved", user_name: adminName, company_id: company.id, company_name: company.name, reason: null },
    ]);

    // The one mail is queued with the request (its history) and says what happened.
    const queued = await mailsOf(app.id);
    expect(queued.map((m) => [m.purpose, m.to_address])).toEqual([["invitation", "a.nwosu@lagoon.example"]]);
    const [mail] = await received("a.nwosu@lagoon.example");
    expect(mail).toBeDefined();
    const text = mailText(mail);
    expect(text).toContain("Your application for Lagoon Coast Marine Radio Ltd to join Masthead has been approved.");
    expect(text).toContain("as a representative of Lagoon Coast Marine Radio Ltd");
    const token = tokenIn(mail, "/welcome");
    expect(token).toBeTruthy();

    // The invitation works: the applicant chooses a password and is the company's primary contact.
    const userId = await t.runtime.services.invitations.accept({
      token: token as string,
      password: "a long and unusual passphrase 42",
      password_confirmation: "a long and unusual passphrase 42",
    });
    expect(await t.runtime.services.members.companyOf(userId)).toEqual({
      id: company.id,
      name: "Lagoon Coast Marine Radio Ltd",
      current: true,
      primary: true,
    });

    // The inbox shows the history.
    const list = await asAdmin("GET", "/api/dashboard/join-requests?status=approved");
    const row = rowsOf(list).find((r) => r.id === app.id);
    expect(row).toMatchObject({
      status: "approved",
      history: [{ event: "approved", by: adminName, company_id: company.id, reason: null }],
      // The join form's acknowledgement and notification, then the invitation.
      mails: expect.arrayContaining([
        expect.objectContaining({ purpose: "acknowledgement" }),
        expect.objectContaining({ purpose: "invitation", to_address: "a.nwosu@lagoon.example", status: "sent" }),
      ]),
    });
  });

  it("takes the admin's corrections to the name, the representative and the address", async () => {
    const app = await application({ representative_name: "Dr Erik Solberg" });
    const res = await asAdmin("POST", `/api/dashboard/join-requests/${app.id}/approve`, {
      country: "NO",
      membership_type: "full",
      company_name: "Northern Fjord Maritime Academy",
      first_name: "Erik",
      last_name: "Solberg",
      email: "erik@nfma.example",
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const company = res.json?.company as Json;
    expect(company.name).toBe("Northern Fjord Maritime Academy");
    const people = await t.runtime.services.members.representatives(Number(company.id));
    expect(people).toMatchObject([
      { email: "erik@nfma.example", first_name: "Erik", last_name: "Solberg", primary: true },
    ]);
  });

  it("links to an existing company instead; an address with an account is linked and told", async () => {
    const existing = await asAdmin("POST", "/api/dashboard/companies", {
      name: "Tasman Navigation Ltd",
      country: "NZ",
    });
    expect(existing.status).toBe(201);
    const companyId = (existing.json?.company as Json | undefined)?.id;
    const { user } = await createUser(t.runtime.services, { email: "liam@tasman.example", first_name: "Liam" });
    const app = await application({
      company_name: "Tasman Nav",
      email: user.email,
      representative_name: "Liam Walker",
    });

    const res = await asAdmin("POST", `/api/dashboard/join-requests/${app.id}/approve`, { company_id: companyId });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json?.invited).toBe(false);
    expect(res.json?.company).toMatchObject({ id: companyId, name: "Tasman Navigation Ltd", seats_used: 1 });
    expect(await companiesNamed("Tasman Nav")).toEqual([]);
    // Linked, not made a primary contact unless asked.
    expect(await t.runtime.services.members.representatives(Number(companyId))).toMatchObject([
      { user_id: user.id, primary: false, status: "active" },
    ]);
    expect(await eventsOf(app.id)).toMatchObject([
      { event: "approved", company_id: companyId, company_name: "Tasman Navigation Ltd" },
    ]);
    const queued = await mailsOf(app.id);
    expect(queued.map((m) => m.purpose)).toEqual(["representative_linked"]);
    const [mail] = await received(user.email);
    expect(mailText(mail)).toContain("Your application for Tasman Navigation Ltd to join Masthead has been approved.");
    expect(mailText(mail)).toContain("has added your account");

    // Asked: the linked applicant is a primary contact.
    const second = await application({ company_name: "Tasman Navigation Ltd" });
    const asked = await asAdmin("POST", `/api/dashboard/join-requests/${second.id}/approve`, {
      company_id: companyId,
      primary: true,
    });
    expect(asked.status).toBe(200);
    const people = await t.runtime.services.members.representatives(Number(companyId));
    expect(people.find((p) => p.email === second.email)?.primary).toBe(true);
  });

  it("is one transaction: a refusal after the company was made leaves no company, no mail, no decision", async () => {
    const { user: other } = await createUser(t.runtime.services, { email: "taken@elsewhere.example" });
    const elsewhere = await asAdmin("POST", "/api/dashboard/companies", { name: "Elsewhere Marine", country: "SE" });
    await t.runtime.services.members.addRepresentative(
      Number((elsewhere.json?.company as Json | undefined)?.id),
      { email: other.email, first_name: "A", last_name: "B", primary: false },
      { origin: "http://localhost:3000", inviter: { first_name: "A", last_name: "B" } },
    );
    const { user: anAdmin } = await createUser(t.runtime.services, { role: "admin", email: "boss@masthead.example" });

    for (const [email, message] of [
      [other.email, OTHER_COMPANY],
      [anAdmin.email, ADMIN_ACCOUNT],
    ]) {
      const name = `Half Done Marine ${email}`;
      const app = await application({ company_name: name, email });
      const res = await asAdmin("POST", `/api/dashboard/join-requests/${app.id}/approve`, {
        country: "DK",
        membership_type: "full",
      });
      expect(res.status, email).toBe(409);
      expect(res.json?.errors).toEqual({ email: [message] });
      expect(await companiesNamed(name)).toEqual([]);
      expect((await requestRow(app.id)).status).toBe("new");
      expect((await requestRow(app.id)).handled_at).toBeNull();
      expect(await eventsOf(app.id)).toEqual([]);
      expect(await mailsOf(app.id)).toEqual([]);
    }
    // A country the list does not know is found only inside the transaction (by the members service): the same.
    const app = await application({ company_name: "Atlantis Radio" });
    const res = await asAdmin("POST", `/api/dashboard/join-requests/${app.id}/approve`, {
      country: "ZZ",
      membership_type: "full",
    });
    expect(res.status).toBe(422);
    expect(res.json?.errors).toEqual({ country: [COUNTRY_MESSAGE] });
    expect((await requestRow(app.id)).status).toBe("new");
    expect(await companiesNamed("Atlantis Radio")).toEqual([]);
  });

  it("answers 422 with each field's message", async () => {
    const app = await application();
    const cases: [Json, Json][] = [
      [{}, { country: [COUNTRY_MESSAGE], membership_type: [TYPE_REQUIRED] }],
      [
        { country: "Norway", membership_type: "gold" },
        {
          country: [COUNTRY_MESSAGE],
          membership_type: ["The membership type must be full or associate."],
        },
      ],
      [{ company_id: 999999 }, { company_id: [NO_SUCH_COMPANY] }],
      [{ company_id: "abc" }, { company_id: [NO_SUCH_COMPANY] }],
      [{ country: "NO", membership_type: "full", email: "not an address" }, { email: ["Email is not valid."] }],
    ];
    for (const [body, errors] of cases) {
      const res = await asAdmin("POST", `/api/dashboard/join-requests/${app.id}/approve`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json?.errors, JSON.stringify(body)).toEqual(errors);
    }
    // A one-word name has no last name to invite with: the admin is asked for it.
    const single = await application({ representative_name: "Madonna" });
    const res = await asAdmin("POST", `/api/dashboard/join-requests/${single.id}/approve`, {
      country: "IT",
      membership_type: "full",
    });
    expect(res.status).toBe(422);
    expect(res.json?.errors).toEqual({ last_name: ["Last name is required."] });
    expect((await requestRow(app.id)).status).toBe("new");
  });
});

describe("declining", () => {
  it("needs a reason, mails it to the applicant and keeps it in the history", async () => {
    const app = await application({ email: "coral@sea.example", representative_name: "Hannah Brooks" });
    for (const body of [{}, { reason: "   " }]) {
      const res = await asAdmin("POST", `/api/dashboard/join-requests/${app.id}/decline`, body);
      expect(res.status).toBe(422);
      expect(res.json?.errors).toEqual({ reason: [REASON_REQUIRED] });
    }
    const reason = "Membership is open to companies that make or service marine electronics.";
    const res = await api("POST", `/api/dashboard/join-requests/${app.id}/decline`, { token: admin, form: { reason } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ status: "success" });
    const stored = await requestRow(app.id);
    expect(stored.status).toBe("declined");
    expect(stored.handled_at).not.toBeNull();
    expect(await eventsOf(app.id)).toMatchObject([{ event: "declined", user_name: adminName, reason }]);
    expect((await mailsOf(app.id)).map((m) => [m.purpose, m.to_address])).toEqual([["decline", "coral@sea.example"]]);
    const [mail] = await received("coral@sea.example");
    const text = mailText(mail);
    expect(text).toContain("Subject: Your application to join Masthead");
    expect(text).toContain("Dear Hannah Brooks");
    expect(text).toContain(reason);

    const list = await asAdmin("GET", "/api/dashboard/join-requests?status=declined");
    expect(rowsOf(list).find((r) => r.id === app.id)).toMatchObject({
      history: [{ event: "declined", by: adminName, reason }],
      mails: expect.arrayContaining([expect.objectContaining({ purpose: "decline", status: "sent" })]),
    });
  });
});

describe("a decision is taken once", () => {
  it("answers 409 to a second approval or decline, 404 to an unknown request, 409 to a registration", async () => {
    const app = await application();
    expect((await asAdmin("POST", `/api/dashboard/join-requests/${app.id}/decline`, { reason: "No." })).status).toBe(
      200,
    );
    const again = await asAdmin("POST", `/api/dashboard/join-requests/${app.id}/decline`, { reason: "No." });
    expect(again.status).toBe(409);
    expect(again.json?.message).toBe(ALREADY_DECIDED("declined"));
    const approve = await asAdmin("POST", `/api/dashboard/join-requests/${app.id}/approve`, {
      country: "NO",
      membership_type: "full",
    });
    expect(approve.status).toBe(409);
    expect(approve.json?.message).toBe(ALREADY_DECIDED("declined"));

    const approved = await application();
    const body = { country: "NO", membership_type: "full" };
    expect((await asAdmin("POST", `/api/dashboard/join-requests/${approved.id}/approve`, body)).status).toBe(200);
    const twice = await asAdmin("POST", `/api/dashboard/join-requests/${approved.id}/approve`, body);
    expect(twice.status).toBe(409);
    expect(twice.json?.message).toBe(ALREADY_DECIDED("approved"));
    expect(await eventsOf(approved.id)).toHaveLength(1);
    expect(await mailsOf(approved.id)).toHaveLength(1);

    expect((await asAdmin("POST", "/api/dashboard/join-requests/999999/approve", body)).status).toBe(404);
    expect((await asAdmin("POST", "/api/dashboard/join-requests/999999/decline", { reason: "x" })).status).toBe(404);

    const at = new Date().toISOString();
    const registration = await t.database.db
      .insertInto("join_requests")
      .values({
        kind: "registration",
        company_name: "Piraeus Navtronics",
        representative_name: "Eleni P",
        email: "eleni@piraeus.example",
        phone_number: "+302105550173",
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const refused = await asAdmin("POST", `/api/dashboard/join-requests/${registration.id}/approve`, body);
    expect(refused.status).toBe(409);
    expect(refused.json?.message).toBe(NOT_AN_APPLICATION);
  });
});

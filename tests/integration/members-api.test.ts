import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_ACCOUNT,
  COUNTRY_MESSAGE,
  DEACTIVATED_ACCOUNT,
  HAS_REPRESENTATIVES,
  LAST_PRIMARY,
  NAME_REQUIRED,
  NO_FREE_SEAT,
  NOT_PRIMARY,
  OTHER_COMPANY,
  RENEWS_BEFORE_SINCE,
  SAME_COMPANY,
  SEATS_MESSAGE,
  TYPE_MESSAGE,
  WEBSITE_MESSAGE,
} from "../../core/members/members.schema";
import { addDays, addYear } from "../../core/members/members.values";
import { dateIn } from "../../lib/time-zones";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";

/**
 * Issue 31, the foundation: the secretariat's companies and representatives, a representative's
 * own company, and the public directory, through the API as clients call it. Dates are days in
 * the site's time zone (Europe/London by default).
 */
let t: TestContext;
let admin: string;
let member: string;
let png: Uint8Array;
const today = () => dateIn(new Date(), "Europe/London");

type Json = Record<string, unknown>;
const api = (method: string, url: string, options: Parameters<typeof call>[3] = {}) =>
  call(t.app, method, url, options);
const asAdmin = (method: string, url: string, json?: unknown) => api(method, url, { token: admin, json });
const company = (answer: { json: Json | null }) => answer.json?.company as Json;
const body = (answer: { json: Json | null }) => answer.json ?? {};
const rows = (answer: { json: Json | null }) => body(answer).data as Json[];

async function createCompany(fields: Json): Promise<Json> {
  const res = await asAdmin("POST", "/api/dashboard/companies", { country: "NO", ...fields });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return company(res);
}

/** A member who can sign in, linked to a company by the admin API (an existing account is linked, not invited). */
async function representative(companyId: unknown, primary: boolean) {
  const { user } = await createUser(t.runtime.services);
  const res = await asAdmin("POST", `/api/dashboard/companies/${companyId}/representatives`, {
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    primary,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  expect(res.json?.invited).toBe(false);
  const session = await t.runtime.services.auth.login({ email: user.email, password: PASSWORD }, { ip: "203.0.113.9" });
  return { user, token: session.token };
}

const mails = (to: string) =>
  t.database.db
    .selectFrom("mail_queue")
    .select(["purpose", "subject", "body_text"])
    .where("to_address", "=", to)
    .execute();

beforeAll(async () => {
  t = await createTestContext();
  admin = (await signIn(t.runtime.services, "admin")).token;
  member = (await signIn(t.runtime.services, "member")).token;
  png = await sharp({ create: { width: 600, height: 300, channels: 3, background: "#1c4a7d" } })
    .png()
    .toBuffer();
});
afterAll(async () => t.close());

describe("the secretariat's companies", () => {
  it("are the admin's: 401 without a session, 403 for a member", async () => {
    for (const [method, url] of [
      ["GET", "/api/dashboard/companies"],
      ["POST", "/api/dashboard/companies"],
      ["POST", "/api/dashboard/companies/1"],
      ["DELETE", "/api/dashboard/companies/1"],
      ["POST", "/api/dashboard/companies/1/renew"],
      ["GET", "/api/dashboard/companies/1/representatives"],
      ["POST", "/api/dashboard/companies/1/representatives"],
      ["DELETE", "/api/dashboard/companies/1/representatives/1"],
    ]) {
      expect((await api(method, url, { json: method === "GET" ? undefined : {} })).status, `${method} ${url}`).toBe(
        401,
      );
      expect(
        (await api(method, url, { token: member, json: method === "GET" ? undefined : {} })).status,
        `${method} ${url}`,
      ).toBe(403);
    }
  });

  it("refuses a company without a name and a country, with every field's message at once", async () => {
    const res = await asAdmin("POST", "/api/dashboard/companies", {
      website: "ftp://example.org",
      seats: 0,
      membership_type: "gold",
      renews_on: "2026-02-30",
    });
    expect(res.status).toBe(422);
    expect(res.json?.errors).toEqual({
      name: [NAME_REQUIRED],
      country: [COUNTRY_MESSAGE],
      website: [WEBSITE_MESSAGE],
      seats: [SEATS_MESSAGE],
      membership_type: [TYPE_MESSAGE],
      renews_on: ["The renewal date must be a date such as 2026-11-22."],
    });
  });

  it("takes only a real ISO country, an http(s) website, whole seats of 1 or more, and renews_on not before member_since", async () => {
    const cases: [Json, string, string][] = [
      [{ country: "ZZ" }, "country", COUNTRY_MESSAGE],
      [{ country: "Norway" }, "country", COUNTRY_MESSAGE],
      [{ website: "javascript:alert(1)" }, "website", WEBSITE_MESSAGE],
      [{ website: "https://" }, "website", WEBSITE_MESSAGE],
      [{ seats: "1.5" }, "seats", SEATS_MESSAGE],
      [{ seats: -2 }, "seats", SEATS_MESSAGE],
      [{ seats: "abc" }, "seats", SEATS_MESSAGE],
      [{ member_since: "2020-05-01", renews_on: "2020-04-30" }, "renews_on", RENEWS_BEFORE_SINCE],
      [{ status: "lapsed" }, "status", "The status must be active, suspended or left."],
      [{ name: "   " }, "name", NAME_REQUIRED],
    ];
    for (const [fields, field, message] of cases) {
      const res = await asAdmin("POST", "/api/dashboard/companies", { name: "Valid Marine", country: "NO", ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(res.json?.errors, JSON.stringify(fields)).toEqual({ [field]: [message] });
    }
    // Nothing was created by the refusals.
    const list = await asAdmin("GET", "/api/dashboard/companies?search=Valid%20Marine");
    expect(list.json?.total).toBe(0);
  });

  it("creates a company: a slug from the name, the country by name, sanitized description, products once each, defaults", async () => {
    const created = await createCompany({
      name: "Fjord Radar AS",
      country: "no",
      website: "https://fjord-radar.example",
      description: '<p>Radars <img src="x" onerror="alert(1)"></p><script>alert(1)</script>',
      products: ["Radar", "radar", " ECDIS ", ""],
      seats: "3",
    });
    expect(created).toMatchObject({
      slug: "fjord-radar-as",
      name: "Fjord Radar AS",
      country: "NO",
      country_name: "Norway",
      website: "https://fjord-radar.example",
      products: ["Radar", "ECDIS"],
      membership_type: "full",
      status: "active",
      member_since: today(),
      renews_on: null,
      seats: 3,
      seats_used: 0,
      current: true,
      logo: null,
    });
    expect(created.description).toContain("<p>Radars");
    expect(created.description).not.toMatch(/script|onerror/);
    // The same name again: the next free address.
    expect((await createCompany({ name: "Fjord Radar AS" })).slug).toBe("fjord-radar-as-2");
    // A comma-separated text is a list of products too (a form's single field).
    expect((await createCompany({ name: "Comma Marine", products: "AIS, GMDSS,AIS" })).products).toEqual([
      "AIS",
      "GMDSS",
    ]);
  });

  it("stores a logo as news images are (WebP, served from the uploads); anything but an image is refused", async () => {
    const res = await api("POST", "/api/dashboard/companies", {
      token: admin,
      multipart: true,
      form: { name: "Logo Marine", country: "GB", logo: new Blob([Buffer.from(png)], { type: "image/png" }) },
    });
    expect(res.status, res.text).toBe(201);
    const logo = company(res).logo as string;
    expect(logo).toMatch(/^\/uploads\/members\/[0-9a-f]+-600\.webp$/);
    expect(company(res)).toMatchObject({ logo_width: 600, logo_height: 300 });
    const served = await api("GET", logo);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");

    const text = await api("POST", "/api/dashboard/companies", {
      token: admin,
      multipart: true,
      form: { name: "Text Marine", country: "GB", logo: new Blob(["not an image"], { type: "image/png" }) },
    });
    // As a news image (decision 0036): a file that is no image is a 415, its message beside the field.
    expect(text.status).toBe(415);
    expect(text.json?.errors).toEqual({ logo: ["The image must be a JPEG, PNG or WebP file."] });
    const field = await asAdmin("POST", "/api/dashboard/companies", { name: "Field Marine", country: "GB", logo: "x" });
    expect(field.status).toBe(422);
    expect(field.json?.errors).toEqual({ logo: ["The image must be a file."] });
  });

  it("changes only the fields sent (POST with _method=PATCH), keeps the slug, and clears what is sent empty", async () => {
    const created = await createCompany({
      name: "Old Name Ltd",
      website: "https://old.example",
      seats: 4,
      renews_on: addDays(today(), 100),
    });
    const res = await api("POST", `/api/dashboard/companies/${created.id}`, {
      token: admin,
      form: { _method: "PATCH", name: "New Name Ltd", website: "", seats: "", products: "Sonar" },
    });
    expect(res.status, res.text).toBe(200);
    expect(company(res)).toMatchObject({
      slug: "old-name-ltd",
      name: "New Name Ltd",
      website: null,
      seats: null,
      products: ["Sonar"],
      renews_on: addDays(today(), 100),
      country: "NO",
    });
    // The dates are checked against what is stored.
    const early = await asAdmin("PATCH", `/api/dashboard/companies/${created.id}`, { renews_on: "1990-01-01" });
    expect(early.status).toBe(422);
    expect(early.json?.errors).toEqual({ renews_on: [RENEWS_BEFORE_SINCE] });
    expect((await asAdmin("PATCH", "/api/dashboard/companies/999999", { name: "X" })).status).toBe(404);
    expect((await asAdmin("PATCH", "/api/dashboard/companies/abc", { name: "X" })).status).toBe(404);
  });

  it("says whether each is current: active and renews_on none or within the grace period (setting)", async () => {
    const within = await createCompany({
      name: "Within Grace Ltd",
      renews_on: addDays(today(), -29),
      member_since: "2000-01-01",
    });
    const past = await createCompany({
      name: "Past Grace Ltd",
      renews_on: addDays(today(), -31),
      member_since: "2000-01-01",
    });
    const suspended = await createCompany({ name: "Suspended Ltd", status: "suspended" });
    expect([within.current, past.current, suspended.current]).toEqual([true, false, false]);
    const grace = await asAdmin("PATCH", "/api/dashboard/settings", { "members.grace_days": "60" });
    expect(grace.status).toBe(200);
    expect(company(await asAdmin("GET", `/api/dashboard/companies/${past.id}`)).current).toBe(true);
    const bad = await asAdmin("PATCH", "/api/dashboard/settings", { "members.grace_days": "-1" });
    expect(bad.status).toBe(422);
    expect(bad.json?.errors).toEqual({
      "members.grace_days": ["The grace period must be a whole number of days from 0 to 365."],
    });
    await asAdmin("PATCH", "/api/dashboard/settings", { "members.grace_days": "30" });
    expect(company(await asAdmin("GET", `/api/dashboard/companies/${past.id}`)).current).toBe(false);
  });

  it("lists with search in names, countries and products, filters, and paging that keeps them", async () => {
    for (let i = 1; i <= 27; i++) {
      await t.runtime.services.members.create({
        name: `Paged Navigation ${String(i).padStart(2, "0")}`,
        country: i % 2 ? "JP" : "BR",
        products: i === 5 ? ["Gyrocompass"] : [],
        membership_type: i % 3 === 0 ? "associate" : "full",
        renews_on: i === 7 ? addDays(today(), 20) : i === 8 ? addDays(today(), -200) : null,
        member_since: "2001-01-01",
      });
    }
    const first = await asAdmin("GET", "/api/dashboard/companies?search=paged%20navigation");
    expect(first.json).toMatchObject({ current_page: 1, per_page: 25, total: 27, last_page: 2 });
    expect(first.json?.next_page_url).toBe("/api/dashboard/companies?search=paged+navigation&page=2");
    const second = await asAdmin("GET", first.json?.next_page_url as string);
    expect(rows(second).map((c) => c.name)).toEqual(["Paged Navigation 26", "Paged Navigation 27"]);
    expect(second.json?.next_page_url).toBeNull();
    const names = async (query: string) =>
      rows(await asAdmin("GET", `/api/dashboard/companies?${query}`)).map((c) => c.name);
    expect(await names("search=gyrocompass")).toEqual(["Paged Navigation 05"]);
    // A country by its name, or its code.
    expect((await names("search=japan")).length).toBeGreaterThanOrEqual(14);
    expect((await names("search=paged&type=associate")).length).toBe(9);
    expect(await names("search=paged&current=lapsed")).toEqual(["Paged Navigation 08"]);
    expect(await names("search=paged&due=1")).toEqual(["Paged Navigation 07"]);
    expect((await asAdmin("GET", "/api/dashboard/companies?status=left")).json?.total).toBe(0);
    const row = (await asAdmin("GET", "/api/dashboard/companies?search=Paged%20Navigation%2007")).json?.data as Json[];
    expect(Object.keys(row[0])).toEqual(
      expect.arrayContaining(["renews_on", "current", "seats", "seats_used", "status", "membership_type"]),
    );
    expect((await asAdmin("GET", "/api/dashboard/companies?status=gone")).status).toBe(422);
  });

  it("finds a company by part of a product in any case and alphabet, the text taken literally (admin list and directory)", async () => {
    await createCompany({ name: "Tagged Alpha AS", products: ["Échosondeur Pro", "VHF Radio"] });
    await createCompany({ name: "Tagged Beta AS", products: ["100% Coverage_Kit"] });
    const admin = async (search: string) =>
      rows(await asAdmin("GET", `/api/dashboard/companies?search=${encodeURIComponent(search)}`)).map((c) => c.name);
    const directory = async (search: string) =>
      rows(await api("GET", `/api/members?search=${encodeURIComponent(search)}`)).map((c) => c.name);
    for (const list of [admin, directory]) {
      expect(await list("ÉCHOSON")).toEqual(["Tagged Alpha AS"]);
      expect(await list("hf ra")).toEqual(["Tagged Alpha AS"]);
      expect(await list("0% cov")).toEqual(["Tagged Beta AS"]);
      expect(await list("e_k")).toEqual(["Tagged Beta AS"]);
      // % and _ are no wildcards: "0%_" would match "100% Coverage_Kit" if they were.
      expect(await list("0%_")).toEqual([]);
    }
  });

  it("renews: renews_on moves on by one year, from today when there was none", async () => {
    const dated = await createCompany({
      name: "Renewing Ltd",
      member_since: "2000-01-01",
      renews_on: addDays(today(), -100),
    });
    expect(dated.current).toBe(false);
    const renewed = company(await asAdmin("POST", `/api/dashboard/companies/${dated.id}/renew`));
    expect(renewed).toMatchObject({ renews_on: addYear(addDays(today(), -100)), current: true });
    const undated = await createCompany({ name: "Undated Ltd" });
    expect(company(await asAdmin("POST", `/api/dashboard/companies/${undated.id}/renew`)).renews_on).toBe(
      addYear(today()),
    );
    expect(addYear("2028-02-29")).toBe("2029-02-28");
    expect((await asAdmin("POST", "/api/dashboard/companies/999999/renew")).status).toBe(404);
  });

  it("deletes a company without representatives; one with them is refused with why, and can be ended instead", async () => {
    const empty = await createCompany({ name: "Short Lived Ltd", logo: undefined });
    const deleted = await asAdmin("DELETE", `/api/dashboard/companies/${empty.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.json?.slug).toBe("short-lived-ltd");
    expect((await asAdmin("GET", `/api/dashboard/companies/${empty.id}`)).status).toBe(404);
    expect((await asAdmin("DELETE", `/api/dashboard/companies/${empty.id}`)).status).toBe(404);

    const kept = await createCompany({ name: "Long Lived Ltd" });
    await representative(kept.id, true);
    const refused = await asAdmin("DELETE", `/api/dashboard/companies/${kept.id}`);
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({
      message: HAS_REPRESENTATIVES,
      errors: { representatives: [HAS_REPRESENTATIVES] },
    });
    const ended = await asAdmin("PATCH", `/api/dashboard/companies/${kept.id}`, { status: "left" });
    expect(company(ended)).toMatchObject({ status: "left", current: false, seats_used: 1 });
  });
});

describe("representatives (the secretariat)", () => {
  it("invites a new person through the invitation flow, linked to the company, up to the seats", async () => {
    const firm = await createCompany({ name: "Two Seats Ltd", seats: 2 });
    const invite = (email: string) =>
      asAdmin("POST", `/api/dashboard/companies/${firm.id}/representatives`, {
        email,
        first_name: "Ada",
        last_name: "Lovelace",
        primary: true,
      });
    const first = await invite("ada@two-seats.example");
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    expect(first.json).toMatchObject({
      invited: true,
      representative: { email: "ada@two-seats.example", primary: true, status: "invited" },
    });
    const [mail] = await mails("ada@two-seats.example");
    expect(mail.purpose).toBe("invitation");
    expect(mail.body_text).toContain("as a representative of Two Seats Ltd");
    expect(mail.body_text).toMatch(/\/welcome\?token=/);
    expect((await invite("bob@two-seats.example")).status).toBe(201);

    const third = await invite("cy@two-seats.example");
    expect(third.status).toBe(422);
    expect(third.json).toMatchObject({ message: NO_FREE_SEAT, errors: { seats: [NO_FREE_SEAT] } });
    // Refused whole: no account, no mail.
    expect(await t.runtime.services.accounts.list({ search: "cy@two-seats", page: 1 })).toMatchObject({ total: 0 });
    expect(await mails("cy@two-seats.example")).toEqual([]);

    const listed = await asAdmin("GET", `/api/dashboard/companies/${firm.id}/representatives`);
    expect(
      rows(listed)
        .map((r) => r.email)
        .sort(),
    ).toEqual(["ada@two-seats.example", "bob@two-seats.example"]);
    expect(company(await asAdmin("GET", `/api/dashboard/companies/${firm.id}`)).seats_used).toBe(2);
    // Fewer seats than representatives: refused, saying how many there are.
    const fewer = await asAdmin("PATCH", `/api/dashboard/companies/${firm.id}`, { seats: 1 });
    expect(fewer.status).toBe(422);
    expect(fewer.json?.errors).toEqual({
      seats: ["This company has 2 representatives: remove some before setting fewer seats than that."],
    });
  });

  it("links an existing account instead, and tells them; another company's, an admin's or a deactivated account is refused", async () => {
    const firm = await createCompany({ name: "Linking Ltd" });
    const other = await createCompany({ name: "Other Linking Ltd" });
    const add = (companyId: unknown, email: string) =>
      asAdmin("POST", `/api/dashboard/companies/${companyId}/representatives`, {
        email,
        first_name: "X",
        last_name: "Y",
      });
    const { user } = await createUser(t.runtime.services, { email: "existing@linking.example" });
    const linked = await add(firm.id, "Existing@Linking.example");
    expect(linked.status).toBe(201);
    expect(linked.json).toMatchObject({ invited: false, representative: { user_id: user.id, status: "active" } });
    expect((await mails("existing@linking.example")).map((m) => m.purpose)).toEqual(["representative_linked"]);

    const again = await add(firm.id, "existing@linking.example");
    expect(again.status).toBe(409);
    expect(again.json?.errors).toEqual({ email: [SAME_COMPANY] });
    const elsewhere = await add(other.id, "existing@linking.example");
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.json?.errors).toEqual({ email: [OTHER_COMPANY] });

    const boss = await createUser(t.runtime.services, { role: "admin", email: "boss@linking.example" });
    expect((await add(firm.id, boss.user.email)).json?.errors).toEqual({ email: [ADMIN_ACCOUNT] });
    const gone = await createUser(t.runtime.services, { email: "gone@linking.example" });
    await t.runtime.services.accounts.change(0, gone.user.id, { is_active: false });
    const deactivated = await add(firm.id, gone.user.email);
    expect(deactivated.status).toBe(409);
    expect(deactivated.json?.errors).toEqual({ email: [DEACTIVATED_ACCOUNT] });
    expect((await add(999999, "nobody@linking.example")).status).toBe(404);
  });

  it("makes a representative primary or not, and removes one (the account stays, without a company)", async () => {
    const firm = await createCompany({ name: "Primary Ltd" });
    const other = await createCompany({ name: "Not Primary Ltd" });
    const { user, token } = await representative(firm.id, false);
    const stranger = await representative(other.id, false);
    const made = await asAdmin("PATCH", `/api/dashboard/companies/${firm.id}/representatives/${user.id}`, {
      primary: true,
    });
    expect(made.json?.representative).toMatchObject({ user_id: user.id, primary: true });
    expect((await asAdmin("PATCH", `/api/dashboard/companies/${firm.id}/representatives/${user.id}`, {})).status).toBe(
      422,
    );
    // Another company's representative is not found through this one.
    for (const method of ["PATCH", "DELETE"]) {
      const res = await asAdmin(method, `/api/dashboard/companies/${firm.id}/representatives/${stranger.user.id}`, {
        primary: true,
      });
      expect(res.status).toBe(404);
    }
    expect((await api("GET", "/api/dashboard/user", { token })).json?.user).toMatchObject({
      company: { id: firm.id, name: "Primary Ltd", current: true, primary: true },
    });
    const removed = await asAdmin("DELETE", `/api/dashboard/companies/${firm.id}/representatives/${user.id}`);
    expect(removed.status).toBe(200);
    const after = await api("GET", "/api/dashboard/user", { token });
    expect(after.status).toBe(200);
    expect((body(after).user as Json).company).toBeNull();
  });
});

describe("a representative's own company", () => {
  it("is 404 for a member without a company, and 401 without a session", async () => {
    expect((await api("GET", "/api/dashboard/company")).status).toBe(401);
    const none = await api("GET", "/api/dashboard/company", { token: member });
    expect(none.status).toBe(404);
    expect(none.json?.message).toBe("You do not represent a member company.");
    expect((await api("GET", "/api/dashboard/user", { token: member })).json?.user).toMatchObject({ company: null });
  });

  it("is read-only for a representative who is not a primary contact (403 on every change)", async () => {
    const firm = await createCompany({ name: "Read Only Ltd", seats: 5 });
    const primary = await representative(firm.id, true);
    const plain = await representative(firm.id, false);
    const read = await api("GET", "/api/dashboard/company", { token: plain.token });
    expect(read.status).toBe(200);
    expect(company(read)).toMatchObject({ name: "Read Only Ltd", primary: false, seats: 5, seats_used: 2 });
    expect((company(read).representatives as Json[]).map((r) => r.user_id)).toEqual([primary.user.id, plain.user.id]);
    for (const [method, url, json] of [
      ["PATCH", "/api/dashboard/company", { description: "<p>Mine now</p>" }],
      ["POST", "/api/dashboard/company/representatives", { email: "n@ro.example", first_name: "N", last_name: "O" }],
      ["PATCH", `/api/dashboard/company/representatives/${plain.user.id}`, { primary: true }],
      ["DELETE", `/api/dashboard/company/representatives/${primary.user.id}`, undefined],
    ] as const) {
      const res = await api(method, url, { token: plain.token, json });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.json?.message).toBe(NOT_PRIMARY);
    }
  });

  it("lets a primary contact edit the public profile only, invite colleagues within the seats, and remove them", async () => {
    const firm = await createCompany({ name: "Profile Ltd", seats: 2, member_since: "1999-01-01" });
    const primary = await representative(firm.id, true);
    const before = await t.runtime.services.contentVersion.current();
    const edited = await api("POST", "/api/dashboard/company", {
      token: primary.token,
      form: {
        _method: "PATCH",
        description: "<p>We make radars.</p><script>x</script>",
        website: "http://profile.example",
        products: "Radar,ECDIS",
        // Not the primary contact's to change: ignored.
        name: "Renamed Ltd",
        status: "left",
        renews_on: "2000-01-01",
      },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(company(edited)).toMatchObject({
      name: "Profile Ltd",
      status: "active",
      renews_on: null,
      description: "<p>We make radars.</p>",
      website: "http://profile.example",
      products: ["Radar", "ECDIS"],
      primary: true,
    });
    // The directory shows the profile: cached pages move on.
    expect(await t.runtime.services.contentVersion.current()).toBeGreaterThan(before);
    const badSite = await api("PATCH", "/api/dashboard/company", { token: primary.token, json: { website: "nope" } });
    expect(badSite.json?.errors).toEqual({ website: [WEBSITE_MESSAGE] });
    const withLogo = await api("PATCH", "/api/dashboard/company", {
      token: primary.token,
      multipart: true,
      form: { logo: new Blob([Buffer.from(png)], { type: "image/png" }) },
    });
    expect(company(withLogo).logo).toMatch(/^\/uploads\/members\//);
    const noLogo = await api("PATCH", "/api/dashboard/company", { token: primary.token, json: { remove_logo: true } });
    expect(company(noLogo).logo).toBeNull();

    const invited = await api("POST", "/api/dashboard/company/representatives", {
      token: primary.token,
      json: { email: "colleague@profile.example", first_name: "Col", last_name: "League" },
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.json).toMatchObject({ invited: true, representative: { primary: false, status: "invited" } });
    const [mail] = await mails("colleague@profile.example");
    expect(mail.body_text).toContain(`${primary.user.first_name} ${primary.user.last_name} has invited you`);
    const full = await api("POST", "/api/dashboard/company/representatives", {
      token: primary.token,
      json: { email: "third@profile.example", first_name: "Th", last_name: "Ird" },
    });
    expect(full.status).toBe(422);
    expect(full.json?.message).toBe(NO_FREE_SEAT);

    const colleagueId = (body(invited).representative as Json).user_id;
    const other = await createCompany({ name: "Neighbour Ltd" });
    const neighbour = await representative(other.id, false);
    expect(
      (await api("DELETE", `/api/dashboard/company/representatives/${neighbour.user.id}`, { token: primary.token }))
        .status,
    ).toBe(404);
    expect(
      (await api("DELETE", "/api/dashboard/company/representatives/999999", { token: primary.token })).status,
    ).toBe(404);
    // The only primary contact can neither step down nor leave.
    const stepDown = await api("PATCH", `/api/dashboard/company/representatives/${primary.user.id}`, {
      token: primary.token,
      json: { primary: false },
    });
    expect(stepDown.status).toBe(422);
    expect(stepDown.json?.message).toBe(LAST_PRIMARY);
    const leave = await api("DELETE", `/api/dashboard/company/representatives/${primary.user.id}`, {
      token: primary.token,
    });
    expect(leave.status).toBe(422);
    // Hand over, then leave.
    const handed = await api("PATCH", `/api/dashboard/company/representatives/${colleagueId}`, {
      token: primary.token,
      json: { primary: true },
    });
    expect(handed.json?.representative).toMatchObject({ primary: true });
    const removed = await api("DELETE", `/api/dashboard/company/representatives/${primary.user.id}`, {
      token: primary.token,
    });
    expect(removed.status).toBe(200);
    expect((await api("GET", "/api/dashboard/company", { token: primary.token })).status).toBe(404);
  });
});

describe("the public directory: GET /api/members", () => {
  it("lists current companies only, with the documented fields, filters and paging", async () => {
    const base = { member_since: "1990-06-01", country: "DE" };
    await createCompany({
      ...base,
      name: "Directory Radar GmbH",
      products: ["Radar", "AIS"],
      membership_type: "associate",
    });
    await createCompany({
      ...base,
      name: "Directory Lapsed GmbH",
      renews_on: addDays(today(), -40),
      products: ["Radar"],
    });
    await createCompany({ ...base, name: "Directory Left GmbH", status: "left", products: ["Radar"] });
    await createCompany({ ...base, name: "Directory Suspended GmbH", status: "suspended", products: ["Radar"] });
    await createCompany({ ...base, name: "Directory Sonar GmbH", country: "FR", products: ["Sonar"] });

    const res = await api("GET", "/api/members?search=directory");
    expect(res.status).toBe(200);
    const data = res.json?.data as Json[];
    expect(data.map((c) => c.name)).toEqual(["Directory Radar GmbH", "Directory Sonar GmbH"]);
    expect(Object.keys(data[0]).sort()).toEqual(
      [
        "id",
        "slug",
        "name",
        "country",
        "country_name",
        "website",
        "logo",
        "description",
        "products",
        "membership_type",
        "member_since",
      ].sort(),
    );
    expect(data[0]).toMatchObject({ country: "DE", country_name: "Germany", membership_type: "associate" });
    const names = async (query: string) => rows(await api("GET", `/api/members?${query}`)).map((c) => c.name);
    expect(await names("search=directory&product=radar")).toEqual(["Directory Radar GmbH"]);
    expect(await names("search=directory&country=fr")).toEqual(["Directory Sonar GmbH"]);
    expect(await names("search=directory&type=associate")).toEqual(["Directory Radar GmbH"]);
    // search looks in products too.
    expect(await names("search=sonar")).toContain("Directory Sonar GmbH");
    expect((await api("GET", "/api/members?country=germany")).status).toBe(422);
    expect((await api("GET", "/api/members?type=gold")).status).toBe(422);
    expect((await api("GET", "/api/members?page=0")).status).toBe(422);
  });

  it("pages 24 at a time with next_page_url keeping the filters", async () => {
    // Paged Navigation 01–27 above: 26 of them current, the odd ones in Japan.
    const first = await api("GET", "/api/members?search=Paged&country=JP");
    expect(first.json).toMatchObject({ current_page: 1, per_page: 24, total: 14, last_page: 1, next_page_url: null });
    const all = await api("GET", "/api/members?search=Paged");
    expect(all.json).toMatchObject({ current_page: 1, per_page: 24, total: 26, last_page: 2 });
    expect(all.json?.next_page_url).toBe("/api/members?search=Paged&page=2");
    const second = await api("GET", all.json?.next_page_url as string);
    expect(rows(second).length).toBe(2);
  });

  it("answers a current company by slug; a lapsed, suspended or left one is 404", async () => {
    const found = await api("GET", "/api/members/directory-radar-gmbh");
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({
      status: "success",
      company: { name: "Directory Radar GmbH", products: ["Radar", "AIS"] },
    });
    for (const slug of ["directory-lapsed-gmbh", "directory-left-gmbh", "directory-suspended-gmbh", "nothing-here"]) {
      const res = await api("GET", `/api/members/${slug}`);
      expect(res.status, slug).toBe(404);
      expect(res.json?.message).toBe("Member company not found.");
    }
  });
});

import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: 120_000 });

import {
  addDays,
  addYear,
  COUNTRY_MESSAGE,
  HAS_REPRESENTATIVES,
  NAME_REQUIRED,
  NO_FREE_SEAT,
  NOT_PRIMARY,
  SEATS_MESSAGE,
  WEBSITE_MESSAGE,
} from "../../core/members/members.schema";
import { ANSWER_CACHE_HEADER } from "../../server/cache/answer-cache";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";
import { pagesApp, pageText } from "../support/pages";

/**
 * Issue 31's screens as a browser without JavaScript uses them: plain GETs and form posts through
 * the page loaders and actions, over a real database, with the admin's and members' sessions.
 * The secretariat's /manager/members and a company's screen; a primary contact's /dashboard/company.
 */
let t: TestContext;
let pages: TestContext["app"];
let closePages: () => Promise<void>;
let admin: string;

const today = () => new Date().toISOString().slice(0, 10);

const textOf = pageText;

const get = async (url: string, cookie: string) => {
  const answer = await call(pages, "GET", `${ORIGIN}${url}`, { cookie });
  return { ...answer, page: textOf(answer.text) };
};
const post = async (url: string, cookie: string, form: Record<string, string | Blob>) => {
  const answer = await call(pages, "POST", `${ORIGIN}${url}`, { cookie, form, multipart: true });
  return { ...answer, page: textOf(answer.text) };
};
/** Posts a form, checks the answer's status and that its page says each text, and gives the answer for more checks. */
const posted = async (
  url: string,
  cookie: string,
  status: number,
  says: string | string[],
  form: Record<string, string | Blob>,
) => {
  const answer = await post(url, cookie, form);
  expect(answer.status, `${url} ${String(form.intent)}: ${answer.page.slice(0, 300)}`).toBe(status);
  for (const text of [says].flat()) expect(answer.page).toContain(text);
  return answer;
};

const invite = (first_name: string, last_name: string, email: string) => ({
  intent: "invite",
  first_name,
  last_name,
  email,
});

async function member(services: TestContext["runtime"]["services"]) {
  const { user } = await createUser(services);
  const session = await services.auth.login({ email: user.email, password: PASSWORD }, { ip: "203.0.113.9" });
  return { user, cookie: `auth.session=${session.token}` };
}

beforeAll(async () => {
  t = await createTestContext();
  ({ pages, close: closePages } = await pagesApp(t));
  admin = (await signIn(t.runtime.services, "admin")).cookie;
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

describe("on an empty database", () => {
  it("shows the secretariat's list, the new company's form and a member's company page", async () => {
    const list = await get("/manager/members", admin);
    expect(list.status).toBe(200);
    expect(list.page).toContain("0 companies");
    expect(list.page).toContain("No member companies yet");
    const form = await get("/manager/members/new", admin);
    expect(form.status).toBe(200);
    expect(form.page).toContain("Create company");
    const alone = await member(t.runtime.services);
    const own = await get("/dashboard/company", alone.cookie);
    expect(own.status).toBe(200);
    expect(own.page).toContain("Your account does not represent a member company.");
    // Linked from the manager's home and the members' dashboard.
    expect((await get("/manager", admin)).text).toContain('href="/manager/members"');
    expect((await get("/dashboard", alone.cookie)).text).toContain('href="/dashboard/company"');
  });
});

describe("the secretariat's screens", () => {
  it("refuses a bad company with each message beside its field and keeps what was typed", async () => {
    const refused = await posted(
      "/manager/members/new",
      admin,
      422,
      [NAME_REQUIRED, COUNTRY_MESSAGE, WEBSITE_MESSAGE, SEATS_MESSAGE],
      {
        intent: "save",
        name: "  ",
        country: "",
        website: "ftp://files.example.com",
        seats: "0",
        products: "Radar, Sonar",
      },
    );
    expect(refused.text).toMatch(/id="company-name"[^>]*aria-invalid="true"/);
    expect(refused.text).toContain('value="Radar, Sonar"');
    expect(refused.text).toContain('value="ftp://files.example.com"');
  });

  it("creates a company with its logo, lists, searches and filters it, renews and deletes it", async () => {
    const logo = await sharp({ create: { width: 120, height: 60, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const due = addDays(today(), 20);
    const created = await posted("/manager/members/new", admin, 302, [], {
      intent: "save",
      name: "Skagerrak Sonar AS",
      country: "no",
      website: "https://skagerrak.example.com",
      membership_type: "associate",
      status: "active",
      member_since: "2019-05-01",
      renews_on: due,
      seats: "1",
      products: "Sonar, Echo sounders",
      description: "<p>Fish finders.</p><script>alert(1)</script>",
      logo: new File([new Uint8Array(logo)], "logo.png", { type: "image/png" }),
    });
    const location = created.headers.get("location") ?? "";
    expect(location).toMatch(/^\/manager\/members\/\d+$/);
    const id = Number(location.split("/").pop());
    const flash = (created.headers.get("set-cookie") ?? "").split(";")[0];
    const screen = await get(location, `${admin}; ${flash}`);
    expect(screen.page).toContain("Created “Skagerrak Sonar AS”. Invite its representatives below.");
    expect(screen.page).toContain("Norway");
    expect(screen.page).toContain("Associate member");
    expect(screen.text).not.toContain("<script>alert");

    const stored = await t.runtime.services.members.get(id);
    expect(stored).toMatchObject({ country: "NO", seats: 1, products: ["Sonar", "Echo sounders"], renews_on: due });
    expect(stored.logo).toMatch(/\.webp$/);

    // The row: logo with the name as alt text, name, country's name, type, status, renews on, seats.
    const list = await get("/manager/members?search=echo%20sounders", admin);
    expect(list.page).toContain("1 company");
    expect(list.text).toContain(`alt="Skagerrak Sonar AS"`);
    expect(list.page).toMatch(
      /Skagerrak Sonar AS Current Norway Type: Associate member Renews on: .+ Seats used: 0 of 1/,
    );
    expect((await get("/manager/members?search=norway", admin)).page).toContain("Skagerrak Sonar AS");
    expect((await get("/manager/members?status=left", admin)).page).not.toContain("Skagerrak Sonar AS");
    expect((await get("/manager/members?current=lapsed", admin)).page).not.toContain("Skagerrak Sonar AS");
    expect((await get("/manager/members?type=full", admin)).page).not.toContain("Skagerrak Sonar AS");
    expect((await get("/manager/members?due=1", admin)).page).toContain("Skagerrak Sonar AS");

    // Edit: a bad renewal date is refused beside the field; a good change saves.
    await posted(location, admin, 422, "The renewal date may not be before the member-since date.", {
      intent: "save",
      name: "Skagerrak Sonar AS",
      country: "NO",
      membership_type: "associate",
      status: "active",
      member_since: "2019-05-01",
      renews_on: "2018-01-01",
      seats: "1",
    });
    await posted(location, admin, 302, [], {
      intent: "save",
      name: "Skagerrak Sonar Group AS",
      country: "SE",
      membership_type: "full",
      status: "suspended",
      member_since: "2019-05-01",
      renews_on: due,
      seats: "",
      products: "Sonar",
      remove_logo: "1",
    });
    expect(await t.runtime.services.members.get(id)).toMatchObject({
      name: "Skagerrak Sonar Group AS",
      slug: stored.slug,
      country: "SE",
      membership_type: "full",
      status: "suspended",
      seats: null,
      logo: null,
      products: ["Sonar"],
    });

    // 'Renewed' from the list moves renews_on on by a year.
    await posted("/manager/members", admin, 200, "Skagerrak Sonar Group AS is renewed until", {
      intent: "renew",
      id: String(id),
    });
    expect((await t.runtime.services.members.get(id)).renews_on).toBe(addYear(due));

    // Deleted from its screen: back to the list with the notice.
    const deleted = await posted(location, admin, 302, [], { intent: "delete" });
    expect(deleted.headers.get("location")).toBe("/manager/members");
    expect((await get(location, admin)).status).toBe(404);
  });

  it("invites representatives up to the seats, changes the primary role, refuses a delete under them", async () => {
    const { services } = t.runtime;
    const company = await services.members.create({ name: "Biscay Bridge SL", country: "ES", seats: 2 });
    const path = `/manager/members/${company.id}`;
    await posted(
      path,
      admin,
      200,
      "Invitation sent to lucia@biscay.example.",
      invite("Lucía", "Ortega", "lucia@biscay.example"),
    );
    // An account that already exists is linked, not invited.
    const existing = await member(services);
    const { first_name, last_name, email } = existing.user;
    await posted(path, admin, 200, "already had an account", invite(first_name, last_name, email));
    const full = await posted(path, admin, 422, NO_FREE_SEAT, invite("Pablo", "Ruiz", "pablo@biscay.example"));
    expect(full.text).toContain('value="pablo@biscay.example"');

    const screen = await get(path, admin);
    expect(screen.page).toContain("Lucía Ortega");
    expect(screen.page).toContain("Invited");
    expect(screen.page).toContain("0 free seats left.");
    // Without JavaScript, Remove posts its own form (with it, the button asks first, in a dialog).
    expect(screen.text).toMatch(
      /<form[^>]* method="post"><input type="hidden" name="intent" value="remove-representative"\/><input type="hidden" name="user_id" value="\d+"\/><button type="submit"[^>]*>.*?Remove/,
    );

    const lucia = (await services.members.representatives(company.id)).find((r) => r.email === "lucia@biscay.example");
    if (!lucia) throw new Error("Lucía was not added");
    await posted(path, admin, 200, "Lucía Ortega is now a primary contact.", {
      intent: "primary",
      user_id: String(lucia.user_id),
      primary: "1",
    });
    expect((await services.members.representatives(company.id)).find((r) => r.user_id === lucia.user_id)?.primary).toBe(
      true,
    );

    // A company with representatives is not deleted: the service's reason is said, from the list's dialog too.
    await posted(path, admin, 422, HAS_REPRESENTATIVES, { intent: "delete" });
    await posted("/manager/members", admin, 422, HAS_REPRESENTATIVES, { intent: "delete", id: String(company.id) });

    // Removing keeps the account, without a company.
    for (const r of await services.members.representatives(company.id)) {
      await posted(path, admin, 200, "The representative is removed from the company; their account stays.", {
        intent: "remove-representative",
        user_id: String(r.user_id),
      });
    }
    expect(await services.members.companyOf(existing.user.id)).toBeNull();
    expect((await get("/dashboard", existing.cookie)).status).toBe(200);
    await posted("/manager/members", admin, 200, "Deleted “Biscay Bridge SL”.", {
      intent: "delete",
      id: String(company.id),
    });
  });

  it("is the admins' alone: a member's post to its actions is refused", async () => {
    const company = await t.runtime.services.members.create({ name: "Refused Radio Ltd", country: "GB" });
    const someone = await member(t.runtime.services);
    const answer = await post(`/manager/members/${company.id}`, someone.cookie, { intent: "renew" });
    expect(answer.status).not.toBe(200);
    expect((await t.runtime.services.members.get(company.id)).renews_on).toBeNull();
  });
});

describe("a primary contact's /dashboard/company", () => {
  it("shows the company, edits its profile, invites colleagues within the seats and hands over the primary role", async () => {
    const { services } = t.runtime;
    const dashboard = "/dashboard/company";
    const company = await services.members.create({
      name: "Fjord Radar AS",
      country: "NO",
      seats: 3,
      renews_on: addDays(today(), 200),
      products: ["Radar"],
    });
    const primary = await member(services);
    const colleague = await member(services);
    const invitation = { origin: "http://localhost:3000", inviter: { first_name: "", last_name: "" } };
    for (const [who, isPrimary] of [
      [primary, true],
      [colleague, false],
    ] as const) {
      await services.members.addRepresentative(
        company.id,
        { email: who.user.email, first_name: who.user.first_name, last_name: who.user.last_name, primary: isPrimary },
        invitation,
      );
    }

    const own = await get(dashboard, primary.cookie);
    expect(own.status).toBe(200);
    expect(own.page).toContain("Fjord Radar AS");
    expect(own.page).toMatch(/Status Current Renews on .+ Seats used 2 of 3/);
    expect(own.page).toContain("Save the profile");
    expect(own.page).toContain("1 free seat left.");
    // Personal: never one of the shared renders (decision 0032).
    expect(own.headers.get("cache-control") ?? "").not.toMatch(/public/);

    // The profile: a bad website is refused beside its field; a good change saves and moves the content version.
    await posted(dashboard, primary.cookie, 422, WEBSITE_MESSAGE, {
      intent: "profile",
      website: "javascript:alert(1)",
      products: "Radar",
      description: "",
    });
    // A logo that is no image is refused beside the logo's field (415, as a news image).
    const notImage = await posted(dashboard, primary.cookie, 415, [], {
      intent: "profile",
      website: "https://fjord-radar.example.com",
      logo: new File(["plain text, not a picture"], "logo.png", { type: "image/png" }),
    });
    expect(notImage.text).toMatch(/id="company-logo"[^>]*aria-invalid="true"/);
    expect(notImage.text).toContain('id="company-logo-error"');
    const before = await services.contentVersion.current();
    await posted(dashboard, primary.cookie, 200, "The company's profile is saved.", {
      intent: "profile",
      website: "https://fjord-radar.example.com",
      products: "Radar, AIS",
      description: "<p>Radars for fjords.</p>",
      // A primary contact cannot change the name: the field is not theirs, and is ignored.
      name: "Renamed AS",
    });
    expect(await services.contentVersion.current()).toBeGreaterThan(before);
    expect(await services.members.get(company.id)).toMatchObject({
      name: "Fjord Radar AS",
      website: "https://fjord-radar.example.com",
      products: ["Radar", "AIS"],
      description: "<p>Radars for fjords.</p>",
    });

    // Colleagues: one more seat, then the refusal.
    const nils = invite("Nils", "Berg", "nils@fjord-radar.example");
    await posted(dashboard, primary.cookie, 200, "Invitation sent to nils@fjord-radar.example.", nils);
    await posted(dashboard, primary.cookie, 422, NO_FREE_SEAT, invite("Kari", "Lie", "kari@fjord-radar.example"));

    // The other representative reads the page and may change nothing.
    const readOnly = await get(dashboard, colleague.cookie);
    expect(readOnly.page).toContain("Fjord Radar AS");
    expect(readOnly.page).toContain("Radars for fjords.");
    expect(readOnly.page).not.toContain("Save the profile");
    expect(readOnly.page).not.toContain("Send invitation");
    await posted(dashboard, colleague.cookie, 403, NOT_PRIMARY, {
      intent: "profile",
      website: "https://hijack.example.com",
    });

    // Handing over: the colleague becomes primary, then the first steps down.
    const primaryRole = (who: { user: { id: number } }, primary: "0" | "1") => ({
      intent: "primary",
      user_id: String(who.user.id),
      primary,
    });
    await posted(dashboard, primary.cookie, 200, "is now a primary contact", primaryRole(colleague, "1"));
    await posted(dashboard, primary.cookie, 200, "is no longer a primary contact", primaryRole(primary, "0"));
    expect((await get(dashboard, colleague.cookie)).page).toContain("Save the profile");
    expect((await get(dashboard, primary.cookie)).page).not.toContain("Save the profile");

    // Another company's person is not theirs to remove.
    const stranger = await member(services);
    const other = await services.members.create({ name: "Other Marine Ltd", country: "GB" });
    await services.members.addRepresentative(
      other.id,
      { email: stranger.user.email, first_name: "S", last_name: "T", primary: true },
      invitation,
    );
    await posted(dashboard, colleague.cookie, 404, [], {
      intent: "remove-representative",
      user_id: String(stranger.user.id),
    });
    expect(await services.members.companyOf(stranger.user.id)).not.toBeNull();
  });

  it("links to the company's public page while it is current, not once it has lapsed (that page is a 404)", async () => {
    const { services } = t.runtime;
    const company = await services.members.create({
      name: "Public Page Marine AS",
      country: "NO",
      member_since: "2001-01-01",
      renews_on: addDays(today(), 100),
    });
    const rep = await member(services);
    await services.members.addRepresentative(
      company.id,
      { email: rep.user.email, first_name: rep.user.first_name, last_name: rep.user.last_name, primary: false },
      { origin: "http://localhost:3000", inviter: { first_name: "", last_name: "" } },
    );
    const publicPage = `/members-list/${company.slug}`;
    const current = await get("/dashboard/company", rep.cookie);
    expect(current.page).toContain("See your company's public page");
    expect(current.text).toContain(`href="${publicPage}"`);
    expect((await get(publicPage, rep.cookie)).status).toBe(200);

    await services.members.update(company.id, { renews_on: addDays(today(), -100), remove_logo: false });
    const lapsed = await get("/dashboard/company", rep.cookie);
    expect(lapsed.page).toContain("Lapsed");
    expect(lapsed.page).not.toContain("See your company's public page");
    expect(lapsed.text).not.toContain(`href="${publicPage}"`);
    expect((await get(publicPage, rep.cookie)).status).toBe(404);
  });

  it("moves the secretariat's cached list on when a primary contact changes colleagues, by form or by API", async () => {
    const { services } = t.runtime;
    const name = "Seat Count Marine Oy";
    const company = await services.members.create({ name, country: "FI", seats: 5 });
    const primary = await member(services);
    await services.members.addRepresentative(
      company.id,
      { email: primary.user.email, first_name: "Pia", last_name: "Primary", primary: true },
      { origin: "http://localhost:3000", inviter: { first_name: "", last_name: "" } },
    );
    const adminToken = (await signIn(services, "admin")).token;
    const listed = async () => {
      const res = await call(t.app, "GET", `/api/dashboard/companies?search=${encodeURIComponent(name)}`, {
        token: adminToken,
      });
      expect(res.status, res.text).toBe(200);
      const [row] = (res.json?.data ?? []) as { seats_used: number }[];
      return { seats: row?.seats_used, cache: res.headers.get(ANSWER_CACHE_HEADER) };
    };
    expect(await listed()).toEqual({ seats: 1, cache: "miss" });
    expect(await listed()).toEqual({ seats: 1, cache: "hit" });

    await posted("/dashboard/company", primary.cookie, 200, "Invitation sent to form.colleague@seat.example.", {
      ...invite("Form", "Colleague", "form.colleague@seat.example"),
    });
    expect(await listed()).toEqual({ seats: 2, cache: "miss" });

    const session = await services.auth.login({ email: primary.user.email, password: PASSWORD }, { ip: "203.0.113.9" });
    const added = await call(t.app, "POST", "/api/dashboard/company/representatives", {
      token: session.token,
      json: { email: "api.colleague@seat.example", first_name: "Api", last_name: "Colleague" },
    });
    expect(added.status, added.text).toBe(201);
    expect((await listed()).seats).toBe(3);
    const colleagueId = (added.json as { representative: { user_id: number } }).representative.user_id;
    const removed = await call(t.app, "DELETE", `/api/dashboard/company/representatives/${colleagueId}`, {
      token: session.token,
    });
    expect(removed.status, removed.text).toBe(200);
    expect((await listed()).seats).toBe(2);
  });
});

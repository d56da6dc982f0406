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
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";
import { pagesApp } from "../support/pages";

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

/** The document's text without tags, whitespace collapsed, the entities React writes read back. */
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

const get = async (url: string, cookie: string) => {
  const answer = await call(pages, "GET", `${ORIGIN}${url}`, { cookie });
  return { ...answer, page: textOf(answer.text) };
};
const post = async (url: string, cookie: string, form: Record<string, string | Blob>) => {
  const answer = await call(pages, "POST", `${ORIGIN}${url}`, { cookie, form, multipart: true });
  return { ...answer, page: textOf(answer.text) };
};

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
    const refused = await post("/manager/members/new", admin, {
      intent: "save",
      name: "  ",
      country: "",
      website: "ftp://files.example.com",
      seats: "0",
      products: "Radar, Sonar",
    });
    expect(refused.status).toBe(422);
    for (const message of [NAME_REQUIRED, COUNTRY_MESSAGE, WEBSITE_MESSAGE, SEATS_MESSAGE]) {
      expect(refused.page).toContain(message);
    }
    expect(refused.text).toMatch(/id="company-name"[^>]*aria-invalid="true"/);
    expect(refused.text).toContain('value="Radar, Sonar"');
    expect(refused.text).toContain('value="ftp://files.example.com"');
  });

  it("creates a company with its logo, lists, searches and filters it, renews and deletes it", async () => {
    const logo = await sharp({ create: { width: 120, height: 60, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const due = addDays(today(), 20);
    const created = await post("/manager/members/new", admin, {
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
    expect(created.status).toBe(302);
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
    const early = await post(location, admin, {
      intent: "save",
      name: "Skagerrak Sonar AS",
      country: "NO",
      membership_type: "associate",
      status: "active",
      member_since: "2019-05-01",
      renews_on: "2018-01-01",
      seats: "1",
    });
    expect(early.status).toBe(422);
    expect(early.page).toContain("The renewal date may not be before the member-since date.");
    const saved = await post(location, admin, {
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
    expect(saved.status).toBe(302);
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
    const renewed = await post("/manager/members", admin, { intent: "renew", id: String(id) });
    expect(renewed.status).toBe(200);
    expect(renewed.page).toContain("Skagerrak Sonar Group AS is renewed until");
    expect((await t.runtime.services.members.get(id)).renews_on).toBe(addYear(due));

    // Deleted from its screen: back to the list with the notice.
    const deleted = await post(location, admin, { intent: "delete" });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/manager/members");
    expect((await get(location, admin)).status).toBe(404);
  });

  it("invites representatives up to the seats, changes the primary role, refuses a delete under them", async () => {
    const { services } = t.runtime;
    const company = await services.members.create({ name: "Biscay Bridge SL", country: "ES", seats: 2 });
    const path = `/manager/members/${company.id}`;
    const first = await post(path, admin, {
      intent: "invite",
      first_name: "Lucía",
      last_name: "Ortega",
      email: "lucia@biscay.example",
    });
    expect(first.status).toBe(200);
    expect(first.page).toContain("Invitation sent to lucia@biscay.example.");
    // An account that already exists is linked, not invited.
    const existing = await member(services);
    const linked = await post(path, admin, {
      intent: "invite",
      first_name: existing.user.first_name,
      last_name: existing.user.last_name,
      email: existing.user.email,
    });
    expect(linked.status).toBe(200);
    expect(linked.page).toContain("already had an account");
    const full = await post(path, admin, {
      intent: "invite",
      first_name: "Pablo",
      last_name: "Ruiz",
      email: "pablo@biscay.example",
    });
    expect(full.status).toBe(422);
    expect(full.page).toContain(NO_FREE_SEAT);
    expect(full.text).toContain('value="pablo@biscay.example"');

    const screen = await get(path, admin);
    expect(screen.page).toContain("Lucía Ortega");
    expect(screen.page).toContain("Invited");
    expect(screen.page).toContain("0 free seats left.");

    const lucia = (await services.members.representatives(company.id)).find((r) => r.email === "lucia@biscay.example");
    if (!lucia) throw new Error("Lucía was not added");
    const made = await post(path, admin, { intent: "primary", user_id: String(lucia.user_id), primary: "1" });
    expect(made.page).toContain("Lucía Ortega is now a primary contact.");
    expect((await services.members.representatives(company.id)).find((r) => r.user_id === lucia.user_id)?.primary).toBe(
      true,
    );

    // A company with representatives is not deleted: the service's reason is said, from the list's dialog too.
    const kept = await post(path, admin, { intent: "delete" });
    expect(kept.status).toBe(422);
    expect(kept.page).toContain(HAS_REPRESENTATIVES);
    const fromList = await post("/manager/members", admin, { intent: "delete", id: String(company.id) });
    expect(fromList.status).toBe(422);
    expect(fromList.page).toContain(HAS_REPRESENTATIVES);

    // Removing keeps the account, without a company.
    for (const r of await services.members.representatives(company.id)) {
      const removed = await post(path, admin, { intent: "remove-representative", user_id: String(r.user_id) });
      expect(removed.page).toContain("The representative is removed from the company; their account stays.");
    }
    expect(await services.members.companyOf(existing.user.id)).toBeNull();
    expect((await get("/dashboard", existing.cookie)).status).toBe(200);
    const gone = await post("/manager/members", admin, { intent: "delete", id: String(company.id) });
    expect(gone.page).toContain("Deleted “Biscay Bridge SL”.");
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

    const own = await get("/dashboard/company", primary.cookie);
    expect(own.status).toBe(200);
    expect(own.page).toContain("Fjord Radar AS");
    expect(own.page).toMatch(/Status Current Renews on .+ Seats used 2 of 3/);
    expect(own.page).toContain("Save the profile");
    expect(own.page).toContain("1 free seat left.");
    // Personal: never one of the shared renders (decision 0032).
    expect(own.headers.get("cache-control") ?? "").not.toMatch(/public/);

    // The profile: a bad website is refused beside its field; a good change saves and moves the content version.
    const bad = await post("/dashboard/company", primary.cookie, {
      intent: "profile",
      website: "javascript:alert(1)",
      products: "Radar",
      description: "",
    });
    expect(bad.status).toBe(422);
    expect(bad.page).toContain(WEBSITE_MESSAGE);
    // A logo that is no image is refused beside the logo's field (415, as a news image).
    const notImage = await post("/dashboard/company", primary.cookie, {
      intent: "profile",
      website: "https://fjord-radar.example.com",
      logo: new File(["plain text, not a picture"], "logo.png", { type: "image/png" }),
    });
    expect(notImage.status).toBe(415);
    expect(notImage.text).toMatch(/id="company-logo"[^>]*aria-invalid="true"/);
    expect(notImage.text).toContain('id="company-logo-error"');
    const before = await services.contentVersion.current();
    const saved = await post("/dashboard/company", primary.cookie, {
      intent: "profile",
      website: "https://fjord-radar.example.com",
      products: "Radar, AIS",
      description: "<p>Radars for fjords.</p>",
      // A primary contact cannot change the name: the field is not theirs, and is ignored.
      name: "Renamed AS",
    });
    expect(saved.status).toBe(200);
    expect(saved.page).toContain("The company's profile is saved.");
    expect(await services.contentVersion.current()).toBeGreaterThan(before);
    expect(await services.members.get(company.id)).toMatchObject({
      name: "Fjord Radar AS",
      website: "https://fjord-radar.example.com",
      products: ["Radar", "AIS"],
      description: "<p>Radars for fjords.</p>",
    });

    // Colleagues: one more seat, then the refusal.
    const invited = await post("/dashboard/company", primary.cookie, {
      intent: "invite",
      first_name: "Nils",
      last_name: "Berg",
      email: "nils@fjord-radar.example",
    });
    expect(invited.page).toContain("Invitation sent to nils@fjord-radar.example.");
    const refused = await post("/dashboard/company", primary.cookie, {
      intent: "invite",
      first_name: "Kari",
      last_name: "Lie",
      email: "kari@fjord-radar.example",
    });
    expect(refused.status).toBe(422);
    expect(refused.page).toContain(NO_FREE_SEAT);

    // The other representative reads the page and may change nothing.
    const readOnly = await get("/dashboard/company", colleague.cookie);
    expect(readOnly.page).toContain("Fjord Radar AS");
    expect(readOnly.page).toContain("Radars for fjords.");
    expect(readOnly.page).not.toContain("Save the profile");
    expect(readOnly.page).not.toContain("Send invitation");
    const forbidden = await post("/dashboard/company", colleague.cookie, {
      intent: "profile",
      website: "https://hijack.example.com",
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.page).toContain(NOT_PRIMARY);

    // Handing over: the colleague becomes primary, then the first steps down.
    const handed = await post("/dashboard/company", primary.cookie, {
      intent: "primary",
      user_id: String(colleague.user.id),
      primary: "1",
    });
    expect(handed.page).toContain("is now a primary contact");
    const stepped = await post("/dashboard/company", primary.cookie, {
      intent: "primary",
      user_id: String(primary.user.id),
      primary: "0",
    });
    expect(stepped.page).toContain("is no longer a primary contact");
    expect((await get("/dashboard/company", colleague.cookie)).page).toContain("Save the profile");
    expect((await get("/dashboard/company", primary.cookie)).page).not.toContain("Save the profile");

    // Another company's person is not theirs to remove.
    const stranger = await member(services);
    const other = await services.members.create({ name: "Other Marine Ltd", country: "GB" });
    await services.members.addRepresentative(
      other.id,
      { email: stranger.user.email, first_name: "S", last_name: "T", primary: true },
      invitation,
    );
    const notTheirs = await post("/dashboard/company", colleague.cookie, {
      intent: "remove-representative",
      user_id: String(stranger.user.id),
    });
    expect(notTheirs.status).toBe(404);
    expect(await services.members.companyOf(stranger.user.id)).not.toBeNull();
  });
});

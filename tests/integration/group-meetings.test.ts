import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: 120_000 });

import { CHAIR_REFUSED } from "../../app/lib/guards";
import { CHAIR_TWO_FACTOR_FIRST } from "../../app/routes/members/group";
import { CHAIR_MEETING_AUDIENCE, CHAIRS_OWN_MEETINGS, CHAIRS_SHARED_MEETING } from "../../core/groups/groups.schema";
import { ADMIN_TWO_FACTOR_REQUIRED } from "../../server/api/http";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { representative as representativeOf, signIn } from "../support/factories";
import { pagesApp, pageText } from "../support/pages";

/**
 * Issue 36 'A chair is an editor inside their group: … creates and edits the group's meetings and
 * their programme, sees the group's registrations; nothing else' (decision 0085). By the API (every
 * meeting route is access.chair, the service decides by the meeting's groups) and by the
 * secretariat's Events screens, which a chair reaches for their groups' meetings only.
 */
let t: TestContext;
let pages: TestContext["app"];

type Person = Awaited<ReturnType<typeof representativeOf>>;
type Meeting = { id: number; slug: string; title: string; audience: string; group_ids: number[] };
let admin: Awaited<ReturnType<typeof signIn>>;
/** Chairs SECOM, takes part in the Board. */
let chiara: Person;
/** Chairs the Board, takes part in SECOM: the same groups as Chiara, other chairs. */
let bo: Person;
/** In SECOM, chairs nothing. */
let magnus: Person;
let secom: { id: number; slug: string };
let board: { id: number; slug: string };
let secomMeeting: Meeting;
let boardMeeting: Meeting;
let publicMeeting: Meeting;
let everyMembersMeeting: Meeting;

const asAdmin = (method: string, url: string, json?: Record<string, unknown>) =>
  call(t.app, method, url, { token: admin.token, json });

async function group(name: string, chairId: number, members: Person[]) {
  const res = await asAdmin("POST", "/api/dashboard/groups", { name, chair_ids: [chairId] });
  expect(res.status, res.text).toBe(201);
  const created = (res.json as { group: { id: number; slug: string } }).group;
  for (const person of members) {
    const added = await asAdmin("POST", `/api/dashboard/groups/${created.id}/members`, { email: person.user.email });
    expect(added.status, added.text).toBe(201);
  }
  return created;
}

async function meeting(title: string, audience: Record<string, unknown>): Promise<Meeting> {
  const res = await asAdmin("POST", "/api/dashboard/meeting", {
    title,
    type: "meeting",
    start_date: "2099-06-10",
    ...audience,
  });
  expect(res.status, res.text).toBe(201);
  return (res.json as { event: Meeting }).event;
}

const registration = (on: Meeting, person: Person) => ({
  company_name: person.company,
  representative_name: `${person.user.first_name} Tester`,
  email: person.user.email,
  phone_number: "+47 22 33 44 55",
  page_path: `/dashboard/events/${on.slug}`,
});

beforeAll(async () => {
  t = await createTestContext();
  ({ pages } = await pagesApp(t));
  admin = await signIn(t.runtime.services, "admin");
  const representative = (name: string) => representativeOf(t.runtime.services, t.database.db, name);
  chiara = await representative("Chiara");
  bo = await representative("Bo");
  magnus = await representative("Magnus");
  secom = await group("SECOM", chiara.user.id, [bo, magnus]);
  board = await group("Board", bo.user.id, [chiara]);
  secomMeeting = await meeting("SECOM plenary", { audience: "groups", group_ids: [secom.id] });
  boardMeeting = await meeting("Board retreat", { audience: "groups", group_ids: [board.id] });
  publicMeeting = await meeting("Open harbour day", { audience: "public" });
  everyMembersMeeting = await meeting("Members' assembly", { audience: "members" });
  for (const [on, person] of [
    [secomMeeting, magnus],
    [boardMeeting, chiara],
  ] as const) {
    const registered = await call(t.app, "POST", "/api/join", {
      token: person.token,
      json: registration(on, person),
    });
    expect(registered.status, registered.text).toBe(200);
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe("a working group's chair and the group's meetings", () => {
  it("lists, creates, changes and deletes their groups' meetings by the API, and no other", async () => {
    const asChair = (method: string, url: string, json?: Record<string, unknown>) =>
      call(t.app, method, url, { token: chiara.token, json });

    const listed = await asChair("GET", "/api/dashboard/meeting");
    expect(listed.status, listed.text).toBe(200);
    expect((listed.json as { data: { id: number }[] }).data.map((m) => m.id)).toEqual([secomMeeting.id]);
    expect((listed.json as { total: number }).total).toBe(1);
    // A member who chairs nothing is refused the whole area.
    expect((await call(t.app, "GET", "/api/dashboard/meeting", { token: magnus.token })).status).toBe(403);

    // A new meeting is for the groups they chair, and for nothing else.
    const refusedAudiences: Record<string, unknown>[] = [
      { audience: "public" },
      { audience: "members" },
      { visibility: "members" },
      {},
      { audience: "groups", group_ids: [board.id] },
      { audience: "groups", group_ids: [secom.id, board.id] },
    ];
    for (const audience of refusedAudiences) {
      const res = await asChair("POST", "/api/dashboard/meeting", {
        title: "SECOM drafting session",
        type: "meeting",
        start_date: "2099-07-01",
        ...audience,
      });
      expect(res.status, JSON.stringify(audience)).toBe(422);
      expect((res.json as { errors: Record<string, string[]> }).errors.audience).toEqual([CHAIR_MEETING_AUDIENCE]);
    }
    const created = await asChair("POST", "/api/dashboard/meeting", {
      title: "SECOM drafting session",
      type: "meeting",
      start_date: "2099-07-01",
      audience: "groups",
      group_ids: [secom.id],
    });
    expect(created.status, created.text).toBe(201);
    const drafting = (created.json as { event: Meeting }).event;
    expect(drafting).toMatchObject({ audience: "groups", group_ids: [secom.id] });
    // The list (kept per content version and caller's access) has it at once; the Board's chair, in
    // the same groups as Chiara but chairing another, still sees only the Board's.
    const titles = async (person: Person) =>
      (
        (await call(t.app, "GET", "/api/dashboard/meeting", { token: person.token })).json as {
          data: { title: string }[];
        }
      ).data.map((m) => m.title);
    expect(await titles(chiara)).toEqual(["SECOM drafting session", "SECOM plenary"]);
    expect(await titles(bo)).toEqual(["Board retreat"]);

    // Their meeting's fields, programme and sponsors; an update that leaves the audience out keeps it.
    const saved = await asChair("POST", `/api/dashboard/meeting/${secomMeeting.id}`, {
      _method: "PATCH",
      title: "SECOM plenary (Oslo)",
      type: "meeting",
      start_date: "2099-06-10",
      end_date: "2099-06-11",
    });
    expect(saved.status, saved.text).toBe(200);
    expect((saved.json as { event: Meeting }).event).toMatchObject({ audience: "groups", group_ids: [secom.id] });
    const session = await asChair("POST", `/api/dashboard/meeting/${secomMeeting.id}/schedule`, {
      meeting_date: "2099-06-11",
      start: "09:00",
      finish: "12:00",
      description: "S-100 test data review",
    });
    expect(session.status, session.text).toBe(201);
    const sponsor = await asChair("POST", `/api/dashboard/meeting/${secomMeeting.id}/sponsor`, {
      name: "Fjord Radio",
      link: "https://fjord-radio.example",
    });
    expect(sponsor.status, sponsor.text).toBe(201);
    expect((await asChair("GET", `/api/dashboard/meeting/${secomMeeting.id}/revisions`)).status).toBe(200);

    // The drafting session saved by `who` with this audience (its other fields as before).
    const saveDrafting = (who: string, audience: Record<string, unknown>) =>
      call(t.app, "POST", `/api/dashboard/meeting/${drafting.id}`, {
        token: who,
        json: {
          _method: "PATCH",
          title: "SECOM drafting session",
          type: "meeting",
          start_date: "2099-07-01",
          ...audience,
        },
      });
    const forGroups = (...ids: number[]) => ({ audience: "groups", group_ids: ids });

    // A co-organising group an admin added stays when the chair saves; the chair cannot take theirs away.
    const shared = await saveDrafting(admin.token, forGroups(secom.id, board.id));
    expect(shared.status, shared.text).toBe(200);
    const kept = await saveDrafting(chiara.token, forGroups(secom.id, board.id));
    expect(kept.status, kept.text).toBe(200);
    // Nor take the co-organising group away, nor delete the meeting the other group shares.
    const dropped = await saveDrafting(chiara.token, forGroups(secom.id));
    expect(dropped.status).toBe(422);
    const sharedDelete = await asChair("DELETE", `/api/dashboard/meeting/${drafting.id}`);
    expect(sharedDelete.status).toBe(403);
    expect((sharedDelete.json as { message: string }).message).toBe(CHAIRS_SHARED_MEETING);
    const handedAway = await saveDrafting(chiara.token, forGroups(board.id));
    expect(handedAway.status).toBe(422);
    const opened = await saveDrafting(chiara.token, { visibility: "public" });
    expect(opened.status).toBe(422);

    // Every other meeting: 403 with why, for reading and for each change; none is changed.
    for (const other of [boardMeeting, publicMeeting, everyMembersMeeting]) {
      const attempts: [string, string, Record<string, unknown>?][] = [
        ["GET", `/api/dashboard/meeting/${other.id}`],
        [
          "POST",
          `/api/dashboard/meeting/${other.id}`,
          { _method: "PATCH", title: "Taken", type: "meeting", start_date: "2099-06-10" },
        ],
        ["DELETE", `/api/dashboard/meeting/${other.id}`],
        ["POST", `/api/dashboard/meeting/${other.id}/schedule`, { meeting_date: "2099-06-10", description: "x" }],
        ["POST", `/api/dashboard/meeting/${other.id}/sponsor`, { name: "Someone" }],
        ["GET", `/api/dashboard/meeting/${other.id}/revisions`],
        ["GET", `/api/dashboard/meeting/${other.id}/registrations`],
      ];
      for (const [method, url, json] of attempts) {
        const res = await asChair(method, url, json);
        expect(res.status, `${method} ${url}`).toBe(403);
        expect((res.json as { message: string }).message).toBe(CHAIRS_OWN_MEETINGS);
      }
      const still = await asAdmin("GET", `/api/dashboard/meeting/${other.id}`);
      expect((still.json as { event: Meeting }).event.title).toBe(other.title);
    }
    expect((await asChair("GET", "/api/dashboard/meeting/987654")).status).toBe(404);

    // Their own meeting goes, once it is theirs alone again.
    const unshared = await saveDrafting(admin.token, forGroups(secom.id));
    expect(unshared.status, unshared.text).toBe(200);
    expect((await asChair("DELETE", `/api/dashboard/meeting/${drafting.id}`)).status).toBe(200);
    expect((await asAdmin("GET", `/api/dashboard/meeting/${drafting.id}`)).status).toBe(404);
  });

  it("sees and changes their group's registrations, and no cache hands them to another group's chair", async () => {
    const registrations = (meetingId: number, person: Person) =>
      call(t.app, "GET", `/api/dashboard/meeting/${meetingId}/registrations`, { token: person.token });

    // Chiara reads SECOM's (the answer is kept in the API answer cache for her access) ...
    const theirs = await registrations(secomMeeting.id, chiara);
    expect(theirs.status, theirs.text).toBe(200);
    const rows = (theirs.json as { data: { id: number; email: string }[] }).data;
    expect(rows.map((r) => r.email)).toEqual([magnus.user.email]);
    expect((await registrations(secomMeeting.id, chiara)).text).toBe(theirs.text);
    // ... and Bo, in the same groups but chair of the Board only, does not get it from there.
    const notHis = await registrations(secomMeeting.id, bo);
    expect(notHis.status, notHis.text).toBe(403);
    expect((notHis.json as { message: string }).message).toBe(CHAIRS_OWN_MEETINGS);
    expect((await registrations(secomMeeting.id, magnus)).status).toBe(403);
    // Each chair the other way round.
    expect((await registrations(boardMeeting.id, bo)).status).toBe(200);
    expect((await registrations(boardMeeting.id, chiara)).status).toBe(403);

    // Confirming: Chiara on SECOM's; Bo cannot.
    const change = (person: Person, status: string) =>
      call(t.app, "POST", `/api/dashboard/meeting/${secomMeeting.id}/registrations/${rows[0].id}`, {
        token: person.token,
        json: { _method: "PATCH", status },
      });
    expect((await change(bo, "declined")).status).toBe(403);
    const confirmed = await change(chiara, "confirmed");
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((confirmed.json as { registration: { status: string } }).registration.status).toBe("confirmed");
    const now = await registrations(secomMeeting.id, chiara);
    expect((now.json as { data: { status: string }[] }).data[0].status).toBe("confirmed");
  });

  it("works on the secretariat's Events screens for their groups' meetings, and is shown why elsewhere", async () => {
    const get = async (url: string, person: Person) => {
      const answer = await call(pages, "GET", `${ORIGIN}${url}`, { cookie: person.cookie });
      return { ...answer, page: pageText(answer.text) };
    };
    const list = await get("/manage-events", chiara);
    expect(list.status).toBe(200);
    expect(list.page).toContain("You're logged in as: chair");
    expect(list.page).toContain("SECOM plenary");
    for (const other of [boardMeeting, publicMeeting, everyMembersMeeting])
      expect(list.page).not.toContain(other.title);
    expect(list.text).not.toContain('href="/manager"');

    // Changes to the meeting come from the admin's address; its history on the edit screen names
    // who and when, never the address (the audit log's own screen is the admins').
    await t.database.db
      .updateTable("audit_log")
      .set({ ip: "198.51.100.231" })
      .where("entity", "=", "meeting")
      .where("entity_id", "=", String(secomMeeting.id))
      .execute();
    const edit = await get(`/manage-events/${secomMeeting.id}/edit`, chiara);
    expect(edit.status).toBe(200);
    expect(edit.page).toContain("History");
    expect(edit.text).not.toContain("198.51.100.231");
    // The join inbox is the admins': no link a chair would be refused at.
    expect(edit.text).not.toContain("/manager/requests");
    expect(edit.text).toContain('id="audience-groups"');
    expect(edit.text).not.toContain('id="audience-public"');
    expect(edit.page).toContain("Programme");
    const screen = await get(`/manage-events/${secomMeeting.id}/registrations`, chiara);
    expect(screen.status).toBe(200);
    expect(screen.page).toContain(magnus.user.email);
    const csv = await pages.request(`${ORIGIN}/manage-events/${secomMeeting.id}/registrations/export.csv`, {
      headers: { cookie: chiara.cookie },
    });
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain(magnus.user.email);

    // A new meeting from the group's page starts as the group's.
    const fresh = await get(`/manage-events/new?group=${secom.id}`, chiara);
    expect(fresh.status).toBe(200);
    const box = fresh.text
      .match(/<input[^>]*name="group_ids"[^>]*>/g)
      ?.find((input) => input.includes(`value="${secom.id}"`));
    expect(box).toContain("checked");
    // What a chair saves from the screens moves the content version, as an editor's does: the
    // members' shared renders (their calendars, the meeting's page) show it on the next request.
    const version = await t.runtime.services.contentVersion.current();
    const made = await call(pages, "POST", `${ORIGIN}/manage-events/new`, {
      cookie: chiara.cookie,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([
        ["title", "SECOM autumn session"],
        ["type", "meeting"],
        ["start_date", "2099-10-01"],
        ["timezone", "Europe/Oslo"],
        ["registration_status", "open"],
        ["audience", "groups"],
        ["group_ids", String(secom.id)],
      ]).toString(),
    });
    expect(made.status, made.text.slice(0, 500)).toBe(302);
    expect(await t.runtime.services.contentVersion.current()).not.toBe(version);
    const madeId = made.headers.get("location")?.match(/^\/manage-events\/(\d+)\/edit$/)?.[1];
    const madeMeeting = await call(t.app, "GET", `/api/dashboard/meeting/${madeId}`, { token: chiara.token });
    expect((madeMeeting.json as { event: Meeting }).event).toMatchObject({
      title: "SECOM autumn session",
      audience: "groups",
      group_ids: [secom.id],
    });

    // Another group's meeting and the secretariat's screens: 403 with why.
    for (const url of [
      `/manage-events/${boardMeeting.id}/edit`,
      `/manage-events/${publicMeeting.id}/registrations`,
      `/manage-events/${boardMeeting.id}/registrations/export.csv`,
    ]) {
      const answer = await get(url, chiara);
      expect(answer.status, url).toBe(403);
      expect(answer.page, url).toContain(CHAIRS_OWN_MEETINGS);
    }
    for (const url of ["/manage-news", "/manager/library", "/manager/users", "/manager/audit"]) {
      const answer = await get(url, chiara);
      expect(answer.status, url).toBe(403);
      expect(answer.page, url).toContain(CHAIR_REFUSED);
    }
    // The admin home, where the login sends everyone (SPEC §9): a chair goes on to their dashboard.
    const home = await call(pages, "GET", `${ORIGIN}/manager`, { cookie: chiara.cookie });
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/dashboard");
    // A member who chairs nothing is sent to their dashboard, as before.
    const plain = await call(pages, "GET", `${ORIGIN}/manage-events`, { cookie: magnus.cookie });
    expect(plain.status).toBe(302);
    expect(plain.headers.get("location")).toBe("/dashboard");

    // The group's page leads its chair there, and nobody else.
    const groupPage = (person: Person) => get(`/dashboard/groups/${secom.slug}`, person);
    expect((await groupPage(chiara)).text).toContain(`href="/manage-events/new?group=${secom.id}"`);
    expect((await groupPage(magnus)).text).not.toContain("/manage-events");
  });

  // Last: it turns two-factor sign-in on for Chiara.
  it("must use two-factor sign-in when the site asks it of the secretariat: a chair manages nothing until it is on", async () => {
    // A chair whose company has lapsed (made while the admin may still act without two-factor).
    const lapsed = await representativeOf(t.runtime.services, t.database.db, "Lapsed");
    await group("Lapsed chairs", lapsed.user.id, []);
    await t.database.db
      .updateTable("member_companies")
      .set({ renews_on: "2021-01-01" })
      .where("name", "=", lapsed.company)
      .execute();
    await t.runtime.services.settings.update({ "security.admin_two_factor": "1" });
    try {
      // The API: every meeting route says why, for their own group's meeting too.
      for (const url of ["/api/dashboard/meeting", `/api/dashboard/meeting/${secomMeeting.id}/registrations`]) {
        const refused = await call(t.app, "GET", url, { token: chiara.token });
        expect(refused.status, url).toBe(403);
        expect(refused.json?.message, url).toBe(ADMIN_TWO_FACTOR_REQUIRED);
      }
      // The screens send them to set it up; the group's page says why its tools are gone.
      const events = await call(pages, "GET", `${ORIGIN}/manage-events`, { cookie: chiara.cookie });
      expect(events.status).toBe(302);
      expect(events.headers.get("location")).toMatch(/^\/dashboard\/user-settings\?two-factor=required/);
      const groupPage = await call(pages, "GET", `${ORIGIN}/dashboard/groups/${secom.slug}`, { cookie: chiara.cookie });
      expect(groupPage.status).toBe(200);
      expect(pageText(groupPage.text)).toContain(CHAIR_TWO_FACTOR_FIRST);
      expect(groupPage.text).not.toContain("/manage-events/new");
      // Who is asked: Chiara; not a member who chairs nothing, nor a chair whose company has lapsed
      // (who has no chair's rights to protect).
      const asked = async (token: string) =>
        (await t.runtime.services.auth.authenticate(token))?.twoFactorSetupRequired === true;
      expect(await asked(chiara.token)).toBe(true);
      expect(await asked(magnus.token)).toBe(false);
      expect(await asked(lapsed.token)).toBe(false);
      const plain = await call(pages, "GET", `${ORIGIN}/dashboard/groups/${secom.slug}`, { cookie: magnus.cookie });
      expect(plain.status).toBe(200);
      expect(pageText(plain.text)).not.toContain(CHAIR_TWO_FACTOR_FIRST);

      // With it on, the chair's meetings again.
      const setup = await call(t.app, "POST", "/api/dashboard/user/two-factor/setup", { token: chiara.token });
      expect(setup.status, setup.text).toBe(200);
      const secret = (setup.json as { secret: string }).secret;
      const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate();
      const confirmed = await call(t.app, "POST", "/api/dashboard/user/two-factor/confirm", {
        token: chiara.token,
        json: { code },
      });
      expect(confirmed.status, confirmed.text).toBe(200);
      const listed = await call(t.app, "GET", "/api/dashboard/meeting", { token: chiara.token });
      expect(listed.status, listed.text).toBe(200);
      expect((listed.json as { data: { id: number }[] }).data.map((m) => m.id)).toContain(secomMeeting.id);
      const afterwards = await call(pages, "GET", `${ORIGIN}/dashboard/groups/${secom.slug}`, {
        cookie: chiara.cookie,
      });
      expect(pageText(afterwards.text)).not.toContain(CHAIR_TWO_FACTOR_FIRST);
      expect(afterwards.text).toContain(`href="/manage-events/new?group=${secom.id}"`);
    } finally {
      await t.runtime.services.settings.update({ "security.admin_two_factor": "0" });
    }
  });
});

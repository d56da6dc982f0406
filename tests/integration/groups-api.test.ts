import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADD_BY_EMAIL,
  ALREADY_IN_GROUP,
  CHAIR_NOT_FOUND,
  CHAIRS_ONLY_BY_ADMIN,
  GROUP_NAME_TAKEN,
  MEMBERS_BY_CHAIR,
  NO_SUCH_ACCOUNT,
  NOT_A_MEMBER_ACCOUNT,
} from "../../core/groups/groups.schema";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, representative as representativeOf, signIn } from "../support/factories";
import { pagesApp, pageText } from "../support/pages";

/** Working groups' API (issue 36), on the dialect of the run. */
let t: TestContext;
let site: Awaited<ReturnType<typeof pagesApp>>;
beforeAll(async () => {
  t = await createTestContext();
  site = await pagesApp(t);
}, 120_000);
afterAll(async () => {
  await site?.close();
  await t?.close();
});

type Person = { user_id: number; name: string; company: string | null; is_chair: boolean };
type Group = {
  id: number;
  name: string;
  slug: string;
  description: string;
  member_count: number;
  chairs: Person[];
  is_member: boolean;
  is_chair: boolean;
};
type Detail = Group & { members: Person[]; can_manage_members: boolean };

/** A representative of a company whose membership is current, or has lapsed. */
const representative = (first_name: string, lapsed = false) =>
  representativeOf(t.runtime.services, t.database.db, first_name, lapsed);

const groupOf = (res: { json: Record<string, unknown> | null }) => (res.json as { group: Group }).group;

describe("working groups", () => {
  it("an admin creates a group with a chair; a chair adds and removes members; who sees what", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const editor = await signIn(t.runtime.services, "editor");
    const chair = await representative("Chiara");
    const member = await representative("Magnus");
    const outsider = await representative("Olga");
    const lapsed = await representative("Lars", true);

    // Created by an admin, with its chair; refused with field messages when the input is wrong.
    const created = await call(t.app, "POST", "/api/dashboard/groups", {
      token: admin.token,
      json: { name: "S-421 route exchange", description: "Route plans between ships.", chair_ids: [chair.user.id] },
    });
    expect(created.status).toBe(201);
    const group = groupOf(created);
    expect(group).toMatchObject({ slug: "s-421-route-exchange", member_count: 1, is_member: false });
    expect(group.chairs).toEqual([
      {
        user_id: chair.user.id,
        name: expect.stringMatching(/^Chiara /),
        company: chair.company,
        email: chair.user.email,
        is_chair: true,
      },
    ]);
    const taken = await call(t.app, "POST", "/api/dashboard/groups", {
      token: admin.token,
      json: { name: "s-421 Route Exchange" },
    });
    expect(taken.status).toBe(422);
    expect(taken.json?.errors).toEqual({ name: [GROUP_NAME_TAKEN] });
    const noChair = await call(t.app, "POST", "/api/dashboard/groups", {
      token: admin.token,
      json: { name: "Cyber security", chair_ids: [999_999] },
    });
    expect(noChair.json?.errors).toEqual({ chair_ids: [CHAIR_NOT_FOUND] });
    const lapsedChair = await call(t.app, "POST", "/api/dashboard/groups", {
      token: admin.token,
      json: { name: "Cyber security", chair_ids: [lapsed.user.id] },
    });
    expect(lapsedChair.json?.errors).toEqual({ chair_ids: [NOT_A_MEMBER_ACCOUNT] });
    expect(
      (await call(t.app, "POST", "/api/dashboard/groups", { token: editor.token, json: { name: "Board" } })).status,
    ).toBe(403);

    // The chair adds a member by address (as a form sends it); again is a 409; no account, or a lapsed one, a 422.
    const added = await call(t.app, "POST", `/api/dashboard/groups/${group.id}/members`, {
      token: chair.token,
      form: { email: member.user.email.toUpperCase() },
    });
    expect(added.status).toBe(201);
    expect((added.json as { member: Person }).member).toMatchObject({ user_id: member.user.id, is_chair: false });
    const again = await call(t.app, "POST", `/api/dashboard/groups/${group.id}/members`, {
      token: chair.token,
      json: { email: member.user.email },
    });
    expect(again.status).toBe(409);
    expect(again.json?.message).toBe(ALREADY_IN_GROUP);
    const nobody = await call(t.app, "POST", `/api/dashboard/groups/${group.id}/members`, {
      token: chair.token,
      json: { email: "nobody-here@example.org" },
    });
    expect(nobody.json?.errors).toEqual({ email: [NO_SUCH_ACCOUNT] });
    const lapsedAdd = await call(t.app, "POST", `/api/dashboard/groups/${group.id}/members`, {
      token: chair.token,
      json: { email: lapsed.user.email },
    });
    expect(lapsedAdd.json?.errors).toEqual({ email: [NOT_A_MEMBER_ACCOUNT] });
    // Accounts by id are the admins' to pick: a chair cannot walk the ids to learn who is who.
    const byId = await call(t.app, "POST", `/api/dashboard/groups/${group.id}/members`, {
      token: chair.token,
      json: { user_id: outsider.user.id },
    });
    expect(byId.json?.errors).toEqual({ user_id: [ADD_BY_EMAIL] });
    const empty = await call(t.app, "POST", `/api/dashboard/groups/${group.id}/members`, {
      token: chair.token,
      json: {},
    });
    expect(empty.status).toBe(422);

    // A plain member of the group may not add; someone outside it does not learn it exists.
    const byMember = await call(t.app, "POST", `/api/dashboard/groups/${group.id}/members`, {
      token: member.token,
      json: { user_id: outsider.user.id },
    });
    expect(byMember.status).toBe(403);
    expect(byMember.json?.message).toBe(MEMBERS_BY_CHAIR);
    const byOutsider = await call(t.app, "POST", `/api/dashboard/groups/${group.id}/members`, {
      token: outsider.token,
      json: { user_id: outsider.user.id },
    });
    expect(byOutsider.status).toBe(404);

    // Lists: a member's own groups; admins and editors every group.
    const listOf = async (token: string) =>
      ((await call(t.app, "GET", "/api/dashboard/groups", { token })).json as { data: Group[] }).data.map(
        (g) => g.slug,
      );
    expect(await listOf(member.token)).toEqual([group.slug]);
    expect(await listOf(outsider.token)).toEqual([]);
    expect(await listOf(admin.token)).toContain(group.slug);
    expect(await listOf(editor.token)).toContain(group.slug);

    // The group's page: chairs first, names and companies; 404 from outside.
    const detail = await call(t.app, "GET", `/api/dashboard/groups/${group.slug}`, { token: member.token });
    expect(detail.status).toBe(200);
    const seen = (detail.json as { group: Detail }).group;
    expect(seen.members.map((p) => [p.user_id, p.is_chair, p.company])).toEqual([
      [chair.user.id, true, chair.company],
      [member.user.id, false, member.company],
    ]);
    expect(seen).toMatchObject({ is_member: true, is_chair: false, can_manage_members: false, member_count: 2 });
    const chairView = await call(t.app, "GET", `/api/dashboard/groups/${group.slug}`, { token: chair.token });
    expect((chairView.json as { group: Detail }).group.can_manage_members).toBe(true);
    expect((await call(t.app, "GET", `/api/dashboard/groups/${group.slug}`, { token: outsider.token })).status).toBe(
      404,
    );
    expect((await call(t.app, "GET", "/api/dashboard/groups/no-such-group", { token: admin.token })).status).toBe(404);

    // A chair removes a member, not a chair; an admin may.
    const chairOut = await call(t.app, "DELETE", `/api/dashboard/groups/${group.id}/members/${chair.user.id}`, {
      token: chair.token,
    });
    expect(chairOut.status).toBe(403);
    expect(chairOut.json?.message).toBe(CHAIRS_ONLY_BY_ADMIN);
    const memberOut = await call(t.app, "DELETE", `/api/dashboard/groups/${group.id}/members/${member.user.id}`, {
      token: chair.token,
    });
    expect(memberOut.status).toBe(200);
    expect(await listOf(member.token)).toEqual([]);
    expect(
      (
        await call(t.app, "DELETE", `/api/dashboard/groups/${group.id}/members/${member.user.id}`, {
          token: chair.token,
        })
      ).status,
    ).toBe(404);

    // Every change is in the audit log, under the one who made it.
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "actor_id"])
      .where("entity", "=", "group")
      .where("entity_id", "=", String(group.id))
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "create", actor_id: admin.user.id },
      { action: "add_member", actor_id: chair.user.id },
      { action: "remove_member", actor_id: chair.user.id },
    ]);
  });

  it("keeps one group per name when two admins save the same name at once, whatever its case", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const chair = await representative("Ines");
    const create = (name: string) =>
      call(t.app, "POST", "/api/dashboard/groups", { token: admin.token, json: { name, chair_ids: [chair.user.id] } });
    const created = await Promise.all([create("Radar Standards"), create("RADAR standards")]);
    expect(created.map((res) => res.status).sort()).toEqual([201, 422]);
    const refused = created.find((res) => res.status === 422);
    expect(refused?.json?.errors).toEqual({ name: [GROUP_NAME_TAKEN] });
    const folded = (await t.database.db.selectFrom("working_groups").select("name").execute()).filter(
      (row) => row.name.toLowerCase() === "radar standards",
    );
    expect(folded).toHaveLength(1);
    // Two renames to one new name at once: one of them.
    const other = groupOf(await create("AIS"));
    const mine = groupOf(created.find((res) => res.status === 201) as { json: Record<string, unknown> | null });
    const renamed = await Promise.all(
      [mine, other].map((group) =>
        call(t.app, "PATCH", `/api/dashboard/groups/${group.id}`, { token: admin.token, json: { name: "Navtex" } }),
      ),
    );
    expect(renamed.map((res) => res.status).sort()).toEqual([200, 422]);
    expect(renamed.find((res) => res.status === 422)?.json?.errors).toEqual({ name: [GROUP_NAME_TAKEN] });
  });

  it("an admin renames a group and replaces its chairs (the former chair stays a member), then deletes it", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const first = await representative("Frida");
    const second = await representative("Sven");
    const created = groupOf(
      await call(t.app, "POST", "/api/dashboard/groups", {
        token: admin.token,
        json: { name: "SECOM", chair_ids: [first.user.id] },
      }),
    );
    // As an HTML form sends it: POST with _method, the chairs as a comma list.
    const changed = await call(t.app, "POST", `/api/dashboard/groups/${created.id}`, {
      token: admin.token,
      form: { _method: "PATCH", name: "SECOM working group", chair_ids: String(second.user.id) },
    });
    expect(changed.status).toBe(200);
    const group = groupOf(changed);
    expect(group).toMatchObject({ name: "SECOM working group", slug: "secom", member_count: 2 });
    expect(group.chairs.map((c) => c.user_id)).toEqual([second.user.id]);
    const bad = await call(t.app, "POST", `/api/dashboard/groups/${created.id}`, {
      token: admin.token,
      json: { _method: "PATCH", name: "", chair_ids: ["x"] },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json?.errors as object).sort()).toEqual(["chair_ids.0", "name"]);

    // An account deleted leaves its groups with it.
    const { user: passing } = await createUser(t.runtime.services, {});
    await call(t.app, "POST", `/api/dashboard/groups/${created.id}/members`, {
      token: admin.token,
      json: { user_id: passing.id },
    });
    await t.runtime.services.accounts.remove(admin.user.id, passing.id);
    expect(
      await t.database.db.selectFrom("group_members").select("user_id").where("group_id", "=", created.id).execute(),
    ).toHaveLength(2);

    const deleted = await call(t.app, "DELETE", `/api/dashboard/groups/${created.id}`, { token: admin.token });
    expect(deleted.status).toBe(200);
    expect(
      await t.database.db.selectFrom("group_members").where("group_id", "=", created.id).selectAll().execute(),
    ).toEqual([]);
    expect((await call(t.app, "DELETE", `/api/dashboard/groups/${created.id}`, { token: admin.token })).status).toBe(
      404,
    );
  });

  it("the group's page: members read it, a chair adds and removes people with its forms, others get 404", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const chair = await representative("Carla");
    const member = await representative("Mats");
    const newcomer = await representative("Nina");
    const outsider = await representative("Otto");
    const group = await t.runtime.services.groups.create({
      name: "Pages group",
      description: "Papers and meetings of the page test.",
      chair_ids: [chair.user.id],
    });
    await t.runtime.services.groups.addMember(
      group.id,
      { user_id: undefined, email: member.user.email },
      { id: admin.user.id, role: "admin" },
    );
    const path = `${ORIGIN}/dashboard/groups/${group.slug}`;

    const asMember = await call(site.pages, "GET", path, { cookie: member.cookie });
    expect(asMember.status).toBe(200);
    const text = pageText(asMember.text);
    expect(text).toContain("Papers and meetings of the page test.");
    expect(text).toContain(chair.company);
    expect(text).not.toContain("Add a member by e-mail address");
    expect((await call(site.pages, "GET", path, { cookie: outsider.cookie })).status).toBe(404);
    const list = await call(site.pages, "GET", `${ORIGIN}/dashboard/groups`, { cookie: member.cookie });
    expect(pageText(list.text)).toContain("Pages group");
    expect(
      pageText((await call(site.pages, "GET", `${ORIGIN}/dashboard/groups`, { cookie: outsider.cookie })).text),
    ).toContain("You are not in a working group yet.");

    // The chair's forms: add by address (refused with the field's message, then done), remove.
    const form = (fields: Record<string, string>) =>
      call(site.pages, "POST", path, { cookie: chair.cookie, form: fields, headers: { origin: ORIGIN } });
    const refused = await form({ intent: "add", email: "no-account@example.org" });
    expect(refused.status).toBe(422);
    expect(pageText(refused.text)).toContain(NO_SUCH_ACCOUNT);
    const added = await form({ intent: "add", email: newcomer.user.email });
    expect(added.status).toBe(200);
    expect(pageText(added.text)).toContain("is now in the group.");
    const removed = await form({ intent: "remove", id: String(member.user.id) });
    expect(pageText(removed.text)).toContain("is no longer in the group.");
    expect(
      (await t.database.db.selectFrom("group_members").select("user_id").where("group_id", "=", group.id).execute())
        .map((r) => r.user_id)
        .sort((a, b) => a - b),
    ).toEqual([chair.user.id, newcomer.user.id].sort((a, b) => a - b));
    // A member who is not a chair hears why not.
    const byNewcomer = await call(site.pages, "POST", path, {
      cookie: newcomer.cookie,
      form: { intent: "remove", id: String(chair.user.id) },
      headers: { origin: ORIGIN },
    });
    expect(byNewcomer.status).toBe(403);
    expect(pageText(byNewcomer.text)).toContain(MEMBERS_BY_CHAIR);
  });

  it("the admins' screen creates a group with its chairs by address, saves changes, refuses with why, deletes", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const chair = await representative("Clara");
    const path = `${ORIGIN}/manager/groups`;
    const form = (fields: Record<string, string>) =>
      call(site.pages, "POST", path, { cookie: admin.cookie, form: fields, headers: { origin: ORIGIN } });

    const many = Array.from({ length: 500 }, (_, i) => `chair-${i}@example.org`).join(", ");
    const tooMany = await form({ intent: "create", name: "Board", chairs: many });
    expect(tooMany.status).toBe(422);
    expect(pageText(tooMany.text)).toContain("A group may have at most 20 chairs.");
    const unknown = await form({ intent: "create", name: "Board", chairs: "nobody@example.org" });
    expect(unknown.status).toBe(422);
    expect(pageText(unknown.text)).toContain("No active account uses nobody@example.org.");
    expect(await t.database.db.selectFrom("working_groups").select("id").where("name", "=", "Board").execute()).toEqual(
      [],
    );
    const created = await form({
      intent: "create",
      name: "Board",
      chairs: chair.user.email,
      description: "The board.",
    });
    expect(created.status).toBe(200);
    expect(pageText(created.text)).toContain("The group “Board” is created.");
    const row = await t.database.db
      .selectFrom("working_groups")
      .select(["id", "slug"])
      .where("name", "=", "Board")
      .executeTakeFirstOrThrow();
    const page = await call(site.pages, "GET", path, { cookie: admin.cookie });
    expect(page.text).toContain(`value="${chair.user.email}"`);
    const unnamed = await form({ intent: "update", id: String(row.id), name: "", chairs: chair.user.email });
    expect(unnamed.status).toBe(422);
    expect(pageText(unnamed.text)).toContain("The name field is required.");
    const saved = await form({ intent: "update", id: String(row.id), name: "The board", chairs: "" });
    expect(pageText(saved.text)).toContain("“The board” is saved.");
    const detail = await t.runtime.services.groups.detail(row.slug, { id: admin.user.id, role: "admin" });
    expect(detail).toMatchObject({ name: "The board", chairs: [], member_count: 1 });
    const deleted = await form({ intent: "delete", id: String(row.id) });
    expect(pageText(deleted.text)).toContain("The group is deleted.");
    // An editor may not open it (403 with why); the authorization matrix tries every role.
    const editor = await signIn(t.runtime.services, "editor");
    expect((await call(site.pages, "GET", path, { cookie: editor.cookie })).status).toBe(403);
  });

  it("a member whose company has lapsed keeps the group but sees none of it until the company is current", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const chair = await representative("Lena");
    const group = await t.runtime.services.groups.create({
      name: "Lapse group",
      description: "",
      chair_ids: [chair.user.id],
    });
    const company = await t.database.db
      .selectFrom("company_representatives")
      .select("company_id")
      .where("user_id", "=", chair.user.id)
      .executeTakeFirstOrThrow();
    await t.database.db
      .updateTable("member_companies")
      .set({ renews_on: "2021-01-01" })
      .where("id", "=", company.company_id)
      .execute();
    expect(
      ((await call(t.app, "GET", "/api/dashboard/groups", { token: chair.token })).json as { data: unknown[] }).data,
    ).toEqual([]);
    expect((await call(t.app, "GET", `/api/dashboard/groups/${group.slug}`, { token: chair.token })).status).toBe(404);
    const add = await call(t.app, "POST", `/api/dashboard/groups/${group.id}/members`, {
      token: chair.token,
      json: { email: admin.user.email },
    });
    expect(add.status).toBe(404);
    // Their place is kept: the admins still see them in it.
    const detail = await t.runtime.services.groups.detail(group.slug, { id: admin.user.id, role: "admin" });
    expect(detail.members.map((m) => m.user_id)).toEqual([chair.user.id]);
  });
});

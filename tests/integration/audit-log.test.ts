import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, signIn } from "../support/factories";
import { pagesApp } from "../support/pages";
import { registerThroughForm } from "../support/registrations";

/**
 * The audit log (issue 34, decision 0074): every write by an admin or a primary contact and every
 * security event is a row (who, when, IP, action, entity, summary, the changed fields before and
 * after, never a secret); /manager/audit and GET /api/dashboard/audit list and filter it, CSV
 * exports it; nothing edits or deletes a row but the retention job.
 */
let t: TestContext;
let pages: TestContext["app"];
let closePages: () => Promise<void>;
let admin: Awaited<ReturnType<typeof signIn>>;
let clock = new Date("2026-11-20T10:00:00Z");

beforeAll(async () => {
  t = await createTestContext({}, { clock: () => clock });
  ({ pages, close: closePages } = await pagesApp(t));
  admin = await signIn(t.runtime.services, "admin");
  await t.runtime.services.pages.ensureFixedPages();
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

type Row = {
  id: number;
  actor: { id: number | null; name: string };
  ip: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  summary: string;
  changes: Record<string, { before: unknown; after: unknown }> | null;
};
const audit = async (query = "") => {
  const answer = await call(t.app, "GET", `/api/dashboard/audit${query}`, { token: admin.token });
  expect(answer.status).toBe(200);
  return answer.json as { data: Row[]; total: number; next_page_url: string | null };
};
/** A members-only library category at the root, through the service as the admin screen makes one. */
const newCategory = (name: string) =>
  t.runtime.services.libraryAdmin.createCategory(
    {
      name,
      title: null,
      title_description: null,
      description: null,
      content: null,
      view_type: null,
      is_active: true,
      is_public: "members",
      parent_id: null,
    },
    null,
  );
const adminName = () => `${admin.user.first_name} ${admin.user.last_name}`.trim();

describe("what the audit log records", () => {
  it("an admin's edit, with who, the address and the fields before and after", async () => {
    await call(t.app, "PATCH", "/api/dashboard/pages/history", {
      token: admin.token,
      json: { title: "History", content: "<p>Since 1960.</p>" },
      headers: { "x-forwarded-for": "198.51.100.7" },
    });
    const [row] = (await audit("?entity=page")).data;
    expect(row).toMatchObject({
      actor: { id: admin.user.id, name: adminName() },
      action: "update",
      entity: "page",
      summary: "Page “History” changed",
    });
    expect(row.ip).toBeTruthy();
    expect(row.changes?.content).toEqual({ before: expect.any(String), after: "<p>Since 1960.</p>" });
  });

  it("a write no service describes, as a plain row naming the page and its form's intent", async () => {
    const post = await t.runtime.services.news.create({
      title: "Plain row post",
      content: "<p>Plain.</p>",
      author_name: "Audit",
    } as never);
    const sent = await call(pages, "POST", `${ORIGIN}/manage-news/${post.id}/edit`, {
      form: { intent: "announce-test" },
      headers: { cookie: admin.cookie, origin: ORIGIN },
    });
    expect(sent.status).toBeLessThan(400);
    const [row] = (await audit()).data;
    expect(row).toMatchObject({
      action: "announce-test",
      summary: `POST /manage-news/${post.id}/edit (announce-test)`,
      changes: null,
    });
  });

  it("a category moved in the tree, with where it was and where it went", async () => {
    const parent = await newCategory("Moved parent");
    const child = await newCategory("Moved child");
    const moved = await call(t.app, "POST", `/api/dashboard/papers-categories/${child.id}/move`, {
      token: admin.token,
      json: { parent_id: parent.id },
    });
    expect(moved.status).toBe(200);
    const [row] = (await audit(`?entity=category&entity_id=${child.id}`)).data;
    expect(row).toMatchObject({
      action: "move",
      summary: "Category “Moved child” moved",
      changes: { parent_id: { before: null, after: parent.id }, position: expect.anything() },
    });
  });

  it("a request marked handled, and deleted", async () => {
    const request = await registerThroughForm(t, "/join", { now: clock, email: "handled@example.org" });
    const marked = await call(t.app, "PATCH", `/api/dashboard/join-requests/${request.id}`, {
      token: admin.token,
      json: { handled: true },
    });
    expect(marked.status).toBe(200);
    expect(
      (await call(t.app, "DELETE", `/api/dashboard/join-requests/${request.id}`, { token: admin.token })).status,
    ).toBe(200);
    const rows = (await audit(`?entity=request&entity_id=${request.id}`)).data;
    expect(rows.map((r) => [r.action, r.summary])).toEqual([
      ["delete", `Request #${request.id} deleted`],
      ["handled", `Request #${request.id} marked handled`],
    ]);
  });

  it("an invitation, as the user it creates", async () => {
    const invited = await call(t.app, "POST", "/api/dashboard/users", {
      token: admin.token,
      json: { email: "invited.row@example.org", first_name: "Ivy", last_name: "Invited", role: "member" },
    });
    expect(invited.status).toBe(201);
    const [row] = (await audit("?entity=user")).data;
    expect(row).toMatchObject({
      action: "invited",
      summary: "invited.row@example.org invited as member",
      changes: { email: { before: null, after: "invited.row@example.org" }, role: { before: null, after: "member" } },
    });
  });

  it("the settings, with each changed key before and after", async () => {
    const saved = await call(t.app, "PATCH", "/api/dashboard/settings", {
      token: admin.token,
      json: { "site.phone": "+47 22 00 00 00" },
    });
    expect(saved.status).toBe(200);
    const [row] = (await audit("?entity=settings")).data;
    expect(row).toMatchObject({
      action: "update",
      entity: "settings",
      summary: "Site settings changed: site.phone",
      changes: { "site.phone": { before: expect.anything(), after: "+47 22 00 00 00" } },
    });
  });

  it("companies, representatives, users, papers, join requests and registrations, each described", async () => {
    const created = await call(t.app, "POST", "/api/dashboard/companies", {
      token: admin.token,
      json: { name: "Ledger Marine AS", country: "NO" },
    });
    expect(created.status).toBe(201);
    const companyId = (created.json as { company: { id: number } }).company.id;
    await call(t.app, "PATCH", `/api/dashboard/companies/${companyId}`, {
      token: admin.token,
      json: { seats: 4, website: "https://ledger.example" },
    });
    const companyRows = (await audit(`?entity=company&entity_id=${companyId}`)).data;
    expect(companyRows.map((r) => [r.action, r.summary])).toEqual([
      ["update", "Company “Ledger Marine AS” changed"],
      ["create", "Company “Ledger Marine AS” added"],
    ]);
    expect(companyRows[0].changes).toEqual({
      seats: { before: null, after: 4 },
      website: { before: null, after: "https://ledger.example" },
    });
    // The company's edit screen shows its own history.
    const editor = await call(pages, "GET", `${ORIGIN}/manager/members/${companyId}`, {
      headers: { cookie: admin.cookie },
    });
    expect(editor.status).toBe(200);
    expect(editor.text).toContain('id="history-title"');
    expect(editor.text).toContain("Company “Ledger Marine AS” changed");

    const person = await createUser(t.runtime.services, { role: "member" });
    await call(t.app, "POST", `/api/dashboard/companies/${companyId}/representatives`, {
      token: admin.token,
      json: { email: person.user.email, first_name: "Lee", last_name: "Ledger" },
    });
    await call(t.app, "PATCH", `/api/dashboard/users/${person.user.id}`, {
      token: admin.token,
      json: { role: "admin" },
    });
    const [userRow] = (await audit(`?entity=user&entity_id=${person.user.id}`)).data;
    expect(userRow).toMatchObject({
      action: "update",
      summary: `User ${person.user.email} changed: role admin`,
      changes: { role: { before: "member", after: "admin" } },
    });
    expect((await audit(`?entity=company&entity_id=${companyId}`)).data[0]).toMatchObject({
      action: "representative_added",
      summary: `${person.user.email} linked as a representative of “Ledger Marine AS”`,
    });

    const category = await newCategory("Audit papers");
    const form = new FormData();
    form.append("name", "Ledger paper");
    form.append("papers_category_id", String(category.id));
    const paper = await call(t.app, "POST", "/api/dashboard/papers", { token: admin.token, body: form });
    expect(paper.status).toBe(201);
    const paperId = (paper.json as { paper: { id: number } }).paper.id;
    const renamed = new FormData();
    renamed.append("name", "Ledger paper, revised");
    renamed.append("papers_category_id", String(category.id));
    await call(t.app, "PATCH", `/api/dashboard/papers/${paperId}`, { token: admin.token, body: renamed });
    await call(t.app, "DELETE", `/api/dashboard/papers/${paperId}`, { token: admin.token });
    const paperRows = (await audit(`?entity=paper&entity_id=${paperId}`)).data;
    expect(paperRows.map((r) => r.action)).toEqual(["delete", "update", "create"]);
    expect(paperRows[1].changes).toEqual({ name: { before: "Ledger paper", after: "Ledger paper, revised" } });
    expect(paperRows[0].summary).toBe("Paper “Ledger paper, revised” deleted");

    // A join request declined, and a registration confirmed, both by the admin.
    const stamp = clock.toISOString();
    const meeting = await t.database.db
      .insertInto("meetings")
      .values({
        slug: "ledger-workshop",
        title: "Ledger workshop",
        type: "workshop",
        start_date: "2099-03-01",
        registration_open: 1,
        visibility: "public",
        created_at: stamp,
        updated_at: stamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const application = await registerThroughForm(t, "/join", { now: clock, email: "dee@declined.example" });
    const declined = await call(t.app, "POST", `/api/dashboard/join-requests/${application.id}/decline`, {
      token: admin.token,
      json: { reason: "Not a marine electronics company." },
    });
    expect(declined.status).toBe(200);
    const registration = await registerThroughForm(t, "/events/ledger-workshop", { now: clock });
    const confirmed = await call(
      t.app,
      "PATCH",
      `/api/dashboard/meeting/${meeting.id}/registrations/${registration.id}`,
      {
        token: admin.token,
        json: { status: "confirmed" },
      },
    );
    expect(confirmed.status).toBe(200);
    const requests = (await audit("?entity=request")).data.filter((r) =>
      [String(application.id), String(registration.id)].includes(r.entity_id ?? ""),
    );
    expect(requests.map((r) => [r.action, r.entity_id, r.summary])).toEqual([
      ["registration_confirmed", String(registration.id), `Registration #${registration.id}: confirmed`],
      ["declined", String(application.id), `Join request #${application.id} from dee@declined.example declined`],
    ]);
    expect(requests[1].changes).toEqual({
      status: { before: "new", after: "declined" },
      reason: { before: null, after: "Not a marine electronics company." },
    });

    // A meeting's programme item and sponsor, under the meeting.
    const item = await call(t.app, "POST", `/api/dashboard/meeting/${meeting.id}/schedule`, {
      token: admin.token,
      json: { meeting_date: "2099-03-01", start: "09:00", finish: "10:00", description: "Opening" },
    });
    expect(item.status, item.text).toBe(201);
    const sponsor = await call(t.app, "POST", `/api/dashboard/meeting/${meeting.id}/sponsor`, {
      token: admin.token,
      json: { name: "Ledger Sponsor", link: "https://sponsor.example" },
    });
    expect(sponsor.status, sponsor.text).toBe(201);
    const meetingRows = (await audit(`?entity=meeting&entity_id=${meeting.id}`)).data;
    expect(meetingRows.map((r) => [r.action, r.summary])).toEqual([
      ["sponsor_added", "Sponsor “Ledger Sponsor” added"],
      ["schedule_added", "Programme item of 2099-03-01 added"],
    ]);
    expect(meetingRows[1].changes?.description).toEqual({ before: null, after: "Opening" });
  });
  it("a primary contact's write, and nothing for a plain member's read", async () => {
    const company = await t.runtime.services.members.create({ name: "Audit Marine AS", country: "NO" });
    const member = await signIn(t.runtime.services, "member");
    const added = await call(t.app, "POST", `/api/dashboard/companies/${company.id}/representatives`, {
      token: admin.token,
      json: { email: member.user.email, first_name: member.user.first_name, last_name: member.user.last_name },
    });
    expect(added.status).toBe(201);
    await call(t.app, "PATCH", `/api/dashboard/companies/${company.id}/representatives/${member.user.id}`, {
      token: admin.token,
      json: { primary: true },
    });
    const before = (await audit()).total;
    await call(t.app, "GET", "/api/dashboard/company", { token: member.token });
    expect((await audit()).total).toBe(before);
    const changed = await call(t.app, "PATCH", "/api/dashboard/company", {
      token: member.token,
      json: { products: "Radar" },
    });
    expect(changed.status).toBe(200);
    const [row] = (await audit(`?actor=${member.user.id}`)).data;
    expect(row).toMatchObject({
      actor: { id: member.user.id },
      entity: "company",
      action: "update",
      changes: { products: { before: "[]", after: '["Radar"]' } },
    });
  });

  it("sign-ins, failed sign-ins, lockouts and refused access", async () => {
    const user = await createUser(t.runtime.services, { role: "member", first_name: "Sam", last_name: "Sailor" });
    const login = (password: string) =>
      call(t.app, "POST", "/api/login", { json: { email: user.user.email, password } });
    expect((await login(user.password)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login("wrong password")).status).toBe(401);
    expect((await login("wrong password")).status).toBe(429);
    await call(t.app, "POST", "/api/login", { json: { email: "nobody@example.org", password: "whatever1" } });
    const rows = (await audit("?entity=session")).data;
    const mine = rows.filter((r) => r.entity_id === String(user.user.id)).map((r) => r.action);
    expect(mine).toEqual(["sign_in_locked", ...Array(5).fill("sign_in_failed"), "sign_in"]);
    expect(rows.find((r) => r.entity_id === null)).toMatchObject({
      action: "sign_in_failed",
      actor: { id: null, name: "Unknown account" },
      summary: "Failed sign-in: no account with that address",
    });
    const member = await signIn(t.runtime.services, "member");
    expect((await call(t.app, "GET", "/api/dashboard/audit", { token: member.token })).status).toBe(403);
    const [refused] = (await audit("?action=access_refused")).data;
    expect(refused).toMatchObject({
      actor: { id: member.user.id },
      summary: "Refused (403): GET /api/dashboard/audit",
    });
    // A page of the admin area, refused by its guard.
    expect((await call(pages, "GET", `${ORIGIN}/manager/audit`, { headers: { cookie: member.cookie } })).status).toBe(
      302,
    );
    expect((await audit("?action=access_refused")).data[0].summary).toBe("Refused (403): GET /manager/audit");
  });

  it("a password change, never its value or hash", async () => {
    const user = await signIn(t.runtime.services, "member");
    const changed = await call(t.app, "PATCH", "/api/dashboard/user/settings", {
      token: user.token,
      json: {
        password: user.password,
        new_password: "A much newer passphrase 42",
        confirm_new_password: "A much newer passphrase 42",
      },
    });
    expect(changed.status).toBe(200);
    const [row] = (await audit(`?action=password_changed&actor=${user.user.id}`)).data;
    expect(row.changes?.password).toEqual({ before: null, after: "(hidden)" });
    const everything = JSON.stringify(await t.database.db.selectFrom("audit_log").selectAll().execute());
    expect(everything).not.toMatch(/\$argon2|A much newer passphrase/);
  });
});

describe("reading the audit log", () => {
  it("filters by who, what, which, action and dates, pages by 50, and exports the same as CSV", async () => {
    for (let i = 0; i < 55; i++) {
      await call(t.app, "PATCH", "/api/dashboard/pages/collaboration", {
        token: admin.token,
        json: { title: "Collaboration", content: `<p>Version ${i}.</p>` },
      });
    }
    const page = (await call(t.app, "GET", "/api/dashboard/pages/collaboration", { token: admin.token })).json as {
      page: { id: number };
    };
    const first = await audit(`?entity=page&entity_id=${page.page.id}&actor=${admin.user.id}&action=update`);
    expect(first.total).toBe(55);
    expect(first.data).toHaveLength(50);
    expect(first.next_page_url).toContain("page=2");
    expect(first.next_page_url).toContain(`entity_id=${page.page.id}`);
    expect((await audit(`?entity=page&entity_id=${page.page.id}&page=2`)).data).toHaveLength(5);
    expect((await audit("?from=2026-11-21")).total).toBe(0);
    expect((await audit("?from=2026-11-20&to=2026-11-20")).total).toBeGreaterThan(55);
    // A filter form sends its empty fields: no filter.
    expect((await audit("?actor=&entity=&action=&from=&to=&entity_id=")).total).toBe((await audit()).total);
    const bad = await call(t.app, "GET", "/api/dashboard/audit?from=yesterday", { token: admin.token });
    expect(bad.status).toBe(422);

    const csv = await call(pages, "GET", `${ORIGIN}/manager/audit/export.csv?entity=page&search=${page.page.id}`, {
      headers: { cookie: admin.cookie },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.text.trim().split("\r\n")).toHaveLength(56);
    const screen = await call(pages, "GET", `${ORIGIN}/manager/audit?entity=page`, {
      headers: { cookie: admin.cookie },
    });
    expect(screen.status).toBe(200);
    expect(screen.text).toContain("Page “Collaboration” changed");
  });

  it("is append-only: no route edits or deletes a row; the retention job removes the old ones alone", async () => {
    for (const method of ["PATCH", "PUT", "DELETE", "POST"]) {
      const answer = await call(t.app, method, "/api/dashboard/audit", { token: admin.token, json: {} });
      // No such route: 404 where nothing answers the path, 405 where only its GET does.
      expect([404, 405], method).toContain(answer.status);
    }
    const total = (await audit()).total;
    expect(await t.runtime.services.audit.prune()).toBe(0);
    // Two years and a day later, every row is past the retention (730 days).
    clock = new Date("2028-11-21T10:00:00Z");
    expect(await t.runtime.services.audit.prune()).toBe(total);
  });
});

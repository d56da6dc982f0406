import ICAL from "ical.js";
import { simpleParser } from "mailparser";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIENCE_GROUPS_REQUIRED, CHAIRS_OWN_CATEGORIES } from "../../core/groups/groups.schema";
import { call, createTestContext, type TestContext } from "../support/app";
import { representative as representativeOf, signIn } from "../support/factories";
import { pagesApp } from "../support/pages";
import { type ReceivedMail, startSmtpServer } from "../support/smtp";

/**
 * Issue 36, decision 0083: library categories and meetings for working groups. A group's members
 * read its category (and its sub-categories), its papers, their files and revisions, find them in
 * search and hear of them; its meetings are in their calendars. Everyone else gets 404 everywhere
 * (pages, API, downloads, feeds), finds nothing, and no cache hands a group's answer to them.
 */
let t: TestContext;
let site: Awaited<ReturnType<typeof pagesApp>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let now = new Date("2031-03-03T09:00:00Z");
const clock = () => new Date(now);
const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, NOTIFY_BATCH_SECONDS: "100" }, { clock });
  site = await pagesApp(t);
}, 120_000);
afterAll(async () => {
  await site?.close();
  await t?.close();
  await smtp?.close();
});

type Category = {
  id: number;
  slug: string;
  url: string;
  audience: string;
  audience_setting: string;
  group_ids: number[];
  is_public: boolean;
};
type Paper = { id: number; revisions: { id: number; file: { url: string } }[] };

const representative = (name: string, lapsed = false) =>
  representativeOf(t.runtime.services, t.database.db, name, lapsed);

async function pdfWith(text: string): Promise<File> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 50, y: 700, font, size: 12 });
  return new File([(await doc.save()) as Uint8Array<ArrayBuffer>], "draft.pdf", { type: "application/pdf" });
}

function paperForm(fields: Record<string, string>, file: File, method?: string): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("uploaded_file", file);
  if (method) form.append("_method", method);
  return form;
}

const search = async (query: string, token?: string) =>
  (
    (await call(t.app, "GET", `/api/search?search_query=${encodeURIComponent(query)}`, { token })).json as {
      results: { url: string }[];
    }
  ).results.map((r) => r.url);

const status = async (url: string, token?: string) =>
  (await t.app.request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })).status;

describe("audiences by working group", () => {
  it("a group's category, papers, files, search entries, meetings and feeds are its members' alone", async () => {
    const services = t.runtime.services;
    const admin = await signIn(services, "admin");
    const editor = await signIn(services, "editor");
    const chair = await representative("Chiara");
    const member = await representative("Magnus");
    const outsider = await representative("Olga");
    const lapsed = await representative("Lars");

    const group = async (name: string, chairId: number) => {
      const res = await call(t.app, "POST", "/api/dashboard/groups", {
        token: admin.token,
        json: { name, chair_ids: [chairId] },
      });
      expect(res.status, res.text).toBe(201);
      return (res.json as { group: { id: number; slug: string } }).group;
    };
    const secom = await group("SECOM", chair.user.id);
    const board = await group("Board", outsider.user.id);
    for (const person of [member, lapsed]) {
      const added = await call(t.app, "POST", `/api/dashboard/groups/${secom.id}/members`, {
        token: chair.token,
        json: { email: person.user.email },
      });
      expect(added.status, added.text).toBe(201);
    }
    // Lars's company lapses after he joined: he keeps his place and sees nothing of the group.
    await t.database.db
      .updateTable("member_companies")
      .set({ renews_on: "2021-01-01" })
      .where("name", "=", lapsed.company)
      .execute();

    // A category for SECOM (as JSON sends it); a sub-category inherits it.
    const created = await call(t.app, "POST", "/api/dashboard/papers-categories", {
      token: admin.token,
      json: { name: "SECOM drafts", audience: "groups", group_ids: [secom.id] },
    });
    expect(created.status, created.text).toBe(201);
    const drafts = (created.json as { category: Category }).category;
    expect(drafts).toMatchObject({
      audience: "groups",
      audience_setting: "groups",
      group_ids: [secom.id],
      is_public: false,
    });
    const child = await call(t.app, "POST", "/api/dashboard/papers-categories", {
      token: admin.token,
      json: { name: "Trials", parent_id: drafts.id },
    });
    const trials = (child.json as { category: Category }).category;
    expect(trials).toMatchObject({ audience: "groups", audience_setting: "inherit", group_ids: [secom.id] });

    // Refusals say why: groups without any, or a group that does not exist.
    const none = await call(t.app, "POST", "/api/dashboard/papers-categories", {
      token: admin.token,
      json: { name: "Nobody's", audience: "groups" },
    });
    expect(none.status).toBe(422);
    expect(none.json?.errors).toEqual({ group_ids: [AUDIENCE_GROUPS_REQUIRED] });
    const unknown = await call(t.app, "POST", "/api/dashboard/papers-categories", {
      token: admin.token,
      json: { name: "Ghosts'", audience: "groups", group_ids: [999_999] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json?.errors).toHaveProperty("group_ids");

    // The chair's paper, then a new file: the old one is a revision.
    const uploaded = await call(t.app, "POST", "/api/dashboard/papers", {
      token: chair.token,
      body: paperForm(
        { name: "Quillwort trial report", papers_category_id: String(trials.id) },
        await pdfWith("Quillwort handshake first"),
      ),
    });
    expect(uploaded.status, uploaded.text).toBe(201);
    const paperId = (uploaded.json as { paper: Paper }).paper.id;
    const revised = await call(t.app, "POST", `/api/dashboard/papers/${paperId}`, {
      token: chair.token,
      body: paperForm(
        { name: "Quillwort trial report", papers_category_id: String(trials.id), revision: "Rev. 2" },
        await pdfWith("Quillwort handshake second"),
        "PATCH",
      ),
    });
    expect(revised.status, revised.text).toBe(200);
    const revisionUrl = (revised.json as { paper: Paper }).paper.revisions[0].file.url;
    // A chair nowhere else: not in another category, not moving the paper out; a member of the
    // group who does not chair it, not at all.
    const elsewhere = await call(t.app, "POST", "/api/dashboard/papers-categories", {
      token: admin.token,
      json: { name: "Board papers", is_public: false },
    });
    const boardCategory = (elsewhere.json as { category: Category }).category;
    const outside = await call(t.app, "POST", "/api/dashboard/papers", {
      token: chair.token,
      body: paperForm({ name: "Stray", papers_category_id: String(boardCategory.id) }, await pdfWith("Stray")),
    });
    expect(outside.status).toBe(403);
    expect(outside.json?.message).toBe(CHAIRS_OWN_CATEGORIES);
    const moved = await call(t.app, "POST", `/api/dashboard/papers/${paperId}`, {
      token: chair.token,
      json: { _method: "PATCH", name: "Quillwort trial report", papers_category_id: boardCategory.id },
    });
    expect(moved.status).toBe(403);
    const byMember = await call(t.app, "POST", "/api/dashboard/papers", {
      token: member.token,
      body: paperForm({ name: "Mine", papers_category_id: String(trials.id) }, await pdfWith("Mine")),
    });
    expect(byMember.status).toBe(403);
    // Refused as the secretariat's routes refuse: in the security log.
    const logged = await t.database.db
      .selectFrom("audit_log")
      .select("summary")
      .where("actor_id", "=", member.user.id)
      .where("action", "=", "access_refused")
      .execute();
    expect(logged.map((r) => r.summary)).toEqual(["Refused (403): POST /api/dashboard/papers"]);
    expect((await call(t.app, "DELETE", `/api/dashboard/papers/${paperId}`, { token: outsider.token })).status).toBe(
      403,
    );

    // A meeting for SECOM.
    const meetingRes = await call(t.app, "POST", "/api/dashboard/meeting", {
      token: admin.token,
      json: {
        title: "Quillwort interoperability review",
        type: "meeting",
        start_date: "2031-04-10",
        audience: "groups",
        group_ids: [secom.id],
      },
    });
    expect(meetingRes.status, meetingRes.text).toBe(201);
    const meeting = (meetingRes.json as { event: { id: number; slug: string; audience: string; group_ids: number[] } })
      .event;
    expect(meeting).toMatchObject({ audience: "groups", group_ids: [secom.id] });

    // The group's members and the secretariat: category, papers, files, search, meeting.
    const insiders = { member: member.token, chair: chair.token, admin: admin.token, editor: editor.token };
    for (const [who, token] of Object.entries(insiders)) {
      expect(await status(`/api/dashboard/getCategoryBySlug/${trials.slug}`, token), who).toBe(200);
      const papers = await call(t.app, "POST", `/api/dashboard/getPapersByCategory/${trials.id}`, { token, json: {} });
      expect(papers.status, who).toBe(200);
      expect(await status(`/papers/${paperId}/download`, token), who).toBe(200);
      expect(await status(revisionUrl, token), who).toBe(200);
      expect(await search("quillwort", token), who).toEqual(
        expect.arrayContaining([
          expect.stringContaining(`/papers/${paperId}/view`),
          `/dashboard/events/${meeting.slug}`,
        ]),
      );
      expect(await status(`/api/meetings/${meeting.slug}`, token), who).toBe(200);
    }
    // Registering for it: the group's members may, anyone else gets the page's 404.
    const registration = (email: string) => ({
      company_name: "Quillwort Marine AS",
      representative_name: "Quill Wort",
      email,
      phone_number: "+47 22 33 44 55",
      page_path: `/dashboard/events/${meeting.slug}`,
    });
    const registered = await call(t.app, "POST", "/api/join", {
      token: member.token,
      json: registration(member.user.email),
    });
    expect(registered.status, registered.text).toBe(200);
    const notTheirs = await call(t.app, "POST", "/api/join", {
      token: outsider.token,
      json: registration(outsider.user.email),
    });
    expect(notTheirs.status).toBe(404);
    const listed = await call(t.app, "GET", "/api/meetings?start_date=2031-04-01", { token: member.token });
    expect((listed.json as { data: { slug: string }[] }).data.map((m) => m.slug)).toContain(meeting.slug);

    // Everyone else: 404 from the category, its papers, the files, the meeting; nothing in search.
    const outsiders = { outsider: outsider.token, lapsed: lapsed.token, visitor: undefined };
    for (const [who, token] of Object.entries(outsiders)) {
      expect(await status(`/api/dashboard/getCategoryBySlug/${trials.slug}`, token), who).toBe(404);
      expect(await status(`/api/dashboard/getCategoryBySlug/${drafts.slug}`, token), who).toBe(404);
      const papers = await call(t.app, "POST", `/api/dashboard/getPapersByCategory/${trials.id}`, { token, json: {} });
      expect(papers.status, who).toBe(404);
      expect(await status(`/papers/${paperId}/download`, token), who).toBe(404);
      expect(await status(revisionUrl, token), who).toBe(404);
      expect(await search("quillwort", token), who).toEqual([]);
      expect(await status(`/api/meetings/${meeting.slug}`, token), who).toBe(404);
      const list = await call(t.app, "GET", "/api/meetings?start_date=2031-04-01", { token });
      expect(
        (list.json as { data: { slug: string }[] }).data.map((m) => m.slug),
        who,
      ).not.toContain(meeting.slug);
    }

    // A client that knows only SPEC's is_public keeps the groups when it saves members-only, for a
    // category with groups of its own and for one that inherits them; leaving is_public out
    // changes nothing of the audience either.
    const saved = await call(t.app, "POST", `/api/dashboard/papers-categories/${drafts.id}`, {
      token: admin.token,
      json: { name: "SECOM drafts", is_public: false },
    });
    expect(saved.status, saved.text).toBe(200);
    expect((saved.json as { category: Category }).category).toMatchObject({
      audience: "groups",
      group_ids: [secom.id],
    });
    const inheriting = await call(t.app, "POST", `/api/dashboard/papers-categories/${trials.id}`, {
      token: admin.token,
      json: { name: "Trials", is_public: false },
    });
    expect((inheriting.json as { category: Category }).category).toMatchObject({
      audience: "groups",
      group_ids: [secom.id],
    });
    const leftOut = await call(t.app, "POST", `/api/dashboard/papers-categories/${drafts.id}`, {
      token: admin.token,
      json: { name: "SECOM drafts" },
    });
    expect((leftOut.json as { category: Category }).category).toMatchObject({
      audience: "groups",
      audience_setting: "groups",
    });
    expect(await status(`/api/dashboard/getCategoryBySlug/${trials.slug}`, outsider.token)).toBe(404);
    expect(await search("quillwort", outsider.token)).toEqual([]);
    // The same for the meeting: saved without visibility, it stays the group's.
    const meetingSaved = await call(t.app, "POST", `/api/dashboard/meeting/${meeting.id}`, {
      token: admin.token,
      json: { _method: "PATCH", title: "Quillwort interoperability review", type: "meeting", start_date: "2031-04-10" },
    });
    expect(meetingSaved.status, meetingSaved.text).toBe(200);
    expect((meetingSaved.json as { event: { audience: string } }).event.audience).toBe("groups");
    expect(await status(`/api/meetings/${meeting.slug}`, outsider.token)).toBe(404);

    // The group's page lists its category, the latest paper and the meeting; a group in use stays.
    const detail = await call(t.app, "GET", `/api/dashboard/groups/${secom.slug}`, { token: member.token });
    expect(detail.json?.group).toMatchObject({
      categories: [{ id: drafts.id }],
      papers: [{ id: paperId, category: { id: trials.id } }],
      meetings: [{ id: meeting.id, url: `/dashboard/events/${meeting.slug}` }],
    });
    const refused = await call(t.app, "DELETE", `/api/dashboard/groups/${secom.id}`, { token: admin.token });
    expect(refused.status).toBe(409);
    // Trials took its groups as its own when it was saved members-only above.
    expect(refused.json?.message).toContain("2 library categories and 1 meeting");
    expect((await call(t.app, "DELETE", `/api/dashboard/groups/${board.id}`, { token: admin.token })).status).toBe(200);

    // Private calendar feeds: the group's members have the meeting, the others not.
    const feedOf = async (userId: number, password: string) => {
      const token = await services.profile.renewCalendarToken(userId, password);
      const res = await call(t.app, "GET", `/calendar/${token}.ics`, {});
      expect(res.status).toBe(200);
      const root = new ICAL.Component(ICAL.parse(res.text ?? ""));
      return root.getAllSubcomponents("vevent").map((c) => new ICAL.Event(c).summary);
    };
    expect(await feedOf(member.user.id, member.password)).toContain("Quillwort interoperability review");
    expect(await feedOf(outsider.user.id, outsider.password)).not.toContain("Quillwort interoperability review");
    expect(await feedOf(admin.user.id, admin.password)).toContain("Quillwort interoperability review");
    // The meeting's own file: the group's members only.
    expect(await status(`/events/${meeting.slug}.ics`, member.token)).toBe(200);
    expect(await status(`/events/${meeting.slug}.ics`, outsider.token)).toBe(404);
  });

  it("no cache hands a group's render or answer to a member outside it", async () => {
    const services = t.runtime.services;
    const admin = await signIn(services, "admin");
    const insider = await representative("Ines");
    const outsider = await representative("Otto");
    const plain = await representative("Pia");
    const created = await call(t.app, "POST", "/api/dashboard/groups", {
      token: admin.token,
      json: { name: "Cache trial group", chair_ids: [insider.user.id] },
    });
    const groupId = (created.json as { group: { id: number } }).group.id;
    const category = (
      (
        await call(t.app, "POST", "/api/dashboard/papers-categories", {
          token: admin.token,
          json: { name: "Petrelwort minutes", audience: "groups", group_ids: [groupId] },
        })
      ).json as { category: Category }
    ).category;

    // The members' library home and the category's page: rendered for the insider first, then
    // asked by members outside the group (with no groups, and with another set): each their own.
    const page = (path: string, cookie: string) => site.pages.request(path, { headers: { cookie } });
    const home = await page("/dashboard", insider.cookie);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Petrelwort minutes");
    for (const person of [plain, outsider]) {
      const theirs = await page("/dashboard", person.cookie);
      expect(await theirs.text()).not.toContain("Petrelwort minutes");
    }
    expect((await page(`/dashboard/${category.slug}`, insider.cookie)).status).toBe(200);
    expect((await page(`/dashboard/${category.slug}`, outsider.cookie)).status).toBe(404);
    expect((await page(`/dashboard/${category.slug}`, plain.cookie)).status).toBe(404);

    // The API's answer cache, the same way.
    const api = (token: string) =>
      call(site.pages, "GET", `/api/dashboard/getCategoryBySlug/${category.slug}`, { token });
    expect((await api(insider.token)).status).toBe(200);
    expect((await api(insider.token)).status).toBe(200);
    expect((await api(plain.token)).status).toBe(404);
    expect((await api(outsider.token)).status).toBe(404);

    // A chair's new paper is on the group's shared render at once (a chair's change publishes).
    const before = await (await page(`/dashboard/${category.slug}`, insider.cookie)).text();
    expect(before).not.toContain("Sorrel minutes of March");
    const added = await call(t.app, "POST", "/api/dashboard/papers", {
      token: insider.token,
      body: paperForm(
        { name: "Sorrel minutes of March", papers_category_id: String(category.id) },
        await pdfWith("Sorrel"),
      ),
    });
    expect(added.status, added.text).toBe(201);
    expect(await (await page(`/dashboard/${category.slug}`, insider.cookie)).text()).toContain(
      "Sorrel minutes of March",
    );

    // Joining the group opens it at once (the key follows the person's groups); leaving closes it.
    const joined = await call(t.app, "POST", `/api/dashboard/groups/${groupId}/members`, {
      token: insider.token,
      json: { email: plain.user.email },
    });
    expect(joined.status, joined.text).toBe(201);
    expect((await api(plain.token)).status).toBe(200);
    expect((await page(`/dashboard/${category.slug}`, plain.cookie)).status).toBe(200);
    await call(t.app, "DELETE", `/api/dashboard/groups/${groupId}/members/${plain.user.id}`, { token: insider.token });
    expect((await api(plain.token)).status).toBe(404);
    expect((await page(`/dashboard/${category.slug}`, plain.cookie)).status).toBe(404);
  });

  it("a group's paper is in its members' notices only", async () => {
    const services = t.runtime.services;
    const admin = await signIn(services, "admin");
    const insider = await representative("Ida");
    const outsider = await representative("Oskar");
    const created = await call(t.app, "POST", "/api/dashboard/groups", {
      token: admin.token,
      json: { name: "Notice trial group", chair_ids: [insider.user.id] },
    });
    const groupId = (created.json as { group: { id: number } }).group.id;
    const open = (
      (
        await call(t.app, "POST", "/api/dashboard/papers-categories", {
          token: admin.token,
          json: { name: "Members' notes", is_public: false },
        })
      ).json as { category: Category }
    ).category;
    const closed = (
      (
        await call(t.app, "POST", "/api/dashboard/papers-categories", {
          token: admin.token,
          json: { name: "Group notes", audience: "groups", group_ids: [groupId], parent_id: open.id },
        })
      ).json as { category: Category }
    ).category;
    // Both follow the members' category (and so what is under it).
    for (const person of [insider, outsider]) {
      const res = await call(t.app, "POST", "/api/dashboard/notifications/follow", {
        token: person.token,
        json: { kind: "category", id: open.id, delivery: "instant" },
      });
      expect(res.status, res.text).toBeLessThan(300);
    }
    for (const [category, name] of [
      [open.id, "Sandwort note for all"],
      [closed.id, "Sandwort note for the group"],
    ] as const) {
      const res = await call(t.app, "POST", "/api/dashboard/papers", {
        token: admin.token,
        body: paperForm({ name, papers_category_id: String(category) }, await pdfWith(name)),
      });
      expect(res.status, res.text).toBe(201);
    }
    later(60);
    expect((await services.notices.sendInstant()).outcome).toBe("sent");
    const before = smtp.received.length;
    await services.mail.deliverDue();
    const mails = await Promise.all(
      smtp.received.slice(before).map(async (m: ReceivedMail) => ({ to: m.to, parsed: await simpleParser(m.raw) })),
    );
    const textTo = (email: string) =>
      mails
        .filter((m) => m.to.includes(email))
        .map((m) => m.parsed.text ?? "")
        .join("\n");
    expect(textTo(insider.user.email)).toContain("Sandwort note for the group");
    expect(textTo(insider.user.email)).toContain("Sandwort note for all");
    expect(textTo(outsider.user.email)).toContain("Sandwort note for all");
    expect(textTo(outsider.user.email)).not.toContain("Sandwort note for the group");
  });
});

import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lengthLimit } from "../../app/lib/forms";
import { inviteSchema } from "../../core/accounts/accounts.schema";
import { categoryCreateSchema, paperInputSchema } from "../../core/library/library.schema";
import { meetingInputSchema } from "../../core/meetings/meetings.schema";
import { representativeInviteSchema } from "../../core/members/members.schema";
import { postInputSchema } from "../../core/news/news.schema";
import { createApp } from "../../server/app";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pagesBuild } from "../support/pages";

/**
 * Issue 30 point 10: every admin form, as the server renders it (route modules by Vite's SSR
 * loader), has unique ids, and each `<label for>` names a form field, so that clicking a label
 * focuses its field and a screen reader reads the right label (axe's `duplicate-id-aria` and
 * `label`). The library's category form gave its heading and its Title field the same id.
 */
let t: TestContext;
let build: () => Promise<ServerBuild>;
let pages: TestContext["app"];
let admin: string;
const paths: string[] = [];
let papersPath: string;

beforeAll(async () => {
  t = await createTestContext();
  build = await pagesBuild();
  pages = createApp(t.runtime, { build });
  admin = (await signIn(t.runtime.services, "admin")).cookie;

  const { libraryAdmin, news, meetingsAdmin } = t.runtime.services;
  const root = await libraryAdmin.createCategory(categoryCreateSchema.parse({ name: "Standards" }), null);
  const child = await libraryAdmin.createCategory(
    categoryCreateSchema.parse({ name: "Radar", parent_id: String(root.id) }),
    null,
  );
  const paper = await libraryAdmin.createPaper(
    paperInputSchema.parse({ papers_category_id: String(child.id), name: "Radar clutter", revision: "Rev. 1" }),
    null,
  );
  papersPath = `/manager/library/${child.id}`;
  const post = await news.create(postInputSchema.parse({ title: "Annual meeting", content: "<p>Soon.</p>" }));
  const meeting = await meetingsAdmin.create(
    meetingInputSchema.parse({ title: "Radar working group", type: "meeting", start_date: "2030-03-04" }),
  );
  const company = await t.runtime.services.members.create({ name: "Radar Works AS", country: "NO", seats: 2 });
  await t.runtime.services.members.addRepresentative(
    company.id,
    { email: "rep@radar-works.example", first_name: "Rita", last_name: "Rep", primary: true },
    { origin: "http://localhost:3000", inviter: { first_name: "", last_name: "" } },
  );
  paths.push(
    "/manager/members",
    "/manager/members/new",
    "/manager/members/import",
    `/manager/members/${company.id}`,
    "/manager/library",
    `/manager/library?edit=cat-${root.id}`,
    `/manager/library?edit=cat-${child.id}`,
    `/manager/library?add=${root.id}`,
    `/manager/library/${child.id}`,
    `/manager/library/${child.id}?edit=${paper.id}`,
    "/manage-news",
    "/manage-news/new",
    `/manage-news/${post.id}/edit`,
    "/manage-events",
    "/manage-events/new",
    `/manage-events/${meeting.id}/edit`,
    "/manager/pages",
    "/manager/settings",
    "/manager/requests",
    "/manager/users",
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Tag = { name: string; attributes: Record<string, string> };

/** The start tags of a server-rendered page (quoted attributes, as React writes them), scripts' text left out. */
function tagsOf(html: string): Tag[] {
  const markup = html.replace(/<(script|style|template)\b[^>]*>[\s\S]*?<\/\1>/gi, "<$1>");
  const tags: Tag[] = [];
  for (const [, name, rest] of markup.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attributes: Record<string, string> = {};
    for (const [, key, value] of rest.matchAll(/\s([^\s=>/]+)(?:="([^"]*)")?/g)) attributes[key] = value ?? "";
    tags.push({ name: name.toLowerCase(), attributes });
  }
  return tags;
}

const FIELDS = new Set(["input", "select", "textarea", "button", "meter", "output", "progress"]);

describe("admin forms: unique ids, labels that name their fields (issue 30 point 10)", () => {
  it("renders every admin form page with no id twice and every label for= a form field", async () => {
    const problems: string[] = [];
    for (const path of paths) {
      const res = await call(pages, "GET", path, { cookie: admin });
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
      const tags = tagsOf(res.text);
      const byId = new Map<string, Tag[]>();
      for (const tag of tags) {
        const id = tag.attributes.id;
        if (id !== undefined) byId.set(id, [...(byId.get(id) ?? []), tag]);
      }
      for (const [id, same] of byId) {
        if (same.length > 1) problems.push(`${path}: id "${id}" on ${same.map((tag) => `<${tag.name}>`).join(", ")}`);
      }
      for (const label of tags.filter((tag) => tag.name === "label" && tag.attributes.for !== undefined)) {
        const target = byId.get(label.attributes.for)?.[0];
        if (!target || !FIELDS.has(target.name) || target.attributes.type === "hidden") {
          problems.push(
            `${path}: <label for="${label.attributes.for}"> names ${target ? `<${target.name}>` : "nothing"}`,
          );
        }
      }
      for (const tag of tags) {
        for (const attribute of ["aria-labelledby", "aria-describedby", "aria-controls"]) {
          for (const ref of tag.attributes[attribute]?.split(/\s+/).filter(Boolean) ?? []) {
            if (!byId.has(ref)) problems.push(`${path}: <${tag.name} ${attribute}="${ref}"> names nothing`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it("labels the category form's Title and Name fields, not the heading or the tree's name", async () => {
    const category = await t.runtime.services.libraryAdmin.createCategory(
      categoryCreateSchema.parse({ name: "Bulletins" }),
      null,
    );
    const res = await call(pages, "GET", `/manager/library?edit=cat-${category.id}`, { cookie: admin });
    const tags = tagsOf(res.text);
    for (const text of ["Title", "Name"]) {
      const label = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${text}`).exec(res.text);
      expect(label, `the ${text} label`).not.toBeNull();
      const targets = tags.filter((tag) => tag.attributes.id === label?.[1]);
      expect(targets.map((tag) => tag.name)).toEqual(["input"]);
    }
  });

  it("shows a paper's revision typed as 'Rev. 1' once in the admin list, not 'Rev. Rev. 1'", async () => {
    const res = await call(pages, "GET", papersPath, { cookie: admin });
    expect(res.status).toBe(200);
    expect(res.text).toContain("Rev. 1");
    expect(res.text).not.toMatch(/Rev\. (<!-- -->)?Rev\./);
  });

  it("gives both invite forms (users, a company's representatives) the lengths their schemas allow", async () => {
    const company = await t.runtime.services.members.create({ name: "Limits Marine Ltd", country: "GB" });
    for (const [path, schema] of [
      ["/manager/users", inviteSchema],
      [`/manager/members/${company.id}`, representativeInviteSchema],
    ] as const) {
      const res = await call(pages, "GET", path, { cookie: admin });
      expect(res.status).toBe(200);
      const tags = tagsOf(res.text);
      for (const [id, field] of [
        ["invite-first-name", schema.shape.first_name],
        ["invite-last-name", schema.shape.last_name],
        ["invite-email", schema.shape.email],
      ] as const) {
        const input = tags.find((tag) => tag.attributes.id === id);
        const { maxLength } = lengthLimit(field);
        expect(maxLength, `${path} #${id}: the schema's limit`).toBeGreaterThan(0);
        // React writes the attribute as maxLength (HTML reads names in any case).
        expect(input?.attributes.maxLength, `${path} #${id}`).toBe(String(maxLength));
      }
    }
  });
});

import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { seedDemoContent } from "../../scripts/seed/index";
import { DEMO_MEMBER } from "../../scripts/seed/members";
import { createApi } from "../../server/api";
import { openApiPath } from "../../server/api/contract";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * Real answers against the schemas their routes declare, on the demo content: a schema that
 * drifts from what the services answer (a field missing, renamed, null where the schema says
 * never, or a field the schema does not know) fails here, on both dialects.
 */
let t: TestContext;
let admin: { token: string };
let member: { token: string };
let declared: Map<string, z.ZodType>;

beforeAll(async () => {
  t = await createTestContext();
  await seedDemoContent(t.database.db, {
    uploadsDir: t.runtime.config.uploadsDir,
    privateDir: t.runtime.config.privateDir,
  });
  admin = await signIn(t.runtime.services, "admin");
  member = await signIn(t.runtime.services, "member");
  const api = createApi(t.runtime);
  declared = new Map();
  for (const definition of api.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const { method, path, responses } = definition.route;
    for (const [status, response] of Object.entries(responses)) {
      const schema = (response as { content?: Record<string, { schema: z.ZodType }> }).content?.["application/json"]
        ?.schema;
      if (schema) declared.set(`${method.toUpperCase()} ${path} ${status}`, schema);
    }
  }
  // The demo content takes about two minutes to generate alone; more on a machine shared with other work.
}, 300_000);
afterAll(async () => t.close());

type Json = Record<string, unknown>;

/**
 * Calls the route and checks its answer against the schema it declares for that status: the
 * answer parses, and parsing loses nothing (an object schema drops the fields it does not know).
 */
async function answer(
  method: string,
  route: string,
  url: string,
  options: Parameters<typeof call>[3] = {},
  status = 200,
): Promise<Json> {
  const res = await call(t.app, method, url, options);
  expect(res.status, res.text).toBe(status);
  const schema = declared.get(`${method} ${openApiPath(route)} ${status}`);
  if (!schema) throw new Error(`${method} ${route} declares no JSON answer for ${status}`);
  const parsed = schema.safeParse(res.json);
  expect(parsed.error?.issues ?? [], `${method} ${url}`).toEqual([]);
  expect(parsed.data, `${method} ${url}: fields the schema does not describe`).toEqual(res.json);
  return res.json as Json;
}

const first = (page: Json) => (page.data as Json[])[0];
const png = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#336699" } })
    .png()
    .toBuffer();

describe("public answers match their declared schemas", () => {
  it("news: a page of posts, a post, the latest posts, the month filters", async () => {
    const page = await answer("POST", "/getPosts", "/api/getPosts", { json: {} });
    expect((page.data as Json[]).length).toBeGreaterThan(0);
    const slug = first(page).slug as string;
    await answer("POST", "/getPosts", "/api/getPosts?page=2", { json: {} });
    await answer("GET", "/getPostBySlug/:slug", `/api/getPostBySlug/${slug}`);
    await answer("GET", "/getLatestPosts/:slug", `/api/getLatestPosts/${slug}`);
    const months = await answer("GET", "/getDateFilters", "/api/getDateFilters");
    expect((months.data as string[]).length).toBeGreaterThan(0);
  });

  it("a page, the contact data, search results", async () => {
    await answer("GET", "/page/:url{.+}", "/api/page/privacy-policy");
    await answer("GET", "/getContactData", "/api/getContactData");
    const found = await answer("GET", "/search", "/api/search?search_query=conference");
    expect((found.results as Json[]).length).toBeGreaterThan(0);
    await answer("GET", "/search", "/api/search?search_query=");
  });

  it("meetings: pages of the list, and a meeting with its images, programme and sponsors", async () => {
    const page = await answer("GET", "/meetings", "/api/meetings");
    expect((page.data as Json[]).length).toBeGreaterThan(0);
    await answer("GET", "/meetings", `/api/meetings?page=${page.last_page}`);
    await answer("GET", "/meetings", "/api/meetings?type=webinar");
    const full = await t.database.db
      .selectFrom("meetings")
      .select("slug")
      .where(({ exists, selectFrom }) =>
        exists(selectFrom("sponsors").select("sponsors.id").whereRef("sponsors.event_id", "=", "meetings.id")),
      )
      .where(({ exists, selectFrom }) =>
        exists(selectFrom("schedules").select("schedules.id").whereRef("schedules.event_id", "=", "meetings.id")),
      )
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom("meeting_images")
            .select("meeting_images.id")
            .whereRef("meeting_images.meeting_id", "=", "meetings.id"),
        ),
      )
      .executeTakeFirstOrThrow();
    const { event } = (await answer("GET", "/meetings/:slug", `/api/meetings/${full.slug}`)) as { event: Json };
    for (const list of ["images", "schedules", "sponsors"])
      expect((event[list] as Json[]).length, list).toBeGreaterThan(0);
  });
});

describe("library answers match their declared schemas", () => {
  it("roots, a category with its children, breadcrumbs, papers with revisions and matches", async () => {
    const asMember = { token: member.token };
    const roots = await answer("GET", "/dashboard/root-categories", "/api/dashboard/root-categories", asMember);
    expect((roots.data as Json[]).length).toBeGreaterThan(0);
    await answer("GET", "/dashboard/root-categories", "/api/dashboard/root-categories");
    const tree = (
      await answer(
        "GET",
        "/dashboard/getCategoryBySlug/:slug",
        "/api/dashboard/getCategoryBySlug/technical-bulletins",
        asMember,
      )
    ).data as Json;
    expect((tree.children as Json[]).length).toBeGreaterThan(0);
    for (const route of ["/dashboard/getChildCategoryBySlug/:slug", "/dashboard/getTabCategoryBySlug/:slug"]) {
      await answer("GET", route, `/api/dashboard/${route.split("/")[2]}/technical-bulletins`, asMember);
    }
    await answer(
      "GET",
      "/dashboard/getBreadcrumbs/:slug",
      "/api/dashboard/getBreadcrumbs/technical-bulletins-radio",
      asMember,
    );
    const policies = (
      await answer("GET", "/dashboard/getCategoryBySlug/:slug", "/api/dashboard/getCategoryBySlug/policies", asMember)
    ).data as Json;
    const route = "/dashboard/getPapersByCategory/:id";
    const page = await answer("POST", route, `/api/dashboard/getPapersByCategory/${policies.id}`, {
      ...asMember,
      json: {},
    });
    expect((page.data as Json[]).some((p) => (p.revisions as Json[]).length > 0)).toBe(true);
    const searched = await answer("POST", route, `/api/dashboard/getPapersByCategory/${policies.id}`, {
      ...asMember,
      json: { search: "consultation", sortBy: "date_asc" },
    });
    expect((searched.data as Json[]).some((p) => (p.match as Json | null)?.page)).toBe(true);
    const { paper } = (await answer("GET", "/dashboard/papers/:id", `/api/dashboard/papers/${first(page).id}`, {
      token: admin.token,
    })) as { paper: Json };
    expect(paper.file).not.toBeNull();
    const all = await answer("GET", "/dashboard/papers-categories", "/api/dashboard/papers-categories", {
      token: admin.token,
    });
    expect((all.data as Json[]).length).toBeGreaterThan(0);
  });
});

describe("signed-in answers match their declared schemas", () => {
  it("the member's own account and avatar", async () => {
    await answer("GET", "/dashboard/user", "/api/dashboard/user", { token: member.token });
    const avatar = { avatar: new Blob([await png()], { type: "image/png" }) };
    await answer("POST", "/settings/profile/updateAvatar", "/api/settings/profile/updateAvatar", {
      token: member.token,
      form: avatar,
      multipart: true,
    });
  });

  it("join requests as the admin sees them, with the mails they caused", async () => {
    const join = {
      company_name: "Schema Check Marine Ltd",
      representative_name: "Ada Lovelace",
      email: "ada@schema-check.example",
      phone_number: "+44 20 7946 0000",
    };
    await answer("POST", "/join", "/api/join", { json: join, token: member.token });
    const inbox = await answer("GET", "/dashboard/join-requests", "/api/dashboard/join-requests", {
      token: admin.token,
    });
    const rows = inbox.data as Json[];
    expect(rows.some((row) => (row.mails as Json[]).length > 0)).toBe(true);
    expect(rows.some((row) => row.meeting_title !== null)).toBe(true);
    await answer("GET", "/dashboard/join-requests", "/api/dashboard/join-requests?kind=registration&status=open", {
      token: admin.token,
    });
    await answer(
      "POST",
      "/dashboard/join-requests/:id/not-spam",
      `/api/dashboard/join-requests/${first(inbox).id}/not-spam`,
      { token: admin.token },
    );
  });

  it("users, posts, pages, settings and images as the admin sees them", async () => {
    const users = await answer("GET", "/dashboard/users", "/api/dashboard/users", { token: admin.token });
    await answer("GET", "/dashboard/users", "/api/dashboard/users?role=admin&status=active&search=test", {
      token: admin.token,
    });
    await answer("GET", "/dashboard/users/:id", `/api/dashboard/users/${first(users).id}`, { token: admin.token });
    const posts = await answer("GET", "/dashboard/news", "/api/dashboard/news", { token: admin.token });
    await answer("DELETE", "/dashboard/news/:id/image", `/api/dashboard/news/${first(posts).id}/image`, {
      token: admin.token,
    });
    await answer("GET", "/dashboard/pages", "/api/dashboard/pages", { token: admin.token });
    await answer("PATCH", "/dashboard/pages/:url{.+}", "/api/dashboard/pages/privacy-policy", {
      token: admin.token,
      json: { title: "Privacy policy", content: "<p>What we keep, and why.</p>" },
    });
    await answer("GET", "/dashboard/settings", "/api/dashboard/settings", { token: admin.token });
    const image = { image: new Blob([await png()], { type: "image/png" }) };
    await answer(
      "POST",
      "/dashboard/images",
      "/api/dashboard/images",
      {
        token: admin.token,
        form: image,
        multipart: true,
      },
      201,
    );
    await answer("DELETE", "/dashboard/news/:id", `/api/dashboard/news/${first(posts).id}`, { token: admin.token });
  });

  it("meetings as the admin sees them: the list, a meeting with its images, a session, a sponsor, deletes", async () => {
    const token = admin.token;
    const list = await answer("GET", "/dashboard/meeting", "/api/dashboard/meeting?search=conference", { token });
    expect((list.data as Json[]).length).toBeGreaterThan(0);
    const form = new FormData();
    for (const [key, value] of Object.entries({ title: "Schema check", type: "meeting", start_date: "2031-01-06" }))
      form.append(key, value);
    form.append("images[]", new Blob([await png()], { type: "image/png" }));
    form.append("images_alt[]", "A schema check picture");
    const { event } = (await answer(
      "POST",
      "/dashboard/meeting",
      "/api/dashboard/meeting",
      { token, body: form },
      201,
    )) as {
      event: Json;
    };
    const id = event.id as number;
    await answer("GET", "/dashboard/meeting/:id", `/api/dashboard/meeting/${id}`, { token });
    await answer("PATCH", "/dashboard/meeting/:id", `/api/dashboard/meeting/${id}`, {
      token,
      json: { title: "Schema check", type: "meeting", start_date: "2031-01-06", capacity: 10 },
    });
    const { schedule } = (await answer(
      "POST",
      "/dashboard/meeting/:eventId/schedule",
      `/api/dashboard/meeting/${id}/schedule`,
      { token, json: { meeting_date: "2031-01-06", start: "09:00", finish: "10:00" } },
      201,
    )) as { schedule: Json };
    await answer(
      "PATCH",
      "/dashboard/meeting/:eventId/schedule/:id",
      `/api/dashboard/meeting/${id}/schedule/${schedule.id}`,
      {
        token,
        json: { meeting_date: "2031-01-06", start: "09:30" },
      },
    );
    const { sponsor } = (await answer(
      "POST",
      "/dashboard/meeting/:eventId/sponsor",
      `/api/dashboard/meeting/${id}/sponsor`,
      { token, json: { name: "Schema Radio", link: "https://radio.example/" } },
      201,
    )) as { sponsor: Json };
    await answer(
      "DELETE",
      "/dashboard/meeting/:eventId/sponsor/:id",
      `/api/dashboard/meeting/${id}/sponsor/${sponsor.id}`,
      {
        token,
      },
    );
    const image = (event.images as Json[])[0];
    await answer("DELETE", "/dashboard/meeting/:id/image/:imageId", image.delete_url as string, { token });
    await answer("DELETE", "/dashboard/meeting/:id", `/api/dashboard/meeting/${id}`, { token });
  });
});

describe("membership answers match their declared schemas", () => {
  it("the directory, a company, the secretariat's companies and representatives, a representative's own company", async () => {
    const directory = await answer("GET", "/members", "/api/members?product=radar");
    await answer("GET", "/members", "/api/members?page=2");
    await answer("GET", "/members/:slug", `/api/members/${first(directory).slug}`);
    const token = admin.token;
    const companies = await answer("GET", "/dashboard/companies", "/api/dashboard/companies?due=1", { token });
    await answer("GET", "/dashboard/companies/:id", `/api/dashboard/companies/${first(companies).id}`, { token });
    const { company } = (await answer(
      "POST",
      "/dashboard/companies",
      "/api/dashboard/companies",
      {
        token,
        multipart: true,
        form: { name: "Schema Marine", country: "SE", logo: new Blob([await png()], { type: "image/png" }) },
      },
      201,
    )) as { company: Json };
    const url = `/api/dashboard/companies/${company.id}`;
    await answer("PATCH", "/dashboard/companies/:id", url, { token, json: { seats: 3, products: ["AIS"] } });
    await answer("POST", "/dashboard/companies/:id/renew", `${url}/renew`, { token });
    const { representative } = (await answer(
      "POST",
      "/dashboard/companies/:id/representatives",
      `${url}/representatives`,
      { token, json: { email: "schema@marine.example", first_name: "Sc", last_name: "Hema" } },
      201,
    )) as { representative: Json };
    await answer("GET", "/dashboard/companies/:id/representatives", `${url}/representatives`, { token });
    const one = `${url}/representatives/${representative.user_id}`;
    await answer("PATCH", "/dashboard/companies/:id/representatives/:userId", one, { token, json: { primary: true } });
    await answer("DELETE", "/dashboard/companies/:id/representatives/:userId", one, { token });
    await answer("DELETE", "/dashboard/companies/:id", url, { token });

    // The demo member: a primary contact of a demo company.
    const demo = await t.runtime.services.auth.login(
      { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password },
      { ip: "203.0.113.9" },
    );
    const asDemo = { token: demo.token };
    const user = await answer("GET", "/dashboard/user", "/api/dashboard/user", asDemo);
    expect((user.user as Json).company).toMatchObject({ current: true, primary: true });
    await answer("GET", "/dashboard/company", "/api/dashboard/company", asDemo);
    await answer("PATCH", "/dashboard/company", "/api/dashboard/company", { ...asDemo, json: { products: "Radar" } });
    const added = (await answer(
      "POST",
      "/dashboard/company/representatives",
      "/api/dashboard/company/representatives",
      { ...asDemo, json: { email: "colleague@schema.example", first_name: "Co", last_name: "League" } },
      201,
    )) as { representative: Json };
    const colleague = `/api/dashboard/company/representatives/${added.representative.user_id}`;
    await answer("PATCH", "/dashboard/company/representatives/:userId", colleague, {
      ...asDemo,
      json: { primary: false },
    });
    await answer("DELETE", "/dashboard/company/representatives/:userId", colleague, asDemo);
  });
});

import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileSchema } from "../../core/accounts/profile.schema";
import { categoryCreateSchema, paperInputSchema } from "../../core/library/library.schema";
import { createTestContext, type TestContext } from "../support/app";
import { createUser } from "../support/factories";
import { pagesApp } from "../support/pages";

/**
 * Issue 33, 'Feeds': a member's private feed of the categories they follow, at a secret address
 * made with their password, ended like the private calendar (a new address, a new password, or
 * 'stop'), reading what its owner may read now.
 */
let t: TestContext;
let app: TestContext["app"];
let close = async () => {};

beforeAll(async () => {
  t = await createTestContext();
  ({ pages: app, close } = await pagesApp(t));
}, 120_000);
afterAll(async () => {
  await close();
  await t?.close();
});

const services = () => t.runtime.services;
const titles = (xml: string) => {
  const feed = new XMLParser().parse(xml).feed;
  const entries = feed.entry === undefined ? [] : Array.isArray(feed.entry) ? feed.entry : [feed.entry];
  return entries.map((e: { title: string }) => String(e.title)).sort();
};

describe("the private feed of followed categories", () => {
  it("lists the followed categories' papers (sub-categories too) to its owner's eyes, and ends as the calendar's does", async () => {
    const { libraryAdmin } = services();
    const members = await libraryAdmin.createCategory(categoryCreateSchema.parse({ name: "Feed members" }), null);
    const child = await libraryAdmin.createCategory(
      categoryCreateSchema.parse({ name: "Feed child", parent_id: String(members.id) }),
      null,
    );
    const open = await libraryAdmin.createCategory(
      categoryCreateSchema.parse({ name: "Feed public", is_public: "1" }),
      null,
    );
    const other = await libraryAdmin.createCategory(categoryCreateSchema.parse({ name: "Feed other" }), null);
    for (const [category, name] of [
      [members.id, "Members paper"],
      [child.id, "Child paper"],
      [open.id, "Public paper"],
      [other.id, "Unfollowed paper"],
    ] as const) {
      await libraryAdmin.createPaper(paperInputSchema.parse({ papers_category_id: String(category), name }), null);
    }
    const { user, password } = await createUser(services());
    const viewer = { signedIn: true, admin: false };
    await services().notifications.follow(user.id, viewer, { kind: "category", id: members.id, delivery: "digest" });
    await services().notifications.follow(user.id, viewer, { kind: "category", id: open.id, delivery: "digest" });

    // The address needs the current password.
    await expect(services().profile.renewLibraryFeedToken(user.id, "wrong password")).rejects.toMatchObject({
      status: 422,
    });
    const token = await services().profile.renewLibraryFeedToken(user.id, password);
    const res = await app.request(`/library-feed/${token}.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(titles(await res.text())).toEqual(["Child paper", "Members paper", "Public paper"]);

    // Its owner's company lapses: the feed reads as a visitor reads the library.
    const company = await services().members.create({
      name: "Feed Lapsed Ltd",
      country: "NO",
      member_since: "2020-01-01",
      renews_on: "2021-01-01",
    } as never);
    await t.database.db
      .insertInto("company_representatives")
      .values({ user_id: user.id, company_id: company.id, is_primary: 1, created_at: new Date().toISOString() })
      .execute();
    expect(titles(await (await app.request(`/library-feed/${token}.xml`)).text())).toEqual(["Public paper"]);
    await t.database.db.deleteFrom("company_representatives").where("user_id", "=", user.id).execute();

    // A new address ends the old one; so does stopping it, and a new password.
    const second = await services().profile.renewLibraryFeedToken(user.id, password);
    expect((await app.request(`/library-feed/${token}.xml`)).status).toBe(404);
    expect((await app.request(`/library-feed/${second}.xml`)).status).toBe(200);
    await services().profile.endLibraryFeed(user.id);
    expect((await app.request(`/library-feed/${second}.xml`)).status).toBe(404);
    const third = await services().profile.renewLibraryFeedToken(user.id, password);
    await services().profile.update(
      user.id,
      0,
      profileSchema.parse({
        password,
        new_password: "A new password for 2026!",
        confirm_new_password: "A new password for 2026!",
      }),
    );
    expect((await app.request(`/library-feed/${third}.xml`)).status).toBe(404);
    // Deactivated by an admin: the address ends, and does not come back with reactivation.
    const fourth = await services().profile.renewLibraryFeedToken(user.id, "A new password for 2026!");
    expect((await app.request(`/library-feed/${fourth}.xml`)).status).toBe(200);
    const admin = (await createUser(services(), { role: "admin" })).user;
    await services().accounts.change(admin.id, user.id, { is_active: false } as never);
    await services().accounts.change(admin.id, user.id, { is_active: true } as never);
    expect((await app.request(`/library-feed/${fourth}.xml`)).status).toBe(404);
    // Not an address at all.
    expect((await app.request("/library-feed/not-a-token.xml")).status).toBe(404);
    expect((await app.request(`/library-feed/${"A".repeat(43)}.xml`)).status).toBe(404);
  });
});

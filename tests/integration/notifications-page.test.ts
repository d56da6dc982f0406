import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_PASSWORD_WRONG } from "../../core/accounts/profile.schema";
import { categoryCreateSchema } from "../../core/library/library.schema";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pagesApp, pageText } from "../support/pages";

/**
 * Issue 33's preferences page as a browser uses it, through the real route modules: the Follow
 * buttons of /news and /events, the page's own form (each row's choice, a category added, the digest,
 * announcements), and the private feed's address made with the password and ended.
 */
let t: TestContext;
let pages: TestContext["app"];
let close = async () => {};

beforeAll(async () => {
  t = await createTestContext();
  ({ pages, close } = await pagesApp(t));
}, 120_000);
afterAll(async () => {
  await close();
  await t?.close();
});

const services = () => t.runtime.services;
const member = { signedIn: true, admin: false };
const post = async (cookie: string, fields: Record<string, string>) => {
  const answer = await call(pages, "POST", `${ORIGIN}/dashboard/notifications`, { cookie, form: fields });
  return { ...answer, page: pageText(answer.text) };
};
const followsOf = async (userId: number) => (await services().notifications.preferences(userId)).follows;

describe("the Follow buttons", () => {
  it("are on /news and /events for signed-in members only, posting to the preferences page", async () => {
    const { cookie } = await signIn(services());
    for (const [path, kind, label] of [
      ["/news", "news", "Follow the news"],
      ["/events", "meetings", "Follow the meetings"],
    ] as const) {
      const signedIn = await call(pages, "GET", `${ORIGIN}${path}`, { cookie });
      expect(signedIn.status).toBe(200);
      const form = /<form[^>]*action="\/dashboard\/notifications"[^>]*>([\s\S]*?)<\/form>/.exec(signedIn.text);
      expect(form, path).not.toBeNull();
      expect(form?.[1]).toContain('name="intent" value="follow"');
      expect(form?.[1]).toContain(`name="kind" value="${kind}"`);
      expect(form?.[1]).toContain('name="delivery" value="digest"');
      expect(pageText(form?.[1] ?? "")).toContain(label);
      const visitor = await call(pages, "GET", `${ORIGIN}${path}`);
      expect(visitor.status).toBe(200);
      expect(visitor.text).not.toContain(label);
    }
  });

  it("follows what is not followed yet and says so; what is followed already keeps its delivery", async () => {
    const { user, cookie } = await signIn(services());
    await services().notifications.update(user.id, member, {
      follows: [{ kind: "meetings", delivery: "instant" }],
    });

    const followed = await post(cookie, { intent: "follow", kind: "news", delivery: "digest", name: "the news" });
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe("/dashboard/notifications?followed=the%20news");
    expect(await followsOf(user.id)).toContainEqual({ kind: "news", delivery: "digest" });
    const shown = pageText(
      (await call(pages, "GET", `${ORIGIN}/dashboard/notifications?followed=the%20news`, { cookie })).text,
    );
    expect(shown).toContain("You now follow the news.");

    // The meetings are followed at once already: the button's "digest" does not change that.
    const again = await post(cookie, { intent: "follow", kind: "meetings", delivery: "digest", name: "the meetings" });
    expect(again.status).toBe(302);
    expect(await followsOf(user.id)).toContainEqual({ kind: "meetings", delivery: "instant" });
    expect((await followsOf(user.id)).filter((f) => f.kind === "meetings")).toHaveLength(1);

    // Something that cannot be followed is refused with the reason, and nothing changes.
    const refused = await post(cookie, { intent: "follow", kind: "category", delivery: "digest", name: "x" });
    expect(refused.status).toBe(422);
    expect(refused.page).toContain("Give the id of the library category to follow.");
    expect(await followsOf(user.id)).toHaveLength(2);
  });
});

describe("the preferences page's form", () => {
  it("saves each row's choice, a category added, the digest and announcements; refuses a bad value with its message", async () => {
    const { user, cookie } = await signIn(services());
    const category = await services().libraryAdmin.createCategory(
      categoryCreateSchema.parse({ name: "Page follows", is_public: "1" }),
      null,
    );
    const saved = await post(cookie, {
      intent: "save",
      news: "instant",
      meetings: "off",
      add_category: String(category.id),
      add_delivery: "digest",
      digest: "daily",
    });
    expect(saved.status).toBe(200);
    expect(saved.page).toContain("Your notification preferences are saved.");
    expect(await services().notifications.preferences(user.id)).toEqual({
      follows: expect.arrayContaining([
        { kind: "news", delivery: "instant" },
        { kind: "category", id: category.id, delivery: "digest" },
      ]),
      digest: "daily",
      // Its box was not ticked: a browser sends nothing for it.
      announcements: false,
    });
    expect(await followsOf(user.id)).toHaveLength(2);
    // The page shows the category's row now, with its choice.
    const page = await call(pages, "GET", `${ORIGIN}/dashboard/notifications`, { cookie });
    expect(page.text).toContain(`name="category-${category.id}"`);

    // Its row set to "Not followed" stops it; announcements ticked again.
    await post(cookie, {
      intent: "save",
      news: "instant",
      meetings: "digest",
      [`category-${category.id}`]: "off",
      digest: "weekly",
      announcements: "on",
    });
    expect(await services().notifications.preferences(user.id)).toEqual({
      follows: expect.arrayContaining([
        { kind: "news", delivery: "instant" },
        { kind: "meetings", delivery: "digest" },
      ]),
      digest: "weekly",
      announcements: true,
    });
    expect(await followsOf(user.id)).toHaveLength(2);

    const refused = await post(cookie, { intent: "save", news: "digest", digest: "hourly" });
    expect(refused.status).toBe(422);
    expect(refused.page).toContain("Choose how often the digest comes: daily, weekly or never.");
    expect((await services().notifications.preferences(user.id)).digest).toBe("weekly");
  });

  it("makes the private feed's address with the password, refuses a wrong one with the reason, and ends it", async () => {
    const { user, cookie, password } = await signIn(services());
    const wrong = await post(cookie, { intent: "library-feed", password: "not the password" });
    expect(wrong.status).toBe(422);
    expect(wrong.page).toContain(CURRENT_PASSWORD_WRONG);
    expect(await services().profile.hasLibraryFeed(user.id)).toBe(false);

    const made = await post(cookie, { intent: "library-feed", password });
    expect(made.status).toBe(200);
    expect(made.page).toContain("Your private feed address is ready.");
    const address = /https?:\/\/[^\s"<]+\/library-feed\/[A-Za-z0-9_-]{43}\.xml/.exec(made.text)?.[0];
    expect(address).toBeDefined();
    const path = new URL(address ?? "").pathname;
    expect((await pages.request(path)).status).toBe(200);

    const ended = await post(cookie, { intent: "end-library-feed" });
    expect(ended.status).toBe(200);
    expect(ended.page).toContain("Your private feed address no longer works.");
    expect((await pages.request(path)).status).toBe(404);
    expect(await services().profile.hasLibraryFeed(user.id)).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FOLLOWED_ONCE, NOT_FOLLOWED, UNKNOWN_CATEGORY } from "../../core/notifications/notifications.schema";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * Issue 33, 'Follow': the API of what a member follows and how they hear of it, on SQLite or
 * PostgreSQL. The defaults (news and meetings in the weekly digest) hold until the member changes
 * anything, and survive the first change; a member may follow only categories they may see.
 */
let t: TestContext;
let members: number;
let hidden: number;

/** A root category, active or hidden, public or members-only. */
async function category(slug: string, active: 0 | 1, isPublic: 0 | 1) {
  const at = new Date().toISOString();
  const row = await t.database.db
    .insertInto("paper_categories")
    .values({
      slug,
      name: slug,
      is_active: active,
      is_root: 1,
      is_public: isPublic,
      position: 0,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  t = await createTestContext();
  members = await category("follow-standards", 1, 0);
  hidden = await category("follow-hidden", 0, 0);
}, 120_000);
afterAll(async () => t?.close());

const DEFAULTS = {
  status: "success",
  follows: [
    { kind: "news", delivery: "digest" },
    { kind: "meetings", delivery: "digest" },
  ],
  digest: "weekly",
  announcements: true,
};

describe("/api/dashboard/notifications", () => {
  it("answers the defaults to a member who has chosen nothing, and 401 to a visitor", async () => {
    const { token } = await signIn(t.runtime.services);
    const res = await call(t.app, "GET", "/api/dashboard/notifications", { token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(DEFAULTS);
    expect((await call(t.app, "GET", "/api/dashboard/notifications")).status).toBe(401);
    expect(
      (
        await call(t.app, "POST", "/api/dashboard/notifications/follow", {
          json: { kind: "news", delivery: "instant" },
        })
      ).status,
    ).toBe(401);
  });

  it("follows a category beside the defaults, changes its delivery when followed again, and keeps it to the member", async () => {
    const { token } = await signIn(t.runtime.services);
    const other = await signIn(t.runtime.services);
    const followed = await call(t.app, "POST", "/api/dashboard/notifications/follow", {
      token,
      json: { kind: "category", id: members, delivery: "instant" },
    });
    expect(followed.status).toBe(200);
    expect(followed.json?.follows).toEqual([
      ...DEFAULTS.follows,
      { kind: "category", id: members, delivery: "instant" },
    ]);
    // Again, as a form with the id as text: one follow, delivered in the digest now.
    const again = await call(t.app, "POST", "/api/dashboard/notifications/follow", {
      token,
      form: { kind: "category", id: String(members), delivery: "digest" },
    });
    expect(again.json?.follows).toEqual([...DEFAULTS.follows, { kind: "category", id: members, delivery: "digest" }]);
    expect((await call(t.app, "GET", "/api/dashboard/notifications", { token: other.token })).json).toEqual(DEFAULTS);
  });

  it("refuses a category the member may not see, an unknown one, a missing id and an id for the news", async () => {
    const { token } = await signIn(t.runtime.services);
    const follow = (json: Record<string, unknown>) =>
      call(t.app, "POST", "/api/dashboard/notifications/follow", { token, json });
    for (const id of [hidden, 999_999]) {
      const res = await follow({ kind: "category", id, delivery: "instant" });
      expect(res.status).toBe(422);
      expect(res.json?.errors).toEqual({ id: [UNKNOWN_CATEGORY] });
    }
    expect((await follow({ kind: "category", delivery: "instant" })).json?.errors).toEqual({
      id: ["Give the id of the library category to follow."],
    });
    expect((await follow({ kind: "news", id: members, delivery: "instant" })).json?.errors).toEqual({
      id: ["The news and the meetings are followed as a whole: leave out the id."],
    });
    const bad = await follow({ kind: "papers", delivery: "sometimes" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json?.errors as object).sort()).toEqual(["delivery", "kind"]);
    // Nothing was written: still the defaults.
    expect((await call(t.app, "GET", "/api/dashboard/notifications", { token })).json).toEqual(DEFAULTS);
  });

  it("changes the digest, the announcements and the whole list with _method=PATCH; names a thing given twice", async () => {
    const { token } = await signIn(t.runtime.services);
    const patched = await call(t.app, "POST", "/api/dashboard/notifications", {
      token,
      json: {
        _method: "PATCH",
        digest: "daily",
        announcements: false,
        follows: [
          { kind: "meetings", delivery: "instant" },
          { kind: "category", id: members, delivery: "digest" },
        ],
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toEqual({
      status: "success",
      follows: [
        { kind: "meetings", delivery: "instant" },
        { kind: "category", id: members, delivery: "digest" },
      ],
      digest: "daily",
      announcements: false,
    });
    // Only the digest: the rest stays.
    const digestOnly = await call(t.app, "POST", "/api/dashboard/notifications", {
      token,
      form: { _method: "PATCH", digest: "never" },
    });
    expect(digestOnly.json).toMatchObject({ digest: "never", announcements: false });
    expect(digestOnly.json?.follows).toHaveLength(2);
    const twice = await call(t.app, "POST", "/api/dashboard/notifications", {
      token,
      json: {
        _method: "PATCH",
        follows: [
          { kind: "news", delivery: "instant" },
          { kind: "news", delivery: "digest" },
        ],
      },
    });
    expect(twice.status).toBe(422);
    expect(twice.json?.errors).toEqual({ "follows.1": [FOLLOWED_ONCE] });
    const wrongDigest = await call(t.app, "POST", "/api/dashboard/notifications", {
      token,
      json: { _method: "PATCH", digest: "hourly" },
    });
    expect(wrongDigest.json?.errors).toEqual({
      digest: ["Choose how often the digest comes: daily, weekly or never."],
    });
  });

  it("stops following with DELETE, a second time is a 404; a deleted category's follows go with it", async () => {
    const { token } = await signIn(t.runtime.services);
    const unfollowed = await call(t.app, "DELETE", "/api/dashboard/notifications/follow", {
      token,
      json: { kind: "news" },
    });
    expect(unfollowed.status).toBe(200);
    expect(unfollowed.json?.follows).toEqual([{ kind: "meetings", delivery: "digest" }]);
    const again = await call(t.app, "DELETE", "/api/dashboard/notifications/follow", { token, json: { kind: "news" } });
    expect(again.status).toBe(404);
    expect(again.json?.message).toBe(NOT_FOLLOWED);

    const doomed = await category("follow-doomed", 1, 1);
    await call(t.app, "POST", "/api/dashboard/notifications/follow", {
      token,
      json: { kind: "category", id: doomed, delivery: "instant" },
    });
    await t.database.db.deleteFrom("paper_categories").where("id", "=", doomed).execute();
    expect((await call(t.app, "GET", "/api/dashboard/notifications", { token })).json?.follows).toEqual([
      { kind: "meetings", delivery: "digest" },
    ]);
  });
});

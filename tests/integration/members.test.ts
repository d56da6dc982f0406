import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  const now = new Date().toISOString();
  await t.database.db
    .insertInto("member_companies")
    .values([
      {
        name: "Nordhavn Marine Electronics AS",
        slug: "nordhavn",
        member_since: "2001-01-01",
        country: "NO",
        website: "https://nordhavn.example",
        created_at: now,
        updated_at: now,
      },
      {
        name: "Tirreno Navigazione S.r.l.",
        slug: "tirreno",
        member_since: "2001-01-01",
        country: "IT",
        website: "javascript:alert(1)",
        created_at: now,
        updated_at: now,
      },
      {
        name: "Bay_Radio 100% Ltd",
        slug: "bay-radio",
        member_since: "2001-01-01",
        country: "GB",
        website: null,
        created_at: now,
        updated_at: now,
      },
      {
        name: "Aalto Marine Oy",
        slug: "aalto",
        member_since: "2001-01-01",
        country: "FI",
        website: "https://aalto.example",
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
});
afterAll(async () => t.close());

describe("membership list", () => {
  it("lists companies by name with the countries for the filter", async () => {
    const { members, countries } = await t.runtime.services.members.list();
    expect(members.map((m) => m.name)).toEqual([
      "Aalto Marine Oy",
      "Bay_Radio 100% Ltd",
      "Nordhavn Marine Electronics AS",
      "Tirreno Navigazione S.r.l.",
    ]);
    expect(countries.map((c) => c.name)).toEqual(["Finland", "Italy", "Norway", "United Kingdom"]);
  });

  it("filters by name (case-insensitive) and by country", async () => {
    const { members } = await t.runtime.services.members.list({ search: "MARINE" });
    expect(members.map((m) => m.name)).toEqual(["Aalto Marine Oy", "Nordhavn Marine Electronics AS"]);
    const italy = await t.runtime.services.members.list({ country: "IT" });
    expect(italy.members.map((m) => m.country_name)).toEqual(["Italy"]);
  });

  it("takes %, _ and backslashes in the search literally", async () => {
    expect((await t.runtime.services.members.list({ search: "%" })).members.map((m) => m.name)).toEqual([
      "Bay_Radio 100% Ltd",
    ]);
    expect((await t.runtime.services.members.list({ search: "_" })).members.map((m) => m.name)).toEqual([
      "Bay_Radio 100% Ltd",
    ]);
    expect((await t.runtime.services.members.list({ search: "\\" })).members).toEqual([]);
    expect((await t.runtime.services.members.list({ search: "' or 1=1 --" })).members).toEqual([]);
  });

  it("never hands out a website that is not http(s)", async () => {
    const { members } = await t.runtime.services.members.list({ search: "Tirreno" });
    expect(members[0].website).toBeNull();
    expect(await t.runtime.services.members.count()).toBe(4);
  });
});

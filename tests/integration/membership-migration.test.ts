import { sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest } from "../support/migrations";

const migration = migrationTest("0013_membership");

it("migration 0013 makes existing companies active full members with slugs, ISO countries and a member_since, and goes back", async () => {
  const { db } = migration;
  const down = await migration.toBefore();
  expect(down.error).toBeUndefined();

  const at = "2025-03-04T10:00:00.000Z";
  for (const [name, country, joined] of [
    ["Nordhavn Marine AS", "Norway", 1962],
    ["Hanbit Marine Systems", "Republic of Korea", null],
    ["Nordhavn Marine AS", "Norway", 1990],
    ["Atlantis Radio", "Atlantis", 2001],
    ["Sato K.K.", "JPN", 1969],
    ["★★★", "gb", 2020],
  ] as const) {
    await sql`insert into member_companies (name, country, website, logo, joined_year, created_at, updated_at)
      values (${name}, ${country}, ${"https://x.example"}, ${null}, ${joined}, ${at}, ${at})`.execute(db);
  }

  await migrateToLatest(db);
  const rows = await db.selectFrom("member_companies").selectAll().orderBy("id").execute();
  expect(
    rows.map((r) => [r.slug, r.country, r.member_since, r.status, r.membership_type, r.renews_on, r.seats]),
  ).toEqual([
    ["nordhavn-marine-as", "NO", "1962-01-01", "active", "full", null, null],
    ["hanbit-marine-systems", "KR", "2025-03-04", "active", "full", null, null],
    ["nordhavn-marine-as-2", "NO", "1990-01-01", "active", "full", null, null],
    // Not a country the list knows: kept for the secretariat to correct.
    ["atlantis-radio", "Atlantis", "2001-01-01", "active", "full", null, null],
    ["sato-k-k", "JP", "1969-01-01", "active", "full", null, null],
    [`company-${rows[5].id}`, "GB", "2020-01-01", "active", "full", null, null],
  ]);
  expect(rows[0].description).toBe("");
  expect("joined_year" in rows[0]).toBe(false);

  // The constraints hold on both dialects.
  const base = { name: "X", country: "NO", member_since: "2020-01-01", created_at: at, updated_at: at };
  await expect(
    db
      .insertInto("member_companies")
      .values({ ...base, slug: "x1", status: "lapsed" as "left" })
      .execute(),
  ).rejects.toThrow();
  await expect(
    db
      .insertInto("member_companies")
      .values({ ...base, slug: "x2", membership_type: "gold" as "full" })
      .execute(),
  ).rejects.toThrow();
  await expect(
    db
      .insertInto("member_companies")
      .values({ ...base, slug: "x3", seats: 0 })
      .execute(),
  ).rejects.toThrow();
  await expect(
    db
      .insertInto("member_companies")
      .values({ ...base, slug: rows[0].slug })
      .execute(),
  ).rejects.toThrow();
  // A new company's id follows the old ones.
  const created = await db
    .insertInto("member_companies")
    .values({ ...base, slug: "x4" })
    .returning("id")
    .executeTakeFirstOrThrow();
  expect(created.id).toBeGreaterThan(rows[5].id);

  // Products and representatives belong to their company and user.
  const user = await db
    .insertInto("users")
    .values({
      first_name: "R",
      last_name: "Rep",
      email: "rep@example.org",
      role: "member",
      is_active: 1,
      password_hash: null,
      phone_number: null,
      avatar: null,
      calendar_token_hash: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("company_representatives")
    .values({ user_id: user.id, company_id: rows[0].id, is_primary: 1, created_at: at })
    .execute();
  // A user represents one company at most.
  await expect(
    db
      .insertInto("company_representatives")
      .values({ user_id: user.id, company_id: rows[1].id, created_at: at })
      .execute(),
  ).rejects.toThrow();
  await db
    .insertInto("member_company_products")
    .values([
      { company_id: rows[0].id, position: 0, name: "Radar", tag: "radar" },
      { company_id: rows[0].id, position: 1, name: "AIS", tag: "ais" },
    ])
    .execute();
  await expect(
    db
      .insertInto("member_company_products")
      .values({ company_id: rows[0].id, position: 2, name: "RADAR", tag: "radar" })
      .execute(),
  ).rejects.toThrow();
  // A company with representatives cannot be deleted under them; its products go with it.
  await expect(db.deleteFrom("member_companies").where("id", "=", rows[0].id).execute()).rejects.toThrow();
  await db.deleteFrom("users").where("id", "=", user.id).execute();
  expect(await db.selectFrom("company_representatives").selectAll().execute()).toEqual([]);
  await db.deleteFrom("member_companies").where("id", "=", rows[0].id).execute();
  expect(await db.selectFrom("member_company_products").selectAll().execute()).toEqual([]);

  // Down: the old shape, joined_year from member_since and the countries by name again.
  const back = await migration.toBefore();
  expect(back.error).toBeUndefined();
  const old = await sql<{ name: string; country: string; joined_year: number | null }>`
    select name, country, joined_year from member_companies order by id`.execute(db);
  expect(old.rows.slice(0, 3)).toEqual([
    { name: "Hanbit Marine Systems", country: "South Korea", joined_year: 2025 },
    { name: "Nordhavn Marine AS", country: "Norway", joined_year: 1990 },
    { name: "Atlantis Radio", country: "Atlantis", joined_year: 2001 },
  ]);
  // And up again.
  await migrateToLatest(db);
  expect(await db.selectFrom("member_companies").select("slug").orderBy("id").limit(2).execute()).toEqual([
    { slug: "hanbit-marine-systems" },
    { slug: "nordhavn-marine-as" },
  ]);
});

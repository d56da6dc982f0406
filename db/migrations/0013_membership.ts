import { createRequire } from "node:module";
import transliterate from "@sindresorhus/transliterate";
import type * as Countries from "i18n-iso-countries";
import { sql } from "kysely";
import { type AnyDb, isPostgres, notNull, withId } from "./dialect";

/**
 * Membership (issue 31, decision 0044): member companies as the secretariat runs them.
 * - member_companies gains slug (unique, kept on rename), logo_width/logo_height, description
 *   (sanitized HTML), membership_type ('full' | 'associate'), member_since and renews_on
 *   (YYYY-MM-DD), seats (null: no limit; else at least 1) and status ('active' | 'suspended' |
 *   'left'); joined_year becomes member_since (1 January of that year; the row's creation day
 *   without one). country becomes an ISO 3166-1 alpha-2 code: an English name (or an alpha-3
 *   code) is looked up in i18n-iso-countries 7.14.0; a value it does not know is kept as it was
 *   for the secretariat to correct. Existing companies become active full members with no
 *   renewal date and no seat limit.
 * - member_company_products: a company's product tags, one row each (`tag` is the folded form
 *   the filter compares, `name` the form shown), indexed by (tag, company_id) for the filter.
 * - company_representatives: which company a user represents (at most one: user_id is the
 *   key) and whether as a primary contact.
 * SQLite cannot add NOT NULL columns without a default or change CHECKs, so member_companies
 * is rebuilt there (nothing references it yet); PostgreSQL alters it.
 */
const TYPES = sql`membership_type in ('full', 'associate')`;
const STATUSES = sql`status in ('active', 'suspended', 'left')`;
const SEATS = sql`seats is null or seats >= 1`;

const require = createRequire(import.meta.url);
const countries = require("i18n-iso-countries/index") as typeof Countries;
countries.registerLocale(require("i18n-iso-countries/langs/en.json") as Countries.LocaleData);

/** The alpha-2 code for a stored country (a name, an alpha-2 or alpha-3 code), else the value itself. */
function countryCode(value: string): string {
  const text = value.trim();
  if (/^[A-Za-z]{2}$/.test(text) && countries.isValid(text.toUpperCase())) return text.toUpperCase();
  if (/^[A-Za-z]{3}$/.test(text) && countries.isValid(text.toUpperCase())) {
    return countries.alpha3ToAlpha2(text.toUpperCase()) ?? text;
  }
  return countries.getAlpha2Code(text, "en") ?? text;
}

/** The slug rule of lib/slug.ts as it stood when this migration landed (migrations import no app code). */
function slugOf(name: string, id: number): string {
  const slug = transliterate(name.normalize("NFC").trim())
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
  return slug || `company-${id}`;
}

type OldRow = {
  id: number;
  name: string;
  country: string;
  website: string | null;
  logo: string | null;
  joined_year: number | null;
  created_at: string;
  updated_at: string;
};

/** The new columns of each existing company, slugs made unique in id order. */
function converted(rows: OldRow[]) {
  const taken = new Set<string>();
  return rows.map((row) => {
    const base = slugOf(row.name, row.id);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return {
      ...row,
      slug,
      country: countryCode(row.country),
      member_since: row.joined_year ? `${String(row.joined_year).padStart(4, "0")}-01-01` : row.created_at.slice(0, 10),
    };
  });
}

/** SQLite: `rebuilt` (created and filled) takes member_companies' place, with the indexes of migration 0001. */
async function replaceCompanies(db: AnyDb, rebuilt: string) {
  await sql`drop table member_companies`.execute(db);
  await sql`alter table ${sql.table(rebuilt)} rename to member_companies`.execute(db);
  await db.schema.createIndex("member_companies_name_idx").on("member_companies").column("name").execute();
  await db.schema
    .createIndex("member_companies_country_idx")
    .on("member_companies")
    .columns(["country", "name"])
    .execute();
}

/** SQLite: migrations run outside a transaction (Kysely), so a rebuild is one of its own. */
async function inTransaction(db: AnyDb, work: () => Promise<void>) {
  await sql`begin`.execute(db);
  try {
    await work();
    await sql`commit`.execute(db);
  } catch (error) {
    await sql`rollback`.execute(db).catch(() => undefined);
    throw error;
  }
}

async function companyIndexes(db: AnyDb) {
  await db.schema.createIndex("member_companies_slug_unique").on("member_companies").unique().column("slug").execute();
  await db.schema
    .createIndex("member_companies_status_idx")
    .on("member_companies")
    .columns(["status", "renews_on", "id"])
    .execute();
}

export async function up(db: AnyDb): Promise<void> {
  const rows = (await db.selectFrom("member_companies").selectAll().orderBy("id").execute()) as OldRow[];
  const companies = converted(rows);
  if (isPostgres(db)) {
    await sql`alter table member_companies
      add column slug text,
      add column logo_width integer,
      add column logo_height integer,
      add column description text not null default '',
      add column membership_type text not null default 'full' check (${TYPES}),
      add column member_since text,
      add column renews_on text,
      add column seats integer check (${SEATS}),
      add column status text not null default 'active' check (${STATUSES})`.execute(db);
    for (const c of companies) {
      await db
        .updateTable("member_companies")
        .set({ slug: c.slug, country: c.country, member_since: c.member_since })
        .where("id", "=", c.id)
        .execute();
    }
    await sql`alter table member_companies
      alter column slug set not null,
      alter column member_since set not null,
      drop column joined_year`.execute(db);
    await companyIndexes(db);
  } else {
    await inTransaction(db, async () => {
      await sql`
        create table member_companies_new (
          id integer primary key autoincrement,
          name text not null,
          slug text not null,
          country text not null,
          website text,
          logo text,
          logo_width integer,
          logo_height integer,
          description text not null default '',
          membership_type text not null default 'full' check (${TYPES}),
          member_since text not null,
          renews_on text,
          seats integer check (${SEATS}),
          status text not null default 'active' check (${STATUSES}),
          created_at text not null,
          updated_at text not null
        )`.execute(db);
      for (const c of companies) {
        await db
          .insertInto("member_companies_new")
          .values({
            id: c.id,
            name: c.name,
            slug: c.slug,
            country: c.country,
            website: c.website,
            logo: c.logo,
            member_since: c.member_since,
            created_at: c.created_at,
            updated_at: c.updated_at,
          })
          .execute();
      }
      await replaceCompanies(db, "member_companies_new");
      await companyIndexes(db);
    });
  }

  await db.schema
    .createTable("member_company_products")
    .addColumn("company_id", "integer", (c) => c.notNull().references("member_companies.id").onDelete("cascade"))
    .addColumn("position", "integer", notNull)
    .addColumn("name", "text", notNull)
    .addColumn("tag", "text", notNull)
    .addPrimaryKeyConstraint("member_company_products_pk", ["company_id", "tag"])
    .execute();
  await db.schema
    .createIndex("member_company_products_tag_idx")
    .on("member_company_products")
    .columns(["tag", "company_id"])
    .execute();

  await db.schema
    .createTable("company_representatives")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("company_id", "integer", (c) => c.notNull().references("member_companies.id"))
    .addColumn("is_primary", "integer", (c) => c.notNull().defaultTo(0).check(sql`is_primary in (0, 1)`))
    .addColumn("created_at", "text", notNull)
    .execute();
  await db.schema
    .createIndex("company_representatives_company_idx")
    .on("company_representatives")
    .columns(["company_id", "is_primary", "user_id"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("company_representatives").execute();
  await db.schema.dropTable("member_company_products").execute();
  const rows = await db
    .selectFrom("member_companies")
    .select(["id", "name", "country", "website", "logo", "member_since", "created_at", "updated_at"])
    .orderBy("id")
    .execute();
  const old = rows.map((r) => ({
    ...r,
    country: (countries.isValid(r.country) && countries.getName(r.country, "en")) || r.country,
    joined_year: Number(String(r.member_since).slice(0, 4)) || null,
  }));
  if (isPostgres(db)) {
    await db.schema.dropIndex("member_companies_status_idx").execute();
    await db.schema.dropIndex("member_companies_slug_unique").execute();
    await sql`alter table member_companies
      add column joined_year integer,
      drop column slug, drop column logo_width, drop column logo_height, drop column description,
      drop column membership_type, drop column member_since, drop column renews_on, drop column seats,
      drop column status`.execute(db);
    for (const r of old) {
      await db
        .updateTable("member_companies")
        .set({ country: r.country, joined_year: r.joined_year })
        .where("id", "=", r.id)
        .execute();
    }
    return;
  }
  await inTransaction(db, async () => {
    await withId(db, db.schema.createTable("member_companies_old"))
      .addColumn("name", "text", notNull)
      .addColumn("country", "text", notNull)
      .addColumn("website", "text")
      .addColumn("logo", "text")
      .addColumn("joined_year", "integer")
      .addColumn("created_at", "text", notNull)
      .addColumn("updated_at", "text", notNull)
      .execute();
    for (const r of old) {
      await db
        .insertInto("member_companies_old")
        .values({
          id: r.id,
          name: r.name,
          country: r.country,
          website: r.website,
          logo: r.logo,
          joined_year: r.joined_year,
          created_at: r.created_at,
          updated_at: r.updated_at,
        })
        .execute();
    }
    await replaceCompanies(db, "member_companies_old");
  });
}

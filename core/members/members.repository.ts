import { type ExpressionBuilder, type Insertable, type SelectQueryBuilder, sql, type Updateable } from "kysely";
import type { Dialect } from "../../db/connect";
import { containsFoldedText, containsText } from "../../db/queries";
import type { Database, Executor, MemberCompaniesTable } from "../../db/types";
import { currentFlag, isCurrent } from "./current";
import type { CompanyStatus, MembershipType } from "./members.values";

/** The directory's filters, parsed: `country` an upper-case code, `product` a folded tag. */
export type DirectoryFilter = { search?: string; country?: string; type?: MembershipType; product?: string };

/** The secretariat's filters; `countries`: the codes whose names match the search. */
export type AdminFilter = {
  search?: string;
  countries?: string[];
  status?: CompanyStatus;
  current?: "current" | "lapsed";
  type?: MembershipType;
  /** Current companies whose renews_on is on or before this day. */
  dueBy?: string;
};

type WithCompany = Database & { company: MemberCompaniesTable };
type From = SelectQueryBuilder<WithCompany, "company", object>;
type CompanyEb = ExpressionBuilder<WithCompany, "company">;

const COLUMNS = [
  "company.id",
  "company.slug",
  "company.name",
  "company.country",
  "company.website",
  "company.logo",
  "company.logo_width",
  "company.logo_height",
  "company.description",
  "company.membership_type",
  "company.member_since",
  "company.renews_on",
  "company.seats",
  "company.status",
  "company.created_at",
  "company.updated_at",
] as const;

/**
 * Whether one of the company's products is `tag`: the companies listing it, found once on
 * member_company_products_tag_idx, not a subquery per company scanned.
 */
const hasProduct = (eb: CompanyEb, tag: string) =>
  eb(
    "company.id",
    "in",
    eb.selectFrom("member_company_products as product").select("product.company_id").where("product.tag", "=", tag),
  );

/**
 * Whether one of the company's products contains the text: one pass over the products' `tag`, their
 * folded form (setProducts writes name.toLowerCase(), as `casefold` folds), for the whole query. Not a
 * subquery per company folding each name: with 5 000 companies and 18 000 products, that was most of
 * the admin list's search (bench, issue 31).
 */
const productContains = (eb: CompanyEb, text: string) =>
  eb(
    "company.id",
    "in",
    eb
      .selectFrom("member_company_products as product")
      .select("product.company_id")
      .where(containsFoldedText(sql.ref("product.tag"), text)),
  );

/** Member companies, their products and representatives: runs on the database or a write's transaction. */
export function createMembersRepository(db: Executor, dialect: Dialect) {
  const companies = () => db.selectFrom("member_companies as company");

  function directory(filter: DirectoryFilter, cutoff: string): From {
    let query = companies().where(isCurrent("company", cutoff));
    if (filter.country) query = query.where("company.country", "=", filter.country);
    if (filter.type) query = query.where("company.membership_type", "=", filter.type);
    const { product, search } = filter;
    if (product) query = query.where((eb) => hasProduct(eb, product));
    if (search) {
      query = query.where((eb) => eb.or([containsText(sql.ref("company.name"), search), productContains(eb, search)]));
    }
    return query;
  }

  function adminFiltered(filter: AdminFilter, cutoff: string): From {
    let query = companies();
    if (filter.status) query = query.where("company.status", "=", filter.status);
    if (filter.type) query = query.where("company.membership_type", "=", filter.type);
    if (filter.current === "current") query = query.where(isCurrent("company", cutoff));
    if (filter.current === "lapsed") query = query.where((eb) => eb.not(isCurrent("company", cutoff)));
    if (filter.dueBy) {
      query = query.where(isCurrent("company", cutoff)).where("company.renews_on", "<=", filter.dueBy);
    }
    const { search, countries } = filter;
    if (search) {
      query = query.where((eb) =>
        eb.or([
          containsText(sql.ref("company.name"), search),
          productContains(eb, search),
          ...(countries && countries.length > 0 ? [eb("company.country", "in", countries)] : []),
        ]),
      );
    }
    return query;
  }

  /** The secretariat's columns: the company, whether it is current, and how many seats are taken. */
  const withState = (query: From, cutoff: string) =>
    query
      .select([...COLUMNS])
      .select(currentFlag("company", cutoff).as("current"))
      .select((eb) =>
        eb
          .selectFrom("company_representatives as seat")
          .select((s) => s.fn.countAll<number>().as("n"))
          .whereRef("seat.company_id", "=", "company.id")
          .as("seats_used"),
      );

  return {
    /** Current companies by name (on member_companies_name_idx), a page of them. */
    async directoryPage(filter: DirectoryFilter, cutoff: string, offset: number, limit: number) {
      return directory(filter, cutoff)
        .select([...COLUMNS])
        .orderBy("company.name")
        .orderBy("company.id")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    async directoryCount(filter: DirectoryFilter, cutoff: string): Promise<number> {
      const row = await directory(filter, cutoff)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** A current company by its slug. */
    async currentBySlug(slug: string, cutoff: string) {
      return companies()
        .select([...COLUMNS])
        .where("company.slug", "=", slug)
        .where(isCurrent("company", cutoff))
        .executeTakeFirst();
    },
    /**
     * The products current companies list, by how many list them (most first), at most `limit`:
     * the directory's product filter. `name` is one company's spelling of the tag.
     */
    async currentProducts(cutoff: string, limit: number) {
      return db
        .selectFrom("member_company_products as product")
        .innerJoin("member_companies as company", "company.id", "product.company_id")
        .where(isCurrent("company", cutoff))
        .select((eb) => ["product.tag", eb.fn.min("product.name").as("name"), eb.fn.countAll<number>().as("n")])
        .groupBy("product.tag")
        .orderBy("n", "desc")
        .orderBy("product.tag")
        .limit(limit)
        .execute();
    },
    /** The current companies' pages for the sitemap (bounded by the protocol's 50 000 entries). */
    async currentForSitemap(cutoff: string) {
      return companies()
        .select(["company.slug", "company.updated_at"])
        .where(isCurrent("company", cutoff))
        .orderBy("company.name")
        .orderBy("company.id")
        .limit(45_000)
        .execute();
    },
    /** The countries of current companies, for the directory's filter. */
    async currentCountries(cutoff: string): Promise<string[]> {
      const rows = await companies()
        .select("company.country")
        .distinct()
        .where(isCurrent("company", cutoff))
        .orderBy("company.country")
        .execute();
      return rows.map((r) => r.country);
    },

    async adminPage(filter: AdminFilter, cutoff: string, offset: number, limit: number) {
      let query = withState(adminFiltered(filter, cutoff), cutoff);
      // The renewals due first when asked for them; else by name, as the directory.
      if (filter.dueBy) query = query.orderBy("company.renews_on");
      return query.orderBy("company.name").orderBy("company.id").offset(offset).limit(limit).execute();
    },
    async adminCount(filter: AdminFilter, cutoff: string): Promise<number> {
      const row = await adminFiltered(filter, cutoff)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async findById(id: number, cutoff: string) {
      return withState(companies().where("company.id", "=", id), cutoff).executeTakeFirst();
    },
    /**
     * The company's row, locked until the transaction ends on PostgreSQL (SQLite runs one write
     * at a time): seats are counted and taken, and representatives counted before a delete,
     * without another write slipping in between.
     */
    async lock(id: number): Promise<boolean> {
      let query = db.selectFrom("member_companies").select("id").where("id", "=", id);
      if (dialect === "postgres") query = query.forUpdate();
      return (await query.executeTakeFirst()) !== undefined;
    },
    /** Slugs taken among a base slug and its numbered variants. */
    async slugsLike(base: string): Promise<string[]> {
      const rows = await db
        .selectFrom("member_companies")
        .select("slug")
        .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]))
        .execute();
      return rows.map((r) => r.slug);
    },
    async insert(row: Insertable<MemberCompaniesTable>): Promise<{ id: number }> {
      return db.insertInto("member_companies").values(row).returning("id").executeTakeFirstOrThrow();
    },
    async update(id: number, values: Updateable<MemberCompaniesTable>) {
      return db.updateTable("member_companies").set(values).where("id", "=", id).returningAll().executeTakeFirst();
    },
    async remove(id: number) {
      return db.deleteFrom("member_companies").where("id", "=", id).returningAll().executeTakeFirst();
    },

    /** The products of these companies (a page's), in each company's order. */
    async productsOf(companyIds: number[]) {
      if (companyIds.length === 0) return [];
      return db
        .selectFrom("member_company_products")
        .select(["company_id", "name"])
        .where("company_id", "in", companyIds)
        .orderBy("company_id")
        .orderBy("position")
        .execute();
    },
    /** Replaces the company's products. */
    async setProducts(companyId: number, names: string[]) {
      await db.deleteFrom("member_company_products").where("company_id", "=", companyId).execute();
      if (names.length === 0) return;
      await db
        .insertInto("member_company_products")
        .values(names.map((name, position) => ({ company_id: companyId, position, name, tag: name.toLowerCase() })))
        .execute();
    },

    /** Every company's id and name: what a CSV import matches its rows on (by name, any case). */
    async names() {
      return db.selectFrom("member_companies").select(["id", "name"]).execute();
    },

    /** The representatives of these companies (an export's page of them): primary contacts first, then by name. */
    async representativesOf(companyIds: number[]) {
      if (companyIds.length === 0) return [];
      return db
        .selectFrom("company_representatives as r")
        .innerJoin("users", "users.id", "r.user_id")
        .select(["r.company_id", "r.is_primary", "users.first_name", "users.last_name", "users.email"])
        .where("r.company_id", "in", companyIds)
        .orderBy("r.company_id")
        .orderBy("r.is_primary", "desc")
        .orderBy("users.last_name")
        .orderBy("users.first_name")
        .orderBy("r.user_id")
        .execute();
    },

    /** The company's representatives with their accounts: primary contacts first, then by name. */
    async representatives(companyId: number) {
      return db
        .selectFrom("company_representatives as r")
        .innerJoin("users", "users.id", "r.user_id")
        .select([
          "r.user_id",
          "r.is_primary",
          "r.created_at",
          "users.first_name",
          "users.last_name",
          "users.email",
          "users.is_active",
          "users.password_hash",
        ])
        .where("r.company_id", "=", companyId)
        .orderBy("r.is_primary", "desc")
        .orderBy("users.last_name")
        .orderBy("users.first_name")
        .orderBy("r.user_id")
        .execute();
    },
    async representativeCount(companyId: number, primaryOnly = false): Promise<number> {
      let query = db
        .selectFrom("company_representatives")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("company_id", "=", companyId);
      if (primaryOnly) query = query.where("is_primary", "=", 1);
      return Number((await query.executeTakeFirst())?.n ?? 0);
    },
    /** Which company the user represents, if any. */
    async representation(userId: number) {
      return db
        .selectFrom("company_representatives")
        .select(["user_id", "company_id", "is_primary"])
        .where("user_id", "=", userId)
        .executeTakeFirst();
    },
    async addRepresentative(userId: number, companyId: number, primary: boolean, now: string) {
      await db
        .insertInto("company_representatives")
        .values({ user_id: userId, company_id: companyId, is_primary: primary ? 1 : 0, created_at: now })
        .execute();
    },
    async setPrimary(userId: number, companyId: number, primary: boolean): Promise<boolean> {
      const result = await db
        .updateTable("company_representatives")
        .set({ is_primary: primary ? 1 : 0 })
        .where("user_id", "=", userId)
        .where("company_id", "=", companyId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async removeRepresentative(userId: number, companyId: number): Promise<boolean> {
      const result = await db
        .deleteFrom("company_representatives")
        .where("user_id", "=", userId)
        .where("company_id", "=", companyId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /** The company a user represents, current or not as of `cutoff`. */
    async companyOf(userId: number, cutoff: string) {
      return db
        .selectFrom("company_representatives as r")
        .innerJoin("member_companies as company", "company.id", "r.company_id")
        .select(["company.id", "company.name", "r.is_primary"])
        .select(currentFlag("company", cutoff).as("current"))
        .where("r.user_id", "=", userId)
        .executeTakeFirst();
    },
    /** How many companies are current (the home page's figure). */
    async currentCount(cutoff: string): Promise<number> {
      const row = await companies()
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where(isCurrent("company", cutoff))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
export type MembersRepository = ReturnType<typeof createMembersRepository>;

import type { Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database, UserRow } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { countryChoices, countryName, isCountryCode } from "../../lib/countries";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError } from "../../lib/errors";
import { hasContent, sanitizeRichText } from "../../lib/html";
import { isRowId } from "../../lib/ids";
import { imageFiles } from "../../lib/image-variants";
import { type StoredImage, storeImage } from "../../lib/images";
import { type Page, pageOf } from "../../lib/pagination";
import { freeSlug, SLUG_ATTEMPTS, slugify } from "../../lib/slug";
import type { FileStorage } from "../../lib/storage";
import { uploadUrl } from "../../lib/uploads";
import { type AccessSubject, hasMembersAccess, type RoleName, type UserCompany } from "../access/access";
import type { InvitationContext, InvitationService } from "../accounts/invitation.service";
import type { AuditService } from "../audit/audit.service";
import type { MailService } from "../mail/mail.service";
import type { SearchService } from "../search/search.service";
import type { SiteSettings } from "../settings/settings.schema";
import type { SettingsService } from "../settings/settings.service";
import { type AdminFilter, createMembersRepository, type MembersRepository } from "./members.repository";
import {
  ADMIN_ACCOUNT,
  type AdminCompany,
  addDays,
  addYear,
  COMPANIES_PER_PAGE,
  COMPANY_NOT_FOUND,
  COMPANY_SEARCH_KIND,
  COUNTRY_MESSAGE,
  type CompaniesQuery,
  type CompanyCreate,
  type CompanyProfileUpdate,
  type CompanyUpdate,
  DEACTIVATED_ACCOUNT,
  HAS_REPRESENTATIVES,
  isWebAddress,
  LAST_PRIMARY,
  MEMBERS_PER_PAGE,
  type MemberCompany,
  type MembersQuery,
  NO_COMPANY,
  NO_FREE_SEAT,
  NOT_PRIMARY,
  OTHER_COMPANY,
  type OwnCompany,
  RENEWALS_DUE_DAYS,
  RENEWS_BEFORE_SINCE,
  REPRESENTATIVE_NOT_FOUND,
  type Representative,
  type RepresentativeChange,
  type RepresentativeInvite,
  SAME_COMPANY,
} from "./members.schema";
import type { MembershipDay } from "./membership-day";
import { companySearchEntry } from "./search-entry";

type CompanyRow = NonNullable<Awaited<ReturnType<MembersRepository["currentBySlug"]>>>;
type StateRow = NonNullable<Awaited<ReturnType<MembersRepository["findById"]>>>;
type RepresentativeRow = Awaited<ReturnType<MembersRepository["representatives"]>>[number];

/** The directory's list for the page that shows every current company at once (bounded). */
const DIRECTORY_LIMIT = 1000;
/** How many products the directory's filter offers (the most listed); any other tag still filters by its URL. */
const PRODUCT_CHOICES = 100;

/** What a write needs read before its transaction (SQLite's one connection is the transaction's meanwhile). */
export type MembershipWriteContext = { day: MembershipDay; site: SiteSettings };

/** A 422 whose message is the reason, beside the field it concerns. */
function refused(field: string, message: string): AppError {
  return new AppError("validation", message, { errors: { [field]: [message] } });
}

function conflict(field: string, message: string): AppError {
  return new AppError("conflict", message, { errors: { [field]: [message] } });
}

function toRepresentative(row: RepresentativeRow): Representative {
  return {
    user_id: row.user_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    primary: row.is_primary === 1,
    status: row.is_active !== 1 ? "deactivated" : row.password_hash ? "active" : "invited",
    since: row.created_at,
  };
}

/**
 * Membership (issue 31, decision 0044): the directory of current companies, the secretariat's
 * companies and their representatives, and a primary contact's own company. The one building
 * block the admin screen, the CSV import, the join-request approval, the renewal jobs and the
 * directory pages call; every write is one transaction here.
 */
export function createMembersService(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  storage: FileStorage;
  clock: Clock;
  /** Today and the current-ness cutoff (membership-day.ts). */
  day: () => Promise<MembershipDay>;
  invitations: Pick<InvitationService, "accountOrInvitation">;
  mail: Pick<MailService, "enqueue" | "deliverSoon">;
  /** The site search: each company's entry is written in its write's transaction (decision 0046). */
  search: Pick<SearchService, "index" | "remove">;
  settings: Pick<SettingsService, "getAll">;
  /** The audit log (decision 0074): each write's row, in its transaction. */
  audit?: Pick<AuditService, "record">;
  /** The working groups a person is in (core/groups), for the access decision (issue 36). */
  groupIdsOf?: (userId: number) => Promise<number[]>;
}) {
  const { db, dialect, storage, clock } = deps;
  /** A company's row in the audit log, in the write's transaction (decision 0074). */
  const audited = (
    trx: Kysely<Database>,
    action: string,
    companyId: number,
    summary: string,
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
  ) => deps.audit?.record({ action, entity: "company", entityId: companyId, summary, before, after }, trx);
  /** Reads outside any write; every write opens a transaction and a repository on it. */
  const repository = createMembersRepository(db, dialect);
  const inTransaction = (trx: Kysely<Database>) => createMembersRepository(trx, dialect);

  async function productsBy(ids: number[], repo: MembersRepository = repository): Promise<Map<number, string[]>> {
    const byCompany = new Map<number, string[]>();
    for (const row of await repo.productsOf(ids)) {
      const list = byCompany.get(row.company_id) ?? [];
      list.push(row.name);
      byCompany.set(row.company_id, list);
    }
    return byCompany;
  }

  function toMember(row: CompanyRow, products: string[]): MemberCompany {
    return {
      id: row.id,
      slug: row.slug,
      name: row.name,
      country: row.country,
      country_name: countryName(row.country) ?? row.country,
      website: row.website && isWebAddress(row.website) ? row.website : null,
      logo: uploadUrl(row.logo),
      description: row.description ? sanitizeRichText(row.description) : "",
      products,
      membership_type: row.membership_type,
      member_since: row.member_since,
    };
  }

  function toAdmin(row: StateRow, products: string[]): AdminCompany {
    return {
      ...toMember(row, products),
      logo_width: row.logo_width,
      logo_height: row.logo_height,
      status: row.status,
      renews_on: row.renews_on,
      current: Number(row.current) === 1,
      seats: row.seats,
      seats_used: Number(row.seats_used ?? 0),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  async function adminCompany(id: number, cutoff: string, repo: MembersRepository = repository) {
    const row = isRowId(id) ? await repo.findById(id, cutoff) : undefined;
    if (!row) throw new AppError("not_found", COMPANY_NOT_FOUND);
    return toAdmin(row, (await productsBy([row.id], repo)).get(row.id) ?? []);
  }

  async function removeFiles(key: string | null) {
    if (key) await Promise.allSettled(imageFiles(key).map((file) => storage.remove(file)));
  }

  async function storeLogo(logo: Uint8Array | undefined): Promise<StoredImage | null> {
    return logo ? storeImage(storage, "members", logo, "logo") : null;
  }

  /** The country sent, if it is an assigned code; the service's half of the country's check (the schema has the format). */
  function checkCountry(country: string | undefined) {
    if (country !== undefined && !isCountryCode(country)) throw refused("country", COUNTRY_MESSAGE);
  }

  function checkDates(memberSince: string, renewsOn: string | null) {
    if (renewsOn !== null && renewsOn < memberSince) throw refused("renews_on", RENEWS_BEFORE_SINCE);
  }

  /** Sanitized as news content is; empty when nothing shows. */
  function description(html: string): string {
    const clean = sanitizeRichText(html);
    return hasContent(clean) ? clean : "";
  }

  /** Runs a write in one transaction; files stored for it are removed if it does not commit. */
  async function committing<T>(stored: StoredImage | null, write: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    try {
      return await db.transaction().execute(write);
    } catch (error) {
      await removeFiles(stored?.key ?? null);
      throw error;
    }
  }

  async function writeContext(): Promise<MembershipWriteContext> {
    const [day, site] = await Promise.all([deps.day(), deps.settings.getAll()]);
    return { day, site };
  }

  /** A new company inside the caller's transaction (the slug is the name's, numbered when taken). */
  async function createIn(
    trx: Kysely<Database>,
    context: MembershipWriteContext,
    input: CompanyCreate,
    stored: StoredImage | null,
    attempt = 0,
  ): Promise<AdminCompany> {
    checkCountry(input.country);
    const memberSince = input.member_since ?? context.day.today;
    const renewsOn = input.renews_on ?? null;
    checkDates(memberSince, renewsOn);
    const repo = inTransaction(trx);
    const now = clock().toISOString();
    const { id } = await repo.insert({
      name: input.name,
      slug: await freeSlug(repo.slugsLike, slugify(input.name, "company"), attempt),
      country: input.country,
      website: input.website ?? null,
      logo: stored?.key ?? null,
      logo_width: stored?.width ?? null,
      logo_height: stored?.height ?? null,
      description: description(input.description ?? ""),
      membership_type: input.membership_type ?? "full",
      member_since: memberSince,
      renews_on: renewsOn,
      seats: input.seats ?? null,
      status: input.status ?? "active",
      created_at: now,
      updated_at: now,
    });
    await repo.setProducts(id, input.products ?? []);
    const company = await adminCompany(id, context.day.cutoff, repo);
    await deps.search.index(companySearchEntry(company), trx);
    await audited(trx, "create", id, `Company “${company.name}” added`, null, auditedFields(company));
    return company;
  }

  /**
   * Adds a representative inside the caller's transaction: the existing account with this
   * e-mail is linked (and told so by mail), else a member's account is invited through the
   * invitation flow. Refused past the seats, for an account of another company, an admin's or a
   * deactivated one. The caller calls mail.deliverSoon() once it has committed.
   */
  async function addRepresentativeIn(
    trx: Kysely<Database>,
    context: MembershipWriteContext,
    companyId: number,
    input: RepresentativeInvite,
    invitation: InvitationContext,
  ): Promise<{ representative: Representative; invited: boolean }> {
    const repo = inTransaction(trx);
    if (!(await repo.lock(companyId))) throw new AppError("not_found", COMPANY_NOT_FOUND);
    const company = await repo.findById(companyId, context.day.cutoff);
    if (!company) throw new AppError("not_found", COMPANY_NOT_FOUND);
    const { row, invited } = await deps.invitations.accountOrInvitation(
      trx,
      { email: input.email, first_name: input.first_name, last_name: input.last_name },
      invitation,
      context.site,
      company.name,
    );
    if (!invited) await checkLinkable(repo, row, companyId);
    if (company.seats !== null && (await repo.representativeCount(companyId)) >= company.seats) {
      throw refused("seats", NO_FREE_SEAT);
    }
    await repo.addRepresentative(row.id, companyId, input.primary, clock().toISOString());
    await audited(
      trx,
      "representative_added",
      companyId,
      `${row.email} ${invited ? "invited" : "linked"} as a representative of “${company.name}”${input.primary ? " (primary contact)" : ""}`,
      null,
      { representative: row.email, primary: input.primary },
    );
    if (!invited) await tellLinked(trx, row, company.name, invitation, context.site);
    const added = (await repo.representatives(companyId)).find((r) => r.user_id === row.id);
    if (!added) throw new AppError("not_found", REPRESENTATIVE_NOT_FOUND);
    return { representative: toRepresentative(added), invited };
  }

  async function checkLinkable(repo: MembersRepository, row: UserRow, companyId: number) {
    const existing = await repo.representation(row.id);
    if (existing?.company_id === companyId) throw conflict("email", SAME_COMPANY);
    if (existing) throw conflict("email", OTHER_COMPANY);
    if (row.role === "admin") throw conflict("email", ADMIN_ACCOUNT);
    if (row.is_active !== 1) throw conflict("email", DEACTIVATED_ACCOUNT);
  }

  /** An existing account linked to a company is told, so that nothing changes for a person in silence. */
  async function tellLinked(
    trx: Kysely<Database>,
    row: UserRow,
    company: string,
    invitation: InvitationContext,
    site: SiteSettings,
  ) {
    const name = site["site.name"];
    const by = `${invitation.inviter.first_name} ${invitation.inviter.last_name}`.trim() || `The ${name} secretariat`;
    await deps.mail.enqueue(
      [
        {
          join_request_id: invitation.regarding?.join_request_id ?? null,
          purpose: "representative_linked",
          to_address: row.email,
          reply_to: site["site.email"] || null,
          subject: `You now represent ${company} at ${name}`,
          body_text: `Dear ${row.first_name || row.email},\n\n${invitation.regarding ? `${invitation.regarding.opening}\n\n` : ""}${by} has added your account (${row.email}) as a representative of ${company} in the members area of ${name}.\n\nYou sign in as before: ${invitation.origin}/login\n\nIf this is a mistake, please reply to this message.\n\nKind regards,\n${name}`,
        },
      ],
      trx,
    );
  }

  /** A representative made a primary contact, or no longer one: the company's audit row. */
  async function primaryChanged(
    trx: Kysely<Database>,
    companyId: number,
    row: { email: string; is_primary: number },
    wasPrimary: boolean,
  ) {
    if (wasPrimary === (row.is_primary === 1)) return;
    await audited(
      trx,
      "representative_changed",
      companyId,
      `${row.email} ${row.is_primary === 1 ? "made" : "no longer"} a primary contact`,
      { representative: row.email, primary: wasPrimary },
      { representative: row.email, primary: row.is_primary === 1 },
    );
  }

  /** A representative about to be removed: the company's audit row. */
  async function representativeRemoved(
    trx: Kysely<Database>,
    repo: MembersRepository,
    companyId: number,
    userId: number,
  ) {
    const row = (await repo.representatives(companyId)).find((r) => r.user_id === userId);
    await audited(
      trx,
      "representative_removed",
      companyId,
      `${row?.email ?? `User #${userId}`} removed as a representative`,
      { representative: row?.email ?? null },
      null,
    );
  }

  /** The caller's own representation; 404 without a company, 403 for a write by a non-primary representative. */
  async function ownRepresentation(repo: MembersRepository, userId: number, write: boolean) {
    const own = await repo.representation(userId);
    if (!own) throw new AppError("not_found", NO_COMPANY);
    if (write && own.is_primary !== 1) throw new AppError("forbidden", NOT_PRIMARY);
    return own;
  }

  /** A colleague of the caller's company; another company's user (or nobody's) is a 404. */
  async function colleague(repo: MembersRepository, companyId: number, userId: number) {
    const found = isRowId(userId) ? await repo.representation(userId) : undefined;
    if (!found || found.company_id !== companyId) throw new AppError("not_found", REPRESENTATIVE_NOT_FOUND);
    return found;
  }

  async function updateIn(
    trx: Kysely<Database>,
    cutoff: string,
    id: number,
    input: CompanyUpdate,
    stored: StoredImage | null,
  ) {
    const repo = inTransaction(trx);
    if (!(await repo.lock(id))) throw new AppError("not_found", COMPANY_NOT_FOUND);
    const before = await repo.findById(id, cutoff);
    if (!before) throw new AppError("not_found", COMPANY_NOT_FOUND);
    checkCountry(input.country);
    checkDates(
      input.member_since ?? before.member_since,
      input.renews_on !== undefined ? input.renews_on : before.renews_on,
    );
    if (input.seats !== undefined && input.seats !== null && input.seats < Number(before.seats_used)) {
      throw refused(
        "seats",
        `This company has ${before.seats_used} representatives: remove some before setting fewer seats than that.`,
      );
    }
    const removeLogo = input.remove_logo && !stored;
    const beforeCompany = await adminCompany(id, cutoff, repo);
    await repo.update(id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.country !== undefined ? { country: input.country } : {}),
      ...(input.website !== undefined ? { website: input.website } : {}),
      ...(input.description !== undefined ? { description: description(input.description) } : {}),
      ...(input.membership_type !== undefined ? { membership_type: input.membership_type } : {}),
      ...(input.member_since !== undefined ? { member_since: input.member_since } : {}),
      ...(input.renews_on !== undefined ? { renews_on: input.renews_on } : {}),
      ...(input.seats !== undefined ? { seats: input.seats } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(stored ? { logo: stored.key, logo_width: stored.width, logo_height: stored.height } : {}),
      ...(removeLogo ? { logo: null, logo_width: null, logo_height: null } : {}),
      updated_at: clock().toISOString(),
    });
    if (input.products !== undefined) await repo.setProducts(id, input.products);
    const replaced = (stored || removeLogo) && before.logo !== (stored?.key ?? null) ? before.logo : null;
    const company = await adminCompany(id, cutoff, repo);
    await deps.search.index(companySearchEntry(company), trx);
    await audited(
      trx,
      "update",
      id,
      `Company “${company.name}” changed`,
      auditedFields(beforeCompany),
      auditedFields(company),
    );
    return { company, replaced };
  }

  return {
    // ── The directory (public) ──────────────────────────────────────────────

    /** GET /api/members: current companies by name, filtered, a page of them. */
    async directory(query: MembersQuery): Promise<Page<MemberCompany>> {
      const { cutoff } = await deps.day();
      const filter = {
        search: query.search || undefined,
        country: query.country ? query.country.toUpperCase() : undefined,
        type: query.type,
        product: query.product ? query.product.toLowerCase() : undefined,
      };
      const [rows, total] = await Promise.all([
        repository.directoryPage(filter, cutoff, (query.page - 1) * MEMBERS_PER_PAGE, MEMBERS_PER_PAGE),
        repository.directoryCount(filter, cutoff),
      ]);
      const products = await productsBy(rows.map((r) => r.id));
      return pageOf(
        rows.map((r) => toMember(r, products.get(r.id) ?? [])),
        query.page,
        MEMBERS_PER_PAGE,
        total,
      );
    },

    /** GET /api/members/{slug}: a current company; a lapsed, suspended or left one is not found. */
    async bySlug(slug: string): Promise<MemberCompany> {
      const { cutoff } = await deps.day();
      const row = slug.length <= 200 ? await repository.currentBySlug(slug, cutoff) : undefined;
      if (!row) throw new AppError("not_found", COMPANY_NOT_FOUND);
      return toMember(row, (await productsBy([row.id])).get(row.id) ?? []);
    },

    /** The /members-list page: every current company at once (bounded), with the countries they are in. */
    async list(filter: { search?: string; country?: string } = {}) {
      const { cutoff } = await deps.day();
      const search = filter.search?.trim().slice(0, 100) || undefined;
      const country = filter.country?.trim().toUpperCase().slice(0, 2) || undefined;
      const [rows, codes] = await Promise.all([
        repository.directoryPage({ search, country }, cutoff, 0, DIRECTORY_LIMIT),
        repository.currentCountries(cutoff),
      ]);
      const products = await productsBy(rows.map((r) => r.id));
      return {
        members: rows.map((r) => toMember(r, products.get(r.id) ?? [])),
        countries: codes
          .map((code) => ({ code, name: countryName(code) ?? code }))
          .sort((a, b) => a.name.localeCompare(b.name, "en")),
      };
    },

    /**
     * The directory's filter choices: the countries of current companies (by name) and the
     * products they list (the most listed, by name).
     */
    async directoryChoices() {
      const { cutoff } = await deps.day();
      const [codes, products] = await Promise.all([
        repository.currentCountries(cutoff),
        repository.currentProducts(cutoff, PRODUCT_CHOICES),
      ]);
      return {
        countries: codes
          .map((code) => ({ code, name: countryName(code) ?? code }))
          .sort((a, b) => a.name.localeCompare(b.name, "en")),
        products: products
          .map((p) => ({ tag: p.tag, name: String(p.name) }))
          .sort((a, b) => a.name.localeCompare(b.name, "en")),
      };
    },

    /** The current companies' pages for the sitemap: a lapsed or left company is not among them. */
    async sitemapEntries(): Promise<{ slug: string; updated_at: string }[]> {
      return repository.currentForSitemap((await deps.day()).cutoff);
    },

    /** Every country a company may be in, by English name (a form's choices). */
    countryChoices,

    /** How many companies are current. */
    async count(): Promise<number> {
      return repository.currentCount((await deps.day()).cutoff);
    },

    /** How many current companies, from how many countries (the home page's figures). */
    async summary(): Promise<{ companies: number; countries: number }> {
      const { cutoff } = await deps.day();
      const [companies, countries] = await Promise.all([
        repository.currentCount(cutoff),
        repository.currentCountries(cutoff),
      ]);
      return { companies, countries: countries.length };
    },

    // ── The secretariat (admin) ─────────────────────────────────────────────

    /** GET /api/dashboard/companies: search in names, countries (by name or code) and products; filters. */
    async adminList(query: CompaniesQuery, perPage = COMPANIES_PER_PAGE): Promise<Page<AdminCompany>> {
      const { cutoff, today } = await deps.day();
      const search = query.search || undefined;
      const folded = search?.toLowerCase();
      const filter: AdminFilter = {
        search,
        countries: folded
          ? countryChoices()
              .filter((c) => c.name.toLowerCase().includes(folded) || c.code.toLowerCase() === folded)
              .map((c) => c.code)
          : undefined,
        status: query.status,
        current: query.current,
        type: query.type,
        dueBy: query.due ? addDays(today, RENEWALS_DUE_DAYS) : undefined,
      };
      const [rows, total] = await Promise.all([
        repository.adminPage(filter, cutoff, (query.page - 1) * perPage, perPage),
        repository.adminCount(filter, cutoff),
      ]);
      const products = await productsBy(rows.map((r) => r.id));
      return pageOf(
        rows.map((r) => toAdmin(r, products.get(r.id) ?? [])),
        query.page,
        perPage,
        total,
      );
    },

    async get(id: number): Promise<AdminCompany> {
      return adminCompany(id, (await deps.day()).cutoff);
    },

    /** What the *In functions need, read before the caller opens its transaction. */
    writeContext,

    /**
     * A new company. Its slug comes from the name (numbered when taken; a race for it is retried);
     * the logo is stored (as news images are) before the transaction and removed if it fails.
     */
    async create(input: CompanyCreate, logo?: Uint8Array): Promise<AdminCompany> {
      checkCountry(input.country);
      const context = await writeContext();
      const stored = await storeLogo(logo);
      for (let attempt = 0; ; attempt++) {
        try {
          return await db.transaction().execute((trx) => createIn(trx, context, input, stored, attempt));
        } catch (error) {
          const slugTaken = isUniqueViolation(error, { table: "member_companies", column: "slug" });
          if (slugTaken && attempt + 1 < SLUG_ATTEMPTS) continue;
          await removeFiles(stored?.key ?? null);
          if (slugTaken) throw new AppError("conflict", "Another company took this name's address. Please try again.");
          throw error;
        }
      }
    },

    /**
     * For another area's write that creates a company within its own transaction (the join
     * request's approval): no logo; `context` from writeContext(), read before the transaction.
     */
    createIn: (trx: Kysely<Database>, context: MembershipWriteContext, input: CompanyCreate) =>
      createIn(trx, context, input, null),

    /**
     * For a write of this area that changes companies within its own transaction (the CSV
     * import): no logo. A logo it replaces is none, so nothing is left to remove after.
     */
    updateIn: async (trx: Kysely<Database>, cutoff: string, id: number, input: CompanyUpdate) =>
      (await updateIn(trx, cutoff, id, input, null)).company,

    /** A company as the secretariat sees it, read in the caller's transaction. */
    getIn: (trx: Kysely<Database>, id: number, cutoff: string) => adminCompany(id, cutoff, inTransaction(trx)),

    /** Rich text as a company's description is stored: sanitized, empty when nothing shows. */
    descriptionHtml: description,

    /** Changes the fields sent; the slug stays (links keep working). A replaced logo's files go once it commits. */
    async update(id: number, input: CompanyUpdate, logo?: Uint8Array): Promise<AdminCompany> {
      if (!isRowId(id)) throw new AppError("not_found", COMPANY_NOT_FOUND);
      checkCountry(input.country);
      const { cutoff } = await deps.day();
      const stored = await storeLogo(logo);
      const { company, replaced } = await committing(stored, (trx) => updateIn(trx, cutoff, id, input, stored));
      await removeFiles(replaced);
      return company;
    },

    /** Deletes a company that has no representatives (else 422: end it with status left instead). */
    async remove(id: number): Promise<{ slug: string }> {
      if (!isRowId(id)) throw new AppError("not_found", COMPANY_NOT_FOUND);
      const removed = await db.transaction().execute(async (trx) => {
        const repo = inTransaction(trx);
        if (!(await repo.lock(id))) throw new AppError("not_found", COMPANY_NOT_FOUND);
        if ((await repo.representativeCount(id)) > 0) throw refused("representatives", HAS_REPRESENTATIVES);
        const gone = await adminCompany(id, (await deps.day()).cutoff, repo);
        const row = await repo.remove(id);
        if (!row) throw new AppError("not_found", COMPANY_NOT_FOUND);
        await deps.search.remove(COMPANY_SEARCH_KIND, id, trx);
        await audited(trx, "delete", id, `Company “${gone.name}” deleted`, auditedFields(gone), null);
        return row;
      });
      await removeFiles(removed.logo);
      return { slug: removed.slug };
    },

    /**
     * 'Renewed': renews_on moves on by one year (the anniversary is kept, so a late renewal pays
     * for the time it was late); a company without a renewal date gets one a year from today.
     * The status is left as it is: reactivating is a change of status.
     */
    async renew(id: number): Promise<AdminCompany> {
      if (!isRowId(id)) throw new AppError("not_found", COMPANY_NOT_FOUND);
      const { cutoff, today } = await deps.day();
      return db.transaction().execute(async (trx) => {
        const repo = inTransaction(trx);
        if (!(await repo.lock(id))) throw new AppError("not_found", COMPANY_NOT_FOUND);
        const before = await repo.findById(id, cutoff);
        if (!before) throw new AppError("not_found", COMPANY_NOT_FOUND);
        const renewsOn = addYear(before.renews_on ?? today);
        await repo.update(id, { renews_on: renewsOn, updated_at: clock().toISOString() });
        await audited(
          trx,
          "renew",
          id,
          `Company “${before.name}” renewed to ${renewsOn}`,
          {
            renews_on: before.renews_on,
          },
          { renews_on: renewsOn },
        );
        return adminCompany(id, cutoff, repo);
      });
    },

    // ── Representatives (admin) ─────────────────────────────────────────────

    async representatives(companyId: number): Promise<Representative[]> {
      await this.get(companyId);
      return (await repository.representatives(companyId)).map(toRepresentative);
    },

    /** Invites (or links) a representative; see addRepresentativeIn. */
    async addRepresentative(
      companyId: number,
      input: RepresentativeInvite,
      invitation: InvitationContext,
    ): Promise<{ representative: Representative; invited: boolean }> {
      if (!isRowId(companyId)) throw new AppError("not_found", COMPANY_NOT_FOUND);
      const context = await writeContext();
      const added = await db
        .transaction()
        .execute((trx) => addRepresentativeIn(trx, context, companyId, input, invitation));
      deps.mail.deliverSoon();
      return added;
    },

    /** For another area's write (the join request's approval), in its transaction; it calls mail.deliverSoon() after. */
    addRepresentativeIn,

    /** Makes a representative a primary contact, or not. */
    async changeRepresentative(
      companyId: number,
      userId: number,
      change: RepresentativeChange,
    ): Promise<Representative> {
      if (!isRowId(companyId)) throw new AppError("not_found", COMPANY_NOT_FOUND);
      return db.transaction().execute(async (trx) => {
        const repo = inTransaction(trx);
        if (!(await repo.lock(companyId))) throw new AppError("not_found", COMPANY_NOT_FOUND);
        const found = await colleague(repo, companyId, userId);
        await repo.setPrimary(userId, companyId, change.primary);
        const row = (await repo.representatives(companyId)).find((r) => r.user_id === userId);
        if (!row) throw new AppError("not_found", REPRESENTATIVE_NOT_FOUND);
        await primaryChanged(trx, companyId, row, found.is_primary === 1);
        return toRepresentative(row);
      });
    },

    /** Removes a representative from the company; the account stays, without a company. */
    async removeRepresentative(companyId: number, userId: number): Promise<void> {
      if (!isRowId(companyId)) throw new AppError("not_found", COMPANY_NOT_FOUND);
      await db.transaction().execute(async (trx) => {
        const repo = inTransaction(trx);
        if (!(await repo.lock(companyId))) throw new AppError("not_found", COMPANY_NOT_FOUND);
        await colleague(repo, companyId, userId);
        await representativeRemoved(trx, repo, companyId, userId);
        await repo.removeRepresentative(userId, companyId);
      });
    },

    // ── A representative's own company ──────────────────────────────────────

    /** The company a user represents, as a session carries it (core/access/access.ts `UserCompany`). */
    async companyOf(userId: number): Promise<UserCompany | null> {
      const row = await repository.companyOf(userId, (await deps.day()).cutoff);
      return row
        ? { id: row.id, name: row.name, current: Number(row.current) === 1, primary: row.is_primary === 1 }
        : null;
    },

    /** The access decision for a user known without a session (a private calendar feed's owner). */
    async hasMembersAccess(user: { id: number; role: RoleName }): Promise<boolean> {
      return hasMembersAccess({ user: { role: { name: user.role } }, company: await this.companyOf(user.id) });
    },

    /**
     * What the access decision (core/access) needs of an account that is not signing in now (the
     * owner of a private feed's address): its role, company and working groups, as of today.
     */
    async accessOf(user: { id: number; role: RoleName }): Promise<AccessSubject> {
      const [company, groups] = await Promise.all([this.companyOf(user.id), deps.groupIdsOf?.(user.id) ?? []]);
      return { user: { role: { name: user.role } }, company, groups };
    },

    /** GET /api/dashboard/company: the caller's company with its people; 404 without one. */
    async ownCompany(userId: number): Promise<OwnCompany> {
      const own = await ownRepresentation(repository, userId, false);
      const company = await adminCompany(own.company_id, (await deps.day()).cutoff);
      const people = (await repository.representatives(own.company_id)).map(toRepresentative);
      return { ...company, representatives: people, primary: own.is_primary === 1 };
    },

    /** A primary contact's change to the public profile (description, website, logo, products). */
    async updateOwnProfile(userId: number, input: CompanyProfileUpdate, logo?: Uint8Array): Promise<OwnCompany> {
      const { cutoff } = await deps.day();
      const stored = await storeLogo(logo);
      const { replaced } = await committing(stored, async (trx) => {
        const own = await ownRepresentation(inTransaction(trx), userId, true);
        return updateIn(trx, cutoff, own.company_id, input, stored);
      });
      await removeFiles(replaced);
      return this.ownCompany(userId);
    },

    /** A primary contact invites (or links) a colleague, within the seats. */
    async inviteColleague(
      userId: number,
      input: RepresentativeInvite,
      invitation: InvitationContext,
    ): Promise<{ representative: Representative; invited: boolean }> {
      const context = await writeContext();
      const added = await db.transaction().execute(async (trx) => {
        const own = await ownRepresentation(inTransaction(trx), userId, true);
        return addRepresentativeIn(trx, context, own.company_id, input, invitation);
      });
      deps.mail.deliverSoon();
      return added;
    },

    /** A primary contact hands the primary role to a colleague, or takes it back (not from the last one). */
    async changeColleague(userId: number, colleagueId: number, change: RepresentativeChange): Promise<Representative> {
      return db.transaction().execute(async (trx) => {
        const repo = inTransaction(trx);
        const own = await ownRepresentation(repo, userId, true);
        await repo.lock(own.company_id);
        const found = await colleague(repo, own.company_id, colleagueId);
        if (!change.primary && found.is_primary === 1 && (await repo.representativeCount(own.company_id, true)) <= 1) {
          throw refused("primary", LAST_PRIMARY);
        }
        await repo.setPrimary(colleagueId, own.company_id, change.primary);
        const row = (await repo.representatives(own.company_id)).find((r) => r.user_id === colleagueId);
        if (!row) throw new AppError("not_found", REPRESENTATIVE_NOT_FOUND);
        await primaryChanged(trx, own.company_id, row, found.is_primary === 1);
        return toRepresentative(row);
      });
    },

    /** A primary contact removes a colleague (themselves too, unless the last primary contact). */
    async removeColleague(userId: number, colleagueId: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const repo = inTransaction(trx);
        const own = await ownRepresentation(repo, userId, true);
        await repo.lock(own.company_id);
        const found = await colleague(repo, own.company_id, colleagueId);
        if (found.is_primary === 1 && (await repo.representativeCount(own.company_id, true)) <= 1) {
          throw refused("user_id", LAST_PRIMARY);
        }
        await representativeRemoved(trx, repo, own.company_id, colleagueId);
        await repo.removeRepresentative(colleagueId, own.company_id);
      });
    },
  };
}
export type MembersService = ReturnType<typeof createMembersService>;

/** What a company's audit row compares (decision 0074): the fields the secretariat edits. */
function auditedFields(company: {
  name: string;
  country: string;
  website: string | null;
  description: string;
  membership_type: string;
  member_since: string;
  renews_on: string | null;
  seats: number | null;
  status: string;
  logo: string | null;
  products?: string[];
}): Record<string, unknown> {
  return {
    name: company.name,
    country: company.country,
    website: company.website,
    description: company.description,
    membership_type: company.membership_type,
    member_since: company.member_since,
    renews_on: company.renews_on,
    seats: company.seats,
    status: company.status,
    logo: company.logo,
    products: company.products ?? [],
  };
}

import type { Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database } from "../../db/types";
import { countryCode } from "../../lib/countries";
import { CsvReadError, readCsv, toCsv } from "../../lib/csv";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError, isAppError } from "../../lib/errors";
import { fieldErrors } from "../../lib/validation";
import { createMembersRepository } from "./members.repository";
import {
  type AdminCompany,
  type CompaniesQuery,
  type CompanyImportReport,
  type CompanyImportRow,
  type CompanyUpdate,
  companyCreateSchema,
  companyUpdateSchema,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_NO_FILE,
  IMPORT_NO_NAME_COLUMN,
  IMPORT_NOT_UTF8,
  NAME_REQUIRED,
} from "./members.schema";
import type { MembershipWriteContext, MembersService } from "./members.service";

/**
 * Member companies as CSV (issue 31, decision 0051): the export an association keeps or edits
 * in a spreadsheet, and the import that moves a member spreadsheet in (upsert by name). A dry
 * run is the import itself, rolled back, so that what it reports is what applying does.
 */

/** The fields an import reads, under the column names a spreadsheet may give them (folded). */
const FIELD_OF_COLUMN: Record<string, ImportField> = {
  name: "name",
  company: "name",
  company_name: "name",
  country: "country",
  country_code: "country",
  website: "website",
  web_site: "website",
  url: "website",
  description: "description",
  products: "products",
  membership_type: "membership_type",
  type: "membership_type",
  member_since: "member_since",
  renews_on: "renews_on",
  renewal_date: "renews_on",
  seats: "seats",
  status: "status",
};
const FIELDS = [
  "name",
  "country",
  "website",
  "membership_type",
  "status",
  "member_since",
  "renews_on",
  "seats",
  "products",
  "description",
] as const;
type ImportField = (typeof FIELDS)[number];
/** Fields a company always has: an empty cell leaves them as they are (or to their default for a new one). */
const ALWAYS_SET = new Set<ImportField>(["country", "membership_type", "member_since", "status"]);
/** Export rows are read in pages of this many (the IN lists of products and representatives). */
const EXPORT_PAGE = 500;

/** "Member since" → member_since: how a column's name is matched. */
export function foldColumn(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** A name as rows are matched on: any case, spaces collapsed. */
const nameKey = (name: string) => name.trim().replace(/\s+/g, " ").toLocaleLowerCase("en");

/** What a membership type or a status cell may say beside its value ('Full member', 'Associate'). */
function choice(cell: string): string {
  const folded = cell.trim().toLowerCase();
  return folded.replace(/ member(ship)?$/, "");
}

const TEXT_OF: Record<ImportField, (company: AdminCompany) => string> = {
  name: (c) => c.name,
  country: (c) => c.country,
  website: (c) => c.website ?? "",
  membership_type: (c) => c.membership_type,
  status: (c) => c.status,
  member_since: (c) => c.member_since,
  renews_on: (c) => c.renews_on ?? "",
  seats: (c) => (c.seats === null ? "" : String(c.seats)),
  products: (c) => c.products.join(", "),
  description: (c) => c.description,
};

class DryRun extends Error {
  constructor(readonly report: CompanyImportReport) {
    super("dry run");
  }
}

export function createCompaniesCsvService(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  members: Pick<MembersService, "writeContext" | "createIn" | "updateIn" | "getIn" | "descriptionHtml" | "adminList">;
}) {
  const { db, dialect, members } = deps;
  const repository = createMembersRepository(db, dialect);

  /** The cells of a row as the company schemas take them; an empty always-set cell is left out. */
  function inputOf(cells: Record<string, string>): Record<string, unknown> {
    const input: Record<string, unknown> = {};
    for (const field of FIELDS) {
      const cell = cells[field];
      if (cell === undefined) continue;
      const text = cell.trim();
      if (text === "" && ALWAYS_SET.has(field)) continue;
      if (field === "country") input.country = countryCode(text) ?? text;
      else if (field === "membership_type" || field === "status") input[field] = choice(text);
      else input[field] = cell;
    }
    return input;
  }

  /** The fields whose value the row changes, as the company is stored (description sanitized). */
  function changesOf(before: AdminCompany, update: CompanyUpdate) {
    const changed: CompanyUpdate = { remove_logo: false };
    const changes: CompanyImportRow["changes"] = [];
    for (const field of FIELDS) {
      const value = update[field];
      if (value === undefined) continue;
      const after =
        field === "description"
          ? members.descriptionHtml(String(value))
          : field === "products"
            ? (value as string[]).join(", ")
            : value === null
              ? ""
              : String(value);
      const was = TEXT_OF[field](before);
      if (after === was) continue;
      Object.assign(changed, { [field]: value });
      changes.push({ field, before: was, after });
    }
    return { changed, changes };
  }

  function refusal(error: unknown): Record<string, string[]> {
    if (isAppError(error) && (error.code === "validation" || error.code === "conflict")) {
      return error.details.errors ?? { name: [error.message] };
    }
    throw error;
  }

  async function importIn(
    trx: Kysely<Database>,
    context: MembershipWriteContext,
    table: ReturnType<typeof readCsv>,
    apply: boolean,
  ): Promise<CompanyImportReport> {
    const existing = new Map<string, number[]>();
    for (const row of await createMembersRepository(trx, dialect).names()) {
      const key = nameKey(row.name);
      existing.set(key, [...(existing.get(key) ?? []), row.id]);
    }
    const seen = new Map<string, number>();
    const rows: CompanyImportRow[] = [];
    for (const { line, cells } of table.records) {
      if (Object.values(cells).every((cell) => cell.trim() === "")) continue;
      const name = (cells.name ?? "").trim();
      const row: CompanyImportRow = { line, name, action: "refuse", company_id: null, changes: [], errors: {} };
      rows.push(row);
      const key = nameKey(name);
      if (!key) {
        row.errors = { name: [NAME_REQUIRED] };
        continue;
      }
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        row.errors = { name: [`This company is already on line ${earlier} of the file: keep one of the two rows.`] };
        continue;
      }
      seen.set(key, line);
      const ids = existing.get(key) ?? [];
      if (ids.length > 1) {
        row.errors = {
          name: [`${ids.length} companies have this name: rename one of them on its screen, then import again.`],
        };
        continue;
      }
      const id = ids[0];
      const schema = id === undefined ? companyCreateSchema : companyUpdateSchema;
      const parsed = schema.safeParse(inputOf(cells));
      if (!parsed.success) {
        row.errors = fieldErrors(parsed.error);
        continue;
      }
      try {
        if (id === undefined) {
          const company = await members.createIn(trx, context, companyCreateSchema.parse(parsed.data));
          Object.assign(row, { action: "create", company_id: company.id, name: company.name });
          existing.set(key, [company.id]);
        } else {
          const before = await members.getIn(trx, id, context.day.cutoff);
          const { changed, changes } = changesOf(before, parsed.data as CompanyUpdate);
          Object.assign(row, { company_id: id, name: before.name, changes });
          row.action = changes.length === 0 ? "unchanged" : "update";
          if (changes.length > 0) await members.updateIn(trx, context.day.cutoff, id, changed);
        }
      } catch (error) {
        Object.assign(row, { action: "refuse", changes: [], errors: refusal(error) });
      }
    }
    const count = (action: CompanyImportRow["action"]) => rows.filter((r) => r.action === action).length;
    return {
      applied: apply,
      created: count("create"),
      updated: count("update"),
      unchanged: count("unchanged"),
      refused: count("refuse"),
      ignored_columns: table.columns.filter((c) => c.startsWith("?")).map((c) => c.slice(1)),
      rows,
    };
  }

  return {
    /**
     * The companies of the secretariat's list (its filters, every page) as CSV, with their
     * representatives: the columns an import reads, and for reading alone the country's name,
     * whether it is current, the seats used and the representatives.
     */
    async exportCsv(query: Omit<CompaniesQuery, "page">): Promise<string> {
      const header = [
        "Name",
        "Country",
        "Country name",
        "Website",
        "Membership type",
        "Status",
        "Current",
        "Member since",
        "Renews on",
        "Seats",
        "Seats used",
        "Products",
        "Description",
        "Representatives",
      ];
      const lines: unknown[][] = [];
      for (let page = 1; ; page++) {
        const found = await members.adminList({ ...query, page }, EXPORT_PAGE);
        const people = new Map<number, string[]>();
        for (const r of await repository.representativesOf(found.data.map((c) => c.id))) {
          const person = `${`${r.first_name} ${r.last_name}`.trim()} <${r.email}>${r.is_primary === 1 ? " (primary contact)" : ""}`;
          people.set(r.company_id, [...(people.get(r.company_id) ?? []), person]);
        }
        for (const c of found.data) {
          lines.push([
            c.name,
            c.country,
            c.country_name,
            c.website ?? "",
            c.membership_type,
            c.status,
            c.current ? "yes" : "no",
            c.member_since,
            c.renews_on ?? "",
            c.seats ?? "",
            c.seats_used,
            c.products.join(", "),
            c.description,
            (people.get(c.id) ?? []).join("; "),
          ]);
        }
        if (page >= found.last_page) break;
      }
      return toCsv(header, lines);
    },

    /**
     * Imports companies from a CSV file (bytes) or text: each row creates the company of its name
     * or changes the one that has it (any case); the columns present are the truth, an empty cell
     * clears what may be empty (website, renewal date, seats, products, description). Logos and
     * representatives are not imported. Without `apply`, a dry run: the same import in a
     * transaction that is rolled back. A row refused is reported with its reasons and skipped.
     */
    async importCsv(source: Uint8Array | string | null, apply: boolean): Promise<CompanyImportReport> {
      if (source === null || source.length === 0)
        throw new AppError("validation", IMPORT_NO_FILE, { errors: { file: [IMPORT_NO_FILE] } });
      const size = typeof source === "string" ? Buffer.byteLength(source) : source.byteLength;
      if (size > IMPORT_MAX_BYTES) {
        const message = `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB: split it (by country, say) and import each part.`;
        throw new AppError("payload_too_large", message, { errors: { file: [message] } });
      }
      let text: string;
      try {
        text = typeof source === "string" ? source : new TextDecoder("utf-8", { fatal: true }).decode(source);
      } catch {
        throw new AppError("validation", IMPORT_NOT_UTF8, { errors: { file: [IMPORT_NOT_UTF8] } });
      }
      let table: ReturnType<typeof readCsv>;
      try {
        table = readCsv(text, (column) => FIELD_OF_COLUMN[foldColumn(column)] ?? `?${column}`, IMPORT_MAX_ROWS);
      } catch (error) {
        if (error instanceof CsvReadError)
          throw new AppError("validation", error.message, { errors: { file: [error.message] } });
        throw error;
      }
      if (!table.columns.includes("name")) {
        throw new AppError("validation", IMPORT_NO_NAME_COLUMN, { errors: { file: [IMPORT_NO_NAME_COLUMN] } });
      }
      // Read before the transaction: on SQLite its one connection is the transaction's meanwhile.
      const context = await members.writeContext();
      try {
        return await db.transaction().execute(async (trx) => {
          const report = await importIn(trx, context, table, apply);
          if (!apply) throw new DryRun(report);
          return report;
        });
      } catch (error) {
        if (error instanceof DryRun) return error.report;
        if (isUniqueViolation(error, { table: "member_companies", column: "slug" })) {
          throw new AppError(
            "conflict",
            "Another change to the companies came in at the same time: run the import again.",
          );
        }
        throw error;
      }
    },
  };
}
export type CompaniesCsvService = ReturnType<typeof createCompaniesCsvService>;

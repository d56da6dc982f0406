import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  COUNTRY_MESSAGE,
  IMPORT_NO_NAME_COLUMN,
  IMPORT_NOT_UTF8,
  NAME_REQUIRED,
  RENEWS_BEFORE_SINCE,
  SEATS_MESSAGE,
  WEBSITE_MESSAGE,
} from "../../core/members/members.schema";
import { readCsv } from "../../lib/csv";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, signIn } from "../support/factories";

/**
 * Issue 31, CSV: the secretariat exports the member companies with their representatives and
 * moves a member spreadsheet in (upsert by name): a dry run that changes nothing and says row by
 * row what applying will do, then the import applied in one transaction.
 */
let t: TestContext;
let admin: string;
let member: string;

type Json = Record<string, unknown>;
type Report = {
  applied: boolean;
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
  ignored_columns: string[];
  rows: { line: number; name: string; action: string; company_id: number | null; changes: Json[]; errors: Json }[];
};
const asAdmin = (method: string, url: string, options: Parameters<typeof call>[3] = {}) =>
  call(t.app, method, url, { token: admin, ...options });
const importCsv = (csv: string, apply = false) =>
  asAdmin("POST", "/api/dashboard/companies/import", { json: { csv, apply } });
const report = (answer: { json: Json | null }) => answer.json as unknown as Report;

async function createCompany(fields: Json): Promise<Json> {
  const res = await asAdmin("POST", "/api/dashboard/companies", { json: { country: "NO", ...fields } });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json?.company as Json;
}

const companyNamed = (name: string) =>
  t.database.db.selectFrom("member_companies").selectAll().where("name", "=", name).executeTakeFirst();
const companyCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom("member_companies")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst()
    )?.n,
  );

beforeAll(async () => {
  t = await createTestContext();
  admin = (await signIn(t.runtime.services, "admin")).token;
  member = (await signIn(t.runtime.services, "member")).token;
});
afterAll(async () => t.close());

describe("export", () => {
  it("gives every company of the list's filters with its representatives, as a spreadsheet reads it", async () => {
    const kept = await createCompany({
      name: "=Formula Marine",
      country: "GB",
      website: "https://formula.example",
      products: "Radar, AIS",
      membership_type: "associate",
      member_since: "2020-03-01",
      renews_on: "2030-03-01",
      seats: 3,
      description: "<p>Radars, &amp; more</p>",
    });
    const { user } = await createUser(t.runtime.services);
    const linked = await asAdmin("POST", `/api/dashboard/companies/${kept.id}/representatives`, {
      json: { email: user.email, first_name: user.first_name, last_name: user.last_name, primary: true },
    });
    expect(linked.status).toBe(201);
    await createCompany({ name: "Left Behind AS", status: "left" });

    const res = await asAdmin("GET", "/api/dashboard/companies/export?status=active");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toContain("member-companies.csv");
    expect(res.headers.get("cache-control")).toContain("no-store");
    // (fetch's text() takes the byte-order mark off; tests/unit/csv.test.ts sees it.)
    expect(res.text.startsWith('"Name","Country"')).toBe(true);
    const table = readCsv(res.text, (c) => c, 100);
    const row = table.records.find((r) => r.cells.Name === "=Formula Marine")?.cells;
    expect(row).toMatchObject({
      Country: "GB",
      "Country name": "United Kingdom",
      Website: "https://formula.example",
      "Membership type": "associate",
      Status: "active",
      Current: "yes",
      "Member since": "2020-03-01",
      "Renews on": "2030-03-01",
      Seats: "3",
      "Seats used": "1",
      Products: "Radar, AIS",
      Description: "<p>Radars, &amp; more</p>",
      Representatives: `${user.first_name} ${user.last_name} <${user.email}> (primary contact)`,
    });
    // The formula was defused in the file (a quote mark first), and read back as it was.
    expect(res.text).toContain(`"'=Formula Marine"`);
    // The list's filter: the company that left is not in an export of the active ones.
    expect(table.records.some((r) => r.cells.Name === "Left Behind AS")).toBe(false);
  });

  it("is the secretariat's only", async () => {
    expect((await call(t.app, "GET", "/api/dashboard/companies/export")).status).toBe(401);
    expect((await call(t.app, "GET", "/api/dashboard/companies/export", { token: member })).status).toBe(403);
    const post = await call(t.app, "POST", "/api/dashboard/companies/import", {
      token: member,
      json: { csv: "Name\nX", apply: true },
    });
    expect(post.status).toBe(403);
    expect(await companyNamed("X")).toBeUndefined();
  });

  it("imports back unchanged", async () => {
    const csv = (await asAdmin("GET", "/api/dashboard/companies/export")).text;
    const dry = report(await importCsv(csv));
    expect(dry.rows.length).toBeGreaterThan(1);
    expect(dry.rows.every((r) => r.action === "unchanged")).toBe(true);
    expect(dry.ignored_columns).toEqual(["Country name", "Current", "Seats used", "Representatives"]);
  });
});

describe("import", () => {
  const spreadsheet = [
    "Company name;Country;Web site;Type;Member since;Renews on;Seats;Products;Notes",
    "Baltic Nav Systems;Estonia;https://balticnav.example;Associate member;2021-05-01;2031-05-01;2;ECDIS, AIS;a note",
    "Nordic Radar AS;NO;;full;;;;Radar;",
    "Bad Country Ltd;Narnia;;;;;;;",
    "Bad Dates Ltd;DK;notaurl;;2026-01-01;2025-01-01;0;;",
    ";SE;;;;;;;",
    "baltic nav systems;EE;;;;;;;",
    ";;;;;;;;",
  ].join("\r\n");

  it("dry run: says row by row what will be created, changed and refused, and changes nothing", async () => {
    await createCompany({
      name: "Nordic Radar AS",
      website: "https://nordicradar.example",
      products: "Radar",
      seats: 5,
    });
    const before = await companyCount();
    const res = await importCsv(spreadsheet);
    expect(res.status, res.text).toBe(200);
    const dry = report(res);
    expect(dry).toMatchObject({
      applied: false,
      created: 1,
      updated: 1,
      unchanged: 0,
      refused: 4,
      ignored_columns: ["Notes"],
    });
    const byLine = new Map(dry.rows.map((r) => [r.line, r]));
    expect(byLine.get(2)).toMatchObject({ name: "Baltic Nav Systems", action: "create" });
    // The columns present are the truth: the website and seats are cleared, the products kept.
    expect(byLine.get(3)).toMatchObject({
      action: "update",
      changes: [
        { field: "website", before: "https://nordicradar.example", after: "" },
        { field: "seats", before: "5", after: "" },
      ],
    });
    expect(byLine.get(4)?.errors).toEqual({ country: [COUNTRY_MESSAGE] });
    expect(byLine.get(5)).toMatchObject({ action: "refuse" });
    expect(byLine.get(5)?.errors).toMatchObject({ website: [WEBSITE_MESSAGE], seats: [SEATS_MESSAGE] });
    expect(byLine.get(6)?.errors).toEqual({ name: [NAME_REQUIRED] });
    expect(byLine.get(7)?.errors.name).toEqual([
      "This company is already on line 2 of the file: keep one of the two rows.",
    ]);
    // The row of empty cells is no row.
    expect(byLine.has(8)).toBe(false);
    // Nothing was written.
    expect(await companyCount()).toBe(before);
    expect(await companyNamed("Baltic Nav Systems")).toBeUndefined();
    expect((await companyNamed("Nordic Radar AS"))?.website).toBe("https://nordicradar.example");
  });

  it("apply: does what the dry run said, in one go, and refuses the rest with their reasons", async () => {
    const res = await importCsv(spreadsheet, true);
    expect(res.status, res.text).toBe(200);
    expect(report(res)).toMatchObject({ applied: true, created: 1, updated: 1, refused: 4 });
    const baltic = await companyNamed("Baltic Nav Systems");
    expect(baltic).toMatchObject({
      country: "EE",
      website: "https://balticnav.example",
      membership_type: "associate",
      member_since: "2021-05-01",
      renews_on: "2031-05-01",
      seats: 2,
      status: "active",
      slug: "baltic-nav-systems",
    });
    const nordic = await companyNamed("Nordic Radar AS");
    expect(nordic).toMatchObject({ website: null, seats: null });
    // A created company is in the directory and its products filter.
    const listed = await call(t.app, "GET", "/api/members?product=ecdis");
    expect((listed.json?.data as Json[] | undefined)?.map((c) => c.name)).toContain("Baltic Nav Systems");
    // The same file again: nothing left to do.
    const again = report(await importCsv(spreadsheet, true));
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2, refused: 4 });
  });

  it("takes the file as a multipart upload, and refuses the service's own rules per row", async () => {
    const csv = "Name,Country,Member since,Renews on\nLate Renewal AB,SE,2026-06-01,2026-01-01\n";
    const res = await asAdmin("POST", "/api/dashboard/companies/import", {
      form: { file: new File([csv], "members.csv", { type: "text/csv" }), apply: "true" },
      multipart: true,
    });
    expect(res.status, res.text).toBe(200);
    expect(report(res).rows[0]).toMatchObject({ action: "refuse", errors: { renews_on: [RENEWS_BEFORE_SINCE] } });
    expect(await companyNamed("Late Renewal AB")).toBeUndefined();
  });

  it("refuses a file it cannot read, saying why and what to do", async () => {
    const noFile = await importCsv("");
    expect(noFile.status).toBe(422);
    const noName = await importCsv("Country,Website\nNO,\n");
    expect(noName.status).toBe(422);
    expect(noName.json?.errors).toEqual({ file: [IMPORT_NO_NAME_COLUMN] });
    const broken = await importCsv('Name,Country\n"Unclosed,NO\n');
    expect(broken.status).toBe(422);
    expect(String(broken.json?.message)).toContain("never closed");
    const latin1 = await asAdmin("POST", "/api/dashboard/companies/import", {
      form: {
        file: new File([new Uint8Array([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0xd8, 0x64, 0x65])], "x.csv"),
        apply: "true",
      },
      multipart: true,
    });
    expect(latin1.status).toBe(422);
    expect(latin1.json?.errors).toEqual({ file: [IMPORT_NOT_UTF8] });
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: 120_000 });

import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pagesApp, pageText } from "../support/pages";

/**
 * Issue 31, CSV on the secretariat's screen, as a browser without JavaScript uses it: choose a
 * file and check it (a dry run that changes nothing), then import what was checked.
 */
let t: TestContext;
let pages: TestContext["app"];
let closePages: () => Promise<void>;
let admin: string;

const textOf = pageText;

const post = async (form: Record<string, string | Blob>) => {
  const answer = await call(pages, "POST", `${ORIGIN}/manager/members/import`, {
    cookie: admin,
    form,
    multipart: true,
  });
  return { ...answer, page: textOf(answer.text) };
};
const companyNamed = (name: string) =>
  t.database.db.selectFrom("member_companies").selectAll().where("name", "=", name).executeTakeFirst();

beforeAll(async () => {
  t = await createTestContext();
  ({ pages, close: closePages } = await pagesApp(t));
  admin = (await signIn(t.runtime.services, "admin")).cookie;
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

describe("/manager/members/import", () => {
  const csv = "Name,Country,Products\r\nHelm & Sons Ltd,United Kingdom,Autopilot\r\nNo Country Co,,\r\n";

  it("checks a file first: says what will happen row by row and changes nothing", async () => {
    const page = await call(pages, "GET", `${ORIGIN}/manager/members/import`, { cookie: admin });
    expect(page.status).toBe(200);
    expect(textOf(page.text)).toContain("Import member companies");

    const checked = await post({ intent: "check", file: new File([csv], "members.csv", { type: "text/csv" }) });
    expect(checked.status).toBe(200);
    expect(checked.page).toContain(
      "Checked members.csv: 1 company to create, 0 to change, 0 unchanged, 1 refused. Nothing has been changed yet.",
    );
    expect(checked.page).toContain("Helm & Sons Ltd New company");
    expect(checked.page).toMatch(/No Country Co Country: Choose a country.* Refused Country: Choose a country/);
    expect(checked.page).toContain("Import: create 1 company");
    expect(await companyNamed("Helm & Sons Ltd")).toBeUndefined();
    // The checked text is in the page, to be sent back as it was.
    expect(checked.text).toContain('name="csv"');
  });

  it("imports what was checked, and says what was refused", async () => {
    const applied = await post({ intent: "apply", csv, file_name: "members.csv" });
    expect(applied.status).toBe(200);
    expect(applied.page).toContain("Imported members.csv: 1 company created, 0 changed, 0 unchanged, 1 refused.");
    expect(applied.page).toContain("The refused rows below were not imported");
    expect(await companyNamed("Helm & Sons Ltd")).toMatchObject({ country: "GB" });
    expect(await companyNamed("No Country Co")).toBeUndefined();
  });

  it("refuses a file it cannot read, with the reason, and without a file asks for one", async () => {
    const none = await post({ intent: "check", file: new File([], "") });
    expect(none.status).toBe(422);
    expect(none.page).toContain("Choose a CSV file to import");
    const noName = await post({ intent: "check", file: new File(["Country\nNO\n"], "x.csv") });
    expect(noName.status).toBe(422);
    expect(noName.page).toContain("The file has no Name column");
  });
});

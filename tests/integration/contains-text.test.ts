import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containsText } from "../../db/queries";
import { createTestDatabase, type TestDatabase } from "../support/database";

/**
 * The admin lists' "contains" search (db/queries.ts): every alphabet folded, on both dialects, as
 * JavaScript's toLowerCase folds (casefold, migration 0004); %, _ and \ are the characters themselves.
 */
let database: TestDatabase;
const VALUES = [
  "Nordic Bridge Systems AS",
  "ØRESUND MARINE ApS",
  "Émile Côté <emile@cote.example>",
  "Kelvin \u212A Instruments", // the Kelvin sign folds to an ASCII k
  "Two lines\nNORDIC second",
  "Tab\tSéparé\nnext",
  "100% Radar_Works",
  "plain ascii only",
];

beforeAll(async () => {
  database = await createTestDatabase();
  await sql`create table contains_probe (id integer primary key, value text)`.execute(database.db);
  for (const [i, value] of VALUES.entries()) {
    await sql`insert into contains_probe (id, value) values (${i + 1}, ${value})`.execute(database.db);
  }
  await sql`insert into contains_probe (id, value) values (${VALUES.length + 1}, null)`.execute(database.db);
});
afterAll(async () => {
  await sql`drop table if exists contains_probe`.execute(database.db);
  await database?.destroy();
});

async function found(text: string): Promise<string[]> {
  const { rows } = await sql<{ value: string }>`select value from contains_probe where ${containsText(
    sql.ref("value"),
    text,
  )} order by id`.execute(database.db);
  return rows.map((r) => r.value);
}

/** What casefold's definition says: both sides lowered, then a plain substring test. */
const expected = (text: string) => VALUES.filter((v) => v.toLowerCase().includes(text.toLowerCase()));

describe("a case-insensitive search", () => {
  it.each([
    ["nordic"],
    ["NORDIC"],
    ["øresund"],
    ["ØreSund"],
    ["émile"],
    ["CÔTÉ"],
    ["kelvin k"],
    ["lines\nnordic"],
    ["séparé\nnext"],
    ["tab\ts"],
    ["100%"],
    ["radar_"],
    ["r_dar"],
    ["%"],
    ["ascii"],
    ["ø"],
    ["zzz"],
  ])("finds what casefold finds for %j", async (text) => {
    expect(await found(text)).toEqual(expected(text));
  });

  it("treats %, _ and \\ as the characters themselves, never as wildcards", async () => {
    expect(await found("r_dar")).toEqual([]);
    expect(await found("0% r")).toEqual(["100% Radar_Works"]);
  });
});

import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { isUniqueViolation } from "../../lib/db-errors";

it("takes SQLite's primary-key conflict for a unique violation, as PostgreSQL's 23505 is", () => {
  const db = new Database(":memory:");
  db.exec("create table pairs (a integer not null, b integer not null, primary key (a, b))");
  db.prepare("insert into pairs values (1, 2)").run();
  let caught: unknown;
  try {
    db.prepare("insert into pairs values (1, 2)").run();
  } catch (error) {
    caught = error;
  }
  db.close();
  expect((caught as { code?: string }).code).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
  expect(isUniqueViolation(caught)).toBe(true);
  expect(isUniqueViolation(caught, { table: "pairs", column: "a" })).toBe(true);
  expect(isUniqueViolation(caught, { table: "other", column: "a" })).toBe(false);
});

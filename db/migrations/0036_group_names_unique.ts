import { sql } from "kysely";
import type { AnyDb } from "./dialect";

/**
 * One working group per name, whatever its case (issue 36). The service refused a taken name by a
 * read before its write, which two admins saving at once could both pass; the database now keeps
 * the rule, and the service answers its refusal with the same message.
 *
 * Folded by the database's `lower()`, as the service's check now folds too: ASCII letters only on
 * SQLite, every letter on PostgreSQL. Names already taken twice (possible before this index) are
 * told apart first, found by the same `lower()` the index uses: the later group's name gets its id
 * (cut to the names' 120 characters), which an admin can change.
 */
const NAME_MAX = 120;

export async function up(db: AnyDb): Promise<void> {
  const rows = (
    await sql<{ id: number; name: string; folded: string }>`
      select id, name, lower(name) as folded from working_groups
      where lower(name) in (select lower(name) from working_groups group by lower(name) having count(*) > 1)
      order by id`.execute(db)
  ).rows;
  const kept = new Set<string>();
  for (const row of rows) {
    if (!kept.has(row.folded)) {
      kept.add(row.folded);
      continue;
    }
    const suffix = ` (${row.id})`;
    await db
      .updateTable("working_groups")
      .set({ name: `${row.name.slice(0, NAME_MAX - suffix.length)}${suffix}` })
      .where("id", "=", row.id)
      .execute();
  }
  await db.schema
    .createIndex("working_groups_name_folded_key")
    .on("working_groups")
    .unique()
    .expression(sql`lower(name)`)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("working_groups_name_folded_key").execute();
}

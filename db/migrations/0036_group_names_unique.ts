import { sql } from "kysely";
import type { AnyDb } from "./dialect";

/**
 * One working group per name, whatever its case (issue 36). The service refused a taken name by a
 * read before its write, which two admins saving at once could both pass; the database now keeps
 * the rule, and the service answers its refusal with the same message.
 *
 * `lower()` folds ASCII letters only on SQLite (the service's own check folds the rest), which is
 * what two simultaneous saves of the same name need. Names already taken twice (possible before
 * this index) are told apart first: the later group's name gets its id, which an admin can change.
 */
export async function up(db: AnyDb): Promise<void> {
  const groups = (await db.selectFrom("working_groups").select(["id", "name"]).orderBy("id").execute()) as {
    id: number;
    name: string;
  }[];
  const seen = new Set<string>();
  for (const group of groups) {
    const folded = group.name.toLowerCase();
    if (seen.has(folded)) {
      await db
        .updateTable("working_groups")
        .set({ name: `${group.name} (${group.id})` })
        .where("id", "=", group.id)
        .execute();
    }
    seen.add(folded);
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

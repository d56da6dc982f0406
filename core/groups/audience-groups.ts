import type { Executor } from "../../db/types";
import { invalidInput } from "../../lib/validation";
import { AUDIENCE_GROUPS_REQUIRED } from "./groups.schema";

/**
 * The working groups a library category or a meeting is to be for (issue 36), checked in the
 * write's transaction: at least one, and each a group that exists; a 422 on `group_ids` that says
 * what to do otherwise.
 */
export async function checkedAudienceGroups(ids: readonly number[] | undefined, db: Executor): Promise<number[]> {
  if (!ids || ids.length === 0) throw invalidInput({ group_ids: [AUDIENCE_GROUPS_REQUIRED] });
  const rows = await db
    .selectFrom("working_groups")
    .select("id")
    .where("id", "in", [...ids])
    .execute();
  const known = new Set(rows.map((row) => row.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw invalidInput({
      group_ids: [`No working group has the id ${unknown.join(", ")}: choose among the groups that exist.`],
    });
  }
  return [...ids];
}

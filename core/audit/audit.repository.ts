import type { Insertable } from "kysely";
import type { AuditLogTable, Executor } from "../../db/types";

export type AuditFilter = {
  actor?: number;
  entity?: string;
  entity_id?: string;
  action?: string;
  /** ISO times: from (inclusive), to (exclusive). */
  from?: string;
  to?: string;
};

/** Runs on the executor it is given: the database, or the transaction of the write it records. */
export function createAuditRepository(db: Executor) {
  function filtered(filter: AuditFilter) {
    let query = db.selectFrom("audit_log");
    if (filter.actor !== undefined) query = query.where("actor_id", "=", filter.actor);
    if (filter.entity) query = query.where("entity", "=", filter.entity);
    if (filter.entity_id) query = query.where("entity_id", "=", filter.entity_id);
    if (filter.action) query = query.where("action", "=", filter.action);
    if (filter.from) query = query.where("created_at", ">=", filter.from);
    if (filter.to) query = query.where("created_at", "<", filter.to);
    return query;
  }
  return {
    async insert(values: Insertable<AuditLogTable>) {
      await db.insertInto("audit_log").values(values).execute();
    },
    /** Newest first. */
    async list(filter: AuditFilter, offset: number, limit: number) {
      return filtered(filter).selectAll().orderBy("id", "desc").offset(offset).limit(limit).execute();
    },
    async count(filter: AuditFilter): Promise<number> {
      const row = await filtered(filter)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** Who appears in the log, for the filter's choices. */
    async actors() {
      return db
        .selectFrom("audit_log")
        .select(["actor_id", (eb) => eb.fn.max("actor_name").as("name")])
        .where("actor_id", "is not", null)
        .groupBy("actor_id")
        .orderBy("name")
        .limit(500)
        .execute();
    },
    /** The retention job: rows older than `before`, in batches; answers how many went. */
    async removeBefore(before: string, batch: number): Promise<number> {
      const ids = await db
        .selectFrom("audit_log")
        .select("id")
        .where("created_at", "<", before)
        .orderBy("id")
        .limit(batch)
        .execute();
      if (ids.length === 0) return 0;
      await db
        .deleteFrom("audit_log")
        .where(
          "id",
          "in",
          ids.map((row) => row.id),
        )
        .execute();
      return ids.length;
    },
  };
}

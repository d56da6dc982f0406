import type { Insertable } from "kysely";
import type { ContentRevisionsTable, Executor, RevisionEntity } from "../../db/types";

/** Runs on the executor it is given: the database, or the transaction of the content's own write. */
export function createRevisionsRepository(db: Executor) {
  return {
    async insert(values: Insertable<ContentRevisionsTable>) {
      await db.insertInto("content_revisions").values(values).execute();
    },
    async latest(entity: RevisionEntity, entityId: number) {
      return db
        .selectFrom("content_revisions")
        .select(["id", "fields"])
        .where("entity", "=", entity)
        .where("entity_id", "=", entityId)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
    },
    /** The newest `limit` revisions, newest first. */
    async list(entity: RevisionEntity, entityId: number, limit: number) {
      return db
        .selectFrom("content_revisions")
        .selectAll()
        .where("entity", "=", entity)
        .where("entity_id", "=", entityId)
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
    },
    async count(entity: RevisionEntity, entityId: number): Promise<number> {
      const row = await db
        .selectFrom("content_revisions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("entity", "=", entity)
        .where("entity_id", "=", entityId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** How many revisions were saved until `at` (ISO) included: the number of the one in force then. */
    async countUntil(entity: RevisionEntity, entityId: number, at: string): Promise<number> {
      const row = await db
        .selectFrom("content_revisions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("entity", "=", entity)
        .where("entity_id", "=", entityId)
        .where("created_at", "<=", at)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async find(entity: RevisionEntity, entityId: number, id: number) {
      return db
        .selectFrom("content_revisions")
        .selectAll()
        .where("entity", "=", entity)
        .where("entity_id", "=", entityId)
        .where("id", "=", id)
        .executeTakeFirst();
    },
    async removeAll(entity: RevisionEntity, entityId: number) {
      await db.deleteFrom("content_revisions").where("entity", "=", entity).where("entity_id", "=", entityId).execute();
    },
  };
}

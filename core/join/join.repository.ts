import type { Kysely, Selectable } from "kysely";
import { containsText } from "../../db/queries";
import type { Database, JoinRequestEventsTable, JoinRequestsTable } from "../../db/types";
import type { JoinListQuery } from "./join.schema";

export type NewJoinRequest = Omit<Selectable<JoinRequestsTable>, "id" | "handled_at" | "invitation_sequence">;

export function createJoinRepository(db: Kysely<Database>) {
  const filtered = (query: Omit<JoinListQuery, "page">) => {
    let q = db.selectFrom("join_requests");
    if (query.kind) q = q.where("kind", "=", query.kind);
    if (query.spam === "only") q = q.where("spam_reason", "is not", null);
    if (query.spam === "none") q = q.where("spam_reason", "is", null);
    if (query.meeting) q = q.where("meeting_id", "=", query.meeting);
    if (query.status === "open") q = q.where("handled_at", "is", null);
    if (query.status === "handled") q = q.where("handled_at", "is not", null);
    if (query.status === "new" || query.status === "approved" || query.status === "declined") {
      q = q.where("status", "=", query.status);
    }
    if (query.search) {
      const search = query.search;
      q = q.where((eb) =>
        eb.or(
          (["company_name", "representative_name", "email", "subject"] as const).map((column) =>
            containsText(eb.ref(column), search),
          ),
        ),
      );
    }
    return q;
  };
  return {
    async insert(row: NewJoinRequest): Promise<number> {
      const inserted = await db.insertInto("join_requests").values(row).returning("id").executeTakeFirstOrThrow();
      return Number(inserted.id);
    },
    async list(query: Omit<JoinListQuery, "page">, offset: number, limit: number) {
      return filtered(query)
        .leftJoin("meetings", "meetings.id", "join_requests.meeting_id")
        .selectAll("join_requests")
        .select("meetings.title as meeting_title")
        .orderBy("join_requests.created_at", "desc")
        .orderBy("join_requests.id", "desc")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    async count(query: Omit<JoinListQuery, "page">): Promise<number> {
      const row = await filtered(query)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** The meetings that have registrations, for the inbox's filter. */
    async meetingsWithRequests() {
      return db
        .selectFrom("meetings")
        .select(["meetings.id", "meetings.title"])
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom("join_requests")
              .select("join_requests.id")
              .whereRef("join_requests.meeting_id", "=", "meetings.id"),
          ),
        )
        .orderBy("meetings.start_date", "desc")
        .execute();
    },
    async setHandled(id: number, handledAt: string | null): Promise<boolean> {
      const result = await db
        .updateTable("join_requests")
        .set({ handled_at: handledAt })
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** True when the request exists (marked or not). */
    async clearSpam(id: number): Promise<boolean> {
      const result = await db
        .updateTable("join_requests")
        .set({ spam_reason: null })
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** The request as the approval and the decline read it. */
    async findById(id: number) {
      return db
        .selectFrom("join_requests")
        .select(["id", "kind", "status", "company_name", "representative_name", "email", "phone_number"])
        .where("id", "=", id)
        .executeTakeFirst();
    },
    /**
     * Decides a new application (decision 0047): true when this write did; false when the request is
     * not a new application (none, another kind, or decided meanwhile: on PostgreSQL the row lock
     * makes a second decision wait for the first and then find it decided). Deciding is handling it.
     */
    async decide(id: number, status: "approved" | "declined", at: string): Promise<boolean> {
      const result = await db
        .updateTable("join_requests")
        .set((eb) => ({ status, handled_at: eb.fn.coalesce("handled_at", eb.val(at)) }))
        .where("id", "=", id)
        .where("kind", "=", "join")
        .where("status", "=", "new")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async insertEvent(row: Omit<Selectable<JoinRequestEventsTable>, "id">): Promise<void> {
      await db.insertInto("join_request_events").values(row).execute();
    },
    /** The history of these requests, oldest first (join_request_events_request_idx). */
    async eventsFor(ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .selectFrom("join_request_events")
        .selectAll()
        .where("join_request_id", "in", ids)
        .orderBy("join_request_id")
        .orderBy("id")
        .execute();
    },
    /**
     * Deletes a request. A registration's meeting row is taken first, as every change of a
     * registration takes it (registrations.repository `lockMeeting`): the seat count's trigger
     * (migration 0024) writes that row, and taking it after this request's own row could deadlock
     * with a change of the same registration on PostgreSQL. Run it in a transaction.
     */
    async remove(id: number): Promise<boolean> {
      const found = await db.selectFrom("join_requests").select("meeting_id").where("id", "=", id).executeTakeFirst();
      if (!found) return false;
      if (found.meeting_id !== null) {
        // A write that changes nothing: on PostgreSQL it holds the row until the transaction ends; on
        // SQLite the transaction writes anyway.
        await db
          .updateTable("meetings")
          .set((eb) => ({ updated_at: eb.ref("updated_at") }))
          .where("id", "=", found.meeting_id)
          .execute();
      }
      const result = await db.deleteFrom("join_requests").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
export type JoinRepository = ReturnType<typeof createJoinRepository>;

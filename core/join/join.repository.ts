import type { Kysely, Selectable } from "kysely";
import { containsText } from "../../db/queries";
import type { Database, JoinRequestsTable } from "../../db/types";
import type { JoinListQuery } from "./join.schema";

export type NewJoinRequest = Omit<Selectable<JoinRequestsTable>, "id" | "handled_at">;

export function createJoinRepository(db: Kysely<Database>) {
  const filtered = (query: Omit<JoinListQuery, "page">) => {
    let q = db.selectFrom("join_requests");
    if (query.kind) q = q.where("kind", "=", query.kind);
    if (query.meeting) q = q.where("meeting_id", "=", query.meeting);
    if (query.status === "open") q = q.where("handled_at", "is", null);
    if (query.status === "handled") q = q.where("handled_at", "is not", null);
    if (query.search) {
      const search = query.search;
      q = q.where((eb) =>
        eb.or(
          (["company_name", "representative_name", "email"] as const).map((column) =>
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
    /** Registrations for one meeting (join_requests_meeting_idx), against its capacity. */
    async countForMeeting(meetingId: number): Promise<number> {
      const row = await db
        .selectFrom("join_requests")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("meeting_id", "=", meetingId)
        .where("kind", "=", "registration")
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async countsForMeetings(meetingIds: number[]): Promise<Map<number, number>> {
      if (meetingIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("join_requests")
        .select(["meeting_id", (eb) => eb.fn.countAll<number>().as("n")])
        .where("meeting_id", "in", meetingIds)
        .where("kind", "=", "registration")
        .groupBy("meeting_id")
        .execute();
      return new Map(rows.map((r) => [Number(r.meeting_id), Number(r.n)]));
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
    async remove(id: number): Promise<boolean> {
      const result = await db.deleteFrom("join_requests").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
export type JoinRepository = ReturnType<typeof createJoinRepository>;

import type { Kysely, Selectable } from "kysely";
import type { Database, MailQueueTable } from "../../db/types";
import type { MailAttachment } from "../../lib/mail";
import { mailAttachmentsSchema, type NewMailAttachment } from "./mail.schema";

export type NewMail = Pick<
  Selectable<MailQueueTable>,
  "join_request_id" | "purpose" | "to_address" | "reply_to" | "subject" | "body_text"
> & {
  /** Files sent with the mail, stored with it (decision 0053); a calendar invitation has a method. */
  attachments?: NewMailAttachment[];
  /** The one-click unsubscribe address of a notice, digest or announcement (decision 0065). */
  list_unsubscribe?: string | null;
  /** The announcement it is part of; with `not_before`, when it may leave (the announcements' pace). */
  announcement_id?: number | null;
  not_before?: string;
};

/** The stored JSON of a mail's attachments, or null without any; throws on an invalid list. */
function attachmentsJson(attachments: NewMailAttachment[] | undefined): string | null {
  if (!attachments || attachments.length === 0) return null;
  return JSON.stringify(mailAttachmentsSchema.parse(attachments));
}

/** A queued mail's attachments as the transport takes them. */
export function storedAttachments(json: string | null): MailAttachment[] {
  return json ? (JSON.parse(json) as MailAttachment[]) : [];
}

export function createMailRepository(db: Kysely<Database>) {
  return {
    async enqueue(mails: NewMail[], now: string) {
      if (mails.length === 0) return;
      await db
        .insertInto("mail_queue")
        .values(
          mails.map(({ attachments, not_before, ...m }) => ({
            ...m,
            attachments: attachmentsJson(attachments),
            list_unsubscribe: m.list_unsubscribe ?? null,
            announcement_id: m.announcement_id ?? null,
            status: "pending" as const,
            attempts: 0,
            next_attempt_at: not_before ?? now,
            created_at: now,
          })),
        )
        .execute();
    },
    /** Mails due now, oldest first: pending ones, and ones whose sender died mid-send. */
    async due(now: string, limit: number) {
      return db
        .selectFrom("mail_queue")
        .selectAll()
        .where((eb) =>
          eb.or([
            eb.and([eb("status", "=", "pending"), eb("next_attempt_at", "<=", now)]),
            eb.and([eb("status", "=", "sending"), eb("locked_until", "<", now)]),
          ]),
        )
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(limit)
        .execute();
    },
    /** When the next pending mail that is not due yet becomes due, if before `until` (a paced announcement). */
    async nextDue(now: string, until: string): Promise<string | null> {
      const row = await db
        .selectFrom("mail_queue")
        .select("next_attempt_at")
        .where("status", "=", "pending")
        .where("next_attempt_at", ">", now)
        .where("next_attempt_at", "<=", until)
        .orderBy("next_attempt_at")
        .limit(1)
        .executeTakeFirst();
      return row?.next_attempt_at ?? null;
    },
    /**
     * Takes a mail for sending, as it was read; false when another process took
     * it first. A stale "sending" row is taken only with the lock it was read
     * with, so two processes that both found it expired cannot both send it.
     */
    async claim(
      mail: { id: number; status: string; locked_until: string | null },
      lockedUntil: string,
    ): Promise<boolean> {
      let query = db
        .updateTable("mail_queue")
        .set({ status: "sending", locked_until: lockedUntil })
        .where("id", "=", mail.id);
      query =
        mail.status === "sending" && mail.locked_until
          ? query.where("status", "=", "sending").where("locked_until", "=", mail.locked_until)
          : query.where("status", "=", "pending");
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async markSent(id: number, attempts: number, now: string) {
      await db
        .updateTable("mail_queue")
        .set({ status: "sent", attempts, sent_at: now, locked_until: null, last_error: null })
        .where("id", "=", id)
        .execute();
    },
    async markFailed(id: number, attempts: number, error: string, nextAttemptAt: string | null) {
      await db
        .updateTable("mail_queue")
        .set({
          status: nextAttemptAt ? "pending" : "failed",
          attempts,
          last_error: error.slice(0, 500),
          next_attempt_at: nextAttemptAt ?? undefined,
          locked_until: null,
        })
        .where("id", "=", id)
        .execute();
    },
    async forJoinRequests(ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .selectFrom("mail_queue")
        .select(["id", "join_request_id", "purpose", "to_address", "status", "attempts", "last_error", "sent_at"])
        .where("join_request_id", "in", ids)
        .orderBy("id")
        .execute();
    },
    /** The addresses among these (lower-cased) that refused mail for good, with why and when (decision 0078). */
    async bouncesAmong(addresses: readonly string[]) {
      if (addresses.length === 0) return [];
      return db
        .selectFrom("mail_bounces")
        .select(["address", "reason", "created_at"])
        .where("address", "in", [...new Set(addresses)])
        .execute();
    },
    /** Marks an address (lower-cased) as refusing mail for good; a later refusal replaces the reason. */
    async recordBounce(bounce: { address: string; reason: string; mail_id: number; created_at: string }) {
      await db
        .insertInto("mail_bounces")
        .values({ ...bounce, reason: bounce.reason.slice(0, 500) })
        .onConflict((oc) =>
          oc.column("address").doUpdateSet({
            reason: (eb) => eb.ref("excluded.reason"),
            mail_id: (eb) => eb.ref("excluded.mail_id"),
            created_at: (eb) => eb.ref("excluded.created_at"),
          }),
        )
        .execute();
    },
    /** Lifts the mark from an address (lower-cased): mail goes to it again. */
    async liftBounce(address: string) {
      await db.deleteFrom("mail_bounces").where("address", "=", address).execute();
    },
    /** A failed mail's address, or null when there is no failed mail with this id. */
    async failedAddress(id: number): Promise<string | null> {
      const row = await db
        .selectFrom("mail_queue")
        .select("to_address")
        .where("id", "=", id)
        .where("status", "=", "failed")
        .executeTakeFirst();
      return row?.to_address ?? null;
    },
    /** Sends a failed mail again from scratch. */
    async requeue(id: number, now: string): Promise<boolean> {
      const result = await db
        .updateTable("mail_queue")
        .set({ status: "pending", attempts: 0, next_attempt_at: now, last_error: null, locked_until: null })
        .where("id", "=", id)
        .where("status", "=", "failed")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
export type MailRepository = ReturnType<typeof createMailRepository>;

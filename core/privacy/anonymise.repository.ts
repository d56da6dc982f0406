import type { Executor } from "../../db/types";

/** What an erased request's person fields read (the admin inbox shows it as such). */
export const ERASED_NAME = "(erased)";
/** An address that can never be delivered (RFC 2606's .invalid), so that nothing is mailed to an erased request. */
export const ERASED_EMAIL = "erased@erased.invalid";

/**
 * Erases the person from join requests, registrations and messages (issue 35), keeping what is not
 * theirs: the kind, the meeting, the company's name, the states and the dates, so that the counts
 * stay true. Their name, address, phone, note, message, IP and account link go, with the links
 * and mails that carried them. A registration that still holds a seat keeps its status: the caller
 * cancels an upcoming one first (registrations.service), a past one no longer matters.
 * Answers how many requests were erased now (those erased before are left as they are).
 */
export async function anonymiseRequests(db: Executor, ids: readonly number[], at: string): Promise<number> {
  if (ids.length === 0) return 0;
  let erased = 0;
  // In chunks: SQLite allows some 32 000 bound values, PostgreSQL 65 535.
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    const result = await db
      .updateTable("join_requests")
      .set({
        representative_name: ERASED_NAME,
        email: ERASED_EMAIL,
        phone_number: null,
        registration_email: null,
        note: null,
        subject: null,
        message: null,
        ip: null,
        user_id: null,
        anonymised_at: at,
      })
      .where("id", "in", chunk)
      .where("anonymised_at", "is", null)
      .executeTakeFirst();
    erased += Number(result.numUpdatedRows);
    await db.deleteFrom("registration_links").where("join_request_id", "in", chunk).execute();
    // The mails about these requests carried the person's address and words (sent or waiting alike).
    await db.deleteFrom("mail_queue").where("join_request_id", "in", chunk).execute();
  }
  return erased;
}

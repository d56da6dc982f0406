import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

export type NoticeKind = "reminder" | "lapse";

/** A company a notice is owed to, as the batch found it. */
export type DueCompany = { id: number; name: string; renews_on: string };

/**
 * Renewal reminders and lapse notices (decision 0049): which active companies are owed one, and
 * the record of each sent (membership_notices, migration 0017). Runs on the database or a write's
 * transaction.
 */
export function createRenewalsRepository(db: Kysely<Database>) {
  return {
    /**
     * Active companies whose renews_on is within [from, to] and that have no notice of this kind for
     * that renews_on, in (renews_on, id) order after `after` (on member_companies_status_idx).
     */
    async due(
      kind: NoticeKind,
      from: string,
      to: string,
      after: { renews_on: string; id: number } | null,
      limit: number,
    ) {
      let query = db
        .selectFrom("member_companies as company")
        .select(["company.id", "company.name", "company.renews_on"])
        .where("company.status", "=", "active")
        .where("company.renews_on", ">=", from)
        .where("company.renews_on", "<=", to)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("membership_notices as notice")
                .select("notice.id")
                .whereRef("notice.company_id", "=", "company.id")
                .whereRef("notice.renews_on", "=", "company.renews_on")
                .where("notice.kind", "=", kind),
            ),
          ),
        );
      if (after) {
        const { renews_on, id } = after;
        query = query.where((eb) =>
          eb.or([
            eb("company.renews_on", ">", renews_on),
            eb.and([eb("company.renews_on", "=", renews_on), eb("company.id", ">", id)]),
          ]),
        );
      }
      const rows = await query.orderBy("company.renews_on").orderBy("company.id").limit(limit).execute();
      return rows as DueCompany[];
    },

    /** The company's status and renews_on now (inside the notice's transaction: it may have been renewed since). */
    async state(companyId: number) {
      return db
        .selectFrom("member_companies")
        .select(["status", "renews_on"])
        .where("id", "=", companyId)
        .executeTakeFirst();
    },

    /** The company's primary contacts whose accounts are active (invited ones too: they have an address). */
    async primaryContacts(companyId: number) {
      return db
        .selectFrom("company_representatives as r")
        .innerJoin("users", "users.id", "r.user_id")
        .select(["users.id", "users.email", "users.first_name", "users.last_name"])
        .where("r.company_id", "=", companyId)
        .where("r.is_primary", "=", 1)
        .where("users.is_active", "=", 1)
        .orderBy("users.id")
        .execute();
    },

    /**
     * Records the notice; false when it was recorded already (by another run or process: the
     * unique key membership_notices_once), and then nothing is to be sent. On PostgreSQL a second
     * transaction's insert waits for the first's commit and then does nothing.
     */
    async record(companyId: number, kind: NoticeKind, renewsOn: string, now: string) {
      const row = await db
        .insertInto("membership_notices")
        .values({ company_id: companyId, kind, renews_on: renewsOn, recipients: 0, created_at: now })
        .onConflict((oc) => oc.columns(["company_id", "kind", "renews_on"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      return row !== undefined;
    },

    /** How many primary contacts the notice just recorded went to. */
    async setRecipients(companyId: number, kind: NoticeKind, renewsOn: string, recipients: number) {
      await db
        .updateTable("membership_notices")
        .set({ recipients })
        .where("company_id", "=", companyId)
        .where("kind", "=", kind)
        .where("renews_on", "=", renewsOn)
        .execute();
    },

    /** The notices recorded for a company, oldest first (tests, a later admin screen). */
    async noticesOf(companyId: number) {
      return db
        .selectFrom("membership_notices")
        .select(["kind", "renews_on", "recipients", "created_at"])
        .where("company_id", "=", companyId)
        .orderBy("id")
        .execute();
    },
  };
}
export type RenewalsRepository = ReturnType<typeof createRenewalsRepository>;

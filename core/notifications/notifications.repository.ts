import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { DigestFrequency, Follow, FollowKind } from "./notifications.schema";

export function createNotificationsRepository(db: Kysely<Database>) {
  return {
    preferencesOf(userId: number) {
      return db.selectFrom("notification_preferences").selectAll().where("user_id", "=", userId).executeTakeFirst();
    },
    followsOf(userId: number) {
      return db
        .selectFrom("follows")
        .select(["kind", "category_id", "delivery"])
        .where("user_id", "=", userId)
        .orderBy("id")
        .execute();
    },
    async savePreferences(userId: number, values: { digest: DigestFrequency; announcements: boolean }, now: string) {
      const row = { digest: values.digest, announcements: values.announcements ? 1 : 0, updated_at: now };
      await db
        .insertInto("notification_preferences")
        .values({ user_id: userId, ...row })
        .onConflict((oc) => oc.column("user_id").doUpdateSet(row))
        .execute();
    },
    async removeFollow(userId: number, kind: FollowKind, categoryId: number | null): Promise<boolean> {
      const result = await db
        .deleteFrom("follows")
        .where("user_id", "=", userId)
        .where("kind", "=", kind)
        .where((eb) => (categoryId === null ? eb("category_id", "is", null) : eb("category_id", "=", categoryId)))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async removeFollows(userId: number) {
      await db.deleteFrom("follows").where("user_id", "=", userId).execute();
    },
    async addFollows(userId: number, follows: Follow[], now: string) {
      if (follows.length === 0) return;
      await db
        .insertInto("follows")
        .values(
          follows.map((f) => ({
            user_id: userId,
            kind: f.kind,
            category_id: f.kind === "category" ? (f.id ?? null) : null,
            delivery: f.delivery,
            created_at: now,
          })),
        )
        .execute();
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;

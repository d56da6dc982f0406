import type { Kysely } from "kysely";
import type { Database, NewUserRow, UserRow, UserUpdate } from "../../db/types";

export function createUsersRepository(db: Kysely<Database>) {
  return {
    async findById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    },
    /** E-mails are stored lower-cased; the unique index is on lower(email) too. */
    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
    },
    async insert(row: NewUserRow): Promise<UserRow> {
      return db.insertInto("users").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async update(id: number, changes: UserUpdate): Promise<UserRow> {
      return db.updateTable("users").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
    },
    async setPassword(id: number, passwordHash: string, now: string): Promise<void> {
      await db
        .updateTable("users")
        .set({ password_hash: passwordHash, updated_at: now })
        .where("id", "=", id)
        .execute();
    },
    async list(limit: number): Promise<UserRow[]> {
      return db.selectFrom("users").selectAll().orderBy("id").limit(limit).execute();
    },
    async count(): Promise<number> {
      const row = await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;

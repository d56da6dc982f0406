import { type AnyDb, notNull, withId } from "./dialect";

/**
 * Two-factor sign-in (issue 34, decision 0075).
 * - `user_two_factor`: a user's authenticator app: its TOTP secret, when the first code confirmed it
 *   (null while set-up waits), and the last time step accepted (a code is good once).
 * - `two_factor_recovery_codes`: ten single-use codes, stored hashed.
 * - `two_factor_challenges`: the second step of a sign-in after a right password: hashed, five
 *   minutes, single use.
 * All go with their user.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("user_two_factor")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("totp_secret", "text", notNull)
    .addColumn("enabled_at", "text")
    .addColumn("last_step", "integer")
    .addColumn("created_at", "text", notNull)
    .addColumn("updated_at", "text", notNull)
    .execute();
  await withId(db, db.schema.createTable("two_factor_recovery_codes"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", notNull)
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", notNull)
    .execute();
  await db.schema
    .createIndex("two_factor_recovery_codes_user_idx")
    .on("two_factor_recovery_codes")
    .columns(["user_id", "code_hash"])
    .execute();
  await withId(db, db.schema.createTable("two_factor_challenges"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("remember", "integer", notNull)
    .addColumn("expires_at", "text", notNull)
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", notNull)
    .execute();
  await db.schema
    .createIndex("two_factor_challenges_expiry_idx")
    .on("two_factor_challenges")
    .column("expires_at")
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("two_factor_challenges").execute();
  await db.schema.dropTable("two_factor_recovery_codes").execute();
  await db.schema.dropTable("user_two_factor").execute();
}

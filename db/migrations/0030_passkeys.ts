import { type AnyDb, notNull, withId } from "./dialect";

/**
 * Passkeys as a second factor (issue 34, decision 0076).
 * - `user_passkeys`: a user's WebAuthn credentials: the credential's id and public key (base64url),
 *   its signature counter, the transports the browser named, the name the user gave it, when it
 *   was added and last used. They go with their user.
 * - `user_two_factor.passkey_challenge` (and its expiry): the challenge of a passkey being added,
 *   single use, five minutes.
 * - `two_factor_challenges.passkey_challenge`: the WebAuthn challenge of a sign-in's second step,
 *   spent with the step.
 */
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable("user_passkeys"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("credential_id", "text", (c) => c.notNull().unique())
    .addColumn("public_key", "text", notNull)
    .addColumn("counter", "bigint", notNull)
    .addColumn("transports", "text")
    .addColumn("name", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("user_passkeys_user_idx").on("user_passkeys").column("user_id").execute();
  await db.schema.alterTable("user_two_factor").addColumn("passkey_challenge", "text").execute();
  await db.schema.alterTable("user_two_factor").addColumn("passkey_challenge_expires_at", "text").execute();
  await db.schema.alterTable("two_factor_challenges").addColumn("passkey_challenge", "text").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("two_factor_challenges").dropColumn("passkey_challenge").execute();
  await db.schema.alterTable("user_two_factor").dropColumn("passkey_challenge_expires_at").execute();
  await db.schema.alterTable("user_two_factor").dropColumn("passkey_challenge").execute();
  await db.schema.dropTable("user_passkeys").execute();
}

import type { AnyDb } from "./dialect";

/**
 * The audit rows of the secretariat's exports of someone's data named the address in full until
 * 2026-11-29 ("Exported the personal data held about jane@example.org"). An address without an
 * account belongs to nobody an erasure finds, so those rows outlived the erasure of the person
 * they were about. They now say what the erasure's own row says: `j***@example.org`.
 */
const PREFIX = "Exported the personal data held about ";

/** As core/privacy's maskedEmail, written out here: a migration's behaviour must not change once landed. */
function masked(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}***@${domain}`;
}

export async function up(db: AnyDb): Promise<void> {
  const rows = (await db
    .selectFrom("audit_log")
    .select(["id", "summary"])
    .where("action", "=", "data_exported")
    .where("summary", "like", `${PREFIX}%`)
    .execute()) as { id: number; summary: string }[];
  for (const row of rows) {
    const address = row.summary.slice(PREFIX.length);
    if (address.includes("***@")) continue;
    await db
      .updateTable("audit_log")
      .set({ summary: `${PREFIX}${masked(address)}` })
      .where("id", "=", row.id)
      .execute();
  }
}

export async function down(): Promise<void> {
  // The addresses are not kept anywhere to put back.
}

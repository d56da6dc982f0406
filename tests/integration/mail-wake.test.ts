import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailRepository, type NewMail } from "../../core/mail/mail.repository";
import { createMailService } from "../../core/mail/mail.service";
import { createMailTransport } from "../../lib/mail";
import { createTestDatabase, type TestDatabase } from "../support/database";

/**
 * A mail set to leave later (an announcement's pace, decision 0066) leaves when it becomes due: the
 * sender wakes for it by itself, rather than waiting for the server's 30-second round or another
 * mail to be queued. Real time, a real outbox transport.
 */
let database: TestDatabase;
let outboxDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-wake-"));
});
afterAll(async () => {
  await database?.destroy();
  fs.rmSync(outboxDir, { recursive: true, force: true });
});

const mail = (subject: string, notBefore?: Date): NewMail => ({
  join_request_id: null,
  purpose: "announcement",
  to_address: "member@example.org",
  reply_to: null,
  subject,
  body_text: "News from the association.",
  ...(notBefore ? { not_before: notBefore.toISOString() } : {}),
});

const statusOf = async (subject: string) =>
  (await database.db.selectFrom("mail_queue").select("status").where("subject", "=", subject).executeTakeFirstOrThrow())
    .status;

describe("the mail sender", () => {
  it("wakes by itself for a mail set to leave a moment later, and sends it then, not before", async () => {
    const service = createMailService({
      repository: createMailRepository(database.db),
      transport: createMailTransport({ from: "Masthead <noreply@masthead.test>", outboxDir }),
      clock: () => new Date(),
    });
    try {
      const leavesAt = new Date(Date.now() + 3000);
      await service.queue([mail("Now"), mail("In a moment", leavesAt)]);
      await expect.poll(() => statusOf("Now"), { timeout: 5000 }).toBe("sent");
      // Nothing else is queued or called: only the sender's own wake-up can send it, and not before its time.
      await expect.poll(() => statusOf("In a moment"), { timeout: 10_000, interval: 100 }).toBe("sent");
      const sentAt = await database.db
        .selectFrom("mail_queue")
        .select("sent_at")
        .where("subject", "=", "In a moment")
        .executeTakeFirstOrThrow();
      expect(Date.parse(sentAt.sent_at ?? "")).toBeGreaterThanOrEqual(leavesAt.getTime());
      expect(fs.readdirSync(outboxDir)).toHaveLength(2);
    } finally {
      await service.stop();
    }
  });
});

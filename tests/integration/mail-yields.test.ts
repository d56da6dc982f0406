import fs from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailRepository, type NewMail } from "../../core/mail/mail.repository";
import { createMailService } from "../../core/mail/mail.service";
import { createMailTransport } from "../../lib/mail";
import { gracefulShutdown } from "../../server/shutdown";
import { createTestDatabase, type TestDatabase } from "../support/database";

/**
 * Requests first (decision 0069): the mail sender waits for a moment when the server answers no
 * request before each mail, at most its bound. A real HTTP server holds a request open; a real
 * outbox transport records when each mail left.
 */
let database: TestDatabase;
let outboxDir: string;
let server: Server;
let origin: string;
let shutdown: ReturnType<typeof gracefulShutdown>;
/** Requests the server holds open until the test answers them. */
const held: ServerResponse[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-yields-"));
  server = createServer((_request, response) => {
    held.push(response);
  });
  shutdown = gracefulShutdown(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of held.splice(0)) response.end();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await database?.destroy();
  fs.rmSync(outboxDir, { recursive: true, force: true });
});

const mail = (subject: string): NewMail => ({
  join_request_id: null,
  purpose: "acknowledgement",
  to_address: "registrant@example.org",
  reply_to: null,
  subject,
  body_text: "We received your registration.",
});

/** Stored only: the test starts the sender itself, and counts what that run sends. */
const queue = (mails: NewMail[]) => createMailRepository(database.db).enqueue(mails, new Date().toISOString());

/** When each mail left, by subject, in the order they left. */
function senderYieldingFor(boundMs: number) {
  const sent: { subject: string; at: number }[] = [];
  const service = createMailService({
    repository: createMailRepository(database.db),
    transport: createMailTransport({
      from: "Masthead <noreply@masthead.test>",
      outboxDir,
      onWritten: (_file, written) => sent.push({ subject: written.subject, at: Date.now() }),
    }),
    clock: () => new Date(),
  });
  service.yieldTo(() => shutdown.whenQuiet(boundMs));
  return { service, sent };
}

/** A request the server holds open, and when it was answered. */
async function holdARequest() {
  const before = held.length;
  const answered = fetch(`${origin}/slow`).then((r) => r.text());
  await expect.poll(() => held.length).toBe(before + 1);
  const response = held[before];
  return {
    answer: async () => {
      const at = Date.now();
      response.end("done");
      await answered;
      return at;
    },
  };
}

describe("the mail sender, beside the requests being answered", () => {
  it("waits while a request is being answered and sends as soon as none is", async () => {
    const { service, sent } = senderYieldingFor(60_000);
    try {
      const request = await holdARequest();
      await queue([mail("Waits for the request")]);
      const delivering = service.deliverDue();
      // Long enough for the outbox write had the sender not waited.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sent).toEqual([]);
      const answeredAt = await request.answer();
      expect(await delivering).toBe(1);
      expect(sent.map((s) => s.subject)).toEqual(["Waits for the request"]);
      expect(sent[0].at).toBeGreaterThanOrEqual(answeredAt);
    } finally {
      await service.stop();
    }
  });

  it("waits no longer than its bound: under a load that never pauses, the mail still leaves", async () => {
    const { service, sent } = senderYieldingFor(100);
    const request = await holdARequest();
    try {
      await queue([mail("First"), mail("Second")]);
      expect(await service.deliverDue()).toBe(2);
      expect(sent.map((s) => s.subject)).toEqual(["First", "Second"]);
    } finally {
      await request.answer();
      await service.stop();
    }
  });

  it("sends at once when no request is being answered", async () => {
    const { service, sent } = senderYieldingFor(60_000);
    try {
      await queue([mail("Straight away")]);
      expect(await service.deliverDue()).toBe(1);
      expect(sent.map((s) => s.subject)).toEqual(["Straight away"]);
    } finally {
      await service.stop();
    }
  });
});

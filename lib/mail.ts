import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";

export type OutgoingMail = { to: string; subject: string; text: string; replyTo?: string | null };

/** Hands one message to the mail system; throws when it is refused or unreachable. */
export type MailTransport = { send(mail: OutgoingMail): Promise<void>; describe: string };

/**
 * SMTP when SMTP_URL is set (smtp:// or smtps://, credentials in the URL);
 * otherwise every message is written as an .eml file under the outbox
 * directory, so a demo or a test machine loses nothing and sends nothing.
 */
export function createMailTransport(options: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  onWritten?: (file: string, mail: OutgoingMail) => void;
}): MailTransport {
  if (options.smtpUrl) {
    // Every wait ends well within the queue's 120-second send lock, so a slow server
    // cannot keep a mail "sending" long enough for another process to send it again.
    const transporter = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 20_000,
      greetingTimeout: 20_000,
      socketTimeout: 60_000,
    });
    return {
      describe: "smtp",
      async send(mail) {
        await transporter.sendMail({
          from: options.from,
          to: mail.to,
          replyTo: mail.replyTo ?? undefined,
          subject: mail.subject,
          text: mail.text,
        });
      },
    };
  }
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    describe: `outbox ${options.outboxDir}`,
    async send(mail) {
      const info = await writer.sendMail({
        from: options.from,
        to: mail.to,
        replyTo: mail.replyTo ?? undefined,
        subject: mail.subject,
        text: mail.text,
      });
      fs.mkdirSync(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`;
      const file = path.join(options.outboxDir, name);
      fs.writeFileSync(file, info.message as Buffer);
      options.onWritten?.(file, mail);
    },
  };
}

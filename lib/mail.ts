import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";

/**
 * A file sent with a mail. `content` is UTF-8 text or, with `encoding: "base64"`, binary data.
 * With `method` it is the mail's calendar invitation (text/calendar; decision 0053): nodemailer's
 * `icalEvent` sends it as a text/calendar alternative with that method, which mail clients show as
 * an invitation with its buttons, and again as an application/ics attachment. A mail has at most one.
 */
export type MailAttachment = {
  filename: string;
  contentType: string;
  content: string;
  encoding: "utf8" | "base64";
  method?: "REQUEST" | "CANCEL" | "PUBLISH";
};

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  /** The same content as HTML (core/mail/mail-html.tsx), sent beside the text as multipart/alternative. */
  html?: string;
  replyTo?: string | null;
  attachments?: MailAttachment[];
  /**
   * The one-click unsubscribe address (RFC 8058) of a notice, digest or announcement: sent as
   * `List-Unsubscribe: <url>` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`.
   */
  listUnsubscribe?: string | null;
};

/** The message nodemailer composes: the text, the calendar invitation, the other attachments. */
function message(from: string, mail: OutgoingMail): Mail.Options {
  const attachments = mail.attachments ?? [];
  const invitations = attachments.filter((a) => a.method);
  if (invitations.length > 1) throw new Error("A mail carries at most one calendar invitation.");
  const invitation = invitations[0];
  return {
    from,
    to: mail.to,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    ...(mail.listUnsubscribe
      ? {
          list: { unsubscribe: mail.listUnsubscribe },
          headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
        }
      : {}),
    icalEvent: invitation && {
      method: invitation.method,
      filename: invitation.filename,
      content: invitation.content,
      encoding: invitation.encoding === "base64" ? "base64" : undefined,
    },
    attachments: attachments
      .filter((a) => !a.method)
      .map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: Buffer.from(a.content, a.encoding === "base64" ? "base64" : "utf8"),
      })),
  };
}

/** Hands one message to the mail system; throws when it is refused or unreachable. */
export type MailTransport = {
  send(mail: OutgoingMail): Promise<void>;
  describe: string;
  /**
   * The outbox's files written before `before`, removed (the retention job, decision 0078); answers
   * how many. Only the outbox has files of its own: an SMTP transport keeps nothing.
   */
  pruneOutbox?(before: Date): Promise<number>;
};

/**
 * The mail server's answer when it refused the recipient for good, else null (decision 0078): a 5xx
 * answer to RCPT TO, or a 5xx at DATA whose enhanced status names the mailbox (5.1.x, 5.2.1). Any
 * other refusal (4xx, a lost connection, MAIL FROM or AUTH refused: our side) may pass: it is retried.
 */
export function permanentRecipientRefusal(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { responseCode, command, response } = error as Error & {
    responseCode?: number;
    command?: string;
    response?: string;
  };
  if (typeof responseCode !== "number" || responseCode < 500 || responseCode > 599) return null;
  const answer = (response ?? error.message).trim();
  if (command === "RCPT TO") return answer;
  if (command === "DATA" && /^5\d\d[ -]5\.(1\.\d+|2\.1)\b/.test(answer)) return answer;
  return null;
}

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
        await transporter.sendMail(message(options.from, mail));
      },
    };
  }
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    describe: `outbox ${options.outboxDir}`,
    async send(mail) {
      const info = await writer.sendMail(message(options.from, mail));
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`;
      const file = path.join(options.outboxDir, name);
      // Off the event loop: creating a file in a directory of thousands took a third of a millisecond.
      await fs.promises.mkdir(options.outboxDir, { recursive: true });
      await fs.promises.writeFile(file, info.message as Buffer);
      options.onWritten?.(file, mail);
    },
    async pruneOutbox(before) {
      let names: string[];
      try {
        names = await fs.promises.readdir(options.outboxDir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
        throw error;
      }
      let removed = 0;
      for (const name of names) {
        if (!name.endsWith(".eml")) continue;
        const file = path.join(options.outboxDir, name);
        const stat = await fs.promises.stat(file).catch(() => null);
        if (!stat?.isFile() || stat.mtimeMs >= before.getTime()) continue;
        await fs.promises.rm(file, { force: true });
        removed += 1;
      }
      return removed;
    },
  };
}

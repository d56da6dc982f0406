import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { from: string; to: string[]; raw: string };

/** A real SMTP server in this process: what the app sends arrives here. */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  let refuse = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refuse) {
          callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 450 }));
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** While true, every message is refused with a temporary error. */
    setRefusing(value: boolean) {
      refuse = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A received message as readable text: quoted-printable decoded, CRLF as LF. */
export function mailText(mail: ReceivedMail): string {
  return mail.raw
    .replace(/=\r?\n/g, "")
    .replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ""), "hex").toString("utf8"))
    .replace(/\r\n/g, "\n");
}

/** The token of the link to `route` (e.g. "/welcome") in a message, if it has one. */
export function tokenIn(mail: ReceivedMail | undefined, route: string): string | undefined {
  if (!mail) return undefined;
  return new RegExp(`${route.replace(/[/?]/g, "\\$&")}\\?token=([\\w-]+)`).exec(mailText(mail))?.[1];
}

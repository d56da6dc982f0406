import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { from: string; to: string[]; raw: string };

/** An SMTP refusal: its reply code (4xx temporary, 5xx permanent) and text. */
export type SmtpRefusal = { code: number; text: string };

const refusalError = (refusal: SmtpRefusal) => Object.assign(new Error(refusal.text), { responseCode: refusal.code });

/**
 * A real SMTP server in this process: what the app sends arrives here. It can refuse chosen
 * recipients at RCPT TO (`refuse`, by lower-cased address) and every message at DATA.
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  /** Every RCPT TO the server was sent, refused or not. */
  const recipients: string[] = [];
  const refuse = new Map<string, SmtpRefusal>();
  let refuseData: SmtpRefusal | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      recipients.push(address.address);
      const refusal = refuse.get(address.address.toLowerCase());
      if (refusal) return callback(refusalError(refusal));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refuseData) {
          callback(refusalError(refuseData));
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
    recipients,
    refuse,
    /** Every message is refused at DATA with this answer until it is null again. */
    setDataRefusal(value: SmtpRefusal | null) {
      refuseData = value;
    },
    /** While true, every message is refused with a temporary error. */
    setRefusing(value: boolean) {
      refuseData = value ? { code: 450, text: "Mailbox unavailable" } : null;
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

/** One leaf part of a received MIME message: its type, the type's parameters and its decoded body. */
export type MimePart = {
  contentType: string;
  params: Record<string, string>;
  disposition: string | null;
  filename: string | null;
  body: Buffer;
};

/** Header fields of an entity, unfolded, names in lower case. */
function headerFields(head: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of head
    .replace(/\r\n/g, "\n")
    .replace(/\n[ \t]+/g, " ")
    .split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return fields;
}

/** `text/calendar; charset=utf-8; method=REQUEST` → the value and its parameters (names in lower case). */
function withParams(value: string): { value: string; params: Record<string, string> } {
  const [first, ...rest] = value.split(";");
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf("=");
    if (eq > 0)
      params[param.slice(0, eq).trim().toLowerCase()] = param
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, "");
  }
  return { value: first.trim().toLowerCase(), params };
}

/**
 * The leaf parts of a received message, multiparts opened recursively, bodies decoded (base64 or
 * quoted-printable): enough of RFC 2045/2046 to read what nodemailer writes.
 */
export function mimeParts(mail: ReceivedMail | string): MimePart[] {
  const raw = typeof mail === "string" ? mail : mail.raw;
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const fields = headerFields(head);
  const type = withParams(fields.get("content-type") ?? "text/plain");
  if (type.value.startsWith("multipart/")) {
    const boundary = type.params.boundary;
    const sections = body.split(
      new RegExp(`\\r?\\n?--${boundary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:--)?[ \\t]*\\r?\\n?`),
    );
    // The preamble before the first boundary and the epilogue after the last are not parts.
    return sections.slice(1, -1).flatMap((section) => mimeParts(section));
  }
  const encoding = (fields.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const decoded =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64")
      : encoding === "quoted-printable"
        ? Buffer.from(mailText({ from: "", to: [], raw: body }), "utf8")
        : Buffer.from(body, "utf8");
  const disposition = fields.has("content-disposition") ? withParams(fields.get("content-disposition") ?? "") : null;
  return [
    {
      contentType: type.value,
      params: type.params,
      disposition: disposition?.value ?? null,
      filename: disposition?.params.filename ?? type.params.name ?? null,
      body: decoded,
    },
  ];
}

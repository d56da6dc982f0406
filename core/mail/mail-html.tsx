import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Img } from "@react-email/img";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/**
 * The HTML part of every mail the site sends (decision 0062), built with React Email's components:
 * markup that mail clients render alike, styles inline, readable at a phone's width. The content is
 * the mail's plain text, laid out: paragraphs stay paragraphs, each address becomes a link to the
 * same address, and an address alone in its paragraph (the link a mail is about: set a password,
 * manage a registration) becomes a button with the address under it. So both parts say the same
 * and carry the same links, whoever wrote the text, and every mail gets the same frame: the
 * association's name and logo, and a footer with its address and why the person gets the mail.
 */
export type MailFrame = {
  /** The association's name (site.name). */
  siteName: string;
  /** Its postal address (site.address); the footer leaves it out when empty. */
  address: string;
  /** BASE_URL's origin: the logo and the footer's link come from the site itself. */
  origin: string;
  /** Why the person gets this mail, one sentence ("You receive this e-mail because …"). */
  reason: string;
  /** A notice, digest or announcement: where the member changes what they get, and the one-click stop. */
  manage?: { preferences: string; unsubscribe: string };
};

export const MAIL_LOGO_PATH = "/mail-logo.png";

const NAVY = "#0a2342";
const TEAL = "#0e7c75";
const SLATE = "#475569";

const URL_PATTERN = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/** The text with each address in it as a link. */
function linked(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <Link key={start} href={match[0]} style={{ color: TEAL, textDecoration: "underline", wordBreak: "break-all" }}>
        {match[0]}
      </Link>,
    );
    at = start + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** A paragraph's lines, each with its links, kept apart as the text had them. */
function lines(paragraph: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let offset = 0;
  for (const line of paragraph.split("\n")) {
    // Keys are where each line starts: the text never changes order.
    if (offset > 0) nodes.push(<br key={`br${offset}`} />);
    nodes.push(<span key={`line${offset}`}>{linked(line)}</span>);
    offset += line.length + 1;
  }
  return nodes;
}

const isLoneAddress = (paragraph: string) => /^https?:\/\/\S+$/.test(paragraph.trim());

export function renderMailHtml(mail: { subject: string; text: string }, frame: MailFrame): string {
  const paragraphs: { key: string; text: string }[] = [];
  for (const text of mail.text.replace(/\r\n/g, "\n").split(/\n{2,}/)) {
    const trimmed = text.replace(/^\n+|\n+$/g, "");
    if (trimmed.trim() !== "") paragraphs.push({ key: `p${paragraphs.length}`, text: trimmed });
  }
  const preview = (paragraphs.find((p) => !/^(hello|dear)\b/i.test(p.text))?.text ?? mail.subject).slice(0, 140);
  const home = `${frame.origin}/`;
  const body = (
    <Html lang="en">
      <Head>
        <title>{mail.subject}</title>
      </Head>
      <Preview>{preview}</Preview>
      <Body
        style={{ backgroundColor: "#f1f5f9", margin: 0, padding: "24px 0", fontFamily: "Helvetica, Arial, sans-serif" }}
      >
        <Container style={{ maxWidth: "600px", width: "100%", backgroundColor: "#ffffff", borderRadius: "8px" }}>
          <Section style={{ backgroundColor: NAVY, borderRadius: "8px 8px 0 0", padding: "16px 24px" }}>
            <Link href={home} style={{ color: "#ffffff", textDecoration: "none" }}>
              <Img
                src={`${frame.origin}${MAIL_LOGO_PATH}`}
                width="40"
                height="40"
                alt=""
                style={{ display: "inline-block", verticalAlign: "middle", borderRadius: "6px" }}
              />
              <span style={{ fontSize: "20px", fontWeight: 700, verticalAlign: "middle", marginLeft: "12px" }}>
                {frame.siteName}
              </span>
            </Link>
          </Section>
          <Section style={{ padding: "8px 24px 16px" }}>
            {paragraphs.map(({ key, text: paragraph }) =>
              isLoneAddress(paragraph) ? (
                <Section key={key} style={{ margin: "8px 0 16px" }}>
                  <Button
                    href={paragraph.trim()}
                    style={{
                      backgroundColor: TEAL,
                      color: "#ffffff",
                      borderRadius: "6px",
                      padding: "12px 20px",
                      fontSize: "16px",
                      fontWeight: 700,
                      textDecoration: "none",
                    }}
                  >
                    Open the link
                  </Button>
                  <Text style={{ fontSize: "13px", color: SLATE, margin: "8px 0 0", wordBreak: "break-all" }}>
                    {linked(paragraph.trim())}
                  </Text>
                </Section>
              ) : (
                <Text key={key} style={{ fontSize: "16px", lineHeight: "24px", color: "#0f172a", margin: "16px 0" }}>
                  {lines(paragraph)}
                </Text>
              ),
            )}
          </Section>
          <Hr style={{ borderColor: "#e2e8f0", margin: 0 }} />
          <Section style={{ padding: "16px 24px 24px" }}>
            <Text style={{ fontSize: "13px", lineHeight: "20px", color: SLATE, margin: "0 0 8px" }}>
              {frame.reason}
            </Text>
            {frame.manage ? (
              <Text style={{ fontSize: "13px", lineHeight: "20px", color: SLATE, margin: "0 0 8px" }}>
                <Link href={frame.manage.preferences} style={{ color: SLATE, textDecoration: "underline" }}>
                  Notification preferences
                </Link>
                {" · "}
                <Link href={frame.manage.unsubscribe} style={{ color: SLATE, textDecoration: "underline" }}>
                  Unsubscribe
                </Link>
              </Text>
            ) : null}
            <Text style={{ fontSize: "13px", lineHeight: "20px", color: SLATE, margin: 0 }}>
              <Link href={home} style={{ color: SLATE, textDecoration: "underline" }}>
                {frame.siteName}
              </Link>
              {frame.address ? ` · ${frame.address}` : ""}
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">${renderToStaticMarkup(body)}`;
}

/** The footer of the text part: the same as the HTML's, with the same link. */
export function mailTextFooter(frame: MailFrame): string {
  const manage = frame.manage
    ? `\nNotification preferences: ${frame.manage.preferences}\nUnsubscribe: ${frame.manage.unsubscribe}`
    : "";
  return `-- \n${frame.reason}${manage}\n${frame.siteName}${frame.address ? ` · ${frame.address}` : ""}\n${frame.origin}/`;
}

/** Both parts of a mail as it is sent: the text with its footer, and the HTML made from the same text. */
export function mailParts(mail: { subject: string; text: string }, frame: MailFrame): { text: string; html: string } {
  return { text: `${mail.text}\n\n${mailTextFooter(frame)}`, html: renderMailHtml(mail, frame) };
}

/** Why a person gets a mail of each purpose (mail_queue.purpose), for the footer. */
export function mailReason(purpose: string, siteName: string): string {
  const site = siteName;
  switch (purpose) {
    case "notification":
      return `You receive this e-mail because this address is the contact address in the settings of ${site}.`;
    case "password_reset":
      return `You receive this e-mail because a new password was asked for the account of this address at ${site}.`;
    case "invitation":
      return `You receive this e-mail because an administrator of ${site} invited this address.`;
    case "email_changed":
      return `You receive this e-mail because this address was the e-mail address of an account at ${site}.`;
    case "two_factor_reset":
      return `You receive this e-mail because this address is the e-mail address of an account at ${site}.`;
    case "decline":
      return `You receive this e-mail because this address applied to join ${site}.`;
    case "renewal_reminder":
    case "membership_lapsed":
    case "representative_linked":
      return `You receive this e-mail because this address represents a member company of ${site}.`;
    case "notice":
    case "digest":
      return `You receive this e-mail because you follow these at ${site}.`;
    case "announcement":
      return `You receive this e-mail because you are a member of ${site} and announcements are on in your notification preferences.`;
    case "meeting_reminder":
      return `You receive this e-mail because this address registered for a meeting at ${site}.`;
    default:
      return `You receive this e-mail because this address was given in a form at ${site}.`;
  }
}

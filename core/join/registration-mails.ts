import type { NewMailAttachment } from "../mail/mail.schema";
import type { NewMail } from "../mail/mail.service";

/**
 * What every acknowledgement says instead of repeating the form: the sender's address is not
 * checked, so whatever was typed (name, company, phone, subject, message, even the page) would go
 * to whoever that address belongs to. Quoting none of it leaves a spammer nothing to relay.
 */
export const NOT_QUOTED =
  "This e-mail does not repeat what was typed into the form, so that nobody can use the form to send their own words to someone else. If something needs correcting, reply to this e-mail; if you did not use our form, you can ignore it.";

/** What a registrant's mail is about: the registration, its meeting and the site that sends it. */
export type RegistrationMailContext = {
  registrationId: number;
  meetingId: number | null;
  /** The meeting's title; null for a registration whose page named no meeting. */
  meetingTitle: string | null;
  to: string;
  siteName: string;
  /** The secretariat's address: replies go there. */
  siteEmail: string;
  /** The day the registration arrived, in the site's zone (the received mail says it). */
  receivedOn?: string;
  /** Why the registration was declined, when the secretariat gave a reason. */
  reason?: string | null;
  /** The registrant's own link to see and cancel the registration (`/registrations/{token}`), when it has a meeting. */
  manageUrl?: string | null;
  /** The calendar invitation (confirmed) or its cancellation (a confirmed registration ended), decision 0053. */
  invitation?: NewMailAttachment | null;
  /** What changed of a confirmed meeting, in plain words (the updated mail, decision 0058). */
  change?: { when?: string; where?: string };
  /** Where a registration that holds no invitation stands (the changed mail, decision 0068). */
  status?: "pending" | "waitlisted";
};

/** The mails a registration's states send to the registrant (decision 0052). */
export type RegistrationMailKind =
  | "received"
  | "confirmed"
  | "waitlisted"
  | "moved_up"
  | "declined"
  | "cancelled"
  | "already_registered"
  | "updated"
  | "changed";

const forMeeting = (c: RegistrationMailContext) => (c.meetingTitle ? ` for ${c.meetingTitle}` : "");
const subjectOf = (c: RegistrationMailContext, what: string) => `${what}${c.meetingTitle ? `: ${c.meetingTitle}` : ""}`;
const closing = (c: RegistrationMailContext) => `Kind regards,\n${c.siteName}`;

/** Every mail to a registrant says where to see the registration and cancel it, without an account. */
const manageLine = (c: RegistrationMailContext) =>
  c.manageUrl ? `\n\nTo see your registration or cancel it: ${c.manageUrl}` : "";

/** The new time and place, each on its own line, where they changed. */
const changeLines = (c: RegistrationMailContext) =>
  [
    c.change?.when ? `\n\nNew date and time: ${c.change.when}` : "",
    c.change?.where ? `${c.change?.when ? "\n" : "\n\n"}New place: ${c.change.where}` : "",
  ].join("");

function mail(c: RegistrationMailContext, subject: string, body: string): NewMail {
  return {
    join_request_id: c.registrationId,
    purpose: "acknowledgement",
    to_address: c.to,
    reply_to: c.siteEmail || null,
    subject,
    body_text: `Hello,\n\n${body}${manageLine(c)}\n\n${closing(c)}`,
    ...(c.invitation ? { attachments: [c.invitation] } : {}),
  };
}

/**
 * One function per mail, in one place: the confirmed and cancelled ones are where a calendar
 * invitation (ICS) gets attached later; the manage link (issue 32) is added to each here too.
 * None quotes what the registrant typed (NOT_QUOTED).
 */
export const registrationMails: Record<RegistrationMailKind, (c: RegistrationMailContext) => NewMail> = {
  /** SPEC §8: received, confirmed within 48 hours. */
  received: (c) =>
    mail(
      c,
      subjectOf(c, "Your registration"),
      `Thank you for registering${forMeeting(c)}. We received your registration${c.receivedOn ? ` on ${c.receivedOn}` : ""}.\n\nThe secretariat will confirm your registration within 48 hours.\n\n${NOT_QUOTED}`,
    ),
  confirmed: (c) =>
    mail(
      c,
      subjectOf(c, "Registration confirmed"),
      `Your registration${forMeeting(c)} is confirmed. We look forward to seeing you.\n\nIf you cannot come, please tell us, so that your place can go to someone on the waiting list.\n\n${NOT_QUOTED}`,
    ),
  waitlisted: (c) =>
    mail(
      c,
      subjectOf(c, "You are on the waiting list"),
      `Thank you for registering${forMeeting(c)}. The meeting is full, so you are on its waiting list. We will write to you as soon as a place is free for you.\n\n${NOT_QUOTED}`,
    ),
  moved_up: (c) =>
    mail(
      c,
      subjectOf(c, "A place is free for you"),
      `A place${forMeeting(c)} became free, and you have moved up from the waiting list. The secretariat will confirm your registration within 48 hours.\n\n${NOT_QUOTED}`,
    ),
  declined: (c) =>
    mail(
      c,
      subjectOf(c, "Your registration"),
      `We are sorry: your registration${forMeeting(c)} was declined.${c.reason ? `\n\nReason: ${c.reason}` : ""}\n\nIf you have questions, reply to this e-mail.`,
    ),
  /** A confirmed meeting moved in time or place (decision 0058): the new values, and the updated invitation. */
  updated: (c) =>
    mail(
      c,
      subjectOf(c, "Updated"),
      `The meeting${c.meetingTitle ? ` ${c.meetingTitle}` : ""} you are registered for has changed.${changeLines(c)}\n\nYour registration stays confirmed.${c.invitation ? " The attached invitation updates the meeting in your calendar." : ""} If you can no longer come, please tell us, so that your place can go to someone on the waiting list.\n\n${NOT_QUOTED}`,
    ),
  /**
   * The meeting moved in time or place and this registration, pending or waitlisted, holds no
   * invitation to update (decision 0068): the new values, where it stands, and that it can be
   * cancelled (every registrant mail ends with the link to do so).
   */
  changed: (c) =>
    mail(
      c,
      subjectOf(c, "Changed"),
      `The meeting${c.meetingTitle ? ` ${c.meetingTitle}` : ""} you registered for has changed.${changeLines(c)}\n\n${
        c.status === "waitlisted"
          ? "You are still on its waiting list: we will write to you as soon as a place is free for you. If the new date or place does not suit you, please cancel your registration, so that we do not offer you a place you cannot take."
          : "Your registration is still waiting for the secretariat's confirmation: we will write to you when it is confirmed. If the new date or place does not suit you, please cancel your registration, so that your place can go to someone else."
      }\n\n${NOT_QUOTED}`,
    ),
  cancelled: (c) =>
    mail(
      c,
      subjectOf(c, "Registration cancelled"),
      `Your registration${forMeeting(c)} is cancelled. If you did not ask for this, reply to this e-mail.`,
    ),
  /** The form was sent again from an address that is registered already: its link, nothing changed (decision 0060). */
  already_registered: (c) =>
    mail(
      c,
      subjectOf(c, "Your registration"),
      `Someone, perhaps you, has just tried to register this address again${forMeeting(c)}. You are already registered, so nothing has changed and no second place was taken.\n\n${NOT_QUOTED}`,
    ),
};

/**
 * The join and registration form's texts, fields, limits and kinds: plain
 * values without Zod, because the form sits in every public page's footer and
 * Zod would weigh on each of them (decision 0028). join.schema.ts builds its
 * schema from these limits and re-exports everything here.
 */
export const JOIN_SUMMARY = "You have validation errors! Please fix them all";
export const JOIN_THANKS = "Your message was sent successfully. We'll get in touch with you soon.";
export const REGISTRATION_THANKS =
  "Thank you for submitting your registration. An email with the registration details will arrive shortly from our postmaster address; please check your junk folder if you do not see it. We will confirm your registration within 48 hours.";

export const JOIN_FIELDS = ["company_name", "representative_name", "email", "phone_number"] as const;

/** The longest value each field takes: the schema's rule and the form's maxLength. */
export const JOIN_MAX_LENGTHS = {
  company_name: 200,
  representative_name: 200,
  email: 254,
  phone_number: 40,
} as const satisfies Record<(typeof JOIN_FIELDS)[number], number>;

/** A request to join the association, or a registration for a meeting. */
export const JOIN_KINDS = ["join", "registration"] as const;
export type JoinKind = (typeof JOIN_KINDS)[number];

/** What the inbox holds: the join form's two kinds and the contact form's messages (decision 0039). */
export const INBOX_KINDS = [...JOIN_KINDS, "message"] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

/**
 * Why a request was judged probable spam: kept and marked, never dropped (decision 0039). A filled
 * honeypot; sent within MIN_FILL_SECONDS of the server showing the form; sent without a shown-at
 * time the site signed for the form (missing, unsigned or forged).
 */
export const SPAM_REASONS = ["honeypot", "too_fast", "no_form_time"] as const;
export type SpamReason = (typeof SPAM_REASONS)[number];

/** A person takes longer than this to fill in a form; a script does not. */
export const MIN_FILL_SECONDS = 3;

/** The public forms, each with its own signed shown-at time: the join (and registration) form, the message form. */
export const FORM_KINDS = ["join", "message"] as const;
export type FormKind = (typeof FORM_KINDS)[number];

/** The contact form of the pages that promise one (/contact, /feedback-forum): a message to the secretariat. */
export const MESSAGE_FORM_PAGES = ["/contact", "/feedback-forum"] as const;
export const MESSAGE_FIELDS = ["name", "email", "subject", "message"] as const;
export const MESSAGE_MAX_LENGTHS = {
  name: 200,
  email: 254,
  subject: 200,
  message: 5000,
} as const satisfies Record<(typeof MESSAGE_FIELDS)[number], number>;

/**
 * The confirm modal when the server refuses what it opened for (decision 0039): its title, and
 * what to do when the refusal names fields or when the request never reached the server.
 */
export const NOT_SENT_TITLE = "Not sent";
export const FIX_FIELDS = "Some details need correcting. They are marked in the form, with what you typed kept.";
export const KEPT_IN_FORM = "What you typed is still in the form.";
export const REGISTRATION_REFUSED =
  "Your registration was not recorded. The secretariat answers questions about this meeting by e-mail or phone (see the contact details on this page).";
/** No answer from the server (network, a proxy's error page); the wait comes from Retry-After when one was sent. */
export function sendFailed(retryAfterSeconds?: number | null): string {
  const when = retryAfterSeconds ? waitText(retryAfterSeconds) : "in a moment";
  return `Your request could not be sent: the connection failed or the server did not answer. What you typed is still in the form; please try again ${when}.`;
}
export const SERVER_FAILED =
  "The server could not handle your request just now. What you typed is still in the form; please try again in a moment.";

/** How long a visitor waits when the captcha's verification service could not be reached (Retry-After). */
export const CAPTCHA_RETRY_SECONDS = 60;
/** The captcha's verification service did not answer (down, slow, 5xx): try again shortly (decision 0040). */
export function captchaUnreachableText(retryAfterSeconds = CAPTCHA_RETRY_SECONDS): string {
  return `The spam check could not be reached just now. Please try again ${waitText(retryAfterSeconds)}.`;
}
/**
 * The verification service refused the site's own key or project (a fault of the site's
 * configuration, decision 0040): not the visitor's fault, and trying again will not help.
 */
export function captchaMisconfiguredText(secretariat: { email: string; phone: string }): string {
  const instead = secretariat.email
    ? `Please write to the secretariat at ${secretariat.email} instead.`
    : secretariat.phone
      ? `Please call the secretariat at ${secretariat.phone} instead.`
      : "Please contact the secretariat another way, or try again later: the form works again once the fault is mended.";
  return `This form cannot be checked for spam just now because of a fault on our side, not yours. ${instead}`;
}

/** "in 42 seconds", "in 5 minutes", "in about 2 hours": how long a rate-limited sender waits. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `in ${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `in about ${Math.round(minutes / 60)} hours`;
}

/** Registration pages: the spec names conference pages; meeting pages register too. */
export function requestKindOf(pagePath: string | null): JoinKind {
  return pagePath && /^\/(conference|workshop|events\/|dashboard\/events\/)/.test(pagePath) ? "registration" : "join";
}

/**
 * SPEC §8: the confirm modal's text. A registration's (every meeting page, not only paths with
 * "conference"; issue 32), the join form's elsewhere; a waitlisted registration is told so.
 */
export function thanksFor(pagePath: string, registration?: { status: RegistrationStatus } | null): string {
  if (registration?.status === "waitlisted") return WAITLISTED_THANKS;
  return requestKindOf(pagePath) === "registration" ? REGISTRATION_THANKS : JOIN_THANKS;
}

/**
 * The proof-of-work check's refusals (decision 0077), under `altcha`: the browser ran the check (its
 * field came) but what it sent does not pass. Each says what to do; the form does it when sent again.
 */
export const PROOF_UNSOLVED =
  "The automatic spam check beside the send button did not finish. Wait until it says “Spam check passed” (or tick its box), then send again.";
export const PROOF_INVALID =
  "The automatic spam check could not be confirmed. Please send the form again: your browser will redo the check, which takes a few seconds.";
export const PROOF_EXPIRED =
  "The automatic spam check has expired (it is valid for 10 minutes). Please send the form again: your browser will redo the check.";
export const PROOF_REPLAYED =
  "This spam check was already used for another request. Please send the form again: your browser will redo the check.";

/** The join and registration forms refuse throwaway addresses (decision 0077): the secretariat answers by e-mail. */
export const THROWAWAY_EMAIL =
  "Use your work e-mail address: addresses from throwaway e-mail services are not accepted.";

/**
 * The line beside the join, registration and message forms' send button (SPEC §2, decision 0077):
 * how the details are used, before the link to the Privacy Policy.
 */
export const CONSENT_TEXT: Record<FormKind, string> = {
  join: "We use these details to handle your request and to contact you about it, as described in our",
  message: "We use these details to answer your message, as described in our",
};

/** The action the join form's captcha token is made for; reCAPTCHA Enterprise checks it (decision 0040). */
export const JOIN_CAPTCHA_ACTION = "join";

/** A registration's states (decision 0052): pending and confirmed ones hold a seat. */
export const REGISTRATION_STATUSES = ["pending", "confirmed", "waitlisted", "declined", "cancelled"] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];
export const SEAT_HOLDING: readonly RegistrationStatus[] = ["pending", "confirmed"];
/**
 * A registration that holds or waits for a seat: its address may not register again (the key
 * registration_email is kept), and it may still be cancelled.
 */
export const REGISTRATION_ACTIVE: readonly RegistrationStatus[] = ["pending", "confirmed", "waitlisted"];
/** What a registration's history records: each state reached, and check-in at the door and its undoing. */
export const REGISTRATION_EVENTS = [
  "registration_pending",
  "registration_confirmed",
  "registration_waitlisted",
  "registration_declined",
  "registration_cancelled",
  "registration_attended",
  "registration_not_attended",
] as const;
export const JOIN_REQUEST_EVENTS = ["approved", "declined", ...REGISTRATION_EVENTS] as const;
export const NOTE_MAX = 1000;
export const ALREADY_REGISTERED = "You are already registered for this meeting.";
/** The refusal of a second registration from an address, when the link to manage the first was mailed to it (decision 0060). */
export const ALREADY_REGISTERED_MAILED = `${ALREADY_REGISTERED} We have sent the link to manage it to this address.`;
/** The refusal when the signed-in person's own registration is the one: it is in their members' area. */
export const ALREADY_REGISTERED_YOURS = `${ALREADY_REGISTERED} You can see it and cancel it under My registrations in the members' area.`;
/** Where a signed-in person's registrations are. */
export const MY_REGISTRATIONS_PATH = "/dashboard/registrations";
export const WAITLISTED_THANKS =
  "The meeting is full: you are on its waiting list. An email will arrive shortly from our postmaster address; please check your junk folder if you do not see it. We will write to you as soon as a place is free for you.";

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

/** Registration pages: the spec names conference pages; meeting pages register too. */
export function requestKindOf(pagePath: string | null): JoinKind {
  return pagePath && /^\/(conference|workshop|events\/|dashboard\/events\/)/.test(pagePath) ? "registration" : "join";
}

/** SPEC §8: the confirm modal's text depends on whether the path contains "conference". */
export function thanksFor(pagePath: string): string {
  return pagePath.includes("conference") ? REGISTRATION_THANKS : JOIN_THANKS;
}

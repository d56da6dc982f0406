import { z } from "zod";
import { cleanLines, cleanTitle } from "./text";

/**
 * Field schemas the admin's forms share (meetings, the library): how a multipart or JSON field
 * reads as a date, a line, rich text or a flag. Browser-safe.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (2026-02-30 is refused). */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const DATE_MESSAGE = (label: string) => `The ${label} must be a date such as 2026-11-22.`;

/** Multipart bodies skip falsy values (SPEC §3 'Form helper rules'): absent, null and "" all mean "not given". */
export const given = (v: unknown) => (v === undefined || v === null || v === "" ? undefined : v);

/** A checkbox or boolean: checked ("on"), true, "true", "1" or 1; anything else (absent) is false. */
export const flag = z
  .union([z.boolean(), z.string(), z.number()])
  .optional()
  .transform((v) => v === true || v === "on" || v === "true" || v === "1" || v === 1);

/** A single line (a location, an organization): cleaned as titles are; null when empty. */
export const line = (label: string, max: number) =>
  z.preprocess(
    given,
    z
      .string()
      .overwrite(cleanTitle)
      .max(max, { error: `The ${label} may not be longer than ${max} characters.` })
      .optional()
      .transform((v) => v || null),
  );

/** Plain text of several lines (a description): cleaned line by line; null when empty. */
export const lines = (label: string, max: number) =>
  z.preprocess(
    given,
    z
      .string()
      .overwrite(cleanLines)
      .max(max, { error: `The ${label} may not be longer than ${max} characters.` })
      .optional()
      .transform((v) => v || null),
  );

/** Rich text as typed; the service sanitizes it. */
export const richTextInput = z.preprocess(
  given,
  z
    .string()
    .max(500_000, { error: "The text is too long." })
    .optional()
    .transform((v) => v ?? null),
);

export const optionalDate = (label: string) =>
  z.preprocess(
    given,
    z
      .string()
      .refine(isIsoDate, { error: DATE_MESSAGE(label) })
      .optional()
      .transform((v) => v ?? null),
  );

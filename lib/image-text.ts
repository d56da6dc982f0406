import { z } from "zod";
import { flag } from "./form-fields";
import { cleanTitle } from "./text";

/**
 * The text alternative of an image that carries content (decision 0041): its alt text, or the
 * admin's word that it is decorative (rendered alt=""). Browser-safe: the admin's forms and the
 * API contracts read the same fields.
 */

/** The longest alt text: the schema's rule and the form's maxLength (screen readers read it whole). */
export const IMAGE_ALT_MAX = 300;

export const ALT_REQUIRED = "The alt text field is required unless the image is decorative.";

/** One line of alt text, cleaned as titles are; "" when absent. */
export const altTextField = z.preprocess(
  (v) => (v === undefined || v === null ? "" : v),
  z
    .string({ error: "The alt text must be text." })
    .overwrite(cleanTitle)
    .max(IMAGE_ALT_MAX, { error: `The alt text may not be longer than ${IMAGE_ALT_MAX} characters.` }),
);

/** Whether the image is decorative: a checkbox or boolean, false when absent. */
export const decorativeField = flag;

export type ImageText = { alt: string; decorative: boolean };

/**
 * The text as stored: a decorative image keeps no alt text; one that carries content must have
 * some, or `null` (the caller answers ALT_REQUIRED for its own field).
 */
export function describedImage(alt: string, decorative: boolean): ImageText | null {
  if (decorative) return { alt: "", decorative: true };
  return alt ? { alt, decorative: false } : null;
}

/** A picture's text on its own (PATCH of a meeting's picture, the editor's form). */
export const imageTextSchema = z
  .object({ alt: altTextField, decorative: decorativeField })
  .superRefine((value, ctx) => {
    if (!describedImage(value.alt, value.decorative))
      ctx.addIssue({ code: "custom", path: ["alt"], message: ALT_REQUIRED });
  });

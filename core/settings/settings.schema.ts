import { z } from "zod";

const optionalUrl = (network: string) =>
  z
    .string()
    .trim()
    .max(300)
    .refine((v) => v === "" || /^https:\/\/[^\s"'<>]+$/.test(v), {
      error: `Enter the full https:// address of the ${network} page.`,
    });

/** The site settings an admin edits (SPEC §1, §3 'Contact data'); an empty value hides that link. */
export const settingsUpdateSchema = z
  .object({
    "site.name": z
      .string({ error: "The company name is required." })
      .trim()
      .min(1, { error: "The company name is required." })
      .max(120, { error: "The company name may not be longer than 120 characters." }),
    "site.tagline": z.string().trim().max(200, { error: "The tagline may not be longer than 200 characters." }),
    "site.email": z
      .string()
      .trim()
      .max(254)
      .refine((v) => v === "" || z.email().safeParse(v).success, { error: "Enter a valid e-mail address." }),
    "site.phone": z
      .string()
      .trim()
      .max(40, { error: "The phone number is too long." })
      .regex(/^[\d\s+().-]*$/, { error: "Enter a valid phone number." }),
    "site.twitter": optionalUrl("Twitter"),
    "site.youtube": optionalUrl("YouTube"),
    "site.linkedin": optionalUrl("LinkedIn"),
  })
  .partial();
export type SettingsUpdate = z.input<typeof settingsUpdateSchema>;

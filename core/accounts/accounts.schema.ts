import { z } from "zod";

export const ROLES = ["admin", "member"] as const;
export type RoleName = (typeof ROLES)[number];

/** The user as every adapter shows it (SPEC §3 'Logged-in user'). */
export type PublicUser = {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string | null;
  avatar: string | null;
  role: { name: RoleName };
};

export const emailSchema = z
  .string({ error: "Email is required." })
  .trim()
  .min(1, { error: "Email is required." })
  .max(254, { error: "Email is too long." })
  .pipe(z.email({ error: "Email is not valid." }))
  .transform((v) => v.toLowerCase());

export const passwordRules = z
  .string()
  .min(10, { error: "The password must be at least 10 characters." })
  .max(200, { error: "The password may not be longer than 200 characters." });

export const createUserSchema = z.object({
  email: emailSchema,
  role: z.enum(ROLES, { error: "The role must be admin or member." }),
  first_name: z.string().trim().max(100).default(""),
  last_name: z.string().trim().max(100).default(""),
  phone_number: z.string().trim().max(40).optional(),
  password: passwordRules,
});
export type CreateUserInput = z.input<typeof createUserSchema>;

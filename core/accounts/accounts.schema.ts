import { z } from "zod";
import type { UserRow } from "../../db/types";
import { lenientPageSchema, pageSchema } from "../../lib/pagination";
import { flagSchema, isEmailAddress } from "../../lib/validation";

/** Admins run everything; editors the content (news, pages, meetings, the library; issue 36); members read. */
export const ROLES = ["admin", "editor", "member"] as const;
export type RoleName = (typeof ROLES)[number];
const ROLE_MESSAGE = "The role must be admin, editor or member.";

/** The user as every adapter shows it (SPEC §3 'Logged-in user'). */
export const publicUserSchema = z
  .object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string().nullable(),
    avatar: z.string().nullable(),
    role: z.object({ name: z.enum(ROLES) }),
  })
  .meta({ id: "PublicUser" });
export type PublicUser = z.output<typeof publicUserSchema>;

export const emailSchema = z
  .string({ error: "Email is required." })
  .trim()
  .min(1, { error: "Email is required." })
  .max(254, { error: "Email is too long." })
  // The one e-mail rule of the site (join form, profile, forgotten password).
  .refine(isEmailAddress, { error: "Email is not valid." })
  .transform((v) => v.toLowerCase());

export const passwordRules = z
  .string()
  .min(10, { error: "The password must be at least 10 characters." })
  .max(200, { error: "The password may not be longer than 200 characters." });

export const createUserSchema = z.object({
  email: emailSchema,
  role: z.enum(ROLES, { error: ROLE_MESSAGE }),
  first_name: z.string().trim().max(100).default(""),
  last_name: z.string().trim().max(100).default(""),
  phone_number: z.string().trim().max(40).optional(),
  password: passwordRules,
});
export type CreateUserInput = z.input<typeof createUserSchema>;

/** Where an account stands: invited (no password yet), active, or deactivated by an admin. */
export const USER_STATUSES = ["active", "invited", "deactivated"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** A user as the users screen shows them. */
export const adminUserSchema = publicUserSchema
  .extend({
    status: z.enum(USER_STATUSES),
    created_at: z.string(),
    /** When the pending invitation's link stops working; null when none is pending. */
    invitation_expires_at: z.string().nullable(),
    two_factor: z.boolean().meta({ description: "Two-factor sign-in is on (an admin may reset it, decision 0075)." }),
  })
  .meta({ id: "AdminUser" });
export type AdminUser = z.output<typeof adminUserSchema>;

export const userListSchema = z.object({
  search: z
    .string()
    .optional()
    .catch(undefined)
    .transform((v) => (v ?? "").trim().slice(0, 200)),
  role: z.enum(ROLES).optional().catch(undefined),
  status: z.enum(USER_STATUSES).optional().catch(undefined),
  page: lenientPageSchema,
});
export type UserListQuery = z.output<typeof userListSchema>;

/** A page of the users screen, with the filters as understood. */
export const adminUserListSchema = pageSchema(adminUserSchema).extend({
  query: z.object({
    search: z.string(),
    role: z.enum(ROLES).optional(),
    status: z.enum(USER_STATUSES).optional(),
    page: z.number().int(),
  }),
});
export type AdminUserList = z.output<typeof adminUserListSchema>;

const nameField = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, { error: `${label} is required.` })
    .max(100, { error: `${label} may not be longer than 100 characters.` });

/** The users screen's invitation form. */
export const inviteSchema = z.object({
  first_name: nameField("First name"),
  last_name: nameField("Last name"),
  email: emailSchema,
  role: z.enum(ROLES, { error: ROLE_MESSAGE }),
});

/** An invitation as the service takes it, parsed. */
export type InviteInput = z.output<typeof inviteSchema>;

/** What an admin may change on someone else's account. */
export const userChangeSchema = z
  .object({
    role: z.enum(ROLES, { error: ROLE_MESSAGE }).optional(),
    is_active: flagSchema("is_active must be true or false.").optional(),
  })
  .refine((v) => v.role !== undefined || v.is_active !== undefined, {
    path: ["role"],
    error: "Send a role or is_active to change.",
  });

/** A change of role or activity, parsed. */
export type UserChange = z.output<typeof userChangeSchema>;

export const OWN_ADMIN_ROLE = "You cannot remove your own admin role.";
export const OWN_DEACTIVATION = "You cannot deactivate your own account.";
export const OWN_DELETION = "You cannot delete your own account.";
export const LAST_ADMIN = "The last admin cannot be removed: make another user admin first.";

/** What the site shows of a signed-in person (SPEC §3 'Logged-in user'). */
export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone_number: row.phone_number,
    avatar: row.avatar,
    role: { name: row.role },
  };
}

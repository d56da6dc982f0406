import { randomBytes } from "node:crypto";
import type { UserRow } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { validate } from "../../lib/validation";
import { hashPassword } from "../auth/password";
import { type CreateUserInput, createUserSchema, type PublicUser } from "./accounts.schema";
import type { UsersRepository } from "./users.repository";

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

/** A readable random password for users created without one. */
export function generatePassword(): string {
  return randomBytes(15).toString("base64url");
}

export function createAccountsService(deps: { users: UsersRepository; clock: Clock }) {
  const { users, clock } = deps;
  return {
    async createUser(input: CreateUserInput): Promise<PublicUser> {
      const parsed = validate(createUserSchema, input);
      if (!parsed.success) throw new AppError("validation", "The given data was invalid.", { errors: parsed.errors });
      const data = parsed.data;
      if (await users.findByEmail(data.email)) {
        throw new AppError("conflict", "The email has already been taken.", {
          errors: { email: ["The email has already been taken."] },
        });
      }
      const now = clock().toISOString();
      const row = await users.insert({
        email: data.email,
        role: data.role,
        first_name: data.first_name,
        last_name: data.last_name,
        phone_number: data.phone_number ?? null,
        avatar: null,
        password_hash: await hashPassword(data.password),
        is_active: 1,
        created_at: now,
        updated_at: now,
      });
      return toPublicUser(row);
    },

    /** Creates the configured first admin unless a user with that e-mail exists. */
    async ensureAdmin(admin: { email: string; password: string }): Promise<"created" | "exists"> {
      if (await users.findByEmail(admin.email)) return "exists";
      await this.createUser({
        email: admin.email,
        password: admin.password,
        role: "admin",
        first_name: "Site",
        last_name: "Administrator",
      });
      return "created";
    },

    async listUsers(limit = 500): Promise<PublicUser[]> {
      return (await users.list(limit)).map(toPublicUser);
    },

    countUsers: () => users.count(),

    async getUser(id: number): Promise<PublicUser> {
      const row = await users.findById(id);
      if (!row) throw new AppError("not_found", "User not found.");
      return toPublicUser(row);
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;

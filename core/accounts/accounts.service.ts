import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, UserRow } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { removeAvatarFiles } from "../../lib/images";
import { pageOf } from "../../lib/pagination";
import { hashPassword } from "../../lib/password";
import type { FileStorage } from "../../lib/storage";
import { parseOrThrow } from "../../lib/validation";
import type { AuditService } from "../audit/audit.service";
import {
  type AdminUser,
  type AdminUserList,
  type CreateUserInput,
  createUserSchema,
  LAST_ADMIN,
  OWN_ADMIN_ROLE,
  OWN_DEACTIVATION,
  OWN_DELETION,
  type PublicUser,
  type RoleName,
  toPublicUser,
  type UserChange,
  type UserListQuery,
  type UserStatus,
} from "./accounts.schema";
import { EMAIL_TAKEN } from "./profile.schema";
import { createTokensRepository, type TokensRepository } from "./tokens.repository";
import type { UsersRepository } from "./users.repository";

const USERS_PER_PAGE = 25;

export function statusOf(row: Pick<UserRow, "is_active" | "password_hash">): UserStatus {
  if (row.is_active !== 1) return "deactivated";
  return row.password_hash ? "active" : "invited";
}

export function toAdminUser(
  row: UserRow & { invitation_expires_at?: string | null; two_factor_enabled_at?: string | null },
): AdminUser {
  const status = statusOf(row);
  return {
    ...toPublicUser(row),
    status,
    created_at: row.created_at,
    invitation_expires_at: status === "invited" ? (row.invitation_expires_at ?? null) : null,
    two_factor: Boolean(row.two_factor_enabled_at),
  };
}

/** A readable random password for users created without one. */
export function generatePassword(): string {
  return randomBytes(15).toString("base64url");
}

/**
 * Accounts and their management by admins. An admin never takes away their own
 * admin rights, and the site always keeps one admin who can sign in.
 */
export function createAccountsService(deps: {
  users: UsersRepository;
  tokens: TokensRepository;
  storage: FileStorage;
  revokeSessions: (userId: number, trx?: Kysely<Database>) => Promise<void>;
  clock: Clock;
  /** The audit log (decision 0074): each change's row, in its transaction. */
  audit?: Pick<AuditService, "record">;
}) {
  const { users, clock } = deps;
  return {
    async createUser(input: CreateUserInput): Promise<PublicUser> {
      const data = parseOrThrow(createUserSchema, input);
      if (await users.findByEmail(data.email)) {
        throw new AppError("conflict", EMAIL_TAKEN, { errors: { email: [EMAIL_TAKEN] } });
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

    /** The users screen: search in names and e-mails, filter by role and status, 25 a page. */
    async list(query: UserListQuery): Promise<AdminUserList> {
      const [rows, total] = await Promise.all([
        users.list(query, (query.page - 1) * USERS_PER_PAGE, USERS_PER_PAGE, clock().toISOString()),
        users.count(query),
      ]);
      return { ...pageOf(rows.map(toAdminUser), query.page, USERS_PER_PAGE, total), query };
    },

    countUsers: () => users.count(),

    /** An active account by id or e-mail address (another area's choice of a person, e.g. a group's member). */
    async findActive(ref: { id?: number; email?: string }): Promise<{ id: number; role: RoleName } | null> {
      const row =
        ref.id !== undefined
          ? await users.findById(ref.id)
          : ref.email
            ? await users.findByEmail(ref.email)
            : undefined;
      return row && row.is_active === 1 ? { id: row.id, role: row.role } : null;
    },

    async getUser(id: number): Promise<AdminUser> {
      const row = await users.findForAdmin(id, clock().toISOString());
      if (!row) throw new AppError("not_found", "User not found.");
      return toAdminUser(row);
    },

    /** Changes another user's role or activity; deactivation ends their sessions. */
    async change(actorId: number, id: number, input: UserChange): Promise<AdminUser> {
      const updated = await users.whileAdminsLocked(async (tx, adminIds, trx) => {
        const row = await tx.findById(id);
        if (!row) throw new AppError("not_found", "User not found.");
        const demoted = row.role === "admin" && input.role !== undefined && input.role !== "admin";
        const deactivated = row.is_active === 1 && input.is_active === false;
        if (row.id === actorId && demoted) throw new AppError("forbidden", OWN_ADMIN_ROLE);
        if (row.id === actorId && deactivated) throw new AppError("forbidden", OWN_DEACTIVATION);
        if ((demoted || deactivated) && adminIds.length === 1 && adminIds[0] === row.id) {
          throw new AppError("conflict", LAST_ADMIN);
        }
        const changed = await tx.update(row.id, {
          ...(input.role ? { role: input.role } : {}),
          ...(input.is_active !== undefined ? { is_active: input.is_active ? 1 : 0 } : {}),
          // Deactivated: the private calendar address ends with the sessions, and does not come back with reactivation.
          ...(deactivated ? { calendar_token_hash: null, library_feed_token_hash: null } : {}),
          updated_at: clock().toISOString(),
        });
        // In the same transaction: sessions end (they would already fail with is_active = 0) and
        // open links are retired, so that reactivating does not bring an old one back to life.
        if (changed.is_active !== 1) {
          await deps.revokeSessions(changed.id, trx);
          await createTokensRepository(trx).retireForUser(changed.id, null, clock().toISOString());
        }
        const activity = (user: { is_active: number }) => (user.is_active === 1 ? "active" : "deactivated");
        const what = [
          row.role !== changed.role ? `role ${changed.role}` : null,
          row.is_active !== changed.is_active ? activity(changed) : null,
        ].filter(Boolean);
        if (what.length > 0) {
          await deps.audit?.record(
            {
              action: "update",
              entity: "user",
              entityId: row.id,
              summary: `User ${row.email} changed: ${what.join(", ")}`,
              before: { role: row.role, status: activity(row) },
              after: { role: changed.role, status: activity(changed) },
            },
            trx,
          );
        }
        return changed;
      });
      return this.getUser(updated.id);
    },

    /** Deletes another user with their sessions, tokens and picture. */
    async remove(actorId: number, id: number): Promise<void> {
      if (id === actorId) throw new AppError("forbidden", OWN_DELETION);
      const removed = await users.whileAdminsLocked(async (tx, adminIds, trx) => {
        const row = await tx.findById(id);
        if (!row) throw new AppError("not_found", "User not found.");
        if (adminIds.length === 1 && adminIds[0] === row.id) throw new AppError("conflict", LAST_ADMIN);
        await tx.remove(row.id);
        await deps.audit?.record(
          {
            action: "delete",
            entity: "user",
            entityId: row.id,
            summary: `User ${row.email} deleted`,
            before: { email: row.email, name: `${row.first_name} ${row.last_name}`.trim(), role: row.role },
            after: null,
          },
          trx,
        );
        return row;
      });
      await removeAvatarFiles(deps.storage, removed.avatar);
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;

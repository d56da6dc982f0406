import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError } from "../../lib/errors";
import { freeSlug, SLUG_ATTEMPTS, slugify } from "../../lib/slug";
import { invalidInput } from "../../lib/validation";
import { type GroupsSeen, managesContent, type RoleName } from "../access/access";
import type { AuditService } from "../audit/audit.service";
import { createGroupsRepository, type GroupPersonRow, type GroupRow } from "./groups.repository";
import {
  ADD_BY_EMAIL,
  ALREADY_IN_GROUP,
  CHAIR_NOT_FOUND,
  CHAIRS_ONLY_BY_ADMIN,
  GROUP_NAME_TAKEN,
  GROUP_NOT_FOUND,
  type GroupContent,
  type GroupCreate,
  type GroupDetail,
  type GroupMemberAdd,
  type GroupPerson,
  type GroupSummary,
  type GroupUpdate,
  groupInUse,
  MEMBERS_BY_CHAIR,
  NO_SUCH_ACCOUNT,
  NOT_A_MEMBER_ACCOUNT,
} from "./groups.schema";

/** Who asks: the signed-in person's id and role. */
export type GroupViewer = { id: number; role: RoleName };

type Deps = {
  db: Kysely<Database>;
  clock: Clock;
  audit?: Pick<AuditService, "record">;
  /** An active account by id or address (core/accounts). */
  findAccount: (ref: { id?: number; email?: string }) => Promise<{ id: number; role: RoleName } | null>;
  /** Whether the account sees members' content (core/access via core/members): who may be in a group. */
  hasMembersAccess: (user: { id: number; role: RoleName }) => Promise<boolean>;
  /** What is for the group: its categories and their latest papers (core/library), its meetings (core/meetings). */
  content?: (groupId: number) => Promise<GroupContent>;
};

/** A person as the viewer sees them: the address only for the secretariat (admins and editors). */
const personOf = (row: GroupPersonRow, viewer: GroupViewer): GroupPerson => ({
  user_id: row.user_id,
  name:
    `${row.first_name} ${row.last_name}`.trim() || (managesContent(viewer.role) ? row.email : `Member #${row.user_id}`),
  company: row.company,
  email: managesContent(viewer.role) ? row.email : null,
  is_chair: row.is_chair === 1,
});

/**
 * Working groups (issue 36): admins create them and name their chairs; chairs (and admins) add
 * and remove members. Admins and editors see every group; a member sees the groups they are in,
 * and nothing of the others (404, as if there were none).
 */
export function createGroupsService(deps: Deps) {
  const { db, clock } = deps;
  const repository = createGroupsRepository(db);
  const seesAll = (viewer: GroupViewer) => managesContent(viewer.role);

  async function summaries(rows: GroupRow[], viewer: GroupViewer): Promise<GroupSummary[]> {
    const ids = rows.map((r) => r.id);
    const [people, counts] = await Promise.all([repository.people(ids), repository.counts(ids)]);
    return rows.map((row) => {
      const own = people.filter((p) => p.group_id === row.id);
      const mine = own.find((p) => p.user_id === viewer.id);
      return {
        id: row.id,
        name: row.name,
        slug: row.slug,
        description: row.description,
        member_count: counts.get(row.id) ?? 0,
        chairs: own.filter((p) => p.is_chair === 1).map((p) => personOf(p, viewer)),
        is_member: mine !== undefined,
        is_chair: mine?.is_chair === 1,
      };
    });
  }

  /** A lapsed company's representative keeps the groups but sees none of them until it is current again. */
  async function mayTakePart(viewer: GroupViewer): Promise<boolean> {
    return seesAll(viewer) || deps.hasMembersAccess(viewer);
  }

  async function existing(id: number): Promise<GroupRow> {
    const row = await repository.byId(id);
    if (!row) throw new AppError("not_found", GROUP_NOT_FOUND);
    return row;
  }

  /** The chairs named by id: active accounts that may be in a group. */
  async function checkedChairs(ids: number[]): Promise<number[]> {
    for (const id of ids) {
      const account = await deps.findAccount({ id });
      if (!account) throw invalidInput({ chair_ids: [CHAIR_NOT_FOUND] });
      if (!(await deps.hasMembersAccess(account))) throw invalidInput({ chair_ids: [NOT_A_MEMBER_ACCOUNT] });
    }
    return ids;
  }

  async function checkName(name: string, exceptId?: number) {
    if (await repository.nameTaken(name, exceptId)) throw invalidInput({ name: [GROUP_NAME_TAKEN] });
  }

  /** A name another save took between checkName and the write: the unique index (migration 0036) refused it. */
  function nameTakenMeanwhile(error: unknown) {
    if (isUniqueViolation(error, { index: "working_groups_name_folded_key" })) {
      throw invalidInput({ name: [GROUP_NAME_TAKEN] });
    }
  }

  return {
    /** GET /api/dashboard/groups: the caller's groups; every group for admins and editors. */
    async list(viewer: GroupViewer): Promise<GroupSummary[]> {
      if (!(await mayTakePart(viewer))) return [];
      const rows = seesAll(viewer) ? await repository.all() : await repository.of(viewer.id);
      return summaries(rows, viewer);
    },

    /**
     * The groups an editor's form offers as an audience (issue 36): every group for admins and
     * editors (`edits` 'all'); a chair's own, with those already on the item (`kept`), which a save keeps.
     */
    async choices(edits: GroupsSeen, kept: readonly number[] = []): Promise<{ id: number; name: string }[]> {
      const rows = await repository.all();
      return rows
        .filter((row) => edits === "all" || edits.includes(row.id) || kept.includes(row.id))
        .map((row) => ({ id: row.id, name: row.name }));
    },

    /** GET /api/dashboard/groups/{slug}: 404 for a member outside it. */
    async detail(slug: string, viewer: GroupViewer): Promise<GroupDetail> {
      const row = await repository.bySlug(slug);
      const membership = row ? await repository.membership(row.id, viewer.id) : undefined;
      if (!row || (!seesAll(viewer) && !membership) || !(await mayTakePart(viewer))) {
        throw new AppError("not_found", GROUP_NOT_FOUND);
      }
      const [[summary], people, content] = await Promise.all([
        summaries([row], viewer),
        repository.people([row.id]),
        deps.content?.(row.id) ?? { categories: [], papers: [], meetings: [] },
      ]);
      return {
        ...summary,
        members: people.map((p) => personOf(p, viewer)),
        can_manage_members: viewer.role === "admin" || membership?.is_chair === 1,
        ...content,
      };
    },

    /** POST /api/dashboard/groups (admin). */
    async create(input: GroupCreate): Promise<GroupSummary> {
      await checkName(input.name);
      const chairs = await checkedChairs(input.chair_ids);
      const now = clock().toISOString();
      const base = slugify(input.name, "group");
      for (let attempt = 0; ; attempt++) {
        const slug = await freeSlug(repository.slugsLike, base, attempt);
        try {
          const id = await db.transaction().execute(async (trx) => {
            const on = createGroupsRepository(trx);
            const id = await on.insert({
              name: input.name,
              slug,
              description: input.description,
              created_at: now,
              updated_at: now,
            });
            await on.setChairs(id, chairs, now);
            await deps.audit?.record(
              {
                action: "create",
                entity: "group",
                entityId: id,
                summary: `Group “${input.name}” created`,
                after: { name: input.name, description: input.description, chair_ids: chairs },
              },
              trx,
            );
            return id;
          });
          const [summary] = await summaries([await existing(id)], { id: 0, role: "admin" });
          return summary;
        } catch (error) {
          nameTakenMeanwhile(error);
          if (isUniqueViolation(error, { table: "working_groups", column: "slug" }) && attempt < SLUG_ATTEMPTS)
            continue;
          throw error;
        }
      }
    },

    /** PATCH /api/dashboard/groups/{id} (admin): name, description, chairs. The slug stays (links keep working). */
    async update(id: number, input: GroupUpdate): Promise<GroupSummary> {
      const row = await existing(id);
      if (input.name !== undefined) await checkName(input.name, id);
      const chairs = input.chair_ids === undefined ? undefined : await checkedChairs(input.chair_ids);
      const now = clock().toISOString();
      const saved = db.transaction().execute(async (trx) => {
        const on = createGroupsRepository(trx);
        const before = (await on.people([id])).filter((p) => p.is_chair === 1).map((p) => p.user_id);
        await on.update(id, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          updated_at: now,
        });
        if (chairs) await on.setChairs(id, chairs, now);
        await deps.audit?.record(
          {
            action: "update",
            entity: "group",
            entityId: id,
            summary: `Group “${input.name ?? row.name}” changed`,
            before: { name: row.name, description: row.description, chair_ids: before },
            after: {
              name: input.name ?? row.name,
              description: input.description ?? row.description,
              chair_ids: chairs ?? before,
            },
          },
          trx,
        );
      });
      await saved.catch((error: unknown) => {
        nameTakenMeanwhile(error);
        throw error;
      });
      const [summary] = await summaries([await existing(id)], { id: 0, role: "admin" });
      return summary;
    },

    /** DELETE /api/dashboard/groups/{id} (admin): the group and its memberships. */
    async remove(id: number): Promise<void> {
      const row = await existing(id);
      await db.transaction().execute(async (trx) => {
        const on = createGroupsRepository(trx);
        // Also refused by the tables' foreign keys (restrict), which say less.
        const usage = await on.usage(id);
        if (usage.categories + usage.meetings > 0) {
          const what = [
            usage.categories ? `${usage.categories} library ${usage.categories === 1 ? "category" : "categories"}` : "",
            usage.meetings ? `${usage.meetings} ${usage.meetings === 1 ? "meeting" : "meetings"}` : "",
          ]
            .filter(Boolean)
            .join(" and ");
          throw new AppError("conflict", groupInUse(what));
        }
        await on.remove(id);
        await deps.audit?.record(
          {
            action: "delete",
            entity: "group",
            entityId: id,
            summary: `Group “${row.name}” deleted`,
            before: { name: row.name, description: row.description },
          },
          trx,
        );
      });
    },

    /** POST /api/dashboard/groups/{id}/members: an admin or one of the group's chairs adds a person. */
    async addMember(id: number, input: GroupMemberAdd, viewer: GroupViewer): Promise<GroupPerson> {
      const row = await existing(id);
      await mayManageMembers(row, viewer);
      if (input.user_id !== undefined && viewer.role !== "admin") throw invalidInput({ user_id: [ADD_BY_EMAIL] });
      const account = await deps.findAccount(
        input.user_id !== undefined ? { id: input.user_id } : { email: input.email },
      );
      const field = input.user_id !== undefined ? "user_id" : "email";
      if (!account) throw invalidInput({ [field]: [NO_SUCH_ACCOUNT] });
      if (!(await deps.hasMembersAccess(account))) throw invalidInput({ [field]: [NOT_A_MEMBER_ACCOUNT] });
      const now = clock().toISOString();
      try {
        await db.transaction().execute(async (trx) => {
          const on = createGroupsRepository(trx);
          if (await on.membership(id, account.id)) throw new AppError("conflict", ALREADY_IN_GROUP);
          await on.addMember({ group_id: id, user_id: account.id, is_chair: 0, created_at: now });
          await deps.audit?.record(
            {
              action: "add_member",
              entity: "group",
              entityId: id,
              summary: `Added user #${account.id} to group “${row.name}”`,
              after: { user_id: account.id },
            },
            trx,
          );
        });
      } catch (error) {
        // Two adds of one person at once: the primary key decides, and the second hears why.
        if (isUniqueViolation(error)) throw new AppError("conflict", ALREADY_IN_GROUP);
        throw error;
      }
      const person = (await repository.people([id])).find((p) => p.user_id === account.id);
      if (!person) throw new AppError("not_found", GROUP_NOT_FOUND);
      return personOf(person, viewer);
    },

    /** DELETE /api/dashboard/groups/{id}/members/{userId}: an admin, or a chair for a member who is not a chair. */
    async removeMember(id: number, userId: number, viewer: GroupViewer): Promise<void> {
      const row = await existing(id);
      await mayManageMembers(row, viewer);
      const membership = await repository.membership(id, userId);
      if (!membership) throw new AppError("not_found", "This person is not in the group.");
      if (membership.is_chair === 1 && viewer.role !== "admin") throw new AppError("forbidden", CHAIRS_ONLY_BY_ADMIN);
      await db.transaction().execute(async (trx) => {
        await createGroupsRepository(trx).removeMember(id, userId);
        await deps.audit?.record(
          {
            action: "remove_member",
            entity: "group",
            entityId: id,
            summary: `Removed user #${userId} from group “${row.name}”`,
            before: { user_id: userId, is_chair: membership.is_chair === 1 },
          },
          trx,
        );
      });
    },
  };

  /** Admins, and the group's chairs; a member of the group hears why not, anyone else that there is no such group. */
  async function mayManageMembers(row: GroupRow, viewer: GroupViewer): Promise<void> {
    if (viewer.role === "admin") return;
    if (!(await mayTakePart(viewer))) throw new AppError("not_found", GROUP_NOT_FOUND);
    const membership = await repository.membership(row.id, viewer.id);
    if (membership?.is_chair === 1) return;
    if (membership || seesAll(viewer)) throw new AppError("forbidden", MEMBERS_BY_CHAIR);
    throw new AppError("not_found", GROUP_NOT_FOUND);
  }
}

export type GroupsService = ReturnType<typeof createGroupsService>;

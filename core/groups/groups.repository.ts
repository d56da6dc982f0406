import { sql } from "kysely";
import type { Executor } from "../../db/types";

/** The people of groups as the answers show them: name, company (when current or not), chair. */
export type GroupPersonRow = {
  group_id: number;
  user_id: number;
  first_name: string;
  last_name: string;
  email: string;
  company: string | null;
  is_chair: number;
};

export type GroupRow = {
  id: number;
  name: string;
  slug: string;
  description: string;
  created_at: string;
  updated_at: string;
};

/** Working groups and their members (issue 36). */
export function createGroupsRepository(db: Executor) {
  return {
    /** Every group, by name; a few dozen at most (an association's committees), so unpaged. */
    async all(): Promise<GroupRow[]> {
      return db.selectFrom("working_groups").selectAll().orderBy("name").orderBy("id").execute();
    },

    /** The ids of the groups a person is in, ascending. */
    async idsOf(userId: number): Promise<number[]> {
      const rows = await db
        .selectFrom("group_members")
        .select("group_id")
        .where("user_id", "=", userId)
        .orderBy("group_id")
        .execute();
      return rows.map((row) => row.group_id);
    },

    /** The groups `userId` is in, by name. */
    async of(userId: number): Promise<GroupRow[]> {
      return db
        .selectFrom("working_groups as g")
        .innerJoin("group_members as m", "m.group_id", "g.id")
        .selectAll("g")
        .where("m.user_id", "=", userId)
        .orderBy("g.name")
        .orderBy("g.id")
        .execute();
    },

    async byId(id: number): Promise<GroupRow | undefined> {
      return db.selectFrom("working_groups").selectAll().where("id", "=", id).executeTakeFirst();
    },

    async bySlug(slug: string): Promise<GroupRow | undefined> {
      return db.selectFrom("working_groups").selectAll().where("slug", "=", slug).executeTakeFirst();
    },

    async slugsLike(base: string): Promise<string[]> {
      const rows = await db
        .selectFrom("working_groups")
        .select("slug")
        .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]))
        .execute();
      return rows.map((r) => r.slug);
    },

    async nameTaken(name: string, exceptId?: number): Promise<boolean> {
      // Folded by the database on both sides, as the unique index on lower(name) folds (migration 0036).
      let query = db
        .selectFrom("working_groups")
        .select("id")
        .where(sql<string>`lower(name)`, "=", sql<string>`lower(${name})`);
      if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    async insert(row: Omit<GroupRow, "id">): Promise<number> {
      const { id } = await db.insertInto("working_groups").values(row).returning("id").executeTakeFirstOrThrow();
      return id;
    },

    async update(id: number, changes: Partial<Pick<GroupRow, "name" | "description" | "updated_at">>) {
      await db.updateTable("working_groups").set(changes).where("id", "=", id).execute();
    },

    async remove(id: number) {
      await db.deleteFrom("working_groups").where("id", "=", id).execute();
    },

    /** How many library categories and meetings are for the group (it may not go while any are). */
    async usage(id: number): Promise<{ categories: number; meetings: number }> {
      const [categories, meetings] = await Promise.all([
        db
          .selectFrom("category_groups")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("group_id", "=", id)
          .executeTakeFirst(),
        db
          .selectFrom("meeting_groups")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("group_id", "=", id)
          .executeTakeFirst(),
      ]);
      return { categories: Number(categories?.n ?? 0), meetings: Number(meetings?.n ?? 0) };
    },

    /** The people of the given groups, chairs first, then by name. */
    async people(groupIds: number[]): Promise<GroupPersonRow[]> {
      if (groupIds.length === 0) return [];
      return db
        .selectFrom("group_members as m")
        .innerJoin("users as u", "u.id", "m.user_id")
        .leftJoin("company_representatives as r", "r.user_id", "u.id")
        .leftJoin("member_companies as c", "c.id", "r.company_id")
        .select([
          "m.group_id",
          "m.user_id",
          "m.is_chair",
          "u.first_name",
          "u.last_name",
          "u.email",
          "c.name as company",
        ])
        .where("m.group_id", "in", groupIds)
        .orderBy("m.group_id")
        .orderBy("m.is_chair", "desc")
        .orderBy("u.last_name")
        .orderBy("u.first_name")
        .orderBy("m.user_id")
        .execute();
    },

    /** How many people each of the given groups has. */
    async counts(groupIds: number[]): Promise<Map<number, number>> {
      if (groupIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("group_members")
        .select(["group_id", (eb) => eb.fn.countAll<string | number>().as("n")])
        .where("group_id", "in", groupIds)
        .groupBy("group_id")
        .execute();
      return new Map(rows.map((r) => [r.group_id, Number(r.n)]));
    },

    async membership(groupId: number, userId: number): Promise<{ is_chair: number } | undefined> {
      return db
        .selectFrom("group_members")
        .select("is_chair")
        .where("group_id", "=", groupId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
    },

    async addMember(row: { group_id: number; user_id: number; is_chair: number; created_at: string }) {
      await db.insertInto("group_members").values(row).execute();
    },

    async removeMember(groupId: number, userId: number) {
      await db.deleteFrom("group_members").where("group_id", "=", groupId).where("user_id", "=", userId).execute();
    },

    /**
     * Makes exactly `chairIds` the group's chairs: each is added as a member when not one yet; the
     * chairs not in the list stay members.
     */
    async setChairs(groupId: number, chairIds: number[], at: string) {
      await db
        .updateTable("group_members")
        .set({ is_chair: 0 })
        .where("group_id", "=", groupId)
        .where("is_chair", "=", 1)
        .execute();
      for (const userId of chairIds) {
        await db
          .insertInto("group_members")
          .values({ group_id: groupId, user_id: userId, is_chair: 1, created_at: at })
          .onConflict((oc) => oc.columns(["group_id", "user_id"]).doUpdateSet({ is_chair: 1 }))
          .execute();
      }
    },
  };
}

export type GroupsRepository = ReturnType<typeof createGroupsRepository>;

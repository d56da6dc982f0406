import type { Kysely } from "kysely";
import type { Database, Executor, RevisionEntity } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { fieldDiff } from "../../lib/text-diff";
import { currentActor } from "../audit/actor";
import type { AuditService } from "../audit/audit.service";
import { createRevisionsRepository } from "./revisions.repository";
import type { Revision } from "./revisions.schema";

/** The fields one kind keeps, in the edit screen's order, with its label; `rich` for rich text. */
export type RevisionFields = readonly { name: string; label: string; rich?: boolean }[];
export type RevisionValues = Record<string, string | null>;

/** How many revisions the edit screens and the API show: the newest. */
export const REVISIONS_SHOWN = 50;

/**
 * Revisions (issue 34, decision 0073): every save of a news post, a CMS page, a meeting's texts or a
 * library category keeps the fields as saved, with who and when (core/audit/actor), in the save's
 * own transaction. A save that changes none of them keeps none (a restore always does). Each is
 * shown with what changed from the one before it, and any may be restored by its content's service.
 */
/** What the audit log calls each kind. */
const KIND_LABEL: Record<RevisionEntity, string> = {
  news: "News post",
  page: "Page",
  meeting: "Meeting",
  category: "Library category",
};

export function createRevisionsService(deps: { db: Kysely<Database>; clock: Clock; audit?: AuditService }) {
  const { db, clock } = deps;

  const parse = (fields: string): RevisionValues => JSON.parse(fields) as RevisionValues;

  return {
    /**
     * Keeps the fields as saved, in the save's transaction (`restoredFrom` when a restore made the
     * save), and writes the audit row of the change with the fields before and after.
     */
    async record(
      trx: Executor,
      entity: RevisionEntity,
      entityId: number,
      fields: RevisionValues,
      options: {
        action?: "create" | "update";
        restoredFrom?: number | null;
        /** The fields before the save, for the audit log when no revision was kept yet (content from before revisions). */
        before?: RevisionValues;
      } = {},
    ): Promise<void> {
      const restoredFrom = options.restoredFrom ?? null;
      const repository = createRevisionsRepository(trx);
      const json = JSON.stringify(fields);
      const latest = await repository.latest(entity, entityId);
      if (restoredFrom === null && latest?.fields === json) return;
      const action = restoredFrom !== null ? "restore" : (options.action ?? "update");
      const name = fields.title ?? fields.name ?? `#${entityId}`;
      const verb = { create: "created", update: "changed", restore: "restored from an earlier revision" }[action];
      await deps.audit?.record(
        {
          action,
          entity,
          entityId,
          summary: `${KIND_LABEL[entity]} “${name}” ${verb}`,
          before: latest ? parse(latest.fields) : (options.before ?? null),
          after: fields,
        },
        trx,
      );
      const actor = currentActor();
      await repository.insert({
        entity,
        entity_id: entityId,
        actor_id: actor.userId,
        actor_name: actor.name,
        fields: json,
        restored_from: restoredFrom,
        created_at: clock().toISOString(),
      });
    },

    /** The newest revisions, newest first, each with what changed from the one before it. */
    async list(entity: RevisionEntity, entityId: number, shape: RevisionFields): Promise<Revision[]> {
      const repository = createRevisionsRepository(db);
      // One more than shown: the oldest shown is compared with the one before it.
      const [rows, total] = await Promise.all([
        repository.list(entity, entityId, REVISIONS_SHOWN + 1),
        repository.count(entity, entityId),
      ]);
      return rows.slice(0, REVISIONS_SHOWN).map((row, index) => {
        const fields = parse(row.fields);
        const before = rows[index + 1] ? parse(rows[index + 1].fields) : null;
        const changes = before
          ? shape.flatMap(({ name, label, rich }) => {
              const diff = fieldDiff(before[name] ?? null, fields[name] ?? null, rich === true);
              return diff ? [{ field: name, label, ...diff }] : [];
            })
          : [];
        return {
          id: row.id,
          number: total - index,
          created_at: row.created_at,
          author: { id: row.actor_id, name: row.actor_name },
          restored_from: row.restored_from,
          fields,
          changes,
        };
      });
    },

    /**
     * The number (as `list` numbers them) of the revision in force at `at` (ISO), or null when none
     * had been saved by then: what a visitor read at that time (the consent record, decision 0077).
     */
    async numberAt(entity: RevisionEntity, entityId: number, at: string): Promise<number | null> {
      const count = await createRevisionsRepository(db).countUntil(entity, entityId, at);
      return count > 0 ? count : null;
    },

    /** One revision's fields, for a restore; 404 when it is not one of this content's. */
    async fields(entity: RevisionEntity, entityId: number, revisionId: number): Promise<RevisionValues> {
      const row = await createRevisionsRepository(db).find(entity, entityId, revisionId);
      if (!row) throw new AppError("not_found", "Revision not found.");
      return parse(row.fields);
    },

    /** The content is deleted: its revisions go with it, in its transaction; the audit log says what it held. */
    async removeAll(trx: Executor, entity: RevisionEntity, entityId: number): Promise<void> {
      const repository = createRevisionsRepository(trx);
      const latest = await repository.latest(entity, entityId);
      const before = latest ? parse(latest.fields) : null;
      await deps.audit?.record(
        {
          action: "delete",
          entity,
          entityId,
          summary: `${KIND_LABEL[entity]} “${before?.title ?? before?.name ?? `#${entityId}`}” deleted`,
          before,
          after: null,
        },
        trx,
      );
      await repository.removeAll(entity, entityId);
    },
  };
}
export type RevisionsService = ReturnType<typeof createRevisionsService>;

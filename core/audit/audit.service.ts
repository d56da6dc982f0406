import type { Kysely } from "kysely";
import type { Database, Executor } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { toCsv } from "../../lib/csv";
import { type Page, pageOf } from "../../lib/pagination";
import { isoInZone, isoWithOffset } from "../../lib/time-zones";
import { type Actor, currentActor } from "./actor";
import { type AuditFilter, createAuditRepository } from "./audit.repository";
import type { AuditQuery, AuditRow } from "./audit.schema";

export const AUDIT_PER_PAGE = 50;
/** The most rows a CSV export holds: a filter narrows a longer one. */
export const AUDIT_CSV_MAX = 20_000;
/** A field whose name says it holds a secret: never written, whatever its value. */
const SECRET_FIELD = /pass|token|hash|secret|otp|recovery|cookie|session|credential|key/i;
/** Long texts (a page's body) are cut: the revisions keep them whole. */
const VALUE_MAX = 2000;

export type AuditEntry = {
  action: string;
  entity: string;
  entityId?: string | number | null;
  summary: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Who, when not the request's actor (a sign-in: the person signing in). */
  actor?: Actor;
};

/** A value as the log keeps it: text (cut when long), a number, a flag or null; anything else as JSON text. */
const shown = (value: unknown): string | number | boolean | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "boolean") return value;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX)}…` : text;
};

/** The fields that differ, before and after; a secret's name stays, its values never do. */
export function changesOf(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): Record<string, { before: unknown; after: unknown }> | null {
  if (!before && !after) return null;
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    const from = before?.[key] ?? null;
    const to = after?.[key] ?? null;
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    changes[key] = SECRET_FIELD.test(key)
      ? { before: from === null ? null : "(hidden)", after: to === null ? null : "(hidden)" }
      : { before: shown(from), after: shown(to) };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/**
 * The audit log (issue 34, decision 0074): append-only rows of who did what, when, from where. The
 * services record their writes in the write's own transaction; the HTTP layer records a plain row
 * for any other write by an admin or a primary contact, and the security events. Nothing here
 * changes or deletes a row but `prune`, the retention job's.
 */
export function createAuditService(deps: {
  db: Kysely<Database>;
  clock: Clock;
  /** The site's zone (dates of the filters and the CSV) and the retention in days. */
  settings: () => Promise<{ "site.timezone": string; "audit.retention_days": string }>;
}) {
  const { db, clock } = deps;

  const toRow = (row: Awaited<ReturnType<ReturnType<typeof createAuditRepository>["list"]>>[number]): AuditRow => ({
    id: row.id,
    created_at: row.created_at,
    actor: { id: row.actor_id, name: row.actor_name },
    ip: row.ip,
    action: row.action,
    entity: row.entity,
    entity_id: row.entity_id,
    summary: row.summary,
    changes: row.changes ? (JSON.parse(row.changes) as AuditRow["changes"]) : null,
  });

  /** The query's days as times: from the start of `from` to the end of `to`, in the site's zone. */
  async function filterOf(query: Omit<AuditQuery, "page">): Promise<AuditFilter> {
    const zone = (await deps.settings())["site.timezone"];
    const dayAfter = (date: string) =>
      new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    return {
      actor: query.actor,
      entity: query.entity,
      entity_id: query.entity_id,
      action: query.action,
      from: query.from ? new Date(isoWithOffset(query.from, "00:00", zone)).toISOString() : undefined,
      to: query.to ? new Date(isoWithOffset(dayAfter(query.to), "00:00", zone)).toISOString() : undefined,
    };
  }

  return {
    /** Writes one row, on the write's own transaction when given; the actor is the request's unless said. */
    async record(entry: AuditEntry, executor: Executor = db): Promise<void> {
      const scope = currentActor();
      const actor = entry.actor ?? scope;
      await createAuditRepository(executor).insert({
        created_at: clock().toISOString(),
        actor_id: actor.userId,
        actor_name: actor.name,
        ip: actor.ip ?? scope.ip,
        action: entry.action,
        entity: entry.entity,
        entity_id: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
        summary: entry.summary.slice(0, 500),
        changes: (() => {
          const changes = changesOf(entry.before, entry.after);
          return changes ? JSON.stringify(changes) : null;
        })(),
      });
      scope.recorded = (scope.recorded ?? 0) + 1;
    },

    async list(query: AuditQuery): Promise<Page<AuditRow>> {
      const filter = await filterOf(query);
      const repository = createAuditRepository(db);
      const [rows, total] = await Promise.all([
        repository.list(filter, (query.page - 1) * AUDIT_PER_PAGE, AUDIT_PER_PAGE),
        repository.count(filter),
      ]);
      return pageOf(rows.map(toRow), query.page, AUDIT_PER_PAGE, total);
    },

    /** One thing's history, newest first: its edit screen's. */
    async history(entity: string, entityId: string | number, limit = 20): Promise<AuditRow[]> {
      const rows = await createAuditRepository(db).list({ entity, entity_id: String(entityId) }, 0, limit);
      return rows.map(toRow);
    },

    /** Who appears in the log, for the filter. */
    async actors(): Promise<{ id: number; name: string }[]> {
      return (await createAuditRepository(db).actors()).map((row) => ({
        id: Number(row.actor_id),
        name: String(row.name ?? ""),
      }));
    },

    /** The filtered log as CSV (newest first, at most AUDIT_CSV_MAX rows), times in the site's zone. */
    async csv(query: Omit<AuditQuery, "page">): Promise<string> {
      const zone = (await deps.settings())["site.timezone"];
      const rows = await createAuditRepository(db).list(await filterOf(query), 0, AUDIT_CSV_MAX);
      return toCsv(
        ["Time", "Who", "User id", "IP address", "Action", "Entity", "Entity id", "Summary", "Changes"],
        rows.map((row) => [
          isoInZone(new Date(row.created_at), zone),
          row.actor_name,
          row.actor_id ?? "",
          row.ip ?? "",
          row.action,
          row.entity,
          row.entity_id ?? "",
          row.summary,
          row.changes ?? "",
        ]),
      );
    },

    /** The retention job: removes the rows older than the setting's days; answers how many. */
    async prune(options: { signal?: AbortSignal } = {}): Promise<number> {
      const days = Number((await deps.settings())["audit.retention_days"]) || 730;
      const before = new Date(clock().getTime() - days * 86_400_000).toISOString();
      let removed = 0;
      for (;;) {
        if (options.signal?.aborted) break;
        const batch = await createAuditRepository(db).removeBefore(before, 1000);
        removed += batch;
        if (batch < 1000) break;
      }
      return removed;
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;

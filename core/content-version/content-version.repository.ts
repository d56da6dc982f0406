import { randomBytes } from "node:crypto";
import type SQLite from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import type { Notifications } from "../../db/connect";
import { notWaitedFor } from "../../db/group-commit";
import type { Database } from "../../db/types";

const SITE = "site";
/** PostgreSQL channel on which every bump is announced as `<schema>:<version>` when it commits. */
export const CONTENT_VERSION_CHANNEL = "masthead_content_version";
/** Where each listening process says it has heard a version: `<schema>:<version>:<listener id>`. */
export const CONTENT_HEARD_CHANNEL = "masthead_content_heard";

export type VersionSubscriber = {
  /** A version some process (this one included) has committed. */
  onVersion: (version: number) => void;
  /** Listening has started or resumed after a lost connection: announcements may have been missed. */
  onListening: () => void;
  onError?: (error: unknown) => void;
};

/** How the processes of a site on PostgreSQL hear of each other's changes (decision 0031). */
export type VersionPush = {
  /** Starts listening (once; later calls do nothing). */
  start: (subscriber: VersionSubscriber) => void;
  /**
   * Resolves once every process listening on this database has said it heard
   * `version` (true), or after `timeoutMs` (false: one is slow or gone; the
   * poll catches it up).
   */
  heardEverywhere: (version: number, timeoutMs: number) => Promise<boolean>;
  stop: () => Promise<void>;
};

/**
 * `sqlite`, the raw handle under the Kysely instance, gives the page cache a
 * synchronous read of the stamp: one prepared statement, a few microseconds,
 * exact across every process that shares the file. On PostgreSQL,
 * `notifications` pushes every bump to every process as it commits
 * (LISTEN/NOTIFY), and each process answers that it heard it, so that the
 * process that made a change can wait for all of them before it answers.
 */
export function createContentVersionRepository(
  db: Kysely<Database>,
  options: { sqlite?: SQLite.Database; notifications?: Notifications } = {},
) {
  const peek = options.sqlite?.prepare("select version from content_versions where name = ?").pluck();
  const notifications = options.notifications;
  return {
    async current(): Promise<number> {
      const row = await db.selectFrom("content_versions").select("version").where("name", "=", SITE).executeTakeFirst();
      return Number(row?.version ?? 0);
    },
    /** The stamp read synchronously, where the driver allows it (SQLite); null elsewhere. */
    currentSync: peek ? (): number => Number(peek.get(SITE) ?? 0) : null,
    async bump(): Promise<number> {
      if (notifications) {
        // One statement: the bump and its announcement, which PostgreSQL delivers when (and only if) it commits.
        const { rows } = await sql<{ version: number | string }>`
          with bumped as (
            update content_versions set version = version + 1 where name = ${SITE} returning version
          )
          select version, pg_notify(${CONTENT_VERSION_CHANNEL}, current_schema() || ':' || version) from bumped
        `.execute(db);
        return Number(rows[0]?.version ?? 0);
      }
      const row = await db
        .updateTable("content_versions")
        .set((eb) => ({ version: eb("version", "+", 1) }))
        .where("name", "=", SITE)
        .returning("version")
        // The stamp of pages cached in this process's memory, which a power cut empties too (decision 0061).
        .modifyEnd(notWaitedFor)
        .executeTakeFirst();
      return Number(row?.version ?? 0);
    },
    /** Every bump as it commits, in every process (PostgreSQL); null where there is no push (SQLite reads synchronously). */
    push: notifications ? versionPush(db, notifications) : null,
  };
}
export type ContentVersionRepository = ReturnType<typeof createContentVersionRepository>;

function versionPush(db: Kysely<Database>, notifications: Notifications): VersionPush {
  /** This listener's name in the acknowledgements: the process and the connection. */
  const me = `${process.pid}.${randomBytes(4).toString("hex")}`;
  /** The highest version each listener has said it heard. */
  const heardBy = new Map<string, number>();
  const waiters = new Set<() => void>();
  let started: Promise<{ schema: string; stop: () => Promise<void> } | null> | null = null;
  // Schemas share a database's channels (the tests give each file a schema): the schema is in every payload.
  const schemaOf = () =>
    sql<{ schema: string }>`select current_schema() as schema`.execute(db).then(({ rows }) => rows[0]?.schema ?? "");
  const listenerName = (schema: string) => `masthead content ${schema}`.slice(0, 63);

  function start(subscriber: VersionSubscriber) {
    started ??= schemaOf().then(
      (schema) => {
        const prefix = `${schema}:`;
        const stop = notifications.listen(
          [CONTENT_VERSION_CHANNEL, CONTENT_HEARD_CHANNEL],
          {
            onMessage: (channel, payload) => {
              if (!payload.startsWith(prefix)) return;
              const [versionText, listener] = payload.slice(prefix.length).split(":");
              const version = Number(versionText);
              if (!Number.isFinite(version)) return;
              if (channel === CONTENT_HEARD_CHANNEL && listener) {
                heardBy.set(listener, Math.max(heardBy.get(listener) ?? 0, version));
                // Listeners of processes long gone: the oldest first (a Map keeps insertion order).
                if (heardBy.size > 256) heardBy.delete(heardBy.keys().next().value as string);
                for (const check of waiters) check();
                return;
              }
              subscriber.onVersion(version);
              sql`select pg_notify(${CONTENT_HEARD_CHANNEL}, ${`${prefix}${version}:${me}`})`
                .execute(db)
                .catch((error) => subscriber.onError?.(error));
            },
            onListening: subscriber.onListening,
            onError: subscriber.onError,
          },
          { applicationName: listenerName(schema) },
        );
        return { schema, stop };
      },
      (error) => {
        subscriber.onError?.(error);
        started = null; // tried again on the next start()
        return null;
      },
    );
  }

  async function heardEverywhere(version: number, timeoutMs: number): Promise<boolean> {
    const listening = await started;
    if (!listening) return false;
    const { rows } = await sql<{ listeners: number | string }>`
      select count(*) as listeners from pg_stat_activity
      where datname = current_database() and application_name = ${listenerName(listening.schema)}
    `.execute(db);
    const listeners = Number(rows[0]?.listeners ?? 0);
    const count = () => [...heardBy.values()].filter((heard) => heard >= version).length;
    if (count() >= listeners) return true;
    return new Promise<boolean>((resolve) => {
      const check = () => {
        if (count() < listeners) return;
        finish(true);
      };
      const finish = (all: boolean) => {
        clearTimeout(timer);
        waiters.delete(check);
        resolve(all);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      waiters.add(check);
    });
  }

  return {
    start,
    heardEverywhere,
    async stop() {
      const listening = await started;
      started = null;
      await listening?.stop();
    },
  };
}

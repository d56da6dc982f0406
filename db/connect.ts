import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  type DatabaseConnection,
  type Driver,
  Kysely,
  type Dialect as KyselyDialect,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  sql,
} from "kysely";
import type PG from "pg";
import type { Config } from "../lib/env";
import { asRaceRefusal, asStorageFull } from "../lib/errors";
import { committingDurably, type GroupCommit, groupCommit } from "./group-commit";
import type { Database } from "./types";

export type Dialect = "sqlite" | "postgres";

export type DatabaseHandle = {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The SQLite connection under `db`, for the few synchronous reads that must not wait (the page cache's version stamp). */
  sqlite?: SQLite.Database;
  /** SQLite: the group commit that makes each commit durable before its caller goes on (decision 0061). */
  commits?: GroupCommit;
  /** PostgreSQL's LISTEN/NOTIFY, for what other processes must hear at once (the content version); absent on SQLite. */
  notifications?: Notifications;
  destroy: () => Promise<void>;
};

/** What a subscriber to a channel is told. */
export type NotificationHandlers = {
  /** Each payload sent on one of the channels (`NOTIFY`), in commit order. */
  onMessage: (channel: string, payload: string) => void;
  /** Each time the subscription is (re)established: what was sent while it was down is lost, so catch up. */
  onListening?: () => void;
  onError?: (error: unknown) => void;
};

export type Notifications = {
  /**
   * Listens on `channels` over a connection of its own, reconnecting after a loss; answers a stop
   * function. `applicationName` names the connection in pg_stat_activity, where others can count it.
   */
  listen: (
    channels: string[],
    handlers: NotificationHandlers,
    options?: { applicationName?: string },
  ) => () => Promise<void>;
};

/** How long a lost LISTEN connection waits before it connects again. */
const RELISTEN_MS = 1_000;

let loadedPg: typeof PG | undefined;
/** pg is loaded by the first PostgreSQL connection: a site on SQLite never holds it in memory. */
function postgresDriver(): typeof PG {
  if (loadedPg) return loadedPg;
  loadedPg = createRequire(import.meta.url)("pg") as typeof PG;
  // COUNT(*) and BIGINT come back from pg as strings; every count we take fits a JS number.
  loadedPg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
  return loadedPg;
}

async function translated<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asRaceRefusal(asStorageFull(error));
  }
}

/**
 * SQLite ends a transaction itself on some errors (SQLITE_FULL, SQLITE_IOERR…);
 * the rollback that follows then fails and would hide the error that mattered.
 */
function rolledBackAlready(error: unknown): boolean {
  return error instanceof Error && /no transaction is active/.test(error.message);
}

/**
 * Every statement, commit and rollback of the driver, with a full disk
 * (SQLITE_FULL, PostgreSQL's 53100) turned into the AppError that answers 507;
 * every other error passes through as it was. One place for both dialects,
 * so no service has to know how a database says "no space left".
 */
function storageFullAware(driver: Driver): Driver {
  const originals = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const unwrap = (connection: DatabaseConnection) => originals.get(connection) ?? connection;
  const wrapper: Driver = {
    init: () => translated(() => driver.init()),
    async acquireConnection() {
      const connection = await translated(() => driver.acquireConnection());
      const wrapped: DatabaseConnection = {
        executeQuery: (query) => translated(() => connection.executeQuery(query)),
        async *streamQuery(query, chunkSize) {
          try {
            yield* connection.streamQuery(query, chunkSize);
          } catch (error) {
            throw asStorageFull(error);
          }
        },
      };
      originals.set(wrapped, connection);
      return wrapped;
    },
    beginTransaction: (c, settings) => translated(() => driver.beginTransaction(unwrap(c), settings)),
    commitTransaction: (c) => translated(() => driver.commitTransaction(unwrap(c))),
    rollbackTransaction: (c) =>
      translated(async () => {
        try {
          await driver.rollbackTransaction(unwrap(c));
        } catch (error) {
          if (!rolledBackAlready(error)) throw error;
        }
      }),
    // Releasing waits for the commit to reach the disk (SQLite, decision 0061), which can find it full.
    releaseConnection: (c) => translated(() => driver.releaseConnection(unwrap(c))),
    destroy: () => driver.destroy(),
  };
  const { savepoint, rollbackToSavepoint, releaseSavepoint } = driver;
  if (savepoint)
    wrapper.savepoint = (c, name, compile) => translated(() => savepoint.call(driver, unwrap(c), name, compile));
  if (rollbackToSavepoint) {
    wrapper.rollbackToSavepoint = (c, name, compile) =>
      translated(() => rollbackToSavepoint.call(driver, unwrap(c), name, compile));
  }
  if (releaseSavepoint) {
    wrapper.releaseSavepoint = (c, name, compile) =>
      translated(() => releaseSavepoint.call(driver, unwrap(c), name, compile));
  }
  return wrapper;
}

function withStorageFullErrors(dialect: KyselyDialect): KyselyDialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => storageFullAware(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

/** Distinct statements kept prepared; the app's queries are a few hundred shapes at most. */
const PREPARED_STATEMENTS = 1000;

/**
 * The connection as Kysely sees it, with each SQL text prepared once: Kysely's
 * SQLite driver prepares every query anew, which cost as much as running it.
 * Safe because the driver runs one query at a time on its single connection.
 */
function reusingStatements(database: SQLite.Database): SqliteDatabase & { writes: (text: string) => boolean } {
  const prepared = new Map<string, SQLite.Statement>();
  return {
    /** Whether the statement last prepared with this text may write (SQLite's own answer: sqlite3_stmt_readonly). */
    writes: (text: string) => prepared.get(text)?.readonly === false,
    close: () => database.close(),
    prepare(text: string) {
      let statement = prepared.get(text);
      if (!statement) {
        statement = database.prepare(text);
        // Least recently prepared first out; a Map iterates in insertion order.
        if (prepared.size >= PREPARED_STATEMENTS) prepared.delete(prepared.keys().next().value as string);
        prepared.set(text, statement);
      }
      return statement;
    },
  };
}

export function openSqlite(file: string): DatabaseHandle {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  // Every commit is on disk before it is answered (decision 0036): a registration or a request a
  // person was told is saved survives a power cut, as with PostgreSQL's default. SQLite itself only
  // writes the commit (NORMAL); the driver below flushes the WAL off the event loop, one flush for
  // the commits made meanwhile, before the caller goes on (group commit, decision 0061).
  database.pragma("synchronous = NORMAL");
  // Unicode lower case for searches (migration 0004 gives PostgreSQL the same function).
  database.function("casefold", { deterministic: true }, (value: unknown) =>
    typeof value === "string" ? value.toLowerCase() : value,
  );
  const statements = reusingStatements(database);
  const commits = groupCommit(`${file}-wal`);
  const dialect = new SqliteDialect({ database: statements });
  const db = new Kysely<Database>({
    dialect: withStorageFullErrors({
      createAdapter: () => dialect.createAdapter(),
      createDriver: () => committingDurably(dialect.createDriver(), database, commits, statements.writes),
      createIntrospector: (db) => dialect.createIntrospector(db),
      createQueryCompiler: () => dialect.createQueryCompiler(),
    }),
  });
  return {
    db,
    dialect: "sqlite",
    sqlite: database,
    commits,
    destroy: async () => {
      await db.destroy();
      await commits.close();
    },
  };
}

export function openPostgres(url: string, options: { searchPath?: string; max?: number } = {}): DatabaseHandle {
  const pg = postgresDriver();
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
  });
  const db = new Kysely<Database>({ dialect: withStorageFullErrors(new PostgresDialect({ pool })) });
  const notifications = postgresNotifications(pg, url, options.searchPath);
  return {
    db,
    dialect: "postgres",
    notifications,
    destroy: async () => {
      await notifications.stopAll();
      await db.destroy();
    },
  };
}

/**
 * LISTEN needs a connection that stays out of the pool: each subscription has
 * one of its own (one per process for the content version). A lost connection
 * is replaced after RELISTEN_MS, and the subscriber told, so that it can read
 * what it may have missed meanwhile.
 */
function postgresNotifications(
  pg: typeof PG,
  url: string,
  searchPath: string | undefined,
): Notifications & { stopAll: () => Promise<void> } {
  const stops = new Set<() => Promise<void>>();
  return {
    listen(channels, handlers, options = {}) {
      for (const channel of channels) {
        if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
      }
      let client: PG.Client | null = null;
      let stopped = false;
      let retry: NodeJS.Timeout | null = null;
      const again = (lost: PG.Client) => {
        if (stopped || client !== lost) return;
        client = null;
        lost.end().catch(() => {});
        retry = setTimeout(connect, RELISTEN_MS);
        retry.unref();
      };
      const connect = () => {
        const connection = new pg.Client({
          connectionString: url,
          options: searchPath ? `-c search_path=${searchPath}` : undefined,
          application_name: options.applicationName,
        });
        client = connection;
        connection.on("notification", (message) => {
          if (channels.includes(message.channel) && message.payload !== undefined) {
            handlers.onMessage(message.channel, message.payload);
          }
        });
        connection.on("error", (error) => {
          handlers.onError?.(error);
          again(connection);
        });
        connection.on("end", () => again(connection));
        connection
          .connect()
          .then(() => connection.query(channels.map((channel) => `listen ${channel};`).join(" ")))
          .then(() => {
            if (!stopped && client === connection) handlers.onListening?.();
          })
          .catch((error) => {
            if (stopped) return;
            handlers.onError?.(error);
            again(connection);
          });
      };
      const stop = async () => {
        stopped = true;
        stops.delete(stop);
        if (retry) clearTimeout(retry);
        const open = client;
        client = null;
        await open?.end().catch(() => {});
      };
      stops.add(stop);
      connect();
      return stop;
    },
    stopAll: async () => {
      await Promise.all([...stops].map((stop) => stop()));
    },
  };
}

export function openDatabase(config: Pick<Config, "database">): DatabaseHandle {
  return config.database.dialect === "postgres" ? openPostgres(config.database.url) : openSqlite(config.database.file);
}

/** A cheap round trip for /readyz. */
export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * A real, cheap write for /readyz (one row of migration 0005's write_probe):
 * a database that answers reads but cannot write, such as one on a full
 * disk, is not ready.
 */
export async function probeWrite(db: Kysely<Database>, now = new Date()): Promise<void> {
  await sql`update write_probe set written_at = ${now.toISOString()} where id = 1`.execute(db);
}

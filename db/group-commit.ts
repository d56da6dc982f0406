import fs from "node:fs";
import type SQLite from "better-sqlite3";
import { type CompiledQuery, type DatabaseConnection, type Driver, type RawBuilder, sql } from "kysely";

const NOT_WAITED_FOR = "/* not waited for */";

/**
 * Appended to a write (`.modifyEnd(notWaitedFor)`) whose loss on a power cut harms nobody, so that
 * its caller need not wait for the disk: a rate limit's counter, the stamp of the pages cached in
 * memory (gone with the power too). The next commit that is waited for flushes it with the rest.
 * A plain SQL comment: PostgreSQL ignores it, as it ignores the whole matter.
 */
export const notWaitedFor: RawBuilder<unknown> = sql.raw(NOT_WAITED_FOR);

/**
 * Group commit for SQLite (decision 0061). The connection commits with `synchronous = NORMAL`, which
 * writes each commit into the WAL file without waiting for the disk; this driver then makes every
 * commit durable before its caller goes on: once the connection is released, it waits until the
 * WAL file has been flushed (fdatasync, on libuv's thread pool) by a flush that began after that
 * commit. Commits made while one flush runs share the next one.
 *
 * What a person is told is saved is on disk before the answer leaves, as with `synchronous = FULL`
 * (decision 0036), but the event loop no longer stands still for each flush: with FULL, every
 * commit waited for the disk inside better-sqlite3's synchronous call, and every other request
 * with it. A commit nobody was answered for yet (the process stopped first) may be lost on a power
 * cut, as with PostgreSQL; the database stays consistent either way (SQLite's own guarantee in
 * WAL mode with NORMAL).
 */
export type GroupCommit = {
  /** Counts a commit that wrote; answers its number. */
  committed(): number;
  /** Resolves once every commit up to `commit` is on disk; rejects when the flush fails. */
  durable(commit: number): Promise<void>;
  /** How many flushes of the WAL file have completed (tests). */
  flushes(): number;
  /** Closes the WAL file (the database is closing). */
  close(): Promise<void>;
};

export function groupCommit(walFile: string): GroupCommit {
  let last = 0;
  let onDisk = 0;
  let flushes = 0;
  let flushing: Promise<void> | null = null;
  // Kept open: SQLite removes the WAL file only when the last connection to the database closes,
  // and this one is open while commits are made through it.
  let wal: Promise<fs.promises.FileHandle | null> | null = null;
  const openWal = () =>
    fs.promises.open(walFile, "r").catch((error: NodeJS.ErrnoException) => {
      // No WAL file: nothing was written into one yet. Look again at the next flush.
      wal = null;
      if (error.code === "ENOENT") return null;
      throw error;
    });
  const flush = async () => {
    // Only commits counted before the flush began are covered by it: their frames were in the file.
    const through = last;
    wal ??= openWal();
    const file = await wal;
    if (file) {
      await file.datasync();
      flushes += 1;
    }
    onDisk = Math.max(onDisk, through);
  };
  return {
    committed: () => {
      last += 1;
      return last;
    },
    async durable(commit) {
      while (onDisk < commit) {
        flushing ??= flush().finally(() => {
          flushing = null;
        });
        await flushing;
      }
    },
    flushes: () => flushes,
    async close() {
      const file = await wal?.catch(() => null);
      wal = null;
      await file?.close();
    },
  };
}

/**
 * The SQLite driver with group commit: it notes each commit that wrote (a writing statement outside
 * a transaction, or a transaction that changed rows), and waits for it to be on disk after the
 * connection is released, so that the next query (another request's) runs meanwhile.
 */
export function committingDurably(
  driver: Driver,
  sqlite: SQLite.Database,
  commits: GroupCommit,
  writes: (sql: string) => boolean,
): Driver {
  const totalChanges = sqlite.prepare("select total_changes()").pluck();
  /** The last commit made through the connection while it was held; the connection is held by one caller at a time. */
  let pending = 0;
  let changesAtBegin = 0;
  const note = () => {
    pending = commits.committed();
  };
  const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const originals = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const unwrap = (connection: DatabaseConnection) => originals.get(connection) ?? connection;
  const wrapper: Driver = {
    init: () => driver.init(),
    async acquireConnection() {
      const connection = await driver.acquireConnection();
      const known = wrapped.get(connection);
      if (known) return known;
      const found: DatabaseConnection = {
        async executeQuery<R>(query: CompiledQuery) {
          const result = await connection.executeQuery<R>(query);
          // Outside a transaction a writing statement is its own commit.
          if (!sqlite.inTransaction && writes(query.sql) && !query.sql.endsWith(NOT_WAITED_FOR)) note();
          return result;
        },
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      };
      wrapped.set(connection, found);
      originals.set(found, connection);
      return found;
    },
    async beginTransaction(connection, settings) {
      await driver.beginTransaction(unwrap(connection), settings);
      changesAtBegin = Number(totalChanges.get());
    },
    async commitTransaction(connection) {
      const changed = Number(totalChanges.get()) !== changesAtBegin;
      await driver.commitTransaction(unwrap(connection));
      if (changed) note();
    },
    rollbackTransaction: (connection) => driver.rollbackTransaction(unwrap(connection)),
    async releaseConnection(connection) {
      const commit = pending;
      pending = 0;
      await driver.releaseConnection(unwrap(connection));
      if (commit) await commits.durable(commit);
    },
    destroy: () => driver.destroy(),
  };
  const { savepoint, rollbackToSavepoint, releaseSavepoint } = driver;
  if (savepoint) wrapper.savepoint = (c, name, compile) => savepoint.call(driver, unwrap(c), name, compile);
  if (rollbackToSavepoint) {
    wrapper.rollbackToSavepoint = (c, name, compile) => rollbackToSavepoint.call(driver, unwrap(c), name, compile);
  }
  if (releaseSavepoint) {
    wrapper.releaseSavepoint = (c, name, compile) => releaseSavepoint.call(driver, unwrap(c), name, compile);
  }
  return wrapper;
}

import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { BackupError } from "./files";

export type Snapshot = { migrations: string[]; tables: Record<string, number> };

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Writes a consistent copy of a live SQLite database to `target` with VACUUM INTO.
 * It reads one snapshot in one read transaction, so writers go on (WAL) and the
 * copy never mixes two states; copying the file itself could miss pages still
 * in the -wal file, and the online backup API restarts whenever another process
 * writes, so on a busy site it might never finish.
 */
export function snapshotSqlite(source: string, target: string): Snapshot {
  if (!fs.existsSync(source)) throw new BackupError(`There is no database at ${source}.`);
  const db = new SQLite(source, { fileMustExist: true, readonly: true });
  try {
    db.pragma("busy_timeout = 10000");
    db.prepare("vacuum into ?").run(target);
  } finally {
    db.close();
  }
  return checkSqlite(target);
}

/** integrity_check and the full-text indexes' own check, then what the file holds. */
export function checkSqlite(file: string): Snapshot {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    const integrity = db.pragma("integrity_check", { simple: false }) as { integrity_check: string }[];
    const problems = integrity.map((row) => row.integrity_check).filter((line) => line !== "ok");
    if (problems.length) throw new BackupError(`${file} fails integrity_check: ${problems.slice(0, 5).join("; ")}`);
    const tables = db.prepare("select name, type from pragma_table_list where schema = 'main' order by name").all() as {
      name: string;
      type: string;
    }[];
    const virtual = db.prepare("select sql from sqlite_schema where name = ?").pluck();
    for (const { name } of tables.filter((t) => t.type === "virtual")) {
      if (/using\s+fts5/i.test(String(virtual.get(name)))) {
        try {
          db.prepare(`insert into ${quote(name)}(${quote(name)}) values ('integrity-check')`).run();
        } catch (error) {
          throw new BackupError(`${file}: the full-text index ${name} fails its check: ${(error as Error).message}`);
        }
      }
    }
    const counts: Record<string, number> = {};
    for (const { name } of tables.filter((t) => t.type === "table" && !t.name.startsWith("sqlite_"))) {
      counts[name] = db
        .prepare(`select count(*) from ${quote(name)}`)
        .pluck()
        .get() as number;
    }
    const migrations = counts.kysely_migration
      ? (db.prepare("select name from kysely_migration order by name").pluck().all() as string[])
      : [];
    return { migrations, tables: counts };
  } finally {
    db.close();
  }
}

/** Files SQLite keeps beside a database; any of them means a database is there. */
export function sqliteFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

/**
 * Puts a backed-up database file in place: checked under a temporary name
 * beside the target, then linked to the target name, which fails rather than
 * replace a database created meanwhile.
 */
export function restoreSqlite(backupFile: string, target: string): Snapshot {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const staging = `${target}.restoring-${process.pid}`;
  fs.copyFileSync(backupFile, staging);
  try {
    const snapshot = checkSqlite(staging);
    fs.linkSync(staging, target);
    return snapshot;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new BackupError(`A database appeared at ${target} during the restore; nothing was replaced.`);
    }
    throw error;
  } finally {
    fs.rmSync(staging, { force: true });
  }
}

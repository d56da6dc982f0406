import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { BackupError } from "./files";
import type { Snapshot } from "./sqlite";

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * libpq takes the password from PGPASSWORD rather than the command line, where
 * any local user could read it in the process list.
 */
function clientArgs(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a PostgreSQL client tool; its error output becomes the message when it fails. */
function run(tool: string, args: string[], url?: string): Promise<string> {
  const { dbname, env } = url ? clientArgs(url) : { dbname: null, env: process.env };
  return new Promise((resolve, reject) => {
    const child = spawn(tool, dbname ? [...args, `--dbname=${dbname}`] : args, {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", (error) => {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      reject(
        new BackupError(
          missing
            ? `${tool} was not found on PATH: install the PostgreSQL client tools (the server's major version or newer).`
            : `${tool} could not start: ${error.message}`,
        ),
      );
    });
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new BackupError(`${tool} failed (exit ${code}): ${err.trim() || "no message"}`));
    });
  });
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`PostgreSQL does not answer at DATABASE_URL: ${(error as Error).message}`);
  }
  return client;
}

async function inspect(client: pg.Client, schema: string): Promise<Snapshot> {
  const { rows } = await client.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE' order by 1",
    [schema],
  );
  const tables: Record<string, number> = {};
  for (const { name } of rows) {
    const result = await client.query<{ n: number }>(`select count(*)::int as n from ${quote(schema)}.${quote(name)}`);
    tables[name] = result.rows[0].n;
  }
  const migrations =
    "kysely_migration" in tables
      ? (
          await client.query<{ name: string }>(`select name from ${quote(schema)}.kysely_migration order by name`)
        ).rows.map((row) => row.name)
      : [];
  return { migrations, tables };
}

/**
 * Dumps the schema the site uses (the first of DATABASE_URL's search_path) with
 * pg_dump --format=custom. The row counts and pg_dump read one snapshot: this
 * transaction exports it and stays open until pg_dump has finished with it.
 */
export async function snapshotPostgres(url: string, target: string): Promise<Snapshot & { schema: string }> {
  const client = await connect(url);
  try {
    await client.query("begin transaction isolation level repeatable read read only");
    const { rows } = await client.query<{ id: string; schema: string | null }>(
      "select pg_export_snapshot() as id, current_schema() as schema",
    );
    const { id, schema } = rows[0];
    if (!schema)
      throw new BackupError("DATABASE_URL's search_path names no existing schema: there is nothing to back up.");
    const snapshot = await inspect(client, schema);
    if (Object.keys(snapshot.tables).length === 0) throw new BackupError(`Schema ${schema} holds no tables.`);
    await run("pg_dump", ["--format=custom", `--schema=${quote(schema)}`, `--snapshot=${id}`, `--file=${target}`], url);
    await client.query("commit");
    return { ...snapshot, schema };
  } finally {
    await client.end();
  }
}

/**
 * Refuses unless the schema a dump restores into holds no tables, sequences or
 * functions in the database DATABASE_URL names, and is the one the site will use there.
 */
export async function checkPostgresTarget(url: string, schema: string): Promise<void> {
  const client = await connect(url);
  try {
    const { rows } = await client.query<{ current: string | null; search_path: string; user: string }>(
      "select current_schema() as current, current_setting('search_path') as search_path, current_user as user",
    );
    const { current, search_path, user } = rows[0];
    const searchPath = search_path.split(",").map((entry) =>
      entry
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .replace("$user", user),
    );
    if (current ? current !== schema : !searchPath.includes(schema)) {
      throw new BackupError(
        `The backup holds schema ${schema} but DATABASE_URL's search_path (${search_path}) would make the site use ${current ?? "another schema"}. Restore into a database whose search_path starts with ${schema}.`,
      );
    }
    const existing = await client.query<{ n: number }>(
      `select (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
                 where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f'))
            + (select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1) as n`,
      [schema],
    );
    const { n } = existing.rows[0];
    if (n > 0) {
      throw new BackupError(
        `Schema ${schema} in the target database is not empty (${n} tables, sequences or functions). Restore only into an empty database.`,
      );
    }
  } finally {
    await client.end();
  }
}

/** Restores a dump into the schema it was taken from, in one transaction, after checkPostgresTarget. */
export async function restorePostgres(url: string, dump: string, schema: string): Promise<Snapshot> {
  const client = await connect(url);
  try {
    const { rows } = await client.query<{ present: boolean }>(
      "select exists (select 1 from pg_namespace where nspname = $1) as present",
      [schema],
    );
    const { present } = rows[0];
    const work = await fs.mkdtemp(path.join(os.tmpdir(), "masthead-restore-"));
    try {
      const args = ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"];
      if (present) {
        // The schema exists already (public always does): leave out the dump's CREATE SCHEMA and its comment.
        const toc = await run("pg_restore", ["--list", dump]);
        const own = ([, kind, name]: string[]) =>
          (kind === "SCHEMA" && name === schema) || (kind === "COMMENT" && name === `SCHEMA ${schema}`);
        const entries = toc.split("\n").filter((line) => {
          const match = /^\d+; \d+ \d+ (\S+) - (.*) \S+$/.exec(line);
          return !(match && own(match));
        });
        await fs.writeFile(path.join(work, "toc.list"), entries.join("\n"));
        args.push(`--use-list=${path.join(work, "toc.list")}`);
      }
      await run("pg_restore", [...args, dump], url);
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
    return await inspect(client, schema);
  } finally {
    await client.end();
  }
}

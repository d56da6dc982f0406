import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createDatabase, startCluster } from "./cluster/start";
import { REFERENCE_CONFIG_FILE, referenceConfig } from "./nginx";

/**
 * `npm run cluster`: app processes (two by default) on PostgreSQL behind nginx
 * on 127.0.0.1, until Ctrl-C (decision 0031). The database is DATABASE_URL,
 * else `masthead_cluster` on the PostgreSQL at 127.0.0.1:5432 (created when
 * missing). Other variables (ADMIN_EMAIL, SMTP_URL, PAGE_CACHE_S_MAXAGE…) go
 * to every process as they are.
 *
 *   npm run cluster -- [--processes N] [--port P] [--data-dir DIR] [--no-build]
 *   npm run cluster -- --write-reference    writes docs/deploy/nginx-masthead.conf and exits
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** What the cluster sets for each process itself. */
const CLUSTER_OWNED = new Set(["PORT", "HOST", "BASE_URL", "TRUST_PROXY", "DATA_DIR", "DATABASE_URL"]);

const { values } = parseArgs({
  options: {
    processes: { type: "string", default: "2" },
    port: { type: "string", default: "8080" },
    "data-dir": { type: "string", default: path.join(ROOT, "tmp", "cluster-data") },
    "no-build": { type: "boolean", default: false },
    "write-reference": { type: "boolean", default: false },
  },
});

if (values["write-reference"]) {
  const file = path.join(ROOT, REFERENCE_CONFIG_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, referenceConfig());
  console.log(`Written ${REFERENCE_CONFIG_FILE}.`);
  process.exit(0);
}

const processes = Number(values.processes);
const port = Number(values.port);
if (!Number.isInteger(processes) || processes < 1) throw new Error("--processes must be a whole number of at least 1");
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error("--port must be a TCP port");

if (!values["no-build"]) {
  console.log("Building the production bundle…");
  if (spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" }).status !== 0) process.exit(1);
}

const databaseUrl =
  process.env.DATABASE_URL || (await createDatabase("postgres://postgres@127.0.0.1:5432/postgres", "masthead_cluster"));
if (!/^postgres(ql)?:\/\//.test(databaseUrl))
  throw new Error("DATABASE_URL must be a postgres:// URL: a cluster shares PostgreSQL");
const env: Record<string, string> = {};
for (const [name, value] of Object.entries(process.env)) {
  if (value !== undefined && !CLUSTER_OWNED.has(name) && !name.startsWith("npm_")) env[name] = value;
}

const cluster = await startCluster({
  databaseUrl,
  processes,
  port,
  dataDir: values["data-dir"],
  env: { LOG_LEVEL: "info", ...env },
});
console.log(
  `\nThe site: ${cluster.origin} (${processes} process(es) on ${databaseUrl.replace(/\/\/[^@]*@/, "//")}, ` +
    `files in ${cluster.dataDir}). Ctrl-C stops it.`,
);
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping nginx and the processes…");
    void cluster.stop().then(() => process.exit(0));
  });
}

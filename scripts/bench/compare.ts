import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * `--compare <rev>`: that commit checked out and built in tmp/bench-before, so the
 * bench can run its server beside the current one.
 *
 * A git worktree (detached): a checkout of its own with a .git file, so tools that
 * honour .gitignore (Tailwind's class scan) do not take its files for the ignored
 * tmp/ of this checkout. node_modules is a symlink to this checkout's when the two
 * package-lock.json files are identical, else `npm ci` installs its own. The worktree
 * is removed when the bench ends: left in tmp/, its TypeScript would be part of
 * `npm run typecheck` (tsconfig includes every folder).
 */
export type BeforeCheckout = {
  dir: string;
  /** Full and short commit ids, and the commit's subject line. */
  commit: string;
  short: string;
  subject: string;
  /** Whether node_modules is this checkout's (same package-lock.json). */
  sharedNodeModules: boolean;
};

function git(root: string, args: string[]): { ok: boolean; out: string; err: string } {
  const answer = spawnSync("git", ["-C", root, ...args], { encoding: "utf8" });
  return { ok: answer.status === 0, out: answer.stdout.trim(), err: answer.stderr.trim() };
}

export function beforeDir(root: string): string {
  return path.join(root, "tmp", "bench-before");
}

/** Removes tmp/bench-before and its worktree registration, if there is one. */
export function removeBefore(root: string): void {
  const dir = beforeDir(root);
  const modules = path.join(dir, "node_modules");
  // The shared node_modules is a symlink: remove the link, never what it points to.
  if (fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(modules);
  if (fs.existsSync(dir)) {
    git(root, ["worktree", "remove", "--force", dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // A registration left without its folder (say, the folder was deleted by hand): prune, which
  // forgets every worktree whose folder is gone, only then, so others' entries are left alone.
  const registered = git(root, ["worktree", "list", "--porcelain"]).out.split("\n").includes(`worktree ${dir}`);
  if (registered) git(root, ["worktree", "prune"]);
}

export function prepareBefore(root: string, rev: string, log: (message: string) => void): BeforeCheckout {
  const resolved = git(root, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
  if (!resolved.ok || !/^[0-9a-f]{40}$/.test(resolved.out)) throw new Error(`--compare ${rev}: no such commit`);
  const commit = resolved.out;
  const short = git(root, ["rev-parse", "--short", commit]).out;
  const subject = git(root, ["log", "-1", "--format=%s", commit]).out;
  const dir = beforeDir(root);

  removeBefore(root);
  log(`Checking out ${short} in ${path.relative(root, dir)}…`);
  const added = git(root, ["worktree", "add", "--detach", dir, commit]);
  if (!added.ok) throw new Error(`git worktree add failed: ${added.err}`);

  const lock = (folder: string) => fs.readFileSync(path.join(folder, "package-lock.json"), "utf8");
  const sharedNodeModules = fs.existsSync(path.join(dir, "package-lock.json")) && lock(dir) === lock(root);
  if (sharedNodeModules) {
    fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  } else {
    log(`${short}'s package-lock.json differs from this checkout's: npm ci in ${path.relative(root, dir)}…`);
    const install = spawnSync("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: dir,
      stdio: "inherit",
    });
    if (install.status !== 0) throw new Error(`npm ci failed in ${dir}`);
  }

  log(`Building ${short}…`);
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: dir, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`npm run build failed in ${dir}`);
  return { dir, commit, short, subject, sharedNodeModules };
}

function migrationNames(root: string): string[] {
  const folder = path.join(root, "db", "migrations");
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => /^\d{4}_.+\.ts$/.test(name))
    .map((name) => name.replace(/\.ts$/, ""));
}

/**
 * The data for the earlier server: a copy of `dataDir` (seeded by this checkout, no
 * server started on it yet) when the earlier commit knows every migration it holds;
 * else its own bench data, seeded by its own scripts/bench/seed.ts (an older server
 * refuses a database migrated past its code). Returns how the data was made.
 */
export function prepareBeforeData(root: string, before: BeforeCheckout, dataDir: string, target: string): string {
  fs.rmSync(target, { recursive: true, force: true });
  const missing = migrationNames(root).filter((name) => !migrationNames(before.dir).includes(name));
  if (missing.length === 0) {
    fs.cpSync(dataDir, target, { recursive: true });
    return "an identical copy of the same seeded data";
  }
  const seed = path.join(before.dir, "scripts", "bench", "seed.ts");
  if (!fs.existsSync(seed)) {
    throw new Error(
      `${before.short} lacks migrations ${missing.join(", ")} and has no scripts/bench/seed.ts to seed its own data`,
    );
  }
  const runner = path.join(before.dir, "tmp", "bench-seed-before.ts");
  fs.mkdirSync(path.dirname(runner), { recursive: true });
  fs.writeFileSync(
    runner,
    `import { prepareBenchData } from "../scripts/bench/seed";\nawait prepareBenchData(${JSON.stringify(target)});\n`,
  );
  console.log(`${before.short} lacks migrations ${missing.join(", ")}: seeding its data with its own bench seed…`);
  const seeded = spawnSync(path.join(before.dir, "node_modules", ".bin", "tsx"), [runner], {
    cwd: before.dir,
    stdio: "inherit",
  });
  if (seeded.status !== 0) throw new Error(`seeding the data of ${before.short} failed`);
  return `seeded by ${before.short}'s own bench seed (it lacks migrations ${missing.join(", ")})`;
}

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createServices } from "../core/services";
import { openDatabase } from "../db/connect";
import { migrateToLatest } from "../db/migrate";
import { loadConfig } from "../lib/env";
import { localStorage } from "../lib/storage";
import { readStartCommand } from "./bench/start-command";
import { seedDemoContent } from "./seed/index";
import { DEMO_EDITOR, DEMO_MEMBER, REPRESENTATIVES } from "./seed/members";

/**
 * `npm run demo`: build, prepare ./data (migrations, demo content on first run,
 * a demo admin), then start the production server and say how to sign in.
 */
const DEMO_ADMIN = { email: "admin@masthead.example", password: "masthead-demo-admin" };

const env = { ...process.env };
env.DATA_DIR ??= "./data";
env.PORT ??= "3000";
const config = loadConfig(env);

console.log("Building the production bundle…");
const build = spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

fs.mkdirSync(config.uploadsDir, { recursive: true });
const database = openDatabase(config);
await migrateToLatest(database.db);
const { seeded } = await seedDemoContent(database.db, { uploadsDir: config.uploadsDir, privateDir: config.privateDir });
console.log(seeded ? "Demo content loaded." : "Existing content kept (demo content loads on first run only).");
const services = createServices({
  origin: config.baseUrl.origin,
  db: database.db,
  dialect: database.dialect,
  sqlite: database.sqlite,
  storage: localStorage(config.uploadsDir),
  privateStorage: localStorage(config.privateDir),
  sessionTtlSeconds: config.sessionTtlSeconds,
});
const admin = config.admin ?? DEMO_ADMIN;
const outcome = await services.accounts.ensureAdmin(admin);
if (seeded) {
  // This week's digest, as the Monday job sends it: queued now, in the outbox once the server starts.
  const digest = await services.notices.sendDigest("weekly");
  if (digest.mails > 0) console.log(`A weekly digest is queued for the demo member (${DEMO_MEMBER.email}).`);
}
await database.destroy();

const line = "─".repeat(60);
console.log(`\n${line}\n  Masthead is starting on ${config.baseUrl.href}`);
console.log(`  Admin e-mail:    ${admin.email}`);
console.log(
  `  Admin password:  ${admin.password}${outcome === "exists" ? "  (unless you have changed it since)" : ""}`,
);
console.log(
  `  Demo member:     ${DEMO_MEMBER.email} / ${DEMO_MEMBER.password} (primary contact of ${REPRESENTATIVES[0].company}; demo content only)`,
);
console.log(
  `  Demo editor:     ${DEMO_EDITOR.email} / ${DEMO_EDITOR.password} (news, pages, meetings, library; demo content only)`,
);
console.log(`  Sign in at ${new URL("/login", config.baseUrl).href}\n${line}\n`);

// Started as `npm start` starts it (its memory settings included, README "For a public site" item 6).
const start = readStartCommand(process.cwd());
const server = spawn(process.execPath, start.args, { stdio: "inherit", env: { ...env, ...start.env } });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));

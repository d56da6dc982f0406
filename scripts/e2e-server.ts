import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createServices } from "../core/services";
import { openDatabase } from "../db/connect";
import { migrateToLatest } from "../db/migrate";
import { loadConfig } from "../lib/env";
import { localStorage } from "../lib/storage";
import { seedDemoContent } from "./seed/index";

/**
 * The server the end-to-end tests run against: a fresh data directory (one
 * per port) with the demo content and known accounts, then the production build.
 */
const dataDir = path.resolve(`tmp/e2e-data-${process.env.PORT ?? "3210"}`);
fs.rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "production";
const config = loadConfig();
/**
 * With --empty the server starts on a fresh install as an operator makes it:
 * no demo content, no accounts (the built server migrates on start).
 */
if (!process.argv.includes("--empty")) {
  const database = openDatabase(config);
  await migrateToLatest(database.db);
  await seedDemoContent(database.db, { uploadsDir: config.uploadsDir, privateDir: config.privateDir });
  const services = createServices({
    origin: config.baseUrl.origin,
    db: database.db,
    dialect: database.dialect,
    sqlite: database.sqlite,
    storage: localStorage(config.uploadsDir),
    privateStorage: localStorage(config.privateDir),
    sessionTtlSeconds: config.sessionTtlSeconds,
  });
  await services.accounts.createUser({
    email: "e2e-admin@masthead.example",
    password: "e2e-admin-password",
    role: "admin",
    first_name: "Erika",
    last_name: "Admin",
  });
  await services.accounts.createUser({
    email: "e2e-editor@masthead.example",
    password: "e2e-editor-password",
    role: "editor",
    first_name: "Edda",
    last_name: "Editor",
  });
  await services.accounts.createUser({
    email: "e2e-member@masthead.example",
    password: "e2e-member-password",
    role: "member",
    first_name: "Marten",
    last_name: "Member",
  });
  await services.accounts.createUser({
    email: "e2e-settings@masthead.example",
    password: "e2e-settings-password",
    role: "member",
    first_name: "Sven",
    last_name: "Settings",
  });
  await services.accounts.createUser({
    email: "e2e-reset@masthead.example",
    password: "e2e-reset-password",
    role: "member",
    first_name: "Rita",
    last_name: "Reset",
  });
  await services.accounts.createUser({
    email: "e2e-users@masthead.example",
    password: "e2e-users-password",
    role: "member",
    first_name: "Ulla",
    last_name: "Userscreen",
  });
  // A working group's chair, a member of it and a member outside it (tests/e2e/groups.spec.ts, issue 36).
  for (const [who, first_name, last_name] of [
    ["chair", "Chidi", "Chair"],
    ["group", "Greta", "Groupmember"],
    ["outsider", "Otto", "Outsider"],
  ] as const) {
    await services.accounts.createUser({
      email: `e2e-${who}@masthead.example`,
      password: `e2e-${who}-password`,
      role: "member",
      first_name,
      last_name,
    });
  }
  // Downloads her data and deletes her account (tests/e2e/personal-data.spec.ts): nobody else signs in as her.
  await services.accounts.createUser({
    email: "e2e-leaver@masthead.example",
    password: "e2e-leaver-password",
    role: "member",
    first_name: "Lea",
    last_name: "Leaver",
  });
  await database.destroy();
}

// The bundle starts the server when imported; React picks its production build from NODE_ENV set above.
await import(pathToFileURL(path.resolve("build/server.js")).href);

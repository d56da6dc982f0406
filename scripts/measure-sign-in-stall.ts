/**
 * How long twenty concurrent sign-ins stall the server's event loop (issue 30 §5, decision 0035).
 *
 *   npm run build && npx tsx scripts/measure-sign-in-stall.ts [--rounds 5] [--concurrency 20] [--idle] [--entry build/other.js]
 *
 * Starts the production build as `npm start` does (tests/process/server.ts) with a preloaded module
 * that runs `perf_hooks.monitorEventLoopDelay` inside the server process, signs twenty different
 * accounts in at once through POST /api/login, and prints the event loop's delay during each round
 * (max and p99, in ms). A measurement, not a test: its figures depend on the machine and its load.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServices } from "../core/services";
import { openDatabase } from "../db/connect";
import { migrateToLatest } from "../db/migrate";
import { loadConfig } from "../lib/env";
import { createStorages } from "../lib/storages";
import { startServer } from "../tests/process/server";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    concurrency: { type: "string", default: "20" },
    // The same rounds with no sign-in (a second of nothing): the machine's own noise, to compare with.
    idle: { type: "boolean", default: false },
    // Another bundle of the server (say, one built from the code before a change), to compare with.
    entry: { type: "string" },
  },
});
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const PASSWORD = "measure the event loop";

// Runs inside the server: SIGUSR2 starts a measurement, the next one prints it to stderr and stops it.
const MONITOR = `
import { monitorEventLoopDelay } from "node:perf_hooks";
const histogram = monitorEventLoopDelay({ resolution: 1 });
let on = false;
process.on("SIGUSR2", () => {
  if (!on) { histogram.reset(); histogram.enable(); on = true; return; }
  histogram.disable(); on = false;
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  process.stderr.write("LOOP_DELAY " + JSON.stringify({ max: ms(histogram.max), p99: ms(histogram.percentile(99)), p50: ms(histogram.percentile(50)) }) + "\\n");
});
`;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-stall-"));
  const monitor = path.join(dataDir, "monitor.mjs");
  fs.writeFileSync(monitor, MONITOR);

  // The accounts, written to the server's database before it starts.
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: "production" });
  const database = openDatabase(config);
  await migrateToLatest(database.db);
  const storages = createStorages(config);
  const services = createServices({
    origin: config.baseUrl.origin,
    db: database.db,
    dialect: database.dialect,
    sqlite: database.sqlite,
    storage: storages.uploads,
    privateStorage: storages.private,
    sessionTtlSeconds: config.sessionTtlSeconds,
  });
  const emails = Array.from({ length: CONCURRENCY }, (_, i) => `stall-${i}@example.org`);
  for (const email of emails) {
    await services.accounts.createUser({ email, role: "member", first_name: "S", last_name: "L", password: PASSWORD });
  }
  await database.destroy();

  const server = await startServer({
    entry: values.entry ? path.resolve(values.entry) : undefined,
    dataDir,
    env: { NODE_OPTIONS: `--import=${monitor}`, LOG_LEVEL: "warn", TRUST_PROXY: "true" },
  });
  let address = 0;
  const signIn = async (email: string) => {
    address += 1;
    const response = await fetch(`${server.url}/api/login`, {
      method: "POST",
      // Each attempt from its own address, so that the per-address limit never refuses one.
      headers: { "content-type": "application/json", "x-forwarded-for": `198.51.${address >> 8}.${address & 255}` },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    await response.arrayBuffer();
    return response.status;
  };
  const results: { max: number; p99: number; p50: number; ms: number }[] = [];
  try {
    await signIn(emails[0]); // warm-up: the first hash, the compiled queries
    for (let round = 0; round < ROUNDS; round += 1) {
      const before = server.stderr.length;
      server.child.kill("SIGUSR2");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = performance.now();
      const statuses = values.idle
        ? await new Promise<number[]>((resolve) => setTimeout(() => resolve([200]), 1000))
        : await Promise.all(emails.map(signIn));
      const elapsed = performance.now() - started;
      server.child.kill("SIGUSR2");
      let line: string | undefined;
      for (let i = 0; i < 50 && !line; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        line = server.stderr.slice(before).find((l) => l.startsWith("LOOP_DELAY "));
      }
      if (!line) throw new Error(`no measurement from the server: ${server.stderr.join("\n")}`);
      if (statuses.some((status) => status !== 200)) throw new Error(`sign-ins answered ${statuses.join(",")}`);
      const figures = { ...JSON.parse(line.slice("LOOP_DELAY ".length)), ms: Math.round(elapsed) };
      results.push(figures);
      console.log(
        `round ${round + 1}: ${CONCURRENCY} sign-ins in ${figures.ms} ms; event loop delay max ${figures.max} ms, p99 ${figures.p99} ms, p50 ${figures.p50} ms`,
      );
    }
  } finally {
    await server.stop();
    server.cleanup();
  }
  const worst = Math.max(...results.map((r) => r.max));
  const worstP99 = Math.max(...results.map((r) => r.p99));
  console.log(`worst of ${ROUNDS} rounds: max ${worst} ms, p99 ${worstP99} ms (${os.availableParallelism()} cores)`);
}

await main();

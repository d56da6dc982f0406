import fs from "node:fs";
import type { Kysely } from "kysely";
import { openDatabase } from "../../db/connect";
import { migrateToLatest } from "../../db/migrate";
import type { Database } from "../../db/types";
import { loadConfig } from "../../lib/env";
import { excerptOf } from "../../lib/html";
import { seedDemoContent } from "../seed/index";

export type DataContext = { db: Kysely<Database>; uploadsDir: string };

/** A step that adds data on top of the demo content. */
export type DataStep = { name: string; run: (context: DataContext) => Promise<void> };

/**
 * Volume for targets that need more than the demo content, e.g. 10 000 news
 * posts for /news. Runs in order after the demo content, before the server
 * starts; every target is measured on the resulting database.
 */
export const EXTRA_DATA: DataStep[] = [
  {
    name: "10 000 news posts",
    run: async ({ db }) => {
      const start = Date.UTC(2018, 0, 1);
      const span = Date.UTC(2026, 0, 1) - start;
      for (let batch = 0; batch < 100; batch++) {
        const rows = Array.from({ length: 100 }, (_, i) => {
          const n = batch * 100 + i;
          const at = new Date(start + Math.floor((span * n) / 10_000)).toISOString();
          const content = `<p>Archive post ${n} about radar, ECDIS and GMDSS service.</p><p>${"Lorem ipsum dolor sit amet. ".repeat(20)}</p>`;
          return {
            slug: `bench-post-${n}`,
            title: `Bench post ${n}: navigation equipment update`,
            content,
            excerpt: excerptOf(content),
            author_name: "Bench",
            published_at: at,
            created_at: at,
            updated_at: at,
          };
        });
        await db.insertInto("news_posts").values(rows).execute();
      }
    },
  },
];

/** A fresh data directory: migrations, the demo content, then EXTRA_DATA. */
export async function prepareBenchData(dataDir: string, steps: DataStep[] = EXTRA_DATA): Promise<void> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  // Only DATA_DIR: a DATABASE_URL in the environment must not send the bench elsewhere.
  const config = loadConfig({ DATA_DIR: dataDir });
  fs.mkdirSync(config.uploadsDir, { recursive: true });
  const database = openDatabase(config);
  try {
    await timed("migrations", () => migrateToLatest(database.db));
    await timed("demo content", async () => {
      const { seeded } = await seedDemoContent(database.db, { uploadsDir: config.uploadsDir });
      if (!seeded) throw new Error("the demo content was not loaded into the fresh database");
    });
    for (const step of steps) {
      await timed(step.name, () => step.run({ db: database.db, uploadsDir: config.uploadsDir }));
    }
  } finally {
    await database.destroy();
  }
}

async function timed(label: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await run();
  console.log(`  ${label}: ${Math.round(performance.now() - started)} ms`);
}

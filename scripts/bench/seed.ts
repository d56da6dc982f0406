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
  {
    name: "1 000 meetings with programmes",
    run: async ({ db }) => {
      const types = ["conference", "workshop", "meeting", "webinar"];
      const zones = ["Europe/London", "Europe/Amsterdam", "America/New_York", "Asia/Singapore"];
      const start = Date.UTC(2021, 0, 4);
      const now = new Date().toISOString();
      for (let batch = 0; batch < 10; batch++) {
        const rows = Array.from({ length: 100 }, (_, i) => {
          const n = batch * 100 + i;
          // Every 3.5 days from 2021: about half past, half to come.
          const day = new Date(start + n * 3.5 * 86_400_000).toISOString().slice(0, 10);
          return {
            slug: `bench-meeting-${n}`,
            title: `Bench meeting ${n}: radio and navigation working group`,
            type: types[n % types.length],
            meeting_type: n % 4 === 3 ? "Online" : "In person",
            organization: "Masthead",
            start_date: day,
            end_date: day,
            location: n % 4 === 3 ? "Online" : "Rotterdam, Netherlands",
            content: `<p>Bench meeting ${n} on GMDSS, ECDIS and radar.</p>`,
            timezone: zones[n % zones.length],
            visibility: n % 5 === 0 ? ("members" as const) : ("public" as const),
            created_at: now,
            updated_at: now,
          };
        });
        const inserted = await db.insertInto("meetings").values(rows).returning(["id", "start_date"]).execute();
        await db
          .insertInto("schedules")
          .values(
            inserted.flatMap((m) =>
              ["09:00", "11:00", "14:00"].map((time, k) => ({
                event_id: m.id,
                meeting_date: m.start_date,
                is_evening: 0,
                start: time,
                finish: `${String(Number(time.slice(0, 2)) + 1).padStart(2, "0")}:30`,
                description: `Session ${k + 1}`,
              })),
            ),
          )
          .execute();
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
      const { seeded } = await seedDemoContent(database.db, {
        uploadsDir: config.uploadsDir,
        privateDir: config.privateDir,
      });
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

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
  {
    name: "10 000 papers in a members' category and 10 000 in a public one",
    run: async ({ db }) => {
      const now = new Date().toISOString();
      // Fixed ids, so that the targets can name them (the bench database is SQLite).
      for (const c of BENCH_CATEGORIES) {
        await db
          .insertInto("paper_categories")
          .values({
            id: c.id,
            slug: c.slug,
            name: c.name,
            view_type: c.view_type,
            is_public: c.is_public,
            is_active: 1,
            is_root: 1,
            position: 100 + c.id,
            created_at: now,
            updated_at: now,
          } as never)
          .execute();
        const orgs = ["IEC", "ISO", "ITU", "IMO", "IALA", "IHO", "CIRM", "RTCM"];
        for (let batch = 0; batch < 100; batch++) {
          const rows = Array.from({ length: 100 }, (_, i) => {
            const n = batch * 100 + i;
            const day = new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
            return {
              papers_category_id: c.id,
              name: `Bench paper ${n}: radar and ECDIS performance`,
              number: `TP-${String(n).padStart(5, "0")}`,
              organization: orgs[n % orgs.length],
              reference: `REF/${n}`,
              description: `A bench paper about GMDSS, AIS and radar, number ${n}.`,
              date: n % 50 === 0 ? null : day,
              forecast_date: day,
              created_at: now,
              updated_at: now,
            };
          });
          const inserted = await db
            .insertInto("papers")
            .values(rows)
            .returning(["id", "name", "description"])
            .execute();
          await db
            .insertInto("search_documents")
            .values(
              inserted.map((p) => ({
                kind: "paper",
                ref_id: String(p.id),
                url: `${c.is_public ? "/library" : "/dashboard"}/${c.slug}#paper-${p.id}`,
                title: p.name,
                body: p.description ?? "",
                audience: c.is_public ? ("public" as const) : ("members" as const),
                updated_at: now,
              })),
            )
            .execute();
        }
      }
    },
  },
];

/** The bench's big library categories: one members-only technical papers view, one public standards view. */
export const BENCH_CATEGORIES = [
  { id: 9001, slug: "bench-papers", name: "Bench papers", view_type: "masthead-technical-papers", is_public: 0 },
  { id: 9002, slug: "bench-standards", name: "Bench standards", view_type: "upcoming-standards", is_public: 1 },
] as const;

/**
 * A fresh data directory: migrations, the demo content, then EXTRA_DATA; on
 * the SQLite file in it, or on `databaseUrl` (an empty PostgreSQL database).
 */
export async function prepareBenchData(
  dataDir: string,
  steps: DataStep[] = EXTRA_DATA,
  databaseUrl?: string,
): Promise<void> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  // Only DATA_DIR: a DATABASE_URL in the environment must not send the bench elsewhere.
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
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

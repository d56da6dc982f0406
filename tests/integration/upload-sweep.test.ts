import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referencedFamilies, sweepUploads } from "../../core/media/upload-sweep";
import { openSqlite } from "../../db/connect";
import { migrateToLatest } from "../../db/migrate";
import { localStorage } from "../../lib/storage";
import { createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { filesUnder } from "../support/tmpfs";

/** Issue 11 point 6: files that no row references are swept, after a grace period. */
let t: TestContext;
let uploadsDir: string;
let photo: Buffer;
const HOUR = 60 * 60 * 1000;
const now = new Date();

/** A file under the uploads folder, last modified `ageMs` ago. */
function place(dir: string, key: string, ageMs: number) {
  const file = path.join(dir, key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "x");
  const when = new Date(now.getTime() - ageMs);
  fs.utimesSync(file, when, when);
}
/** Makes every stored file old, so that only references keep them. */
function age(dir: string, ageMs: number) {
  const when = new Date(now.getTime() - ageMs);
  for (const key of filesUnder(dir)) fs.utimesSync(path.join(dir, key), when, when);
}

beforeAll(async () => {
  t = await createTestContext();
  uploadsDir = t.runtime.config.uploadsDir;
  photo = await sharp({ create: { width: 1700, height: 900, channels: 3, background: "#204060" } })
    .jpeg()
    .toBuffer();
});
afterAll(async () => t.close());

describe("sweepUploads", () => {
  it("keeps every referenced file (keys, addresses, rich HTML, variants) and removes only old orphans; dry run removes nothing", async () => {
    const { services } = t.runtime;
    const db = t.database.db;
    // Referenced, through the services: a news image (three variants), an editor image used in a page, an avatar.
    const post = await services.news.create(
      {
        title: "Swept around",
        content: "<p>Body</p>",
        author_name: null,
        image_alt: "A photo",
        image_decorative: false,
      },
      photo,
    );
    const inline = await services.media.storeContentImage(photo);
    await db
      .insertInto("pages")
      .values({
        url: "sweep-test",
        title: "Sweep test",
        content: `<p>Look:</p><img src="${inline.url}" srcset="${inline.srcset}" width="${inline.width}">`,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    const { user } = await signIn(services, "member");
    const avatar = await services.profile.setAvatar(user.id, photo);
    // Referenced by plain keys in other tables.
    place(uploadsDir, "members/0a1b2c-harbour-line.png", 0);
    await db
      .insertInto("member_companies")
      .values({
        name: "Harbour Line",
        slug: "harbour-line",
        country: "NO",
        member_since: "2020-01-01",
        logo: "members/0a1b2c-harbour-line.png",
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    place(uploadsDir, "papers/9f8e7d-annual-report.pdf", 0);
    const category = await db
      .insertInto("paper_categories")
      .values({
        slug: "reports",
        name: "Reports",
        is_active: 1,
        is_root: 1,
        position: 1,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("papers")
      .values({
        papers_category_id: category.id,
        name: "Annual report",
        uploaded_file: "papers/9f8e7d-annual-report.pdf",
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    age(uploadsDir, 3 * HOUR);
    const referenced = filesUnder(uploadsDir);
    expect(referenced.length).toBe(3 + 3 + 3 + 2);
    expect(post.image).not.toBeNull();
    expect(avatar).toMatch(/^\/uploads\/avatars\//);

    // Orphans: a crash between the files and the row (old, and one still in flight), editor images never saved.
    place(uploadsDir, "news/deadbeef00000000-480.webp", 2 * HOUR);
    place(uploadsDir, "news/deadbeef00000000-960.webp", 2 * HOUR);
    place(uploadsDir, "news/deadbeef00000000-1600.webp", 2 * HOUR);
    place(uploadsDir, "news/cafe000000000000-1600.webp", 10 * 60 * 1000);
    place(uploadsDir, "content/0123456789abcdef-1600.webp", 2 * HOUR);
    place(uploadsDir, "content/fedcba9876543210-1600.webp", 30 * HOUR);
    const everything = filesUnder(uploadsDir);
    const storage = localStorage(uploadsDir);

    const dry = await sweepUploads({ db, storage }, { dryRun: true, now });
    expect(dry).toMatchObject({ dryRun: true, scanned: everything.length, young: 2 });
    expect(dry.orphans).toEqual([
      "content/fedcba9876543210-1600.webp",
      "news/deadbeef00000000-1600.webp",
      "news/deadbeef00000000-480.webp",
      "news/deadbeef00000000-960.webp",
    ]);
    expect(filesUnder(uploadsDir)).toEqual(everything);

    const real = await sweepUploads({ db, storage }, { now });
    expect(real.orphans).toEqual(dry.orphans);
    expect(filesUnder(uploadsDir)).toEqual(everything.filter((key) => !dry.orphans.includes(key)));
    for (const key of referenced) expect(fs.existsSync(path.join(uploadsDir, key))).toBe(true);
    expect(fs.existsSync(path.join(uploadsDir, "news/cafe000000000000-1600.webp"))).toBe(true);

    // A shorter grace removes the younger orphans too, never a referenced file.
    const eager = await sweepUploads({ db, storage }, { minAgeMs: 0, now });
    expect(eager.orphans).toEqual(["news/cafe000000000000-1600.webp"]);
    for (const key of referenced) expect(fs.existsSync(path.join(uploadsDir, key))).toBe(true);
  });

  it("reads references from keys, /uploads/ addresses and HTML (src and srcset)", () => {
    expect(referencedFamilies("news/ab12-1600.webp")).toEqual(["news/ab12"]);
    expect(referencedFamilies("/uploads/avatars/ff00-256.webp")).toEqual(["avatars/ff00"]);
    expect(
      referencedFamilies(
        '<img src="/uploads/content/aa-1600.webp" srcset="/uploads/content/aa-480.webp 480w, /uploads/content/aa-960.webp 960w"><a href="https://example.org/uploads/papers/x.pdf">',
      ),
    ).toEqual(["content/aa", "content/aa", "content/aa", "papers/x.pdf"]);
    expect(referencedFamilies("Harbour Line")).toEqual([]);
  });
});

describe("npm run uploads:sweep", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-sweep-cli-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const run = (args: string[]) => {
    // SQLite in its own DATA_DIR, as an operator runs it; Vite's BASE_URL is not a shell's.
    const { TEST_DATABASE_URL, DATABASE_URL, BASE_URL, ...base } = process.env;
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/uploads-sweep.ts", ...args], {
      env: { ...base, DATA_DIR: dataDir, LOG_LEVEL: "silent" },
      encoding: "utf8",
    });
    return { code: result.status, out: result.stdout, err: result.stderr };
  };

  it("lists with --dry-run, then removes only the old orphans", async () => {
    const handle = openSqlite(path.join(dataDir, "site.db"));
    await migrateToLatest(handle.db);
    const meeting = await handle.db
      .insertInto("meetings")
      .values({ slug: "m", title: "M", type: "conference", start_date: "2027-01-01", created_at: "", updated_at: "" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto("sponsors")
      .values({ event_id: meeting.id, name: "Sponsor", image: "sponsors/aa11-sponsor.webp", position: 1 })
      .execute();
    await handle.destroy();
    const uploads = path.join(dataDir, "uploads");
    place(uploads, "sponsors/aa11-sponsor.webp", 5 * HOUR);
    place(uploads, "news/0000111122223333-1600.webp", 5 * HOUR);
    place(uploads, "news/4444555566667777-1600.webp", 5 * 60 * 1000);
    // The private root (paper files, decision 0024) is not the sweep's: even an old unreferenced file there stays.
    const privateRoot = path.join(dataDir, "private");
    place(privateRoot, "papers/abcdef-orphan-paper.pdf", 50 * HOUR);

    const dry = run(["--dry-run"]);
    expect(dry.err).toBe("");
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("would remove news/0000111122223333-1600.webp");
    expect(dry.out).toMatch(/3 files checked; 1 would be removed \(dry run\); 1 unreferenced but too recent/);
    expect(filesUnder(uploads)).toHaveLength(3);

    const real = run([]);
    expect(real.code).toBe(0);
    expect(real.out).toContain("removed news/0000111122223333-1600.webp");
    expect(filesUnder(uploads)).toEqual(["news/4444555566667777-1600.webp", "sponsors/aa11-sponsor.webp"]);

    const eager = run(["--min-age", "1"]);
    expect(eager.out).toContain("removed news/4444555566667777-1600.webp");
    expect(filesUnder(uploads)).toEqual(["sponsors/aa11-sponsor.webp"]);
    expect(filesUnder(privateRoot)).toEqual(["papers/abcdef-orphan-paper.pdf"]);

    const wrong = run(["--min-age", "soon"]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain("Usage:");
  });
});

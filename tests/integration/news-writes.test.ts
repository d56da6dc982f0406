import fs from "node:fs";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createNewsRepository } from "../../core/news/news.repository";
import { NEWS_PER_PAGE, postUrl } from "../../core/news/news.schema";
import { excerptOf } from "../../lib/html";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * Issue 12: every news write is one transaction with its search entry; files
 * are written before it and removed only if it fails (or, when replaced or
 * deleted, after it commits); searching inside the list is exact past 1000
 * matches; slugs are unique by the database's say; titles are clean Unicode.
 */

let t: TestContext;
let token: string;
let photo: Buffer;

beforeAll(async () => {
  t = await createTestContext({ UPLOAD_MAX_BYTES: String(2 * 1024 * 1024) });
  token = (await signIn(t.runtime.services, "admin")).token;
  photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#1c4a7d" } })
    .jpeg()
    .toBuffer();
});
afterAll(async () => t.close());

const db = () => t.database.db;
const postgres = () => t.database.dialect === "postgres";
const image = () => new File([new Uint8Array(photo)], "harbour.jpg", { type: "image/jpeg" });
const form = (fields: Record<string, string | Blob>) => ({ token, form: fields, multipart: true });
type PostJson = { id: number; slug: string; title: string; image: string | null };
const postOf = (res: { json: Record<string, unknown> | null }) => (res.json as { post: PostJson }).post;

function uploadedFiles(): string[] {
  return (fs.readdirSync(t.runtime.config.uploadsDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".webp"))
    .sort();
}

/**
 * Makes the search index refuse one kind of write, in this test's own
 * database: a trigger on search_documents that raises, as a full or broken
 * index would. Nothing of ours is replaced; the services run as they do.
 */
async function breakIndex(operation: "insert" | "delete") {
  if (postgres()) {
    await sql`create or replace function refuse_index_write() returns trigger language plpgsql
      as $$ begin raise exception 'search index unavailable'; end $$`.execute(db());
    await sql
      .raw(
        `create trigger refuse_index_${operation} before ${operation} on search_documents for each row execute function refuse_index_write()`,
      )
      .execute(db());
  } else {
    await sql
      .raw(
        `create trigger refuse_index_${operation} before ${operation} on search_documents begin select raise(abort, 'search index unavailable'); end`,
      )
      .execute(db());
  }
}

async function repairIndex() {
  for (const operation of ["insert", "delete"]) {
    const on = postgres() ? " on search_documents" : "";
    await sql.raw(`drop trigger if exists refuse_index_${operation}${on}`).execute(db());
  }
}

const searchEntry = (id: number) =>
  db()
    .selectFrom("search_documents")
    .select(["title", "url"])
    .where("kind", "=", "news")
    .where("ref_id", "=", String(id))
    .executeTakeFirst();

describe("a news write and its search entry commit together", () => {
  afterEach(repairIndex);

  it("create: when the index write fails, no post, no search entry and no file is left", async () => {
    const files = uploadedFiles();
    await breakIndex("insert");
    const res = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      form({
        title: "Index outage notice",
        content: "<p>Should not stay.</p>",
        image: image(),
        image_alt: "A harbour",
      }),
    );
    expect(res.status).toBe(500);
    const rows = await db().selectFrom("news_posts").select("id").where("title", "=", "Index outage notice").execute();
    expect(rows).toEqual([]);
    const entries = await db()
      .selectFrom("search_documents")
      .select("id")
      .where("title", "=", "Index outage notice")
      .execute();
    expect(entries).toEqual([]);
    expect(uploadedFiles()).toEqual(files);
  });

  it("update with a new image: when the index write fails, the old post and image stay, the new files go", async () => {
    const created = postOf(
      await call(
        t.app,
        "POST",
        "/api/dashboard/news",
        form({ title: "Pilot boarding update", content: "<p>Original.</p>", image: image(), image_alt: "A harbour" }),
      ),
    );
    const files = uploadedFiles();
    await breakIndex("insert");
    const res = await call(
      t.app,
      "PATCH",
      `/api/dashboard/news/${created.id}`,
      form({ title: "Pilot boarding changed", content: "<p>Changed.</p>", image: image(), image_alt: "A harbour" }),
    );
    expect(res.status).toBe(500);
    const row = await db().selectFrom("news_posts").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title: "Pilot boarding update", image: created.image?.replace(/^\/uploads\//, "") });
    expect(await searchEntry(created.id)).toMatchObject({ title: "Pilot boarding update" });
    expect(uploadedFiles()).toEqual(files);

    // Once the index works, the same update replaces the image: the old files go after the commit.
    await repairIndex();
    const updated = postOf(
      await call(
        t.app,
        "PATCH",
        `/api/dashboard/news/${created.id}`,
        form({ title: "Pilot boarding changed", content: "<p>Changed.</p>", image: image(), image_alt: "A harbour" }),
      ),
    );
    expect(updated.image).not.toBe(created.image);
    const oldBase = created.image?.replace(/^\/uploads\//, "").replace(/-\d+\.webp$/, "") as string;
    expect(uploadedFiles().filter((f) => f.startsWith(oldBase))).toEqual([]);
    expect(await searchEntry(created.id)).toMatchObject({ title: "Pilot boarding changed" });
  });

  it("delete: the row and its search entry go together, the files only after the commit", async () => {
    const created = postOf(
      await call(
        t.app,
        "POST",
        "/api/dashboard/news",
        form({ title: "Harbour closure", content: "<p>Closed.</p>", image: image(), image_alt: "A harbour" }),
      ),
    );
    const files = uploadedFiles();
    await breakIndex("delete");
    expect((await call(t.app, "DELETE", `/api/dashboard/news/${created.id}`, { token })).status).toBe(500);
    expect(await db().selectFrom("news_posts").select("id").where("id", "=", created.id).executeTakeFirst()).toEqual({
      id: created.id,
    });
    expect(await searchEntry(created.id)).toBeDefined();
    expect(uploadedFiles()).toEqual(files);

    await repairIndex();
    expect((await call(t.app, "DELETE", `/api/dashboard/news/${created.id}`, { token })).status).toBe(200);
    expect(await db().selectFrom("news_posts").select("id").where("id", "=", created.id).executeTakeFirst()).toBe(
      undefined,
    );
    expect(await searchEntry(created.id)).toBeUndefined();
    const base = created.image?.replace(/^\/uploads\//, "").replace(/-\d+\.webp$/, "") as string;
    expect(uploadedFiles().filter((f) => f.startsWith(base))).toEqual([]);
  });

  it("a page update and its search entry commit together", async () => {
    const adminPage = "/purpose-objectives";
    await breakIndex("insert");
    const res = await call(t.app, "PATCH", `/api/dashboard/pages${adminPage}`, {
      token,
      json: { title: "Changed purpose", content: "<p>New.</p>" },
    });
    expect(res.status).not.toBe(200);
    const page = await db().selectFrom("pages").select("title").where("url", "=", adminPage).executeTakeFirst();
    expect(page?.title).not.toBe("Changed purpose");
  });
});

describe("searching inside the news list past 1000 matches", () => {
  const MATCHING = 1_005;
  const start = Date.UTC(2020, 0, 1);
  const at = (n: number) => new Date(start + n * 3_600_000).toISOString();

  beforeAll(async () => {
    // Inserted through the repository and the search module in one transaction: fast, and as the service writes.
    await db()
      .transaction()
      .execute(async (trx) => {
        const news = createNewsRepository(trx);
        for (let n = 0; n < MATCHING + 20; n++) {
          const matches = n < MATCHING;
          const content = `<p>${matches ? "Lighthouse keeper log" : "Buoy maintenance"} number ${n}.</p>`;
          const row = await news.insert({
            slug: `bulk-${n}`,
            title: `Bulk post ${n}`,
            content,
            excerpt: excerptOf(content),
            author_name: null,
            image: null,
            image_width: null,
            image_height: null,
            published_at: at(n),
            created_at: at(n),
            updated_at: at(n),
          });
          await t.runtime.services.search.index(
            { kind: "news", refId: row.id, url: postUrl(row.slug), title: row.title, html: content },
            trx,
          );
        }
      });
  });

  type ListJson = { data: { slug: string; published_at: string; excerpt: string }[]; total: number; last_page: number };
  const lastPage = Math.ceil(MATCHING / NEWS_PER_PAGE);

  it("the admin list: exact total, last page and date order", async () => {
    const first = (await call(t.app, "GET", "/api/dashboard/news?search=lighthouse", { token })).json as ListJson;
    expect(first.total).toBe(MATCHING);
    expect(first.last_page).toBe(lastPage);
    expect(first.data.map((p) => p.slug)).toEqual(
      Array.from({ length: NEWS_PER_PAGE }, (_, i) => `bulk-${MATCHING - 1 - i}`),
    );
    expect(first.data[0].excerpt).toBe(`Lighthouse keeper log number ${MATCHING - 1}.`);
    const last = (await call(t.app, "GET", `/api/dashboard/news?search=lighthouse&page=${lastPage}`, { token }))
      .json as ListJson;
    expect(last.total).toBe(MATCHING);
    expect(last.data.map((p) => p.slug)).toEqual(
      Array.from(
        { length: MATCHING - (lastPage - 1) * NEWS_PER_PAGE },
        (_, i) => `bulk-${MATCHING - 1 - (lastPage - 1) * NEWS_PER_PAGE - i}`,
      ),
    );
    expect(last.data.at(-1)?.slug).toBe("bulk-0");
  });

  it("the public list: exact total, last page and date order, also within a month", async () => {
    const res = await call(t.app, "POST", "/api/getPosts", { json: { search: "lighthouse", page: lastPage } });
    const page = res.json as ListJson;
    expect(page.total).toBe(MATCHING);
    expect(page.last_page).toBe(lastPage);
    expect(page.data.at(-1)?.slug).toBe("bulk-0");
    const dates = page.data.map((p) => p.published_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    // January 2020 holds posts 0-743 (hourly); all of them match.
    const january = (await call(t.app, "POST", "/api/getPosts", { json: { search: "lighthouse", filters: "01-2020" } }))
      .json as ListJson;
    expect(january.total).toBe(744);
    const none = (await call(t.app, "POST", "/api/getPosts", { json: { search: "buoy lighthouse" } })).json as ListJson;
    expect(none.total).toBe(0);
    const buoys = (await call(t.app, "POST", "/api/getPosts", { json: { search: "buoy" } })).json as ListJson;
    expect(buoys.total).toBe(20);
  });
});

describe("slugs decided by the database", () => {
  it("20 parallel creates with one title get 20 distinct slugs, none answered 500", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(t.app, "POST", "/api/dashboard/news", form({ title: "Regatta results", content: "<p>Results.</p>" })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const slugs = answers.map((a) => postOf(a).slug);
    expect(new Set(slugs).size).toBe(20);
    for (const slug of slugs) expect(slug).toMatch(/^regatta-results(-[0-9a-z]+)?$/);
    const indexed = await db()
      .selectFrom("search_documents")
      .select("url")
      .where("title", "=", "Regatta results")
      .execute();
    expect(indexed.map((r) => r.url).sort()).toEqual(slugs.map(postUrl).sort());
  });
});

describe("titles and content as stored", () => {
  const create = (title: string, content = "<p>Body.</p>") =>
    call(t.app, "POST", "/api/dashboard/news", form({ title, content }));

  it("stores 'Café' in NFC whether it was sent composed or decomposed", async () => {
    const composed = postOf(await create("Caf\u00e9 opening"));
    const decomposed = postOf(await create("Cafe\u0301 opening"));
    expect(composed.title).toBe("Caf\u00e9 opening");
    expect(decomposed.title).toBe("Caf\u00e9 opening");
    expect(composed.slug).toBe("cafe-opening");
    expect(decomposed.slug).toBe("cafe-opening-2");
  });

  it("strips the right-to-left override and NUL from titles, so pages never show them", async () => {
    const post = postOf(await create("Invoice\u202Egpj.exe\u0000 notice"));
    expect(post.title).toBe("Invoicegpj.exe notice");
    // What the post page's <title> and <h1> are rendered from.
    const read = await call(t.app, "GET", `/api/getPostBySlug/${post.slug}`);
    expect((read.json as { data: { title: string } }).data.title).toBe("Invoicegpj.exe notice");
    expect(read.text).not.toContain("\u202E");
    expect(read.text).not.toMatch(/\\u202e|\\u0000/i);
  });

  it("transliterates Cyrillic and Greek titles into slugs", async () => {
    expect(postOf(await create("Новости ассоциации")).slug).toBe("novosti-assotsiatsii");
    expect(postOf(await create("Αθήνα")).slug).toBe("athina");
  });

  it("gives titles with nothing to transliterate a short stable slug, not post-N", async () => {
    const ship = postOf(await create("🚢🚢"));
    expect(ship.slug).toMatch(/^post-[0-9a-z]{7}$/);
    expect(postOf(await create("🚢🚢")).slug).toBe(`${ship.slug}-2`);
    const dots = postOf(await create(".."));
    expect(dots.slug).toMatch(/^post-[0-9a-z]{7}$/);
    expect(dots.slug).not.toBe(ship.slug);
  });

  it("answers 422 for content that sanitizes to nothing", async () => {
    const res = await create("Script only", "<script>x</script>");
    expect(res.status).toBe(422);
    expect(res.json?.errors).toEqual({ content: ["The content field is required."] });
    const rows = await db().selectFrom("news_posts").select("id").where("title", "=", "Script only").execute();
    expect(rows).toEqual([]);
  });
});

import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

let t: TestContext;
let token: string;
let photo: Buffer;

beforeAll(async () => {
  t = await createTestContext({ UPLOAD_MAX_BYTES: String(2 * 1024 * 1024) });
  token = (await signIn(t.runtime.services, "admin")).token;
  // A real 2400×1350 JPEG carrying EXIF metadata.
  photo = await sharp({ create: { width: 2400, height: 1350, channels: 3, background: "#1c4a7d" } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Copyright: "Masthead test", Artist: "Camera owner" } } })
    .toBuffer();
});
afterAll(async () => t.close());

const form = (fields: Record<string, string | Blob>) => ({ token, form: fields, multipart: true });
const uploaded = (key: string) => path.join(t.runtime.config.uploadsDir, key.replace(/^\/uploads\//, ""));
type PostJson = {
  id: number;
  slug: string;
  title: string;
  content: string;
  image: string | null;
  image_srcset: string | null;
  image_width: number | null;
  image_height: number | null;
  image_delete_url: string | null;
};
const postOf = (res: { json: Record<string, unknown> | null }) => (res.json as { post: PostJson }).post;

describe("POST /api/dashboard/news", () => {
  it("creates a post from multipart with a real image: size from the file, WebP variants, metadata stripped", async () => {
    const res = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      form({
        title: "Radar interference in busy ports",
        content: "<h2>Findings</h2><p>Shore radars <strong>interfere</strong>.</p><script>alert(1)</script>",
        author_name: "Secretariat",
        image: new File([new Uint8Array(photo)], "harbour.jpg", { type: "image/jpeg" }),
        image_alt: "A test picture",
        image_width: "10",
        image_height: "10",
      }),
    );
    expect(res.status).toBe(201);
    const post = postOf(res);
    expect(post).toMatchObject({ slug: "radar-interference-in-busy-ports", image_width: 1600, image_height: 900 });
    expect(post.content).toBe("<h2>Findings</h2><p>Shore radars <strong>interfere</strong>.</p>");
    expect(post.image).toMatch(/^\/uploads\/news\/[0-9a-f]{16}-1600\.webp$/);
    expect(post.image_srcset).toMatch(/-480\.webp 480w, .*-960\.webp 960w, .*-1600\.webp 1600w$/);
    expect(post.image_delete_url).toBe(`/api/dashboard/news/${post.id}/image`);
    const stored = await sharp(fs.readFileSync(uploaded(post.image as string))).metadata();
    expect(stored.format).toBe("webp");
    expect(stored.exif).toBeUndefined();
    // First in the public list, and found by site search.
    const list = await call(t.app, "POST", "/api/getPosts", { json: {} });
    expect((list.json as { data: { slug: string }[] }).data[0].slug).toBe(post.slug);
    const search = await call(t.app, "GET", "/api/search?search_query=interfere");
    expect((search.json as { results: { url: string }[] }).results.map((r) => r.url)).toContain(`/post/${post.slug}`);
  });

  it("keeps slugs unique, and stable when the title changes", async () => {
    const a = postOf(
      await call(
        t.app,
        "POST",
        "/api/dashboard/news",
        form({ title: "Annual Conference 2027", content: "<p>One</p>" }),
      ),
    );
    const b = postOf(
      await call(
        t.app,
        "POST",
        "/api/dashboard/news",
        form({ title: "Annual conference 2027!", content: "<p>Two</p>" }),
      ),
    );
    expect([a.slug, b.slug]).toEqual(["annual-conference-2027", "annual-conference-2027-2"]);
    const renamed = await call(
      t.app,
      "POST",
      `/api/dashboard/news/${a.id}`,
      form({ _method: "PATCH", title: "Annual Conference 2027: programme", content: "<p>One</p>" }),
    );
    expect(renamed.status).toBe(200);
    expect(postOf(renamed)).toMatchObject({
      slug: "annual-conference-2027",
      title: "Annual Conference 2027: programme",
    });
  });

  it("answers 422 with field messages for a missing title or content", async () => {
    const res = await call(t.app, "POST", "/api/dashboard/news", form({ title: " ", content: "<p> </p>" }));
    expect(res.status).toBe(422);
    expect(res.json?.errors).toEqual({
      title: ["The title field is required."],
      content: ["The content field is required."],
    });
  });

  it("refuses a file that is not an image whatever its name or declared type, and stores nothing", async () => {
    const before = fs.readdirSync(t.runtime.config.uploadsDir, { recursive: true }).length;
    const fake = new File([new TextEncoder().encode("<?php echo 'hi'; ?>".repeat(50))], "photo.jpg", {
      type: "image/jpeg",
    });
    const res = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      form({ title: "Fake", content: "<p>x</p>", image: fake, image_alt: "A test picture" }),
    );
    expect(res.status).toBe(415);
    expect(res.json?.errors).toEqual({ image: ["The image must be a JPEG, PNG or WebP file."] });
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "x.png", {
      type: "image/png",
    });
    expect(
      (
        await call(
          t.app,
          "POST",
          "/api/dashboard/news",
          form({ title: "Svg", content: "<p>x</p>", image: svg, image_alt: "A test picture" }),
        )
      ).status,
    ).toBe(415);
    const truncated = new File([new Uint8Array(photo.subarray(0, 600))], "cut.jpg", { type: "image/jpeg" });
    const broken = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      form({ title: "Broken", content: "<p>x</p>", image: truncated, image_alt: "A test picture" }),
    );
    expect(broken.status).toBe(415);
    expect(fs.readdirSync(t.runtime.config.uploadsDir, { recursive: true }).length).toBe(before);
    const titles = await t.database.db.selectFrom("news_posts").select("title").execute();
    expect(titles.map((r) => r.title)).not.toContain("Fake");
  });

  it("answers 413 for an upload over UPLOAD_MAX_BYTES", async () => {
    const big = new File([new Uint8Array(3 * 1024 * 1024)], "big.jpg", { type: "image/jpeg" });
    expect(
      (
        await call(
          t.app,
          "POST",
          "/api/dashboard/news",
          form({ title: "Big", content: "<p>x</p>", image: big, image_alt: "A test picture" }),
        )
      ).status,
    ).toBe(413);
  });
});

describe("updating, deleting the image, deleting the post", () => {
  it("replaces the image and removes the old files; deleting the image leaves the post", async () => {
    const created = postOf(
      await call(
        t.app,
        "POST",
        "/api/dashboard/news",
        form({
          title: "Imaged",
          content: "<p>x</p>",
          image: new File([new Uint8Array(photo)], "a.jpg"),
          image_alt: "A test picture",
        }),
      ),
    );
    const oldFile = uploaded(created.image as string);
    expect(fs.existsSync(oldFile)).toBe(true);
    const png = await sharp({ create: { width: 800, height: 600, channels: 4, background: "#10a59c" } })
      .png()
      .toBuffer();
    const updated = postOf(
      await call(
        t.app,
        "POST",
        `/api/dashboard/news/${created.id}`,
        form({
          _method: "PATCH",
          title: "Imaged",
          content: "<p>y</p>",
          image: new File([new Uint8Array(png)], "b.png"),
          image_alt: "A test picture",
        }),
      ),
    );
    expect(updated).toMatchObject({ image_width: 800, image_height: 600 });
    expect(fs.existsSync(oldFile)).toBe(false);
    const noImage = await call(t.app, "DELETE", `/api/dashboard/news/${created.id}/image`, { token });
    expect(postOf(noImage)).toMatchObject({ id: created.id, image: null, image_width: null, image_delete_url: null });
    expect(fs.existsSync(uploaded(updated.image as string))).toBe(false);
  });

  it("deletes a post: gone from the API, the site search and the disk", async () => {
    const created = postOf(
      await call(
        t.app,
        "POST",
        "/api/dashboard/news",
        form({
          title: "Short-lived zebra notice",
          content: "<p>zebra</p>",
          image: new File([new Uint8Array(photo)], "a.jpg"),
          image_alt: "A test picture",
        }),
      ),
    );
    const res = await call(t.app, "DELETE", `/api/dashboard/news/${created.id}`, { token });
    expect(res.json).toEqual({ status: "success", slug: created.slug });
    expect((await call(t.app, "GET", `/api/getPostBySlug/${created.slug}`)).status).toBe(404);
    const search = await call(t.app, "GET", "/api/search?search_query=zebra");
    expect((search.json as { results: unknown[] }).results).toEqual([]);
    expect(fs.existsSync(uploaded(created.image as string))).toBe(false);
    expect((await call(t.app, "DELETE", `/api/dashboard/news/${created.id}`, { token })).status).toBe(404);
    expect((await call(t.app, "DELETE", "/api/dashboard/news/not-a-number", { token })).status).toBe(404);
  });
});

describe("GET /api/dashboard/news", () => {
  it("lists with search and a next_page_url to which the client appends &search=", async () => {
    for (let i = 0; i < 10; i++) {
      await call(
        t.app,
        "POST",
        "/api/dashboard/news",
        form({ title: `Bulletin ${i}`, content: "<p>Bulletin text</p>" }),
      );
    }
    const first = await call(t.app, "GET", "/api/dashboard/news?search=bulletin", { token });
    expect(first.json).toMatchObject({ total: 10, current_page: 1, next_page_url: "/api/dashboard/news?page=2" });
    const second = await call(t.app, "GET", `${first.json?.next_page_url}&search=bulletin`, { token });
    expect((second.json as { data: unknown[] }).data).toHaveLength(1);
    expect(second.json?.next_page_url).toBeNull();
  });
});

describe("POST /api/dashboard/images (images inside rich content)", () => {
  it("stores a real image in variants and answers its address and size; content using it gets a srcset", async () => {
    const res = await call(
      t.app,
      "POST",
      "/api/dashboard/images",
      form({ image: new File([new Uint8Array(photo)], "chart.jpg", { type: "image/jpeg" }) }),
    );
    expect(res.status).toBe(201);
    const image = (res.json as { image: { url: string; width: number; height: number; srcset: string } }).image;
    expect(image).toMatchObject({ width: 1600, height: 900 });
    expect(image.url).toMatch(/^\/uploads\/content\/[0-9a-f]{16}-1600\.webp$/);
    expect(fs.existsSync(uploaded(image.url))).toBe(true);

    const created = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      form({
        title: "A chart of the survey",
        content: `<p>Results:</p><img src="${image.url}" alt="Survey chart" width="1600" height="900" srcset="javascript:alert(1) 1x">`,
      }),
    );
    const content = postOf(created).content;
    expect(content).toContain(`src="${image.url}"`);
    expect(content).toContain('alt="Survey chart"');
    expect(content).toMatch(/srcset="\/uploads\/content\/[0-9a-f]{16}-480\.webp 480w, .*-1600\.webp 1600w"/);
    expect(content).not.toContain("javascript:");
  });

  it("refuses a missing file (422) and a non-image (415), and is for admins only", async () => {
    const missing = await call(t.app, "POST", "/api/dashboard/images", form({}));
    expect(missing.status).toBe(422);
    expect(missing.json?.errors).toEqual({ image: ["Choose an image to upload."] });
    const fake = new File([new TextEncoder().encode("GIF89a<script>alert(1)</script>")], "x.gif", {
      type: "image/gif",
    });
    expect((await call(t.app, "POST", "/api/dashboard/images", form({ image: fake }))).status).toBe(415);
    const member = await signIn(t.runtime.services, "member");
    const refused = await call(t.app, "POST", "/api/dashboard/images", {
      token: member.token,
      form: { image: new File([new Uint8Array(photo)], "chart.jpg") },
      multipart: true,
    });
    expect(refused.status).toBe(403);
  });
});

import { type KyselyPlugin, SelectQueryNode, TableNode } from "kysely";
import { RouterContextProvider } from "react-router";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestContext } from "../../app/context";
import { loader as editMeetingLoader } from "../../app/routes/events/manage-event-edit";
import { loader as homeLoader } from "../../app/routes/site/home";
import type { RequestContext } from "../../core/request-context";
import { ALT_REQUIRED } from "../../lib/image-text";
import { createApp } from "../../server/app";
import { buildRuntime, call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * Issue 30 point 10 (decision 0041): alt text of news images and meeting pictures written and read
 * back through the admin API on the database under test, refused when missing and not decorative;
 * the home page's own text (/home) where search links it; the meeting form's list of time zones.
 */
let t: TestContext;
let admin: string;
let photo: Buffer;

beforeAll(async () => {
  t = await createTestContext({ UPLOAD_MAX_BYTES: String(2 * 1024 * 1024) });
  admin = (await signIn(t.runtime.services, "admin")).token;
  photo = await sharp({ create: { width: 640, height: 400, channels: 3, background: "#1c4a7d" } })
    .jpeg()
    .toBuffer();
});
afterAll(async () => t?.close());

const image = (name = "harbour.jpg") => new File([new Uint8Array(photo)], name, { type: "image/jpeg" });
const multipart = (fields: Record<string, string | Blob>) => ({ token: admin, form: fields, multipart: true });
type PostJson = { id: number; slug: string; image: string | null; image_alt: string; image_decorative: boolean };
const postOf = (res: { json: Record<string, unknown> | null }) => (res.json as { post: PostJson }).post;
const errorsOf = (res: { json: Record<string, unknown> | null }) =>
  (res.json as { errors: Record<string, string[]> }).errors;

describe("a news post's image and its alt text", () => {
  it("is refused without alt text unless decorative, with the field's message, and nothing is kept", async () => {
    const before = await t.database.db.selectFrom("news_posts").select("id").execute();
    const res = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      multipart({ title: "Pilot ladders", content: "<p>Text.</p>", image: image() }),
    );
    expect(res.status).toBe(422);
    expect(errorsOf(res)).toEqual({ image_alt: [ALT_REQUIRED] });
    expect(await t.database.db.selectFrom("news_posts").select("id").execute()).toEqual(before);
  });

  it("keeps the alt text written, answers it and lists it; the public API reads it back", async () => {
    const created = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      multipart({
        title: "Radar on the bridge",
        content: "<p>Text.</p>",
        image: image(),
        image_alt: "  A radar display  on a ship's bridge ",
      }),
    );
    expect(created.status).toBe(201);
    const post = postOf(created);
    expect(post).toMatchObject({ image_alt: "A radar display on a ship's bridge", image_decorative: false });
    const row = await t.database.db
      .selectFrom("news_posts")
      .select(["image_alt", "image_decorative"])
      .where("id", "=", post.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ image_alt: "A radar display on a ship's bridge", image_decorative: 0 });
    const list = await call(t.app, "GET", "/api/dashboard/news?search=radar", { token: admin });
    const item = (list.json as { data: PostJson[] }).data.find((p) => p.id === post.id);
    expect(item).toMatchObject({ image_alt: "A radar display on a ship's bridge", image_decorative: false });
    const read = await call(t.app, "GET", `/api/getPostBySlug/${post.slug}`);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.json)).toContain("A radar display on a ship's bridge");
  });

  it("takes a decorative image without text (and drops any typed); an update keeps asking while it has an image", async () => {
    const created = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      multipart({
        title: "Wave pattern",
        content: "<p>Text.</p>",
        image: image(),
        image_alt: "ignored",
        image_decorative: "1",
      }),
    );
    expect(created.status).toBe(201);
    const post = postOf(created);
    expect(post).toMatchObject({ image_alt: "", image_decorative: true });

    // The stored image stays; not decorative any more, it needs its text.
    const refused = await call(
      t.app,
      "PATCH",
      `/api/dashboard/news/${post.id}`,
      multipart({ title: "Wave pattern", content: "<p>Text.</p>" }),
    );
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual({ image_alt: [ALT_REQUIRED] });

    const described = await call(
      t.app,
      "PATCH",
      `/api/dashboard/news/${post.id}`,
      multipart({ title: "Wave pattern", content: "<p>Text.</p>", image_alt: "Waves breaking on a breakwater" }),
    );
    expect(described.status).toBe(200);
    expect(postOf(described)).toMatchObject({ image_alt: "Waves breaking on a breakwater", image_decorative: false });

    // Without its image a post needs no text, and keeps none.
    const removed = await call(t.app, "DELETE", `/api/dashboard/news/${post.id}/image`, { token: admin });
    expect(postOf(removed)).toMatchObject({ image: null, image_alt: "", image_decorative: false });
    const plain = await call(
      t.app,
      "PATCH",
      `/api/dashboard/news/${post.id}`,
      multipart({ title: "Wave pattern", content: "<p>Text.</p>" }),
    );
    expect(plain.status).toBe(200);
  });

  it("a PATCH of a post from before alt text (an image, no text) must send image_alt: the 422 names it, and the API description says so", async () => {
    const created = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      multipart({ title: "Old harbour", content: "<p>Text.</p>", image: image(), image_alt: "The old harbour" }),
    );
    const { id } = postOf(created);
    // As migration 0011 left the posts written before it: an image, not described yet.
    await t.database.db
      .updateTable("news_posts")
      .set({ image_alt: "", image_decorative: 0 })
      .where("id", "=", id)
      .execute();
    const refused = await call(
      t.app,
      "PATCH",
      `/api/dashboard/news/${id}`,
      multipart({ title: "Old harbour, renamed", content: "<p>Text.</p>" }),
    );
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual({ image_alt: [ALT_REQUIRED] });
    const row = await t.database.db
      .selectFrom("news_posts")
      .select("title")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe("Old harbour");

    const openapi = (await call(t.app, "GET", "/api/openapi.json")).text;
    const document = JSON.parse(openapi) as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>>;
    };
    const patch = document.paths["/api/dashboard/news/{id}"].patch.requestBody.content;
    for (const [type, { schema }] of Object.entries(patch)) {
      const field = (schema as { properties: Record<string, { description?: string }> }).properties.image_alt;
      expect(field.description, type).toMatch(/a PATCH of a post whose image has no alt text yet/);
      expect(field.description, type).toMatch(/422 on `image_alt`/);
    }
  });

  it("decides whether alt text is needed on the post as the update's own transaction reads it", async () => {
    const created = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      multipart({ title: "Tides", content: "<p>Text.</p>" }),
    );
    const { id } = postOf(created);
    // Another admin's save gives the post a picture with its text right after the update first reads the
    // post; it is waited for at most a second (a lock may hold it until the update has committed).
    let armed = true;
    const reads = new Set<unknown>();
    let other: Promise<unknown> | undefined;
    const meanwhile: KyselyPlugin = {
      transformQuery({ node, queryId }) {
        const readsPosts =
          SelectQueryNode.is(node) &&
          node.from?.froms.some((from) => TableNode.is(from) && from.table.identifier.name === "news_posts");
        if (armed && readsPosts) reads.add(queryId);
        return node;
      },
      async transformResult({ queryId, result }) {
        if (armed && reads.has(queryId)) {
          armed = false;
          other = t.database.db
            .updateTable("news_posts")
            .set({ image: "news/gauge-960.webp", image_width: 960, image_height: 600, image_alt: "A tide gauge" })
            .where("id", "=", id)
            .execute();
          await Promise.race([other, new Promise((resolve) => setTimeout(resolve, 1000))]);
        }
        return result;
      },
    };
    const site = createApp(buildRuntime(t.runtime.config, { ...t.database, db: t.database.db.withPlugin(meanwhile) }));
    const update = await call(
      site,
      "PATCH",
      `/api/dashboard/news/${id}`,
      multipart({ title: "Tides", content: "<p>New.</p>" }),
    );
    expect(armed).toBe(false);
    await other;
    // Whichever came first, the picture keeps its text: the update either ran before it (no image, no
    // text needed) or saw it and asked for the text (422).
    expect([200, 422]).toContain(update.status);
    const row = await t.database.db
      .selectFrom("news_posts")
      .select(["image", "image_alt", "image_decorative"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ image: "news/gauge-960.webp", image_alt: "A tide gauge", image_decorative: 0 });
  });

  it("refuses alt text over 300 characters", async () => {
    const res = await call(
      t.app,
      "POST",
      "/api/dashboard/news",
      multipart({ title: "Long", content: "<p>Text.</p>", image: image(), image_alt: "x".repeat(301) }),
    );
    expect(res.status).toBe(422);
    expect(errorsOf(res).image_alt).toEqual(["The alt text may not be longer than 300 characters."]);
  });
});

type PictureJson = { id: number; url: string; alt: string; decorative: boolean };
type MeetingJson = { id: number; slug: string; images: PictureJson[] };
const MEETING = { title: "Pictures workshop", type: "workshop", start_date: "2027-03-10" };
const meetingOf = (res: { json: Record<string, unknown> | null }) => (res.json as { event: MeetingJson }).event;

function meetingForm(pictures: { file: File; alt?: string; decorative?: boolean }[]): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(MEETING)) form.append(key, value);
  for (const picture of pictures) {
    form.append("images[]", picture.file);
    form.append("images_alt[]", picture.alt ?? "");
    form.append("images_decorative[]", picture.decorative ? "true" : "false");
  }
  return form;
}

describe("a meeting's pictures and their alt text", () => {
  it("refuses a picture without text unless decorative, naming which one, and keeps nothing", async () => {
    const res = await call(t.app, "POST", "/api/dashboard/meeting", {
      token: admin,
      body: meetingForm([{ file: image("a.jpg"), alt: "Delegates" }, { file: image("b.jpg") }]),
    });
    expect(res.status).toBe(422);
    expect(errorsOf(res)).toEqual({ images_alt: [`Picture 2: ${ALT_REQUIRED}`] });
    const rows = await t.database.db.selectFrom("meetings").select("id").where("title", "=", MEETING.title).execute();
    expect(rows).toEqual([]);
  });

  it("refuses texts that do not line up with the pictures (one short, or one decorative flag for two), keeping nothing", async () => {
    const oneShort = meetingForm([{ file: image("a.jpg"), alt: "Delegates" }]);
    oneShort.append("images[]", image("b.jpg"));
    const twoPicturesOneFlag = new FormData();
    for (const [key, value] of Object.entries(MEETING)) twoPicturesOneFlag.append(key, value);
    for (const name of ["a.jpg", "b.jpg"]) {
      twoPicturesOneFlag.append("images[]", image(name));
      twoPicturesOneFlag.append("images_alt[]", `Picture ${name}`);
    }
    twoPicturesOneFlag.append("images_decorative[]", "true");
    for (const body of [oneShort, twoPicturesOneFlag]) {
      const res = await call(t.app, "POST", "/api/dashboard/meeting", { token: admin, body });
      expect(res.status).toBe(422);
      expect(errorsOf(res)?.images_alt?.[0]).toMatch(/^Send one alt text per picture/);
    }
    const rows = await t.database.db.selectFrom("meetings").select("id").where("title", "=", MEETING.title).execute();
    expect(rows).toEqual([]);
  });

  it("keeps each picture's text in upload order, reads it back, and changes one through PATCH", async () => {
    const created = await call(t.app, "POST", "/api/dashboard/meeting", {
      token: admin,
      body: meetingForm([
        { file: image("a.jpg"), alt: "Delegates at the opening session" },
        { file: image("b.jpg"), decorative: true },
      ]),
    });
    expect(created.status).toBe(201);
    const meeting = meetingOf(created);
    expect(meeting.images.map(({ alt, decorative }) => ({ alt, decorative }))).toEqual([
      { alt: "Delegates at the opening session", decorative: false },
      { alt: "", decorative: true },
    ]);
    const read = await call(t.app, "GET", `/api/dashboard/meeting/${meeting.id}`, { token: admin });
    expect(meetingOf(read).images[0].alt).toBe("Delegates at the opening session");
    // The public list answers the same text with the meeting's first picture.
    const visitor = await call(t.app, "GET", "/api/meetings?type=workshop&start_date=2027-03-01");
    expect(JSON.stringify(visitor.json)).toContain("Delegates at the opening session");

    const second = meeting.images[1];
    const refused = await call(t.app, "PATCH", `/api/dashboard/meeting/${meeting.id}/image/${second.id}`, {
      token: admin,
      json: { alt: "", decorative: false },
    });
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual({ alt: [ALT_REQUIRED] });

    const changed = await call(t.app, "PATCH", `/api/dashboard/meeting/${meeting.id}/image/${second.id}`, {
      token: admin,
      json: { alt: "The harbour at dusk" },
    });
    expect(changed.status).toBe(200);
    expect((changed.json as { image: PictureJson }).image).toMatchObject({
      id: second.id,
      alt: "The harbour at dusk",
      decorative: false,
    });
    const row = await t.database.db
      .selectFrom("meeting_images")
      .select(["alt", "decorative"])
      .where("id", "=", second.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ alt: "The harbour at dusk", decorative: 0 });

    // Another meeting's picture is not found through this one.
    const other = meetingOf(
      await call(t.app, "POST", "/api/dashboard/meeting", {
        token: admin,
        body: meetingForm([{ file: image("c.jpg"), alt: "Another" }]),
      }),
    );
    const foreign = await call(t.app, "PATCH", `/api/dashboard/meeting/${meeting.id}/image/${other.images[0].id}`, {
      token: admin,
      json: { alt: "Taken over" },
    });
    expect(foreign.status).toBe(404);
  });
});

function pageArgs(path: string, params: Record<string, string> = {}) {
  const context: RequestContext = {
    services: t.runtime.services,
    origin: ORIGIN,
    auth: null,
    sessionToken: null,
    client: { ip: "203.0.113.1", userAgent: null },
    nonce: "",
    requestId: "test",
    secureCookies: false,
    logger: t.runtime.logger,
    publicConfig: { recaptchaSiteKey: null, gtmId: null },
  } as RequestContext;
  const provider = new RouterContextProvider();
  provider.set(requestContext, context);
  const url = new URL(path, ORIGIN);
  return { request: new Request(url), url, params, context: provider, pattern: "", unstable_pattern: "" } as never;
}

describe("the home page's own text (/home)", () => {
  it("is what the home page shows, what search links as /, and edits change both", async () => {
    const { services } = t.runtime;
    const none = (await homeLoader(pageArgs("/"))) as { welcome: unknown };
    expect(none.welcome).toBeNull();
    await t.database.db
      .insertInto("pages")
      .values({
        url: "/home",
        title: "Welcome",
        content: "<p>x</p>",
        created_at: "2026-01-01",
        updated_at: "2026-01-01",
      })
      .execute();
    await services.pages.updatePage("/home", {
      title: "Welcome to Masthead",
      content: "<p>Our members keep ships talking to each other.</p>",
    });
    const home = (await homeLoader(pageArgs("/"))) as { welcome: { title: string; content: string } };
    expect(home.welcome).toMatchObject({
      title: "Welcome to Masthead",
      content: "<p>Our members keep ships talking to each other.</p>",
    });
    const search = await call(t.app, "GET", "/api/search?search_query=ships%20talking");
    const results = (search.json as { results: { url: string; title: string }[] }).results;
    expect(results).toContainEqual(expect.objectContaining({ url: "/", title: "Welcome to Masthead" }));
  });
});

describe("the meeting form's time zones", () => {
  it("offers every IANA zone and UTC, the site's zone first, built by the server", async () => {
    await t.runtime.services.settings.update({ "site.timezone": "Asia/Tokyo" });
    const loaded = (await editMeetingLoader(pageArgs("/manage-events/new"))) as unknown as {
      data: { timeZones: string[] };
    };
    const zones = loaded.data.timeZones;
    expect(zones[0]).toBe("Asia/Tokyo");
    expect(zones).toContain("UTC");
    for (const zone of Intl.supportedValuesOf("timeZone")) expect(zones).toContain(zone);
    expect(new Set(zones).size).toBe(zones.length);
  });
});

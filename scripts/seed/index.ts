import os from "node:os";
import type { Kysely, Transaction } from "kysely";
import { categoryUrl, paperViewUrl } from "../../core/library/library.schema";
import { companySearchEntry } from "../../core/members/search-entry";
import { PAGE_IN_PREPARATION, publicPageUrl } from "../../core/pages/fixed-pages";
import type { Database } from "../../db/types";
import { readDocumentText } from "../../lib/document-text";
import { escapeHtml, excerptOf, htmlToText } from "../../lib/html";
import { storeImage } from "../../lib/images";
import { hashPassword } from "../../lib/password";
import { localStorage } from "../../lib/storage";
import {
  type PictureSpec,
  pictureAlt,
  renderLogo,
  renderPdf,
  renderPicture,
  type StoredImage,
  UploadWriter,
} from "./assets";
import { PAGES, SITE_SETTINGS } from "./content";
import { seedHistory } from "./history";
import { type MeetingPlan, planMeetings } from "./meetings";
import {
  DEMO_EDITOR,
  DEMO_MEMBER,
  GROUPS,
  JOIN_REQUESTS,
  LEFT_MEMBER,
  MEMBERS,
  memberProducts,
  memberSeats,
  membershipType,
  memberWebsite,
  REPRESENTATIVES,
  renewsInDays,
} from "./members";
import { NEWS, type NewsContext, type When } from "./news";
import { buildPapers, type CategorySeed, LIBRARY, type PaperSeed } from "./papers";
import { conferenceRegistrations, workshopRegistrations } from "./registrations";
import { addDays, atTime, chunk, dateRange, mapLimit, monthStart, paragraphs, slugify, stripHtml } from "./util";

/**
 * Loads the demo content of the Masthead site on first run: settings, CMS
 * pages, news, events with schedules and sponsors, the document library,
 * member companies, example join requests and the search index, with
 * generated images and PDFs. Plain Kysely queries only, so the same code runs
 * on SQLite and PostgreSQL.
 */

export const DEMO_SEEDED_KEY = "demo.seeded_at";

export type SeedOptions = {
  uploadsDir: string;
  /** Paper files go to the private root (decision 0024), never under the uploads. */
  privateDir: string;
  now?: Date;
  log?: (msg: string) => void;
};

const BATCH = 50;

/** True when the demo has run before or real content exists. */
async function hasContent(db: Kysely<Database>): Promise<boolean> {
  const marker = await db.selectFrom("settings").select("key").where("key", "=", DEMO_SEEDED_KEY).executeTakeFirst();
  if (marker) return true;
  // The fixed pages exist from the first start with a placeholder body; only a written page counts.
  const page = await db
    .selectFrom("pages")
    .select("id")
    .where("content", "!=", PAGE_IN_PREPARATION)
    .limit(1)
    .executeTakeFirst();
  if (page) return true;
  const post = await db.selectFrom("news_posts").select("id").limit(1).executeTakeFirst();
  return post !== undefined;
}

function newsDate(when: When, now: Date, plan: MeetingPlan): Date {
  let date: Date;
  if ("thisMonth" in when) {
    const start = monthStart(now).getTime();
    date = new Date(start + Math.floor((now.getTime() - start) * when.thisMonth));
  } else if ("daysAgo" in when) {
    date = atTime(addDays(now, -when.daysAgo), ...when.at);
  } else if ("december" in when) {
    const thisYear = new Date(Date.UTC(now.getUTCFullYear(), 11, when.december, ...when.at));
    date =
      thisYear.getTime() < now.getTime()
        ? thisYear
        : new Date(Date.UTC(now.getUTCFullYear() - 1, 11, when.december, ...when.at));
  } else {
    const ref = plan[when.after];
    date = atTime(addDays(when.days < 0 ? ref.start : ref.end, when.days), ...when.at);
  }
  // Never in the future, whatever the offsets say.
  const latest = now.getTime() - 60_000;
  return date.getTime() > latest ? new Date(latest) : new Date(Math.floor(date.getTime() / 60_000) * 60_000);
}

type FlatCategory = CategorySeed & {
  parentSlug: string | null;
  position: number;
  depth: number;
  /** Its own public flag or its parent's (what visitors may read). */
  readable: boolean;
};

/** The library's top categories are the roots of the tree (members see them as cards on /dashboard). */
function flattenCategories(roots: CategorySeed[]): FlatCategory[] {
  const out: FlatCategory[] = [];
  const walk = (node: CategorySeed, parent: FlatCategory | null, position: number, depth: number) => {
    const flat = {
      ...node,
      parentSlug: parent?.slug ?? null,
      position,
      depth,
      readable: node.is_public ?? parent?.readable ?? false,
      // Its own groups, or its parent's when it inherits (issue 36).
      groups: node.is_public === undefined ? parent?.groups : node.is_public ? undefined : node.groups,
    };
    out.push(flat);
    node.children?.forEach((child, i) => {
      walk(child, flat, i, depth + 1);
    });
  };
  roots.forEach((root, i) => {
    walk(root, null, i, 0);
  });
  return out;
}

function assertUnique(values: string[], what: string): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw new Error(`Demo content: duplicate ${what} "${value}"`);
    seen.add(value);
  }
}

export async function seedDemoContent(db: Kysely<Database>, options: SeedOptions): Promise<{ seeded: boolean }> {
  const log = options.log ?? (() => {});
  const now = options.now ?? new Date();
  const nowIso = now.toISOString();

  if (await hasContent(db)) return { seeded: false };

  // --- Texts and dates -----------------------------------------------------
  const plan = planMeetings(now);
  const newsContext = (date: Date): NewsContext => ({
    date,
    year: date.getUTCFullYear(),
    nextConference: plan.nextConference,
    lastConference: plan.lastConference,
    nextWorkshop: plan.nextWorkshop,
    lastWorkshop: plan.lastWorkshop,
  });
  const news = NEWS.map((item, index) => {
    const date = newsDate(item.when, now, plan);
    const c = newsContext(date);
    const title = typeof item.title === "string" ? item.title : item.title(c);
    const content = paragraphs(...item.body.map((part) => (typeof part === "string" ? part : part(c))));
    return { item, index, date, title, slug: slugify(title), content };
  });
  const papers = buildPapers(now);
  const categories = flattenCategories(LIBRARY.children ?? []);
  const year = now.getUTCFullYear();
  const members = MEMBERS.map((m) => ({ ...m, joined: m.joined || year }));
  const sponsorNames = [...new Set(plan.meetings.flatMap((m) => m.sponsors))];

  assertUnique(
    news.map((n) => n.slug),
    "news slug",
  );
  assertUnique(
    plan.meetings.map((m) => m.slug),
    "meeting slug",
  );
  assertUnique(
    categories.map((c) => c.slug),
    "category slug",
  );
  assertUnique(
    papers.map((p) => `${p.category}/${p.name}`),
    "paper",
  );
  assertUnique(
    members.map((m) => m.name),
    "member",
  );

  // --- Files -----------------------------------------------------------------
  const writer = new UploadWriter(options.uploadsDir);
  const privateWriter = new UploadWriter(options.privateDir);
  const started = Date.now();
  try {
    const concurrency = Math.max(2, Math.min(4, os.availableParallelism()));
    // Stored as an admin's upload is (lib/images.ts): WebP variants that pages offer through srcset.
    const uploads = localStorage(options.uploadsDir);
    const picture = async (folder: "news" | "meetings" | "categories", spec: PictureSpec): Promise<StoredImage> => {
      const image = await renderPicture(spec);
      const stored = await storeImage(uploads, folder, image.data);
      writer.remember(stored.keys);
      return { key: stored.key, width: stored.width, height: stored.height };
    };

    log(`Generating ${news.length} news images…`);
    const newsImages = await mapLimit(news, concurrency, (n) =>
      picture("news", {
        scene: n.item.scene,
        variant: n.index,
        width: 1600,
        height: 900,
        label: "Masthead news",
        title: n.title,
      }),
    );

    const meetingImageSpecs = plan.meetings.flatMap((m, mi) =>
      m.images.map((spec, position) => ({ mi, position, spec })),
    );
    log(`Generating ${meetingImageSpecs.length} event images…`);
    const meetingImages = await mapLimit(meetingImageSpecs, concurrency, async ({ mi, position, spec }) => ({
      mi,
      position,
      spec,
      image: await picture("meetings", { ...spec, width: 1600, height: 1000 }),
    }));

    const imageCategories = categories.filter((c) => c.image);
    const categoryImages = new Map<string, StoredImage>();
    await mapLimit(imageCategories, concurrency, async (c) => {
      const spec = c.image as NonNullable<CategorySeed["image"]>;
      categoryImages.set(
        c.slug,
        await picture("categories", {
          ...spec,
          width: 1200,
          height: 800,
          label: "Document library",
          title: c.name,
        }),
      );
    });

    log(`Generating ${members.length} member logos and ${sponsorNames.length} sponsor logos…`);
    // Stored as an admin's upload of a logo is (core/members, lib/images.ts): WebP variants.
    const memberLogos = await mapLimit(members, concurrency, async (m, i) => {
      const logo = await renderLogo(m.name, i, "png");
      const stored = await storeImage(uploads, "members", logo.data, "logo");
      writer.remember(stored.keys);
      return { key: stored.key, width: stored.width, height: stored.height };
    });
    const sponsorLogos = new Map<string, string>();
    await mapLimit(sponsorNames, concurrency, async (name) => {
      const index = Math.max(
        0,
        members.findIndex((m) => m.name === name),
      );
      const logo = await renderLogo(name, index, "webp");
      const key = writer.key("sponsors", name, "webp");
      await writer.write(key, logo.data);
      sponsorLogos.set(name, key);
    });

    const revisionCount = papers.reduce((n, p) => n + (p.revisions?.length ?? 0), 0);
    log(`Generating ${papers.length} PDF documents and ${revisionCount} earlier revisions, and reading their text…`);
    const categoryNames = new Map(categories.map((c) => [c.slug, c.title || c.name]));
    const storePdf = async (p: PaperSeed, labels: { revision: string | null; date: string | null }, text: string[]) => {
      const pdf = await renderPdf(
        {
          title: p.name,
          number: p.number,
          organization: p.organization,
          date: labels.date ?? p.publication_date ?? nowIso.slice(0, 10),
          category: categoryNames.get(p.category) ?? "Document library",
          revision: labels.revision,
          meeting: p.meeting,
          paragraphs: text,
        },
        now,
      );
      const name = [p.number, p.name, labels.revision].filter(Boolean).join(" ");
      const key = privateWriter.key("papers", name, "pdf");
      await privateWriter.write(key, pdf);
      return { key, size: pdf.length, name: `${name}.pdf`, pdf };
    };
    const paperFiles = await mapLimit(papers, concurrency, async (p) => {
      const file = await storePdf(p, p, p.pdf);
      // The same reader as uploads (lib/document-text), so that search finds words inside the demo's documents.
      const text = await readDocumentText(new Blob([file.pdf as Uint8Array<ArrayBuffer>]), "application/pdf");
      const revisions = [];
      for (const r of p.revisions ?? []) revisions.push({ ...r, file: await storePdf(p, r, r.pdf) });
      return { ...file, pages: text.pages, revisions };
    });
    log(
      `Generated ${writer.written.length + privateWriter.written.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );

    // --- Database --------------------------------------------------------------
    await db.transaction().execute(async (trx) => {
      const search: SearchRow[] = [];

      await trx
        .insertInto("settings")
        .values(Object.entries(SITE_SETTINGS).map(([key, value]) => ({ key, value, updated_at: nowIso })))
        .onConflict((oc) => oc.column("key").doNothing())
        .execute();

      // Pages
      await trx
        .insertInto("pages")
        .values(PAGES.map((p) => ({ ...p, created_at: nowIso, updated_at: nowIso })))
        .onConflict((oc) =>
          oc
            .column("url")
            .doUpdateSet((eb) => ({
              title: eb.ref("excluded.title"),
              content: eb.ref("excluded.content"),
              updated_at: eb.ref("excluded.updated_at"),
            }))
            .where("pages.content", "=", PAGE_IN_PREPARATION),
        )
        .execute();
      for (const page of PAGES) {
        search.push({
          kind: "page",
          ref_id: page.url,
          url: publicPageUrl(page.url),
          title: page.title,
          body: stripHtml(page.content),
          updated_at: nowIso,
        });
      }

      // Category tree, level by level so that parents have ids.
      const categoryIds = new Map<string, number>();
      const maxDepth = Math.max(...categories.map((c) => c.depth));
      for (let depth = 0; depth <= maxDepth; depth++) {
        const level = categories.filter((c) => c.depth === depth);
        for (const rows of chunk(level, BATCH)) {
          const inserted = await trx
            .insertInto("paper_categories")
            .values(
              rows.map((c) => ({
                parent_id: c.parentSlug ? (categoryIds.get(c.parentSlug) ?? null) : null,
                slug: c.slug,
                name: c.name,
                title: c.title,
                title_description: c.title_description,
                description: c.description,
                content: c.content,
                view_type: c.view_type,
                is_active: 1,
                is_public: c.is_public === undefined ? null : c.is_public ? 1 : 0,
                is_root: depth === 0 ? 1 : 0,
                image: categoryImages.get(c.slug)?.key ?? null,
                position: c.position,
                created_at: nowIso,
                updated_at: nowIso,
              })),
            )
            .returning(["id", "slug"])
            .execute();
          for (const row of inserted) categoryIds.set(row.slug, row.id);
        }
      }
      const readable = new Map(categories.map((c) => [c.slug, c.readable]));
      const audienceOf = (slug: string) => (readable.get(slug) ? "public" : "members");
      // The working groups (slugs) whose members alone find a category's entries (issue 36).
      const groupsOfCategory = new Map(categories.map((c) => [c.slug, c.groups]));
      for (const c of categories) {
        search.push({
          kind: "category",
          ref_id: String(categoryIds.get(c.slug)),
          url: categoryUrl(c.slug, c.readable),
          title: c.name,
          body: [c.title, c.title_description, c.description, stripHtml(c.content)].filter(Boolean).join(". "),
          updated_at: nowIso,
          audience: audienceOf(c.slug),
          groups: c.groups,
        });
      }

      // Papers
      const indexed = papers.map((p, i) => ({ p, file: paperFiles[i] }));
      for (const rows of chunk(indexed, BATCH)) {
        const inserted = await trx
          .insertInto("papers")
          .values(
            rows.map(({ p, file }) => ({
              papers_category_id: categoryIds.get(p.category) as number,
              name: p.name,
              meeting: p.meeting,
              description: p.description,
              number: p.number,
              organization: p.organization,
              reference: p.reference,
              revision: p.revision,
              version: p.version,
              date: p.date,
              publication_date: p.publication_date,
              forecast_date: p.forecast_date,
              uploaded_file: file.key,
              file_type: "application/pdf",
              file_size: file.size,
              file_name: file.name,
              created_at: nowIso,
              updated_at: nowIso,
            })),
          )
          .returning(["id", "name", "papers_category_id"])
          .execute();
        const byKey = new Map(inserted.map((r) => [`${r.papers_category_id}/${r.name}`, r.id]));
        for (const { p, file } of rows) {
          const id = byKey.get(`${categoryIds.get(p.category)}/${p.name}`) as number;
          const audience = audienceOf(p.category);
          search.push({
            kind: "paper",
            ref_id: String(id),
            url: `${categoryUrl(p.category, readable.get(p.category) ?? false)}#paper-${id}`,
            title: p.name,
            body: [p.number, p.organization, p.reference, p.meeting, p.description].filter(Boolean).join(". "),
            updated_at: nowIso,
            audience,
            groups: groupsOfCategory.get(p.category),
          });
          // Earlier files, replaced a while ago, with the labels they carried.
          for (const r of file.revisions) {
            await trx
              .insertInto("paper_revisions")
              .values({
                paper_id: id,
                uploaded_file: r.file.key,
                file_type: "application/pdf",
                file_size: r.file.size,
                file_name: r.file.name,
                revision: r.revision,
                version: r.version,
                date: r.date,
                created_at: addDays(now, -r.replacedDaysAgo).toISOString(),
              })
              .execute();
          }
          // The text of the current file, page by page: each page a search entry of its own.
          for (const pages of chunk(file.pages, BATCH)) {
            const stored = await trx
              .insertInto("paper_pages")
              .values(pages.map((page) => ({ paper_id: id, page: page.page, text: page.text })))
              .returning(["id", "page", "text"])
              .execute();
            for (const page of stored) {
              search.push({
                kind: "paper_page",
                ref_id: String(page.id),
                url: paperViewUrl(id, page.page),
                title: "",
                display_title: `${p.name} · page ${page.page}`,
                body: page.text,
                updated_at: nowIso,
                audience,
                groups: groupsOfCategory.get(p.category),
              });
            }
          }
        }
      }

      // Meetings with their images, schedules and sponsors
      const meetingIds = new Map<string, number>();
      for (const rows of chunk(plan.meetings, BATCH)) {
        const inserted = await trx
          .insertInto("meetings")
          .values(
            rows.map((m) => ({
              slug: m.slug,
              title: m.title,
              type: m.type,
              meeting_type: m.meeting_type,
              organization: m.organization,
              start_date: m.start.toISOString().slice(0, 10),
              end_date: m.end.toISOString().slice(0, 10),
              location: m.location,
              information: m.information,
              health: m.health,
              registration: m.registration,
              content_title: m.content_title,
              content: m.content,
              timezone: m.timezone,
              visibility: m.visibility,
              registration_open: m.registration_open ? 1 : 0,
              registration_closes_on: m.registration_closes_on,
              capacity: m.capacity,
              created_at: nowIso,
              updated_at: nowIso,
            })),
          )
          .returning(["id", "slug"])
          .execute();
        for (const row of inserted) meetingIds.set(row.slug, row.id);
      }
      const idOf = (slug: string) => meetingIds.get(slug) as number;
      for (const rows of chunk(meetingImages, BATCH)) {
        await trx
          .insertInto("meeting_images")
          .values(
            rows.map(({ mi, position, image, spec }) => ({
              meeting_id: idOf(plan.meetings[mi].slug),
              path: image.key,
              width: image.width,
              height: image.height,
              position,
              alt: pictureAlt(spec),
              decorative: 0,
              created_at: nowIso,
            })),
          )
          .execute();
      }
      const schedules = plan.meetings.flatMap((m) => m.schedules.map((s) => ({ ...s, event_id: idOf(m.slug) })));
      for (const rows of chunk(schedules, BATCH)) {
        await trx.insertInto("schedules").values(rows).execute();
      }
      const sponsors = plan.meetings.flatMap((m) =>
        m.sponsors.map((name, position) => {
          const member = members.find((x) => x.name === name);
          return {
            event_id: idOf(m.slug),
            name,
            link: member ? memberWebsite(member) : null,
            image: sponsorLogos.get(name) ?? null,
            position,
          };
        }),
      );
      for (const rows of chunk(sponsors, BATCH)) {
        await trx.insertInto("sponsors").values(rows).execute();
      }
      for (const m of plan.meetings) {
        search.push({
          kind: "meeting",
          ref_id: String(idOf(m.slug)),
          // Members-only meetings are found by signed-in users only, at their members' address.
          url: m.visibility === "members" ? `/dashboard/events/${m.slug}` : `/events/${m.slug}`,
          audience: m.visibility,
          groups: m.groups,
          title: m.title,
          body: [
            `${m.type.charAt(0).toUpperCase()}${m.type.slice(1)}, ${m.meeting_type}`,
            dateRange(m.start, m.end),
            m.location,
            m.content_title,
            stripHtml(m.content),
          ].join(". "),
          updated_at: nowIso,
        });
      }

      // News
      for (const rows of chunk(news, BATCH)) {
        const inserted = await trx
          .insertInto("news_posts")
          .values(
            rows.map((n) => {
              const image = newsImages[n.index];
              const at = n.date.toISOString();
              return {
                slug: n.slug,
                title: n.title,
                content: n.content,
                excerpt: excerptOf(n.content),
                author_name: n.item.author,
                image: image.key,
                image_width: image.width,
                image_height: image.height,
                image_alt: pictureAlt({ scene: n.item.scene, title: n.title }),
                image_decorative: 0,
                published_at: at,
                // Told of long ago: the notices job tells of no demo post (decision 0071).
                announced_at: at,
                created_at: at,
                updated_at: at,
              };
            }),
          )
          .returning(["id", "slug"])
          .execute();
        const ids = new Map(inserted.map((r) => [r.slug, r.id]));
        for (const n of rows) {
          search.push({
            kind: "news",
            ref_id: String(ids.get(n.slug)),
            url: `/post/${n.slug}`,
            title: n.title,
            body: stripHtml(n.content),
            updated_at: nowIso,
          });
        }
      }

      // Member companies (decision 0044): types, products, renewal dates and seats; two lapsed, one left.
      const companyIds = new Map<string, number>();
      for (const rows of chunk(
        members.map((m, i) => ({ m, i, logo: memberLogos[i] })),
        BATCH,
      )) {
        const values = rows.map(({ m, i, logo }) => {
          const renews = renewsInDays(m, i);
          return {
            m,
            products: memberProducts(m),
            row: {
              name: m.name,
              slug: slugify(m.name),
              country: m.country,
              website: memberWebsite(m),
              logo: logo.key,
              logo_width: logo.width,
              logo_height: logo.height,
              description: `<p>${escapeHtml(m.name)} makes and services ${memberProducts(m).join(", ")} for ships and shore stations, and has been a member of the association since ${m.joined}.</p>`,
              membership_type: membershipType(m),
              member_since: `${m.joined}-01-01`,
              renews_on: renews === null ? null : addDays(now, renews).toISOString().slice(0, 10),
              seats: memberSeats(m, i),
              status: m.name === LEFT_MEMBER ? ("left" as const) : ("active" as const),
              created_at: nowIso,
              updated_at: nowIso,
            },
          };
        });
        const inserted = await trx
          .insertInto("member_companies")
          .values(values.map((v) => v.row))
          .returning(["id", "name"])
          .execute();
        for (const r of inserted) companyIds.set(r.name, r.id);
        await trx
          .insertInto("member_company_products")
          .values(
            values.flatMap(({ m, products }) =>
              products.map((name, position) => ({
                company_id: companyIds.get(m.name) as number,
                position,
                name,
                tag: name.toLowerCase(),
              })),
            ),
          )
          .execute();
        for (const { row, products } of values) {
          // Every company, as the members service indexes them: lapsed and left ones are not found
          // because the search asks whether a company is current when it runs (decision 0046).
          const entry = companySearchEntry({ ...row, id: companyIds.get(row.name) as number, products });
          search.push({
            kind: entry.kind,
            ref_id: String(entry.refId),
            url: entry.url,
            title: entry.title,
            body: htmlToText(entry.html),
            updated_at: nowIso,
          });
        }
      }

      // The secretariat's editor (issue 36), who signs in with the demo's password.
      await trx
        .insertInto("users")
        .values({
          first_name: DEMO_EDITOR.first_name,
          last_name: DEMO_EDITOR.last_name,
          email: DEMO_EDITOR.email,
          phone_number: null,
          avatar: null,
          role: "editor",
          password_hash: await hashPassword(DEMO_EDITOR.password),
          is_active: 1,
          calendar_token_hash: null,
          created_at: nowIso,
          updated_at: nowIso,
        })
        .execute();

      // Representatives of five companies; the demo member signs in as the first one's primary contact.
      const demoPasswordHash = await hashPassword(DEMO_MEMBER.password);
      for (const { company, people } of REPRESENTATIVES) {
        for (const person of people) {
          const user = await trx
            .insertInto("users")
            .values({
              first_name: person.first_name,
              last_name: person.last_name,
              email: person.email,
              phone_number: null,
              avatar: null,
              role: "member",
              password_hash: person.email === DEMO_MEMBER.email ? demoPasswordHash : null,
              is_active: 1,
              calendar_token_hash: null,
              created_at: nowIso,
              updated_at: nowIso,
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          await trx
            .insertInto("company_representatives")
            .values({
              user_id: user.id,
              company_id: companyIds.get(company) as number,
              is_primary: person.primary ? 1 : 0,
              created_at: nowIso,
            })
            .execute();
          if (person.email === DEMO_MEMBER.email) {
            // Issue 33: the demo member follows two categories and the meetings.
            await trx
              .insertInto("notification_preferences")
              .values({ user_id: user.id, digest: "weekly", announcements: 1, updated_at: nowIso })
              .execute();
            await trx
              .insertInto("follows")
              .values(
                [
                  { kind: "category", slug: "technical-bulletins", delivery: "instant" as const },
                  { kind: "category", slug: "upcoming-standards", delivery: "digest" as const },
                  { kind: "meetings", slug: null, delivery: "digest" as const },
                ].map((f) => ({
                  user_id: user.id,
                  kind: f.kind as "category" | "meetings",
                  category_id: f.slug ? (categoryIds.get(f.slug) ?? null) : null,
                  delivery: f.delivery,
                  created_at: nowIso,
                })),
              )
              .execute();
            // What this week brought to a category the demo member follows in the digest: the
            // digest `npm run demo` queues on a fresh install lists it (decision 0065).
            const upcoming = categoryIds.get("upcoming-standards");
            if (upcoming !== undefined) {
              const recent = await trx
                .selectFrom("papers")
                .select("id")
                .where("papers_category_id", "=", upcoming)
                .orderBy("id", "desc")
                .limit(3)
                .execute();
              if (recent.length) {
                await trx
                  .insertInto("notification_events")
                  .values(
                    recent.map((paper, i) => ({
                      kind: "paper" as const,
                      ref_id: paper.id,
                      category_id: upcoming,
                      created_at: new Date(now.getTime() - (i + 1) * 3_600_000).toISOString(),
                    })),
                  )
                  .execute();
              }
            }
          }
        }
      }

      // Example join and registration requests; applications new, approved and declined (decision 0047).
      const conferenceId = idOf(plan.nextConference.slug);
      for (const [i, r] of JOIN_REQUESTS.entries()) {
        const created = atTime(addDays(now, -r.daysAgo), 8 + ((i * 5) % 10), (i * 17) % 60);
        const decidedAt = r.decision ? addDays(created, r.decision.daysAfter).toISOString() : null;
        const { id } = await trx
          .insertInto("join_requests")
          .values({
            kind: r.kind,
            meeting_id: r.kind === "registration" ? conferenceId : null,
            company_name: r.company_name,
            representative_name: r.representative_name,
            email: r.email,
            phone_number: r.phone_number,
            page_path: r.page_path,
            ip: `192.0.2.${17 + i * 23}`,
            handled_at: decidedAt ?? (r.handled ? addDays(created, 1).toISOString() : null),
            created_at: created.toISOString(),
            status: r.kind === "join" ? (r.decision?.status ?? "new") : null,
            // Registrations arrive pending (decision 0052); one per address and meeting.
            registration_status: r.kind === "registration" ? "pending" : null,
            registration_email: r.kind === "registration" ? r.email.trim().toLowerCase() : null,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        if (r.kind === "registration") {
          // Its arrival, as the registrations service records it (decision 0052).
          await trx
            .insertInto("join_request_events")
            .values({
              join_request_id: id,
              event: "registration_pending",
              user_id: null,
              user_name: r.representative_name,
              company_id: null,
              company_name: null,
              reason: null,
              created_at: created.toISOString(),
            })
            .execute();
        }
        if (!r.decision || !decidedAt) continue;
        const companyId = r.decision.status === "approved" ? (companyIds.get(r.company_name) ?? null) : null;
        await trx
          .insertInto("join_request_events")
          .values({
            join_request_id: id,
            event: r.decision.status,
            user_id: null,
            user_name: "The secretariat",
            company_id: companyId,
            company_name: companyId ? r.company_name : null,
            reason: r.decision.reason ?? null,
            created_at: decidedAt,
          })
          .execute();
        await trx
          .insertInto("mail_queue")
          .values({
            join_request_id: id,
            purpose: r.decision.status === "approved" ? "invitation" : "decline",
            to_address: r.email,
            reply_to: null,
            subject:
              r.decision.status === "approved"
                ? "Your invitation to the Masthead members area"
                : "Your application to join Masthead",
            body_text:
              r.decision.status === "approved"
                ? `Dear ${r.representative_name},\n\nYour application for ${r.company_name} to join Masthead has been approved. Welcome!`
                : `Dear ${r.representative_name},\n\n${r.decision.reason ?? ""}`,
            status: "sent",
            attempts: 1,
            next_attempt_at: decidedAt,
            locked_until: null,
            last_error: null,
            sent_at: decidedAt,
            created_at: decidedAt,
          })
          .execute();
      }

      // The featured conference's and workshop's registrations (issue 32), as the registrations service leaves them.
      const userIds = new Map(
        (await trx.selectFrom("users").select(["id", "email"]).execute()).map((u) => [u.email, u.id]),
      );
      const featured = [
        {
          meetingId: conferenceId,
          path: "/conference",
          rows: conferenceRegistrations(
            now,
            JOIN_REQUESTS.filter((r) => r.kind === "registration").map((r) => r.email),
          ),
        },
        {
          meetingId: idOf(plan.nextWorkshop.slug),
          path: "/workshop",
          rows: workshopRegistrations(now, plan.meetings.find((m) => m.slug === plan.nextWorkshop.slug)?.capacity ?? 0),
        },
      ];
      for (const { meetingId, path, rows } of featured) {
        for (const [i, r] of rows.entries()) {
          const userId = r.userEmail ? (userIds.get(r.userEmail) ?? null) : null;
          const { id } = await trx
            .insertInto("join_requests")
            .values({
              kind: "registration",
              meeting_id: meetingId,
              company_name: r.company_name,
              representative_name: r.representative_name,
              email: r.email,
              phone_number: r.phone_number,
              page_path: path,
              ip: `198.51.100.${1 + ((i * 37) % 250)}`,
              handled_at: null,
              created_at: r.created.toISOString(),
              subject: null,
              message: null,
              spam_reason: null,
              status: null,
              registration_status: r.status,
              // The key to one registration per address is let go on decline and cancel (decision 0052).
              registration_email:
                r.status === "declined" || r.status === "cancelled" ? null : r.email.trim().toLowerCase(),
              note: r.note,
              user_id: userId,
              attended_at: null,
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          await trx
            .insertInto("join_request_events")
            .values(
              r.events.map((e) => ({
                join_request_id: id,
                event: e.event,
                // The registrant's own steps carry their account when they were signed in.
                user_id: e.by === r.representative_name ? userId : null,
                user_name: e.by ?? "Automatic",
                company_id: null,
                company_name: null,
                reason: e.reason,
                created_at: e.at.toISOString(),
              })),
            )
            .execute();
        }
      }

      // Working groups with their chairs and members (issue 36).
      const people = new Map(
        (await trx.selectFrom("users").select(["id", "email"]).execute()).map((u) => [u.email, u.id] as const),
      );
      for (const group of GROUPS) {
        const { id: groupId } = await trx
          .insertInto("working_groups")
          .values({
            name: group.name,
            slug: group.slug,
            description: group.description,
            created_at: nowIso,
            updated_at: nowIso,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        const rows = [
          ...group.chairs.map((email) => ({ email, is_chair: 1 })),
          ...group.members.map((email) => ({ email, is_chair: 0 })),
        ];
        await trx
          .insertInto("group_members")
          .values(
            rows.map(({ email, is_chair }) => {
              const userId = people.get(email);
              if (userId === undefined) throw new Error(`the demo group ${group.slug} names no account ${email}`);
              return { group_id: groupId, user_id: userId, is_chair, created_at: nowIso };
            }),
          )
          .execute();
      }
      // What is for each group: its folder in the library and its meetings (issue 36).
      const groupIds = new Map(
        (await trx.selectFrom("working_groups").select(["id", "slug"]).execute()).map((g) => [g.slug, g.id] as const),
      );
      const groupId = (slug: string) => {
        const id = groupIds.get(slug);
        if (id === undefined) throw new Error(`the demo names no working group ${slug}`);
        return id;
      };
      const categoryGroups = categories.flatMap((c) =>
        c.is_public === false && c.groups
          ? c.groups.map((g) => ({ category_id: categoryIds.get(c.slug) as number, group_id: groupId(g) }))
          : [],
      );
      if (categoryGroups.length) await trx.insertInto("category_groups").values(categoryGroups).execute();
      const meetingGroups = plan.meetings.flatMap((m) =>
        (m.groups ?? []).map((g) => ({ meeting_id: idOf(m.slug), group_id: groupId(g) })),
      );
      if (meetingGroups.length) await trx.insertInto("meeting_groups").values(meetingGroups).execute();

      // A draft, a scheduled post, a page's revisions and a week of the audit log (issue 34).
      const demoMember = await trx
        .selectFrom("users")
        .select(["id", "first_name", "last_name"])
        .where("email", "=", DEMO_MEMBER.email)
        .executeTakeFirstOrThrow();
      const historyPage = PAGES.find((p) => p.url === "/purpose-objectives");
      if (!historyPage) throw new Error("the demo's page with revisions is missing");
      search.push(
        ...(await seedHistory(trx, {
          now,
          page: historyPage,
          member: { id: demoMember.id, name: `${demoMember.first_name} ${demoMember.last_name}` },
        })),
      );

      await insertSearch(trx, search);

      await trx
        .insertInto("settings")
        .values({ key: DEMO_SEEDED_KEY, value: nowIso, updated_at: nowIso })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: nowIso, updated_at: nowIso }))
        .execute();
    });
  } catch (error) {
    await writer.removeAll();
    await privateWriter.removeAll();
    throw error;
  }

  log(
    `Loaded ${PAGES.length} pages, ${news.length} news posts, ${plan.meetings.length} events, ${categories.length} categories, ${papers.length} papers and ${members.length} member companies.`,
  );
  return { seeded: true };
}

/** A site search entry; `audience` 'members' for what only signed-in users may find (public by default). */
type SearchRow = {
  kind: string;
  ref_id: string;
  url: string;
  title: string;
  body: string;
  updated_at: string;
  audience?: "public" | "members";
  /** Shown instead of the (then empty) title: a page of a document. */
  display_title?: string;
  /** With the members' audience: only these working groups' members find it (their slugs; issue 36). */
  groups?: string[];
};

async function insertSearch(trx: Transaction<Database>, rows: SearchRow[]): Promise<void> {
  const groupIds = new Map(
    (await trx.selectFrom("working_groups").select(["id", "slug"]).execute()).map((g) => [g.slug, g.id] as const),
  );
  const isGrouped = (row: SearchRow) => row.audience === "members" && (row.groups?.length ?? 0) > 0;
  for (const batch of chunk(
    rows.filter((row) => !isGrouped(row)),
    BATCH,
  )) {
    await trx
      .insertInto("search_documents")
      .values(batch.map(({ groups: _groups, ...row }) => ({ ...row, audience: row.audience ?? "public" })))
      .execute();
  }
  // A group's entries (a few dozen) one by one, each with its groups.
  for (const { groups = [], ...row } of rows.filter(isGrouped)) {
    const { id } = await trx
      .insertInto("search_documents")
      .values({ ...row, audience: "members" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("search_document_groups")
      .values(groups.map((slug) => ({ document_id: id, group_id: groupIds.get(slug) as number })))
      .execute();
  }
}

import type { Transaction } from "kysely";
import type { Database } from "../../db/types";
import { excerptOf } from "../../lib/html";

/**
 * The demo's week of work (issue 34): a draft and a scheduled news post, a page with three
 * revisions, and an audit log with a week of history, so that the secretariat's new screens show
 * something on the first start. The admin account is made after the seed (scripts/demo.ts), so its
 * rows name it ("Site Administrator", as ensureAdmin names it) without its id; the demo member's
 * rows carry theirs. Written in the seed's transaction.
 */
const ADMIN_NAME = "Site Administrator";
const DAY = 86_400_000;

export type SeededSearch = {
  kind: string;
  ref_id: string;
  url: string;
  title: string;
  body: string;
  updated_at: string;
};

export async function seedHistory(
  trx: Transaction<Database>,
  options: {
    now: Date;
    page: { url: string; title: string; content: string };
    member: { id: number; name: string };
  },
): Promise<SeededSearch[]> {
  const { now, page, member } = options;
  const at = (daysAgo: number, hour: number, minute = 0) => {
    const day = new Date(now.getTime() - daysAgo * DAY);
    day.setUTCHours(hour, minute, 0, 0);
    return day.toISOString();
  };
  const search: SeededSearch[] = [];

  // A draft and a post scheduled for three days ahead (decisions 0070, 0071): the admins' alone until then.
  const posts = [
    {
      slug: "spring-workshop-agenda-draft",
      title: "Agenda of the spring technical workshop",
      content:
        "<p>A first outline of the sessions: cyber resilience of bridge systems, the S-100 roll-out, and remote servicing of radars. Speakers to be confirmed.</p>",
      status: "draft" as const,
      published_at: at(1, 9),
    },
    {
      slug: "vdes-guidance-published",
      title: "Guidance on VDES installations published",
      content:
        "<p>The working group's guidance on installing VDES alongside AIS is published for members, with the checklist used in the autumn trials.</p>",
      status: "published" as const,
      published_at: at(-3, 9),
    },
  ];
  for (const post of posts) {
    const row = await trx
      .insertInto("news_posts")
      .values({
        slug: post.slug,
        title: post.title,
        content: post.content,
        excerpt: excerptOf(post.content),
        author_name: "Secretariat",
        image: null,
        image_width: null,
        image_height: null,
        image_alt: "",
        image_decorative: 0,
        status: post.status,
        published_at: post.published_at,
        // Not told of yet: the notices job tells those following the news when the scheduled one appears.
        announced_at: null,
        created_at: at(1, 9),
        updated_at: at(1, 9),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    search.push({
      kind: "news",
      ref_id: String(row.id),
      url: `/post/${post.slug}`,
      title: post.title,
      body: excerptOf(post.content),
      updated_at: at(1, 9),
    });
  }

  // The page's three revisions (decision 0073): two earlier texts, then the one it has now.
  const pageRow = await trx.selectFrom("pages").select("id").where("url", "=", page.url).executeTakeFirstOrThrow();
  const first = page.content.replace(/<h2>How we work<\/h2>[\s\S]*$/, "");
  const second = page.content.replace("one informed and independent voice", "a single voice");
  const revisions = [
    { fields: { title: "Purpose and objectives", content: first }, created_at: at(6, 10, 12) },
    { fields: { title: page.title, content: second }, created_at: at(4, 15, 40) },
    { fields: { title: page.title, content: page.content }, created_at: at(2, 11, 5) },
  ];
  for (const revision of revisions) {
    await trx
      .insertInto("content_revisions")
      .values({
        entity: "page",
        entity_id: pageRow.id,
        actor_id: null,
        actor_name: ADMIN_NAME,
        fields: JSON.stringify(revision.fields),
        restored_from: null,
        created_at: revision.created_at,
      })
      .execute();
  }

  // A week of the audit log (decision 0074), oldest first.
  const admin = { actor_id: null, actor_name: ADMIN_NAME, ip: "198.51.100.20" };
  const asMember = { actor_id: member.id, actor_name: member.name, ip: "203.0.113.45" };
  const rows = [
    {
      ...admin,
      created_at: at(6, 10, 5),
      action: "sign_in",
      entity: "session",
      entity_id: null,
      summary: "Signed in",
      changes: null,
    },
    {
      ...admin,
      created_at: at(6, 10, 12),
      action: "update",
      entity: "page",
      entity_id: String(pageRow.id),
      summary: "Page “Purpose and objectives” changed",
      changes: null,
    },
    {
      ...asMember,
      created_at: at(5, 8, 30),
      action: "sign_in_failed",
      entity: "session",
      entity_id: String(member.id),
      summary: "Failed sign-in: wrong password",
      changes: null,
    },
    {
      ...asMember,
      created_at: at(5, 8, 31),
      action: "sign_in",
      entity: "session",
      entity_id: String(member.id),
      summary: "Signed in",
      changes: null,
    },
    {
      ...asMember,
      created_at: at(5, 8, 40),
      action: "patch",
      entity: "company",
      entity_id: null,
      summary: "PATCH /api/dashboard/company",
      changes: null,
    },
    {
      ...admin,
      created_at: at(4, 15, 30),
      action: "sign_in",
      entity: "session",
      entity_id: null,
      summary: "Signed in",
      changes: null,
    },
    {
      ...admin,
      created_at: at(4, 15, 40),
      action: "update",
      entity: "page",
      entity_id: String(pageRow.id),
      summary: `Page “${page.title}” changed`,
      changes: JSON.stringify({ title: { before: "Purpose and objectives", after: page.title } }),
    },
    {
      actor_id: null,
      actor_name: "Visitor",
      ip: "192.0.2.66",
      created_at: at(3, 23, 14),
      action: "access_refused",
      entity: "site",
      entity_id: null,
      summary: "Refused (401): GET /manager/users",
      changes: null,
    },
    {
      ...admin,
      created_at: at(2, 11, 5),
      action: "update",
      entity: "page",
      entity_id: String(pageRow.id),
      summary: `Page “${page.title}” changed`,
      changes: null,
    },
    {
      ...admin,
      created_at: at(1, 9, 0),
      action: "create",
      entity: "news",
      entity_id: null,
      summary: "News post “Agenda of the spring technical workshop” created",
      changes: null,
    },
    {
      ...admin,
      created_at: at(1, 9, 20),
      action: "create",
      entity: "news",
      entity_id: null,
      summary: "News post “Guidance on VDES installations published” created",
      changes: null,
    },
    {
      ...admin,
      created_at: new Date(now.getTime() - 3_600_000).toISOString(),
      action: "sign_in",
      entity: "session",
      entity_id: null,
      summary: "Signed in",
      changes: null,
    },
  ];
  await trx.insertInto("audit_log").values(rows).execute();
  return search;
}

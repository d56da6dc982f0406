import type { Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { htmlToText } from "../../lib/html";
import { longDateIn } from "../../lib/time-zones";
import { invalidInput } from "../../lib/validation";
import type { AuditService } from "../audit/audit.service";
import type { MailService, NewMail } from "../mail/mail.service";
import type { MembershipType } from "../members/members.values";
import type { SiteSettings } from "../settings/settings.schema";
import { type AnnouncementsRepository, createAnnouncementsRepository } from "./announcements.repository";
import { unsubscribeToken } from "./unsubscribe";

/** Who an announcement goes to: every member, or the representatives of one membership type's companies. */
export type Audience = "all" | MembershipType;

/** Recipients read, and their mails queued, per statement. */
const PAGE = 500;

type Post = {
  id: number;
  title: string;
  slug: string;
  content: string;
  author_name: string | null;
  status: "draft" | "scheduled" | "published";
};

export type AnnouncementProgress = {
  id: number;
  audience: string;
  recipients: number;
  sent_by: string | null;
  created_at: string;
  pending: number;
  sent: number;
  failed: number;
};

export const NOBODY =
  "Nobody would receive it: no member of this audience has announcements on. Choose another audience.";

/** A draft or a scheduled post is the admins' alone: its link would be a 404 to every member (decisions 0070, 0071). */
export const UNPUBLISHED_NOT_SENT = "This post is not published yet: send it to the members once it is on the site.";

export const SENT_BEFORE = (when: string) =>
  `This post was sent to the members on ${when}. To send it again, tick "Send it again" and send.`;

/**
 * Sending a news post to the members by e-mail (issue 33, decision 0066): a preview, a test to the
 * admin, then the send. The mails are queued in one transaction with the announcement's record,
 * each set to leave at the site's pace (`mail.announcements_per_second`) after any announcement
 * still leaving: the pace lives in the queue (next_attempt_at), so it holds whatever the number of
 * processes sending it. A post sent before is sent again only when the admin says so. Members who
 * turned announcements off, and those without members' access, are not sent it.
 */
export function createAnnouncementsService(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  mail: MailService;
  settings: () => Promise<SiteSettings>;
  clock: Clock;
  origin: string;
  unsubscribeKey: () => Promise<Buffer>;
  membershipCutoff: () => Promise<string>;
  post: (id: number) => Promise<Post>;
  postUrl: (slug: string) => string;
  /** The audit log (decision 0074): a sending, in its transaction. */
  audit?: Pick<AuditService, "record">;
}) {
  const origin = deps.origin.replace(/\/+$/, "");
  const repository = createAnnouncementsRepository(deps.db, deps.dialect);

  function mailOf(post: Post, firstName: string, site: SiteSettings) {
    const text = htmlToText(post.content).trim();
    return {
      subject: post.title,
      body_text: [
        `Hello ${firstName || "there"},`,
        post.title,
        text,
        `Read it on the site:\n${origin}${deps.postUrl(post.slug)}`,
        `${post.author_name ? `${post.author_name}\n` : ""}${site["site.name"]}`,
      ]
        .filter(Boolean)
        .join("\n\n"),
    };
  }

  async function recipients(repo: AnnouncementsRepository, audience: Audience, after: number, cutoff: string) {
    return repo.recipientsAfter(audience, after, PAGE, cutoff);
  }

  return {
    /** The mail as a member will get it (its text; the HTML is made from it when it is sent). */
    async preview(postId: number, firstName: string): Promise<{ subject: string; body_text: string }> {
      return mailOf(await deps.post(postId), firstName, await deps.settings());
    },

    /** How many members the audience reaches now (announcements on, members' access). */
    async count(audience: Audience): Promise<number> {
      return repository.countRecipients(audience, await deps.membershipCutoff());
    },

    /** A test of the mail to the admin alone: not recorded as an announcement. */
    async sendTest(postId: number, admin: { id: number; email: string; first_name: string }): Promise<void> {
      const [post, site, key] = await Promise.all([deps.post(postId), deps.settings(), deps.unsubscribeKey()]);
      const { subject, body_text } = mailOf(post, admin.first_name, site);
      await deps.mail.queue([
        {
          join_request_id: null,
          purpose: "announcement",
          to_address: admin.email,
          reply_to: null,
          subject: `[Test] ${subject}`,
          body_text,
          list_unsubscribe: `${origin}/unsubscribe/${unsubscribeToken(key, admin.id, "announcements")}`,
        },
      ]);
    },

    /**
     * Queues the post to the audience at the site's pace; refused with 409 when it was sent before
     * and `again` is not set (the message says when). Answers how many mails were queued.
     */
    async send(postId: number, options: { audience: Audience; again: boolean; by: number }): Promise<number> {
      const [post, site, key, cutoff] = await Promise.all([
        deps.post(postId),
        deps.settings(),
        deps.unsubscribeKey(),
        deps.membershipCutoff(),
      ]);
      if (post.status !== "published") throw new AppError("conflict", UNPUBLISHED_NOT_SENT);
      const perSecond = Math.max(1, Number(site["mail.announcements_per_second"]) || 5);
      const queued = await deps.db.transaction().execute(async (trx) => {
        const repo = createAnnouncementsRepository(trx, deps.dialect);
        // One announcement is scheduled at a time (the pace's slots are read and taken together).
        await repo.lockPace();
        const before = await repo.latestOf(postId);
        if (before && !options.again) {
          throw new AppError("conflict", SENT_BEFORE(longDateIn(new Date(before.created_at), site["site.timezone"])));
        }
        const now = deps.clock();
        const last = await repo.lastPacedSlot();
        const start = Math.max(now.getTime(), last ? Date.parse(last) + 1000 / perSecond : 0);
        const id = await repo.insert({
          post_id: postId,
          audience: options.audience,
          recipients: 0,
          sent_by: options.by,
          created_at: now.toISOString(),
        });
        let count = 0;
        let after = 0;
        for (;;) {
          const page = await recipients(repo, options.audience, after, cutoff);
          if (page.length === 0) break;
          const mails: NewMail[] = page.map((member, i) => ({
            join_request_id: null,
            purpose: "announcement",
            to_address: member.email,
            reply_to: null,
            ...mailOf(post, member.first_name, site),
            list_unsubscribe: `${origin}/unsubscribe/${unsubscribeToken(key, member.id, "announcements")}`,
            announcement_id: id,
            not_before: new Date(start + Math.floor(((count + i) * 1000) / perSecond)).toISOString(),
          }));
          await deps.mail.enqueue(mails, trx);
          count += page.length;
          after = page[page.length - 1].id;
        }
        // Nobody to send it to: nothing is recorded, so a later send is not taken for a second one.
        if (count === 0) throw invalidInput({ audience: [NOBODY] });
        await repo.setRecipients(id, count);
        await deps.audit?.record(
          {
            action: "announced",
            entity: "news",
            entityId: postId,
            summary: `“${post.title}” sent to ${count} ${count === 1 ? "member" : "members"} (${options.audience})${before ? ", again" : ""}`,
            after: { audience: options.audience, recipients: count },
          },
          trx,
        );
        return count;
      });
      deps.mail.deliverSoon();
      return queued;
    },

    /** Each time the post was sent: to whom, by whom, and how far its mails have got. */
    progress: (postId: number): Promise<AnnouncementProgress[]> => repository.progressOf(postId),
  };
}
export type AnnouncementsService = ReturnType<typeof createAnnouncementsService>;

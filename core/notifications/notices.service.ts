import type { Kysely, Selectable } from "kysely";
import type { Dialect } from "../../db/connect";
import { groupIdsFromText } from "../../db/queries";
import type { Database, NotificationBatchesTable, NotificationEventsTable } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { dateIn } from "../../lib/time-zones";
import { managesContent, seesGroups } from "../access/access";
import type { NoticePaper } from "../library/library.service";
import type { Viewer } from "../library/library.values";
import type { MailService, NewMail } from "../mail/mail.service";
import type { NoticeMeeting } from "../meetings/meetings.service";
import type { SiteSettings } from "../settings/settings.schema";
import {
  type Channel,
  createNotificationsRepository,
  type NoticeEvent,
  type NotificationsRepository,
} from "./notifications.repository";
import { DEFAULT_PREFERENCES, type Delivery, type DigestFrequency, type FollowKind } from "./notifications.schema";
import { type UnsubscribeKind, unsubscribeToken } from "./unsubscribe";

type Batch = Selectable<NotificationBatchesTable>;
type EventRow = Selectable<NotificationEventsTable>;
type NoticePost = { id: number; title: string; url: string; excerpt: string };

/** Accounts read, and mails queued, per transaction: a crash redoes at most one page. */
const PAGE = 200;
const DAY_MS = 86_400_000;

/** The preferences page every notice and digest links to. */
export const PREFERENCES_PATH = "/dashboard/notifications";

export type NoticesRun = {
  /** What the run did, for the job's log: "…". */
  outcome: "nothing new" | "gathering" | "sent" | "sent before";
  /** Members mailed and items listed in all their mails, by this batch (all its runs). */
  mails: number;
  items: number;
};

const NOTHING_NEW = "Nothing new to tell.";
const GATHERING = "New items are still being gathered into one notice.";

/** A run of the notices job that mailed nothing: the job runner logs it at debug level only. */
export const isIdleNoticesRun = (summary: string) => summary === NOTHING_NEW || summary === GATHERING;

/** A line for the job runner's log. */
export function describeNoticesRun(run: NoticesRun): string {
  if (run.outcome === "nothing new") return NOTHING_NEW;
  if (run.outcome === "gathering") return GATHERING;
  const what = `${run.mails} ${run.mails === 1 ? "mail" : "mails"} listing ${run.items} ${run.items === 1 ? "item" : "items"} in all`;
  return run.outcome === "sent before" ? `Sent before: ${what}.` : `${what[0].toUpperCase()}${what.slice(1)} queued.`;
}

/**
 * Telling members about what they follow (issue 33, decision 0065): instant notices, batched, and
 * the daily and weekly digests. What happened is recorded as an event in the transaction of the
 * write that made it (`record`); the jobs `notices`, `digest-daily` and `digest-weekly` turn the
 * events into mails. Each run works on one batch, a range of events of one channel and period,
 * opened once across processes (its unique key); every member it settles is written with their
 * mail, a page at a time, so that a run taken up again after a crash neither repeats nor loses one.
 * What a mail lists is read when it is sent, for the member it goes to: only what they follow and
 * may see then (members' access: core/access/access.ts; a lapsed company's representatives get none).
 */
export function createNoticesService(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  repository: NotificationsRepository;
  mail: MailService;
  settings: () => Promise<SiteSettings>;
  clock: Clock;
  /** BASE_URL's origin: every link in a notice is absolute. */
  origin: string;
  /** NOTIFY_BATCH_SECONDS: the longest an instant notice waits for more to come with it. */
  batchSeconds: number;
  unsubscribeKey: () => Promise<Buffer>;
  /** The earliest renews_on of a current company today (core/members/membership-day.ts). */
  membershipCutoff: () => Promise<string>;
  /** A category and its ancestors: the category follows a paper in it reaches. */
  lineage: (categoryId: number) => Promise<number[]>;
  papers: (ids: number[], viewer: Viewer) => Promise<NoticePaper[]>;
  posts: (ids: number[]) => Promise<NoticePost[]>;
  meeting: (id: number, viewer: Viewer, origin: string) => Promise<NoticeMeeting | null>;
}) {
  const { repository, clock } = deps;
  const origin = deps.origin.replace(/\/+$/, "");

  /** What a batch's events are, read once per batch for both viewers (admins also see inactive categories). */
  async function contentsOf(events: EventRow[]) {
    const paperIds = [
      ...new Set(events.filter((e) => e.kind === "paper" || e.kind === "revision").map((e) => e.ref_id)),
    ];
    const postIds = [...new Set(events.filter((e) => e.kind === "news").map((e) => e.ref_id))];
    const meetingIds = [
      ...new Set(events.filter((e) => e.kind === "meeting" || e.kind === "meeting_changed").map((e) => e.ref_id)),
    ];
    // Read once for every member: what any member may see (every group's included); each
    // member's mail then keeps only what is for their groups (itemsFor).
    const member: Viewer = { signedIn: true, admin: false, groups: "all" };
    const admin: Viewer = { signedIn: true, admin: true };
    const [memberPapers, adminPapers, posts, memberMeetings, adminMeetings] = await Promise.all([
      deps.papers(paperIds, member),
      deps.papers(paperIds, admin),
      deps.posts(postIds),
      Promise.all(meetingIds.map((id) => deps.meeting(id, member, origin))),
      Promise.all(meetingIds.map((id) => deps.meeting(id, admin, origin))),
    ]);
    const byId = <T extends { id: number }>(list: (T | null)[]) =>
      new Map(list.filter((x): x is T => x !== null).map((x) => [x.id, x]));
    // Which followed categories reach each paper event: the event's category and its ancestors.
    const reaches = new Map<number, Set<number>>();
    for (const event of events) {
      if (event.category_id !== null && !reaches.has(event.category_id)) {
        reaches.set(event.category_id, new Set(await deps.lineage(event.category_id)));
      }
    }
    return {
      papers: { member: byId(memberPapers), admin: byId(adminPapers) },
      posts: byId(posts),
      meetings: { member: byId(memberMeetings), admin: byId(adminMeetings) },
      reaches,
    };
  }
  type Contents = Awaited<ReturnType<typeof contentsOf>>;

  type Choices = {
    digest: DigestFrequency;
    follows: { kind: FollowKind; category_id: number | null; delivery: Delivery }[];
  };

  /** What one member's mail lists: each thing once, what they follow by this channel and may see. */
  function itemsFor(
    events: EventRow[],
    contents: Contents,
    choices: Choices,
    delivery: Delivery,
    reader: { admin: boolean; groups: readonly number[] },
  ) {
    const { admin } = reader;
    // A group's paper or meeting reaches only that group's members (issue 36); admins and editors all.
    const forReader = (item: { group_ids: readonly number[] | null }) =>
      seesGroups({ signedIn: true, admin, groups: reader.groups }, item.group_ids);
    const follows = choices.follows.filter((f) => f.delivery === delivery);
    const news = follows.some((f) => f.kind === "news");
    const meetings = follows.some((f) => f.kind === "meetings");
    const categories = new Set(follows.filter((f) => f.kind === "category").map((f) => f.category_id));
    const papers = new Map<number, { paper: NoticePaper; revised: boolean }>();
    const posts = new Map<number, NoticePost>();
    const newMeetings = new Map<number, NoticeMeeting>();
    const changed = new Map<number, NoticeMeeting>();
    const paperOf = admin ? contents.papers.admin : contents.papers.member;
    const meetingOf = admin ? contents.meetings.admin : contents.meetings.member;
    for (const event of events) {
      if (event.kind === "paper" || event.kind === "revision") {
        const reach = event.category_id === null ? undefined : contents.reaches.get(event.category_id);
        if (!reach || ![...reach].some((id) => categories.has(id))) continue;
        const paper = paperOf.get(event.ref_id);
        if (!paper || !forReader(paper)) continue;
        const known = papers.get(paper.id);
        // A paper new in this batch is new, whatever was revised after.
        papers.set(paper.id, {
          paper,
          revised: known ? known.revised && event.kind === "revision" : event.kind === "revision",
        });
      } else if (event.kind === "news" && news) {
        const post = contents.posts.get(event.ref_id);
        if (post) posts.set(post.id, post);
      } else if ((event.kind === "meeting" && meetings) || (event.kind === "meeting_changed" && meetings)) {
        const meeting = meetingOf.get(event.ref_id);
        if (!meeting || !forReader(meeting)) continue;
        if (event.kind === "meeting") newMeetings.set(meeting.id, meeting);
        else if (!newMeetings.has(meeting.id)) changed.set(meeting.id, meeting);
      }
    }
    return {
      papers: [...papers.values()],
      posts: [...posts.values()],
      newMeetings: [...newMeetings.values()],
      changed: [...changed.values()],
    };
  }
  type Items = ReturnType<typeof itemsFor>;
  const countOf = (items: Items) =>
    items.papers.length + items.posts.length + items.newMeetings.length + items.changed.length;

  /** The mail's text: the same source for both parts (core/mail/mail-html.tsx lays it out). */
  // The preferences and the unsubscribe address are in every such mail's footer (core/services.ts `parts`).
  function textOf(items: Items, intro: string, firstName: string): string {
    const sections: string[] = [`Hello ${firstName || "there"},`, intro];
    if (items.papers.length) {
      sections.push("IN THE LIBRARY");
      for (const { paper, revised } of items.papers) {
        const title = [paper.number, paper.name].filter(Boolean).join(" ");
        const label = revised ? `New revision${paper.revision ? ` (${paper.revision})` : ""}: ${title}` : title;
        const lines = [`${label} · ${paper.category.name}`, `${origin}${paper.file_url ?? paper.category.url}`];
        if (paper.excerpt) lines.push(paper.excerpt);
        sections.push(lines.join("\n"));
      }
    }
    if (items.posts.length) {
      sections.push("NEWS");
      for (const post of items.posts) {
        sections.push([post.title, `${origin}${post.url}`, ...(post.excerpt ? [post.excerpt] : [])].join("\n"));
      }
    }
    if (items.newMeetings.length || items.changed.length) {
      sections.push("MEETINGS");
      const place = (m: NoticeMeeting) => (m.where ? `${m.when} · ${m.where}` : m.when);
      for (const meeting of items.newMeetings) sections.push(`${meeting.title}\n${place(meeting)}\n${meeting.url}`);
      for (const meeting of items.changed) {
        sections.push(`Changed: ${meeting.title} is now ${place(meeting)}\n${meeting.url}`);
      }
    }
    return sections.join("\n\n");
  }

  /** One page of accounts settled: their mails built, queued and recorded in one transaction. */
  async function settlePage(
    batch: Batch,
    events: EventRow[],
    contents: Contents,
    accounts: Awaited<ReturnType<NotificationsRepository["accountsAfter"]>>,
    site: SiteSettings,
  ): Promise<number> {
    const ids = accounts.map((a) => a.id);
    const [{ preferences, follows }, settled] = await Promise.all([
      repository.choicesOf(ids),
      repository.settledAmong(batch.id, ids),
    ]);
    const stored = new Map(preferences.map((p) => [p.user_id, p]));
    const key = await deps.unsubscribeKey();
    const siteName = site["site.name"];
    const delivery: Delivery = batch.channel === "instant" ? "instant" : "digest";
    const kind: UnsubscribeKind = batch.channel === "instant" ? "notices" : "digest";
    const rows: { user_id: number; items: number }[] = [];
    const mails = new Map<number, NewMail>();
    for (const account of accounts) {
      if (settled.has(account.id)) continue;
      const admin = managesContent(account.role);
      // Members' access (core/access/access.ts): a lapsed company's representatives hear of nothing.
      const hasAccess = admin || account.company_id === null || Number(account.company_current) === 1;
      const own = stored.get(account.id);
      const choices: Choices = own
        ? { digest: own.digest, follows: follows.filter((f) => f.user_id === account.id) }
        : {
            digest: DEFAULT_PREFERENCES.digest,
            follows: DEFAULT_PREFERENCES.follows.map((f) => ({
              kind: f.kind,
              category_id: null,
              delivery: f.delivery,
            })),
          };
      const wanted = batch.channel === "instant" || choices.digest === batch.channel;
      const items =
        hasAccess && wanted
          ? itemsFor(events, contents, choices, delivery, { admin, groups: groupIdsFromText(account.group_ids) })
          : null;
      const count = items ? countOf(items) : 0;
      rows.push({ user_id: account.id, items: count });
      if (!items || count === 0) continue;
      const unsubscribe = `${origin}/unsubscribe/${unsubscribeToken(key, account.id, kind)}`;
      const what = `${count} new ${count === 1 ? "item" : "items"}`;
      mails.set(account.id, {
        join_request_id: null,
        purpose: batch.channel === "instant" ? "notice" : "digest",
        to_address: account.email,
        reply_to: null,
        subject:
          batch.channel === "instant"
            ? `${siteName}: ${what} you follow`
            : `${siteName} ${batch.channel} digest: ${what}`,
        body_text: textOf(
          items,
          batch.channel === "instant"
            ? `New at ${siteName} in what you follow:`
            : `Your ${batch.channel} digest of what you follow at ${siteName}: what is new since the last one.`,
          account.first_name,
        ),
        list_unsubscribe: unsubscribe,
      });
    }
    let queued = 0;
    await deps.db.transaction().execute(async (trx) => {
      const repo = createNotificationsRepository(trx);
      const fresh = await repo.settle(batch.id, rows, clock().toISOString());
      const owed = [...mails.entries()].filter(([userId]) => fresh.has(userId)).map(([, mail]) => mail);
      await deps.mail.enqueue(owed, trx);
      queued = owed.length;
    });
    if (queued > 0) deps.mail.deliverSoon();
    return queued;
  }

  /** Settles every member the batch may concern, then closes it. */
  async function work(batch: Batch, signal?: AbortSignal): Promise<NoticesRun> {
    const events = await repository.eventsBetween(batch.from_event_id, batch.to_event_id);
    if (events.length > 0) {
      const [contents, site, cutoff] = await Promise.all([
        contentsOf(events),
        deps.settings(),
        deps.membershipCutoff(),
      ]);
      const reach = {
        news: events.some((e) => e.kind === "news"),
        meetings: events.some((e) => e.kind === "meeting" || e.kind === "meeting_changed"),
        categories: [...new Set([...contents.reaches.values()].flatMap((set) => [...set]))],
      };
      let after = 0;
      for (;;) {
        signal?.throwIfAborted();
        let accounts: Awaited<ReturnType<NotificationsRepository["accountsAfter"]>>;
        let last: number;
        if (batch.channel === "instant") {
          // Only members with an instant follow these events reach: nobody else is read.
          const ids = await repository.instantFollowersAfter(reach, after, PAGE);
          if (ids.length === 0) break;
          last = ids[ids.length - 1];
          accounts = await repository.accountsAfter(deps.dialect, 0, PAGE, cutoff, ids);
        } else {
          accounts = await repository.accountsAfter(deps.dialect, after, PAGE, cutoff);
          if (accounts.length === 0) break;
          last = accounts[accounts.length - 1].id;
        }
        await settlePage(batch, events, contents, accounts, site);
        after = last;
      }
    }
    await repository.closeBatch(batch.id, clock().toISOString());
    return { outcome: "sent", ...(await repository.deliveries(batch.id)) };
  }

  /** The digest's period: the site's date, or the ISO week of it ("2026-W48"). */
  function periodOf(channel: "daily" | "weekly", now: Date, zone: string): string {
    const day = dateIn(now, zone);
    if (channel === "daily") return day;
    const date = new Date(`${day}T00:00:00Z`);
    const weekday = (date.getUTCDay() + 6) % 7;
    const thursday = new Date(date.getTime() + (3 - weekday) * DAY_MS);
    const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
    const week = 1 + Math.floor((thursday.getTime() - yearStart) / DAY_MS / 7);
    return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
  }

  /**
   * Opens the next batch of a channel over the events after the last one (a first one: the last
   * `span`), up to the last event there is, read under the events' lock (lockEvents): no event
   * below that end can still be on its way. `periodFor` names the period (the instant batch's: its end).
   */
  async function open(
    channel: Channel,
    latest: Batch | undefined,
    spanMs: number,
    periodFor: (toId: number) => string,
  ) {
    const now = clock();
    return deps.db.transaction().execute(async (trx) => {
      const repo = createNotificationsRepository(trx);
      await repo.lockEvents(deps.dialect, "exclusive");
      const from = latest?.to_event_id ?? (await repo.lastEventBefore(new Date(now.getTime() - spanMs).toISOString()));
      const to = Math.max(from, (await repo.pendingAfter(from, now.toISOString()))?.lastId ?? from);
      const period = periodFor(to);
      await repo.openBatch({ channel, period, from_event_id: from, to_event_id: to, created_at: now.toISOString() });
      return repo.findBatch(channel, period);
    });
  }

  return {
    /** Records what happened, in the transaction of the write that made it happen. */
    async record(event: NoticeEvent, trx: Kysely<Database>): Promise<void> {
      const repo = createNotificationsRepository(trx);
      await repo.lockEvents(deps.dialect, "shared");
      await repo.recordEvent(event, clock().toISOString());
    },

    /**
     * Instant notices (job `notices`, every minute): what was recorded since the last batch, once
     * nothing new has come for a fifth of NOTIFY_BATCH_SECONDS (twenty uploads in a row make one
     * mail) or the oldest has waited four fifths of it, so that with a run a minute every item
     * leaves within NOTIFY_BATCH_SECONDS. An interrupted batch is finished first.
     */
    async sendInstant(options: { signal?: AbortSignal } = {}): Promise<NoticesRun> {
      let latest = await repository.latestBatch("instant");
      if (latest && latest.done_at === null) {
        await work(latest, options.signal);
        latest = await repository.latestBatch("instant");
      }
      const now = clock();
      const after =
        latest?.to_event_id ?? (await repository.lastEventBefore(new Date(now.getTime() - DAY_MS).toISOString()));
      const pending = await repository.pendingAfter(after, now.toISOString());
      if (!pending) return { outcome: "nothing new", mails: 0, items: 0 };
      const quiet = now.getTime() - Date.parse(pending.newest) >= (deps.batchSeconds * 1000) / 5;
      const waited = now.getTime() - Date.parse(pending.oldest) >= (deps.batchSeconds * 4000) / 5;
      if (!quiet && !waited) return { outcome: "gathering", mails: 0, items: 0 };
      const batch = await open("instant", latest, DAY_MS, String);
      if (!batch) return { outcome: "nothing new", mails: 0, items: 0 };
      if (batch.done_at !== null) return { outcome: "sent before", ...(await repository.deliveries(batch.id)) };
      return work(batch, options.signal);
    },

    /**
     * The daily or weekly digest (jobs `digest-daily`, `digest-weekly`): what was recorded since the
     * channel's last digest, to each member whose digest is this often. One per period (the site's
     * day, or ISO week): run again, it answers what the period's digest did.
     */
    async sendDigest(channel: "daily" | "weekly", options: { signal?: AbortSignal } = {}): Promise<NoticesRun> {
      const site = await deps.settings();
      const period = periodOf(channel, clock(), site["site.timezone"]);
      let latest = await repository.latestBatch(channel);
      if (latest && latest.done_at === null && latest.period !== period) {
        await work(latest, options.signal);
        latest = await repository.latestBatch(channel);
      }
      let batch = latest?.period === period ? latest : undefined;
      batch ??= await open(channel, latest, (channel === "daily" ? 1 : 7) * DAY_MS, () => period);
      if (!batch) return { outcome: "nothing new", mails: 0, items: 0 };
      if (batch.done_at !== null) return { outcome: "sent before", ...(await repository.deliveries(batch.id)) };
      return work(batch, options.signal);
    },
  };
}
export type NoticesService = ReturnType<typeof createNoticesService>;

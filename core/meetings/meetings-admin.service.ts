import type { Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database, Executor } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError } from "../../lib/errors";
import { isRowId } from "../../lib/ids";
import { ALT_REQUIRED, describedImage, type ImageText } from "../../lib/image-text";
import { imageFiles } from "../../lib/image-variants";
import { type StoredImage, storeImage } from "../../lib/images";
import { type Page, pageOf } from "../../lib/pagination";
import { freeSlug, SLUG_ATTEMPTS, slugify } from "../../lib/slug";
import type { FileStorage } from "../../lib/storage";
import { isTimeZone } from "../../lib/time-zones";
import { invalidInput } from "../../lib/validation";
import { editsGroups, type GroupsSeen } from "../access/access";
import type { AuditService } from "../audit/audit.service";
import { checkedAudienceGroups } from "../groups/audience-groups";
import { CHAIR_MEETING_AUDIENCE, CHAIRS_OWN_MEETINGS, CHAIRS_SHARED_MEETING } from "../groups/groups.schema";
import type { Revision } from "../revisions/revisions.schema";
import type { RevisionFields, RevisionsService } from "../revisions/revisions.service";
import type { SearchService } from "../search/search.service";
import { type InvitationChange, invitationChanges } from "./invitation";
import type { CalendarMeeting } from "./meetings.calendar";
import { createMeetingsRepository, type MeetingsRepository } from "./meetings.repository";
import {
  isMeetingOver,
  MEETINGS_PER_PAGE,
  type Meeting,
  type MeetingData,
  type MeetingImage,
  type MeetingSummary,
  type MeetingsAdminQuery,
  meetingUrl,
  type Schedule,
  type ScheduleData,
  type Sponsor,
  type SponsorData,
} from "./meetings.schema";
import {
  calendarOfRow,
  registrationSettingsOf,
  richText,
  toMeetingImage,
  toMeetingSummary,
  toSchedule,
  toSponsor,
} from "./meetings.service";

type Row = NonNullable<Awaited<ReturnType<MeetingsRepository["findById"]>>>;

/** A meeting in the admin's list: the summary with its registration settings. */
export type AdminMeetingSummary = MeetingSummary & { registration_settings: Meeting["registration_settings"] };

const NOT_FOUND = "Meeting not found.";

/**
 * Confirmed attendees' updated calendar invitations (decision 0058), kept by the registrations
 * (registrations.service): `prepare` reads what the mails need before a write's transaction opens
 * (SQLite has one connection) and gives the step that queues them inside it; `committed` sends them soon.
 */
export type InvitationUpdates = {
  prepare(): Promise<(trx: Executor, meeting: CalendarMeeting, change: InvitationChange) => Promise<number>>;
  committed(): void;
};

/**
 * The admin side of meetings (issue 13): meetings with their images, programme and sponsors.
 * Every write is one transaction with its search entry; image files are written before it and
 * removed if it fails, files of removed images only after it has committed.
 */
/** The texts a meeting's revisions keep (decision 0073), by column, in the edit screen's order. */
export const MEETING_REVISION_FIELDS: RevisionFields = [
  { name: "title", label: "Title" },
  { name: "meeting_type", label: "Meeting type" },
  { name: "organization", label: "Organization" },
  { name: "location", label: "Location" },
  { name: "information", label: "Information", rich: true },
  { name: "health", label: "Health and safety", rich: true },
  { name: "registration", label: "Registration", rich: true },
  { name: "content_title", label: "Content title" },
  { name: "content", label: "Content", rich: true },
];
type MeetingTexts = Pick<
  Row,
  | "title"
  | "meeting_type"
  | "organization"
  | "location"
  | "information"
  | "health"
  | "registration"
  | "content_title"
  | "content"
>;
const meetingTexts = (row: MeetingTexts): MeetingTexts => ({
  title: row.title,
  meeting_type: row.meeting_type,
  organization: row.organization,
  location: row.location,
  information: row.information,
  health: row.health,
  registration: row.registration,
  content_title: row.content_title,
  content: row.content,
});

export function createMeetingsAdminService(deps: {
  /** Keeps each save's texts (decision 0073), in the save's transaction. */
  revisions?: RevisionsService;
  /** The audit log (decision 0074): a programme item's, a sponsor's or a picture's change, in its transaction. */
  audit?: Pick<AuditService, "record">;
  db: Kysely<Database>;
  search: SearchService;
  storage: FileStorage;
  clock: Clock;
  /** The site's default zone (settings), for meetings saved without one. */
  defaultTimeZone: () => Promise<string>;
  /** The whole meeting as members read it (the read service), after a write. */
  read: (row: Row) => Promise<Meeting>;
  /** Locks the meeting row while an edit compares it (PostgreSQL). */
  dialect?: Dialect;
  /** The site's public address (BASE_URL's origin): an updated invitation links the meeting's page. */
  origin?: string;
  /** Sends confirmed attendees the updated invitation when an edit moves the meeting's time or place. */
  invitationUpdates?: InvitationUpdates;
  /** Records a new meeting, or a meeting's new time or place, for its followers (issue 33), in the write's transaction. */
  notify?: (
    event: { kind: "meeting" | "meeting_changed"; ref_id: number; category_id: null },
    trx: Kysely<Database>,
  ) => Promise<void>;
}) {
  const { db, search, storage, clock } = deps;

  /** A meeting's part changed: its row in the audit log, under the meeting (decision 0074). */
  const audited = (
    trx: Kysely<Database>,
    meetingId: number,
    action: string,
    summary: string,
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
  ) => deps.audit?.record({ action, entity: "meeting", entityId: meetingId, summary, before, after }, trx);
  const repository = createMeetingsRepository(db);
  const origin = (deps.origin ?? "").replace(/\/+$/, "");

  async function removeFiles(keys: (string | null)[]) {
    const files = keys.flatMap((key) => (key ? imageFiles(key) : []));
    await Promise.allSettled(files.map((file) => storage.remove(file)));
  }

  /** Runs a write in one transaction; files written for it are removed if it does not commit. */
  async function committing<T>(stored: StoredImage[], write: (trx: Executor) => Promise<T>): Promise<T> {
    try {
      return await db.transaction().execute(write);
    } catch (error) {
      await removeFiles(stored.map((s) => s.key));
      throw error;
    }
  }

  /** The meeting as its invitations describe it, read in the write's transaction (locked when `lock`). */
  async function calendarIn(trx: Executor, id: number, lock: boolean): Promise<CalendarMeeting | null> {
    const meetings = createMeetingsRepository(trx);
    const row = await meetings.findForChange(id, lock && deps.dialect === "postgres");
    if (!row) return null;
    return calendarOfRow(row, await meetings.schedulesOf([id]), origin);
  }

  /** Over: its last day has ended where it takes place. An invitation to it is history, not news. */
  const isOver = (meeting: CalendarMeeting): boolean => isMeetingOver(meeting, clock());

  /** What changed of the invitations; none for a stored zone the calendar cannot read (it never was sent). */
  function comparable(before: CalendarMeeting, after: CalendarMeeting): InvitationChange | null {
    if (!isTimeZone(before.timezone) || !isTimeZone(after.timezone)) return null;
    return invitationChanges(before, after);
  }

  /**
   * A write that may move the meeting's time or place (its dates, zone and location, or its
   * programme's times), in one transaction with what it owes confirmed attendees: when what an
   * invitation shows changed, and the meeting is not over, each gets the updated invitation
   * (decision 0058), queued with the save so that neither commits without the other.
   */
  async function changing<T>(id: number, stored: StoredImage[], write: (trx: Executor) => Promise<T>): Promise<T> {
    const updates = deps.invitationUpdates;
    const send = updates ? await updates.prepare() : null;
    let queued = 0;
    const result = await committing(stored, async (trx) => {
      const watched = send !== null || deps.notify !== undefined;
      const before = watched ? await calendarIn(trx, id, true) : null;
      const written = await write(trx);
      const after = before ? await calendarIn(trx, id, false) : null;
      const change = before && after ? comparable(before, after) : null;
      if (before && after && change && !isOver(before) && !isOver(after)) {
        if (send) queued = await send(trx, after, change);
        await deps.notify?.({ kind: "meeting_changed", ref_id: id, category_id: null }, trx);
      }
      return written;
    });
    if (queued > 0) updates?.committed();
    return result;
  }

  /** Stores uploaded images one after another; if one is refused, those already stored go. */
  async function storeAll(files: Uint8Array[], folder: string, field: string): Promise<StoredImage[]> {
    const stored: StoredImage[] = [];
    try {
      for (const file of files) stored.push(await storeImage(storage, folder, file, field));
      return stored;
    } catch (error) {
      await removeFiles(stored.map((s) => s.key));
      throw error;
    }
  }

  /**
   * The meeting's visibility and groups as sent (issue 36): `audience` when given, else `group_ids`
   * when given, else SPEC's visibility. A client that knows nothing of groups must not open a group's
   * meeting by saving it: with visibility left out, an update keeps the meeting's audience (a new
   * meeting is public); with visibility saying members, its groups stay.
   */
  async function audienceOfInput(
    data: MeetingData,
    trx: Executor,
    current: Row | undefined,
    edits: GroupsSeen,
  ): Promise<{ visibility: "public" | "members"; groups: number[] | "keep" }> {
    const chosen = await audienceAsSent(data, trx, current);
    if (edits !== "all") {
      const before = current?.visibility === "members" ? await createMeetingsRepository(trx).groupsOf(current.id) : [];
      checkChairsAudience(chosen, edits, before);
    }
    return chosen;
  }

  async function audienceAsSent(
    data: MeetingData,
    trx: Executor,
    current?: Row,
  ): Promise<{ visibility: "public" | "members"; groups: number[] | "keep" }> {
    const audience = data.audience ?? (data.group_ids?.length ? "groups" : undefined);
    if (audience === undefined) {
      const visibility = data.visibility ?? current?.visibility ?? "public";
      return { visibility, groups: visibility === "members" ? "keep" : [] };
    }
    if (audience !== "groups") return { visibility: audience, groups: [] };
    return { visibility: "members", groups: await checkedAudienceGroups(data.group_ids, trx) };
  }

  /**
   * A chair's meeting stays their groups' (issue 36): for groups only, one of them theirs, no
   * group added that they do not chair, and none taken away (a co-organising group is the
   * secretariat's to remove).
   */
  function checkChairsAudience(
    chosen: { visibility: "public" | "members"; groups: number[] | "keep" },
    chairs: readonly number[],
    before: readonly number[],
  ) {
    const groups = chosen.groups === "keep" ? before : chosen.groups;
    const theirs =
      chosen.visibility === "members" &&
      groups.some((id) => chairs.includes(id)) &&
      groups.every((id) => chairs.includes(id) || before.includes(id)) &&
      before.every((id) => chairs.includes(id) || groups.includes(id));
    if (!theirs) throw invalidInput({ audience: [CHAIR_MEETING_AUDIENCE] });
  }

  /**
   * The meeting, when the caller may change it (issue 36): 404 for none; for a chair, 403 for a
   * meeting that is not for one of their groups (a public or every member's meeting is the editors').
   */
  async function editable(id: number, edits: GroupsSeen): Promise<Row> {
    const row = await existing(id);
    if (edits === "all") return row;
    const groups = row.visibility === "members" ? await repository.groupsOf(id) : [];
    if (!editsGroups(edits, groups)) throw new AppError("forbidden", CHAIRS_OWN_MEETINGS);
    return row;
  }

  async function index(row: Row, trx: Executor) {
    const members = row.visibility === "members";
    const groups = members ? await createMeetingsRepository(trx).groupsOf(row.id) : [];
    await search.index(
      {
        kind: "meeting",
        refId: row.id,
        url: meetingUrl(row.slug, members ? "members" : "public"),
        title: row.title,
        html: [row.location, row.organization, row.content_title, row.content, row.information]
          .filter(Boolean)
          .join("\n"),
        audience: members ? "members" : "public",
        groups,
      },
      trx,
    );
  }

  async function existing(id: number): Promise<Row> {
    const row = isRowId(id) ? await repository.findById(id) : undefined;
    if (!row) throw new AppError("not_found", NOT_FOUND);
    return row;
  }

  async function columns(data: MeetingData) {
    return {
      title: data.title,
      type: data.type,
      meeting_type: data.meeting_type,
      organization: data.organization,
      start_date: data.start_date,
      end_date: data.end_date,
      location: data.location,
      information: richText(data.information),
      health: richText(data.health),
      registration: richText(data.registration),
      content_title: data.content_title,
      content: richText(data.content),
      timezone: data.timezone ?? (await deps.defaultTimeZone()),
      registration_open: data.registration_status === "open" ? 1 : 0,
      registration_closes_on: data.registration_closes_on,
      capacity: data.capacity,
      registration_auto_confirm: data.auto_confirm ? 1 : 0,
      registration_waitlist: data.waitlist ? 1 : 0,
    };
  }

  const PER_PICTURE =
    "Send one alt text per picture, in the order of the files (and, if any, one decorative flag per picture: true or false).";

  /** The text of each new picture, in upload order: alt text, or decorative (decision 0041). */
  function textsOf(data: MeetingData, count: number): ImageText[] {
    // Matched by position: a list of another length (an empty file left out, an unticked box that
    // sends nothing) would give a picture another's text, so it is refused rather than guessed.
    const mismatched = (list: unknown[]) => count > 0 && list.length > 0 && list.length !== count;
    if (mismatched(data.images_alt) || mismatched(data.images_decorative)) {
      throw invalidInput({ images_alt: [PER_PICTURE] });
    }
    const texts: ImageText[] = [];
    for (let i = 0; i < count; i++) {
      const text = describedImage(data.images_alt[i] ?? "", data.images_decorative[i] ?? false);
      if (!text) throw invalidInput({ images_alt: [count > 1 ? `Picture ${i + 1}: ${ALT_REQUIRED}` : ALT_REQUIRED] });
      texts.push(text);
    }
    return texts;
  }

  async function addImages(meetingId: number, stored: StoredImage[], texts: ImageText[], trx: Executor) {
    const meetings = createMeetingsRepository(trx);
    const after = await meetings.lastImagePosition(meetingId);
    const now = clock().toISOString();
    await meetings.addImages(
      stored.map((image, i) => ({
        meeting_id: meetingId,
        path: image.key,
        width: image.width,
        height: image.height,
        position: after + 1 + i,
        alt: texts[i].alt,
        decorative: texts[i].decorative ? 1 : 0,
        created_at: now,
      })),
    );
  }

  /** A schedule's day lies within its meeting's dates. */
  function checkDay(meeting: Row, data: ScheduleData) {
    const last = meeting.end_date ?? meeting.start_date;
    if (data.meeting_date < meeting.start_date || data.meeting_date > last) {
      throw invalidInput({
        meeting_date: [`The date must be within the meeting's dates (${meeting.start_date} to ${last}).`],
      });
    }
  }

  /** A meeting whose dates move keeps its programme only if every day still fits. */
  async function checkProgrammeFits(id: number, data: MeetingData) {
    const last = data.end_date ?? data.start_date;
    const outside = (await repository.schedulesOf([id])).filter(
      (s) => s.meeting_date < data.start_date || s.meeting_date > last,
    );
    if (outside.length > 0) {
      throw invalidInput({
        start_date: [
          `The programme has sessions on ${[...new Set(outside.map((s) => s.meeting_date))].join(", ")}: move or delete them first, or keep those days within the dates.`,
        ],
      });
    }
  }

  return {
    /**
     * SPEC §7 'GET /dashboard/meeting': every meeting, newest first, searchable (exact totals); a
     * chair's `edits`, their groups' meetings only.
     */
    async adminList(query: MeetingsAdminQuery, edits: GroupsSeen = "all"): Promise<Page<AdminMeetingSummary>> {
      const matching = query.search ? search.matchingIds("meeting", query.search) : undefined;
      // A chair's list: their groups' meetings (issue 36).
      const groups = edits === "all" ? undefined : edits;
      const [rows, total] = await Promise.all([
        repository.adminList(matching, (query.page - 1) * MEETINGS_PER_PAGE, MEETINGS_PER_PAGE, groups),
        repository.adminCount(matching, groups),
      ]);
      const images = await repository.imagesOf(rows.map((r) => r.id));
      const first = new Map<number, (typeof images)[number]>();
      for (const image of images) if (!first.has(image.meeting_id)) first.set(image.meeting_id, image);
      const data = rows.map(
        (row): AdminMeetingSummary => ({
          ...toMeetingSummary(row, first.get(row.id)),
          registration_settings: registrationSettingsOf(row),
        }),
      );
      return pageOf(data, query.page, MEETINGS_PER_PAGE, total);
    },

    /**
     * Whether the caller may manage this meeting and its registrations (issue 36): 404 when there is
     * no such meeting, 403 for a chair when it is not one of their groups' (editable).
     */
    async checkEdits(id: number, edits: GroupsSeen): Promise<void> {
      await editable(id, edits);
    },

    /** The meeting to edit: 403 for a chair's meeting of another group (editable). */
    async get(id: number, edits: GroupsSeen = "all"): Promise<Meeting> {
      return deps.read(await editable(id, edits));
    },

    /** A new meeting with empty schedules and sponsors (SPEC §4); its slug from the title, unique by the database. */
    async create(data: MeetingData, images: Uint8Array[] = [], edits: GroupsSeen = "all"): Promise<Meeting> {
      const values = await columns(data);
      const texts = textsOf(data, images.length);
      const stored = await storeAll(images, "meetings", "images");
      const base = slugify(data.title, "meeting");
      const now = clock().toISOString();
      for (let attempt = 0; ; attempt++) {
        try {
          const row = await db.transaction().execute(async (trx) => {
            const meetings = createMeetingsRepository(trx);
            const audience = await audienceOfInput(data, trx, undefined, edits);
            const inserted = await meetings.insert({
              ...values,
              visibility: audience.visibility,
              slug: await freeSlug(meetings.slugsLike, base, attempt),
              created_at: now,
              updated_at: now,
            });
            if (audience.groups !== "keep") await meetings.setGroups(inserted.id, audience.groups);
            await addImages(inserted.id, stored, texts, trx);
            await index(inserted, trx);
            await deps.revisions?.record(trx, "meeting", inserted.id, meetingTexts(inserted), { action: "create" });
            await deps.notify?.({ kind: "meeting", ref_id: inserted.id, category_id: null }, trx);
            return inserted;
          });
          return deps.read(row);
        } catch (error) {
          const slugTaken = isUniqueViolation(error, { table: "meetings", column: "slug" });
          if (slugTaken && attempt + 1 < SLUG_ATTEMPTS) continue;
          await removeFiles(stored.map((s) => s.key));
          if (slugTaken) throw new AppError("conflict", "Another meeting took this title's address. Please try again.");
          throw error;
        }
      }
    },

    /** Replaces a meeting's fields by id and adds the new images; the slug stays, so links keep working. */
    async update(
      id: number,
      data: MeetingData,
      images: Uint8Array[] = [],
      edits: GroupsSeen = "all",
    ): Promise<Meeting> {
      const before = await editable(id, edits);
      await checkProgrammeFits(id, data);
      const values = await columns(data);
      const texts = textsOf(data, images.length);
      const stored = await storeAll(images, "meetings", "images");
      const row = await changing(id, stored, async (trx) => {
        const meetings = createMeetingsRepository(trx);
        const audience = await audienceOfInput(data, trx, before, edits);
        const updated = await meetings.update(
          id,
          { ...values, visibility: audience.visibility },
          clock().toISOString(),
        );
        if (!updated) throw new AppError("not_found", NOT_FOUND);
        if (audience.groups !== "keep") await meetings.setGroups(id, audience.groups);
        await addImages(id, stored, texts, trx);
        await index(updated, trx);
        await deps.revisions?.record(trx, "meeting", id, meetingTexts(updated), { before: meetingTexts(before) });
        return updated;
      });
      return deps.read(row);
    },

    /** A meeting's kept revisions, newest first, each with what changed (decision 0073). */
    async revisions(id: number, edits: GroupsSeen = "all"): Promise<Revision[]> {
      await editable(id, edits);
      return deps.revisions ? deps.revisions.list("meeting", id, MEETING_REVISION_FIELDS) : [];
    },

    /**
     * Puts a revision's texts back as a new save, through the same change as an edit (calendar
     * invitations and those following hear of a changed title or place). Dates, visibility and
     * registration settings are not texts and stay as they are.
     */
    async restoreRevision(id: number, revisionId: number, edits: GroupsSeen = "all"): Promise<Meeting> {
      const current = await editable(id, edits);
      if (!deps.revisions) throw new AppError("not_found", "Revision not found.");
      const kept = await deps.revisions.fields("meeting", id, revisionId);
      const values = meetingTexts({
        ...meetingTexts(current),
        ...(kept as Partial<MeetingTexts>),
        title: kept.title ?? current.title,
      });
      const row = await changing(id, [], async (trx) => {
        const updated = await createMeetingsRepository(trx).update(id, values, clock().toISOString());
        if (!updated) throw new AppError("not_found", NOT_FOUND);
        await index(updated, trx);
        await deps.revisions?.record(trx, "meeting", id, meetingTexts(updated), { restoredFrom: revisionId });
        return updated;
      });
      return deps.read(row);
    },

    /**
     * Deletes the meeting with its images, programme, sponsors and search entry; the files after the
     * commit. A chair deletes their groups' meeting, not one another group shares (decision 0085).
     */
    async remove(id: number, edits: GroupsSeen = "all"): Promise<void> {
      await editable(id, edits);
      if (edits !== "all" && (await repository.groupsOf(id)).some((group) => !edits.includes(group))) {
        throw new AppError("forbidden", CHAIRS_SHARED_MEETING);
      }
      const { images, sponsors } = await committing([], async (trx) => {
        const meetings = createMeetingsRepository(trx);
        const images = await meetings.imagesOf([id]);
        const sponsors = await meetings.sponsorsOf(id);
        if (!(await meetings.remove(id))) throw new AppError("not_found", NOT_FOUND);
        await search.remove("meeting", id, trx);
        await deps.revisions?.removeAll(trx, "meeting", id);
        return { images, sponsors };
      });
      await removeFiles([...images.map((i) => i.path), ...sponsors.map((s) => s.image)]);
    },

    /** Changes one picture's alt text or decorative flag (parsed by imageTextSchema). */
    async describeImage(
      meetingId: number,
      imageId: number,
      text: ImageText,
      edits: GroupsSeen = "all",
    ): Promise<MeetingImage> {
      await editable(meetingId, edits);
      const described = describedImage(text.alt, text.decorative);
      if (!described) throw invalidInput({ alt: [ALT_REQUIRED] });
      const row = await committing([], async (trx) => {
        const changed = await createMeetingsRepository(trx).describeImage(meetingId, imageId, {
          alt: described.alt,
          decorative: described.decorative ? 1 : 0,
        });
        if (changed) {
          await audited(trx, meetingId, "image_described", `Picture #${imageId}'s text changed`, null, {
            alt: described.alt,
            decorative: described.decorative,
          });
        }
        return changed;
      });
      if (!row) throw new AppError("not_found", "Image not found.");
      return toMeetingImage(row);
    },

    /** Removes one image of this meeting (an id of another meeting's image is not found). */
    async removeImage(meetingId: number, imageId: number, edits: GroupsSeen = "all"): Promise<{ image_id: number }> {
      await editable(meetingId, edits);
      const removed = await committing([], async (trx) => {
        const image = await createMeetingsRepository(trx).removeImage(meetingId, imageId);
        if (!image) throw new AppError("not_found", "Image not found.");
        await audited(trx, meetingId, "image_removed", `Picture #${imageId} removed`, { image: image.path }, null);
        return image;
      });
      await removeFiles([removed.path]);
      return { image_id: removed.id };
    },

    async addSchedule(meetingId: number, data: ScheduleData, edits: GroupsSeen = "all"): Promise<Schedule> {
      checkDay(await editable(meetingId, edits), data);
      const row = await changing(meetingId, [], async (trx) => {
        const meetings = createMeetingsRepository(trx);
        const inserted = await meetings.insertSchedule({
          ...data,
          event_id: meetingId,
          is_evening: data.is_evening ? 1 : 0,
        });
        await meetings.touch(meetingId, clock().toISOString());
        await audited(trx, meetingId, "schedule_added", `Programme item of ${data.meeting_date} added`, null, {
          ...data,
        });
        return inserted;
      });
      return toSchedule(row);
    },

    async updateSchedule(
      meetingId: number,
      id: number,
      data: ScheduleData,
      edits: GroupsSeen = "all",
    ): Promise<Schedule> {
      checkDay(await editable(meetingId, edits), data);
      const row = await changing(meetingId, [], async (trx) => {
        const meetings = createMeetingsRepository(trx);
        const updated = await meetings.updateSchedule(meetingId, id, { ...data, is_evening: data.is_evening ? 1 : 0 });
        if (!updated) throw new AppError("not_found", "Schedule not found.");
        await meetings.touch(meetingId, clock().toISOString());
        await audited(trx, meetingId, "schedule_changed", `Programme item #${id} of ${data.meeting_date} saved`, null, {
          ...data,
        });
        return updated;
      });
      return toSchedule(row);
    },

    async removeSchedule(meetingId: number, id: number, edits: GroupsSeen = "all"): Promise<void> {
      await editable(meetingId, edits);
      await changing(meetingId, [], async (trx) => {
        const meetings = createMeetingsRepository(trx);
        if (!(await meetings.removeSchedule(meetingId, id))) throw new AppError("not_found", "Schedule not found.");
        await meetings.touch(meetingId, clock().toISOString());
        await audited(trx, meetingId, "schedule_removed", `Programme item #${id} removed`, null, null);
      });
    },

    async addSponsor(
      meetingId: number,
      data: SponsorData,
      logo?: Uint8Array,
      edits: GroupsSeen = "all",
    ): Promise<Sponsor> {
      await editable(meetingId, edits);
      const stored = logo ? await storeAll([logo], "sponsors", "image") : [];
      const row = await committing(stored, async (trx) => {
        const meetings = createMeetingsRepository(trx);
        const position = (await meetings.lastSponsorPosition(meetingId)) + 1;
        const inserted = await meetings.insertSponsor({
          event_id: meetingId,
          name: data.name,
          link: data.link,
          image: stored[0]?.key ?? null,
          position,
        });
        await audited(trx, meetingId, "sponsor_added", `Sponsor “${data.name}” added`, null, {
          name: data.name,
          link: data.link,
          logo: inserted.image,
        });
        return inserted;
      });
      return toSponsor(row);
    },

    /** Replaces the name and link; a new logo replaces the old one (whose files go after the commit). */
    async updateSponsor(
      meetingId: number,
      id: number,
      data: SponsorData,
      logo?: Uint8Array,
      edits: GroupsSeen = "all",
    ): Promise<Sponsor> {
      await editable(meetingId, edits);
      const stored = logo ? await storeAll([logo], "sponsors", "image") : [];
      const { before, row } = await committing(stored, async (trx) => {
        const meetings = createMeetingsRepository(trx);
        const before = await meetings.findSponsor(meetingId, id);
        if (!before) throw new AppError("not_found", "Sponsor not found.");
        const row = await meetings.updateSponsor(meetingId, id, {
          name: data.name,
          link: data.link,
          ...(stored[0] ? { image: stored[0].key } : {}),
        });
        if (!row) throw new AppError("not_found", "Sponsor not found.");
        await audited(
          trx,
          meetingId,
          "sponsor_changed",
          `Sponsor “${data.name}” changed`,
          { name: before.name, link: before.link, logo: before.image },
          { name: row.name, link: row.link, logo: row.image },
        );
        return { before, row };
      });
      if (stored[0] && before.image !== stored[0].key) await removeFiles([before.image]);
      return toSponsor(row);
    },

    async removeSponsor(meetingId: number, id: number, edits: GroupsSeen = "all"): Promise<void> {
      await editable(meetingId, edits);
      const removed = await committing([], async (trx) => {
        const sponsor = await createMeetingsRepository(trx).removeSponsor(meetingId, id);
        if (!sponsor) throw new AppError("not_found", "Sponsor not found.");
        await audited(trx, meetingId, "sponsor_removed", `Sponsor #${id} removed`, { logo: sponsor.image }, null);
        return sponsor;
      });
      await removeFiles([removed.image]);
    },
  };
}
export type MeetingsAdminService = ReturnType<typeof createMeetingsAdminService>;

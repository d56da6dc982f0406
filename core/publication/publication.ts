import { z } from "zod";
import { invalidInput } from "../../lib/validation";

/**
 * Draft, scheduled, published: the states of what the secretariat publishes (news posts and CMS
 * pages, decisions 0070, 0071, 0072). Stored as `status` ('draft' or 'published') and a publication
 * time: a scheduled item is a published one dated ahead, so the query decides when it appears and
 * nothing can miss its schedule.
 */
export type Publication = "draft" | "scheduled" | "published";
export type StoredPublication = { status: "draft" | "published"; published_at: string | null };

export const publicationStatusSchema = (noun: "post" | "page") =>
  z.enum(["draft", "scheduled", "published"], { error: "The status must be draft, scheduled or published." }).meta({
    description:
      "`draft`: seen by the admins alone, anywhere; `scheduled`: the same until `publish_at`, then published by " +
      `itself (no job needed); \`published\`: seen by everyone. Without it a new ${noun} is published and an ` +
      `updated one keeps its state.`,
  });

/** When a scheduled item appears: a date and time with its offset, in the future. */
export const PUBLISH_AT_FORMAT =
  "The publication time must be a date and time with its offset, such as 2026-12-01T09:00:00+01:00.";

/** `publish_at` as the inputs take it: required with `scheduled` (checked against the clock by `placed`). */
export const publishAtInput = (noun: "post" | "page") =>
  z
    .union([z.iso.datetime({ offset: true, error: PUBLISH_AT_FORMAT }), z.literal(""), z.null()])
    .transform((v) => v || undefined)
    .optional()
    .meta({
      description: `With \`status: scheduled\`: when the ${noun} appears, ISO 8601 with an offset, in the future.`,
    });

/** The state an admin sees: a published item dated ahead is scheduled; no date means since ever. */
export function stateOf(row: StoredPublication, now: string): Publication {
  if (row.status === "draft") return "draft";
  return row.published_at !== null && row.published_at > now ? "scheduled" : "published";
}

/** Whether everyone sees it at `now`. */
export const isVisible = (row: StoredPublication, now: string) => stateOf(row, now) === "published";

/**
 * Where an item stands after a save: its stored status and date. Published now: dated now unless
 * it was visible already; scheduled: dated at `publish_at`, which must lie ahead; a draft keeps its
 * date (it is dated again when published); no state asked: as it was (a new item is published).
 */
export function placed(
  input: { status?: Publication; publish_at?: string },
  before: StoredPublication | null,
  now: string,
  noun: "post" | "page",
): { status: "draft" | "published"; published_at: string | null } {
  const wanted = input.status ?? (before ? stateOf(before, now) : "published");
  if (wanted === "draft") return { status: "draft", published_at: before?.published_at ?? now };
  if (wanted === "scheduled") {
    if (!input.publish_at) throw invalidInput({ publish_at: [`Give the date and time the ${noun} is to appear.`] });
    const at = new Date(input.publish_at);
    if (at.toISOString() <= now) throw invalidInput({ publish_at: ["The publication time must be in the future."] });
    return { status: "published", published_at: at.toISOString() };
  }
  if (before && isVisible(before, now)) return { status: "published", published_at: before.published_at };
  return { status: "published", published_at: now };
}

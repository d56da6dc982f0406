import { z } from "zod";

export const FOLLOW_KINDS = ["category", "news", "meetings"] as const;
export const DELIVERIES = ["instant", "digest"] as const;
export const DIGESTS = ["daily", "weekly", "never"] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];
export type Delivery = (typeof DELIVERIES)[number];
export type DigestFrequency = (typeof DIGESTS)[number];

/** Most things one member may follow: every category of a large library, with room. */
export const MAX_FOLLOWS = 500;

const KIND_MESSAGE = "Choose what to follow: category, news or meetings.";
const DELIVERY_MESSAGE = "Choose how to hear of it: instant (within minutes) or digest.";
const DIGEST_MESSAGE = "Choose how often the digest comes: daily, weekly or never.";
const ID_MESSAGE = "Give the id of the library category to follow.";
const NO_ID_MESSAGE = "The news and the meetings are followed as a whole: leave out the id.";

/** A form sends text; JSON sends a number. Empty means none. */
const optionalId = z.preprocess(
  (v) => (v === "" || v === null ? undefined : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v),
  z.number({ error: ID_MESSAGE }).int({ error: ID_MESSAGE }).positive({ error: ID_MESSAGE }).optional(),
);

const target = {
  kind: z.enum(FOLLOW_KINDS, { error: KIND_MESSAGE }),
  id: optionalId,
};

/** A category needs its id; the news and the meetings have none. */
function idFitsKind(value: { kind: FollowKind; id?: number }, ctx: z.RefinementCtx) {
  if (value.kind === "category" && value.id === undefined)
    ctx.addIssue({ code: "custom", path: ["id"], message: ID_MESSAGE });
  if (value.kind !== "category" && value.id !== undefined)
    ctx.addIssue({ code: "custom", path: ["id"], message: NO_ID_MESSAGE });
}

export const followSchema = z
  .object({ ...target, delivery: z.enum(DELIVERIES, { error: DELIVERY_MESSAGE }) })
  .superRefine(idFitsKind)
  .meta({ id: "Follow" });
export type Follow = z.output<typeof followSchema>;

/** DELETE /api/dashboard/notifications/follow: what to stop following. */
export const unfollowSchema = z.object(target).superRefine(idFitsKind);
export type Unfollow = z.output<typeof unfollowSchema>;

const booleanish = z.preprocess(
  (v) => (v === "true" || v === "on" || v === "1" ? true : v === "false" || v === "0" ? false : v),
  z.boolean({ error: "Say true or false." }),
);

/** POST /api/dashboard/notifications with _method=PATCH: the fields sent are changed; `follows` replaces the list. */
export const preferencesUpdateSchema = z.object({
  follows: z
    .array(followSchema)
    .max(MAX_FOLLOWS, { error: `At most ${MAX_FOLLOWS} things can be followed.` })
    .optional(),
  digest: z.enum(DIGESTS, { error: DIGEST_MESSAGE }).optional(),
  announcements: booleanish.optional(),
});
export type PreferencesUpdate = z.output<typeof preferencesUpdateSchema>;

/** A member's notification choices, as the API answers them. */
export const preferencesSchema = z
  .object({
    follows: z.array(
      z.object({
        kind: z.enum(FOLLOW_KINDS),
        id: z.number().int().optional().meta({ description: "The library category's id (kind 'category')." }),
        delivery: z.enum(DELIVERIES),
      }),
    ),
    digest: z.enum(DIGESTS),
    announcements: z.boolean(),
  })
  .meta({ id: "NotificationPreferences" });
export type Preferences = z.output<typeof preferencesSchema>;

/** What a member who has chosen nothing gets (issue 33): news and meetings in the weekly digest. */
export const DEFAULT_PREFERENCES: Preferences = {
  follows: [
    { kind: "news", delivery: "digest" },
    { kind: "meetings", delivery: "digest" },
  ],
  digest: "weekly",
  announcements: true,
};

export const FOLLOWED_ONCE =
  "Each category, the news and the meetings can be followed once: this list names one twice.";
export const NOT_FOLLOWED = "You do not follow this.";
export const UNKNOWN_CATEGORY = "There is no library category with this id that you may see.";

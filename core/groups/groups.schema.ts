import { z } from "zod";
import { MAX_ROW_ID } from "../../lib/ids";
import { isEmailAddress } from "../../lib/validation";

/**
 * Working groups (issue 36): the inputs and answers of GET/POST /api/dashboard/groups and the
 * group's members. Safe for the browser.
 */

export const GROUP_NAME_MAX = 120;
export const GROUP_DESCRIPTION_MAX = 4000;
/** At most this many chairs in one change (a board has a few; the list is a form's). */
export const CHAIRS_MAX = 20;

export const GROUP_NOT_FOUND = "Group not found.";
/** A chair's change outside their groups' categories (issue 36). */
export const CHAIRS_OWN_CATEGORIES =
  "Chairs add and change papers in their own groups' library categories only. Ask an editor for the others.";
/** A chair's change of a meeting that is not for one of their groups (issue 36). */
export const CHAIRS_OWN_MEETINGS =
  "Chairs manage their own groups' meetings only (with their programme and registrations). Ask an editor for the others.";
/** A chair's meeting whose audience is not their groups' (422 beside the audience). */
export const CHAIR_MEETING_AUDIENCE =
  "As a chair you make meetings for your own groups: choose “Working groups” and at least one group you chair (no other group may be added or taken away).";
/** A chair's delete of a meeting another group shares (issue 36). */
export const CHAIRS_SHARED_MEETING =
  "This meeting is shared with a group you do not chair: ask an editor to delete it.";
/** A category or meeting for groups names at least one. */
export const AUDIENCE_GROUPS_REQUIRED = "Choose at least one group, or another audience.";
/** DELETE of a group some content is for: `what` names it ("2 library categories and 1 meeting"). */
export const groupInUse = (what: string) =>
  `This group is the audience of ${what}: give them another audience first, then delete the group.`;
export const GROUP_NAME_TAKEN = "A group with this name already exists.";
export const NO_SUCH_ACCOUNT =
  "No active account uses this address. Ask an admin to invite them (or reactivate their account), then add them to the group.";
export const NOT_A_MEMBER_ACCOUNT = "This person cannot join a group: their company's membership is not current.";
/** A chair adds people by the address they know; picking accounts by id is the admins'. */
export const ADD_BY_EMAIL = "Add people by their e-mail address.";
export const ALREADY_IN_GROUP = "This person is already in the group.";
export const CHAIRS_ONLY_BY_ADMIN = "Only an admin changes a group's chairs: ask one to remove a chair.";
export const MEMBERS_BY_CHAIR = "Only the group's chairs and the admins add and remove its members.";
export const CHAIR_NOT_FOUND = "Each chair must be an active user: one of them is not.";

const nameField = z
  .string({ error: "The name field is required." })
  .trim()
  .min(1, { error: "The name field is required." })
  .max(GROUP_NAME_MAX, { error: `The name may not be greater than ${GROUP_NAME_MAX} characters.` });
const descriptionField = z
  .string({ error: "The description must be text." })
  .trim()
  .max(GROUP_DESCRIPTION_MAX, {
    error: `The description may not be greater than ${GROUP_DESCRIPTION_MAX} characters.`,
  });

/** Chairs as a list of user ids: JSON sends an array, a form repeats `chair_ids` or sends "1,2". */
const chairIdsField = z
  .union([z.array(z.union([z.string(), z.number()])), z.string(), z.number()], {
    error: "The chairs must be a list of user ids.",
  })
  .transform((value) =>
    (Array.isArray(value) ? value : String(value).split(",")).map((v) => String(v).trim()).filter((v) => v !== ""),
  )
  .pipe(
    z
      .array(z.string().regex(/^\d{1,12}$/, { error: "Each chair must be a user's id." }))
      .max(CHAIRS_MAX, { error: `A group may have at most ${CHAIRS_MAX} chairs.` }),
  )
  .transform((ids) => [...new Set(ids.map(Number))]);

export const groupCreateSchema = z
  .object({
    name: nameField,
    description: descriptionField.optional().default(""),
    chair_ids: chairIdsField.optional().default([]),
  })
  .meta({ id: "GroupCreate" });
export type GroupCreate = z.output<typeof groupCreateSchema>;

export const groupUpdateSchema = z
  .object({
    name: nameField.optional(),
    description: descriptionField.optional(),
    chair_ids: chairIdsField.optional(),
  })
  .meta({ id: "GroupUpdate" });
export type GroupUpdate = z.output<typeof groupUpdateSchema>;

/** A member to add: an account's id, or its e-mail address. */
export const groupMemberAddSchema = z
  .object({
    user_id: z
      .union([z.string(), z.number(), z.null()])
      .optional()
      .transform((v) => (v === null || v === undefined || v === "" ? undefined : String(v)))
      .pipe(
        z
          .string()
          .regex(/^\d{1,12}$/, { error: "The user id must be a number." })
          .optional(),
      )
      .transform((v) => (v === undefined ? undefined : Number(v))),
    email: z
      .union([z.string(), z.null()])
      .optional()
      .transform((v) => v?.trim().toLowerCase() || undefined)
      .pipe(
        z
          .string()
          .max(255, { error: "The email may not be greater than 255 characters." })
          .refine(isEmailAddress, { error: "The email must be a valid email address." })
          .optional(),
      ),
  })
  .superRefine((value, ctx) => {
    if (value.user_id === undefined && value.email === undefined) {
      ctx.addIssue({ code: "custom", path: ["email"], message: "Give the person's e-mail address (or user_id)." });
    }
  })
  .meta({ id: "GroupMemberAdd" });
export type GroupMemberAdd = z.output<typeof groupMemberAddSchema>;

export const groupPersonSchema = z
  .object({
    user_id: z.number().int(),
    name: z.string(),
    company: z.string().nullable().meta({ description: "The company they represent; null for an individual member." }),
    email: z
      .string()
      .nullable()
      .meta({ description: "Their sign-in address: for admins and editors only (null for others)." }),
    is_chair: z.boolean(),
  })
  .meta({ id: "GroupPerson" });
export type GroupPerson = z.output<typeof groupPersonSchema>;

export const groupSummarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    member_count: z.number().int(),
    chairs: z.array(groupPersonSchema),
    /** The caller's own place in it. */
    is_member: z.boolean(),
    is_chair: z.boolean(),
  })
  .meta({ id: "GroupSummary" });
export type GroupSummary = z.output<typeof groupSummarySchema>;

/** A library category for the group, as its page links it. */
export const groupCategorySchema = z
  .object({ id: z.number().int(), name: z.string(), slug: z.string(), url: z.string(), papers_count: z.number().int() })
  .meta({ id: "GroupCategory" });
/** A recent paper of the group's categories. */
export const groupPaperSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    number: z.string().nullable(),
    category: z.object({ id: z.number().int(), name: z.string(), url: z.string() }),
    file_url: z.string().nullable(),
    updated_at: z.string(),
  })
  .meta({ id: "GroupPaper" });
/** A meeting for the group not yet over. */
export const groupMeetingSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    slug: z.string(),
    start_date: z.string(),
    end_date: z.string().nullable(),
    location: z.string().nullable(),
    url: z.string(),
  })
  .meta({ id: "GroupMeeting" });
/** What is for a group: its categories, their latest papers, its meetings to come (issue 36). */
export type GroupContent = {
  categories: z.output<typeof groupCategorySchema>[];
  papers: z.output<typeof groupPaperSchema>[];
  meetings: z.output<typeof groupMeetingSchema>[];
};

export const groupDetailSchema = groupSummarySchema
  .extend({
    members: z.array(groupPersonSchema).meta({ description: "Everyone in the group, chairs first, by name." }),
    /** Whether the caller may add and remove members (an admin, or a chair). */
    can_manage_members: z.boolean(),
    categories: z
      .array(groupCategorySchema)
      .meta({ description: "The library categories for this group (their sub-categories inherit it)." }),
    papers: z.array(groupPaperSchema).meta({ description: "The latest papers of those categories, newest first." }),
    meetings: z.array(groupMeetingSchema).meta({ description: "The group's meetings not yet over, soonest first." }),
  })
  .meta({ id: "GroupDetail" });
export type GroupDetail = z.output<typeof groupDetailSchema>;

/** The most groups one category or meeting may be for. */
export const MAX_AUDIENCE_GROUPS = 50;

/** `group_ids` as JSON (an array) or a form (repeated fields, or one list "3,7") sends them. */
export const groupIdsInput = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === "") return undefined;
    const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : [v];
    return items.map((item) => (typeof item === "string" ? item.trim() : item)).filter((item) => item !== "");
  },
  z
    .array(
      z.coerce
        .number({ error: "Each group must be a group id." })
        .int({ error: "Each group must be a group id." })
        .positive({ error: "Each group must be a group id." })
        .max(MAX_ROW_ID, { error: "Each group must be a group id." }),
    )
    .max(MAX_AUDIENCE_GROUPS, { error: `Choose at most ${MAX_AUDIENCE_GROUPS} groups.` })
    .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
    .optional(),
);

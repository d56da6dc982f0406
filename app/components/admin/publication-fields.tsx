import { isoInZone, isoWithOffset } from "../../../lib/time-zones";
import { TextField } from "../ui/text-field";
import type { FilterSelects } from "./admin-list";

/**
 * The state of what the secretariat publishes, as the edit screens offer it (news posts and pages,
 * decisions 0070–0072): three choices, each saying who sees it, and the date and time of a scheduled
 * one, typed in the site's time zone. One fieldset for every editor.
 */
export type PublicationState = "published" | "scheduled" | "draft";

const WHO_SEES = {
  post: {
    published: "everyone sees it on the site, in the feed and in search",
    draft: "only admins see it here; nobody is told of it",
  },
  page: {
    published: "everyone sees it at its address, in search and where it is placed in the menus",
    draft: "only admins see it here; visitors get “not found” at its address",
  },
} as const;

const STATES = (noun: "post" | "page") =>
  [
    ["published", "Published", WHO_SEES[noun].published],
    ["scheduled", "Scheduled", "only admins see it until the time below; then it is published by itself"],
    ["draft", "Draft", WHO_SEES[noun].draft],
  ] as const;

/** The state a form sent, published when it sent none or something else. */
export function publicationOf(value: unknown): PublicationState {
  return value === "draft" || value === "scheduled" ? value : "published";
}

/** The date and time typed in the site's zone, as ISO 8601 with that day's offset; "" when either is missing. */
export function scheduledAt(date: unknown, time: unknown, zone: string): string {
  if (typeof date !== "string" || typeof time !== "string") return "";
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return "";
  return isoWithOffset(date, time, zone);
}

/** A scheduled item's time as the form shows it: date and time in the site's zone. */
export function publishOn(
  item: { status: string; publish_at: string | null } | null,
  zone: string,
): { date: string; time: string } | null {
  if (item?.status !== "scheduled" || !item.publish_at) return null;
  const at = isoInZone(new Date(item.publish_at), zone);
  return { date: at.slice(0, 10), time: at.slice(11, 16) };
}

/** What a list says after a save: the state it is in, and when a scheduled one appears. */
export function savedNotice(saved: { title: string; status: string; publish_at: string | null }, zone: string): string {
  if (saved.status === "draft") return `Saved “${saved.title}” as a draft.`;
  if (saved.status === "scheduled" && saved.publish_at) {
    return `Saved “${saved.title}”: it appears on ${isoInZone(new Date(saved.publish_at), zone).slice(0, 16)}.`;
  }
  return `Saved “${saved.title}”.`;
}

export function PublicationFields({
  noun,
  state,
  date,
  time,
  zone,
  errors,
}: {
  noun: "post" | "page";
  state: PublicationState;
  date: string;
  time: string;
  zone: string;
  errors: Record<string, string[] | undefined>;
}) {
  return (
    <fieldset>
      <legend className="field-label">State</legend>
      <div className="mt-1 space-y-2">
        {STATES(noun).map(([value, label, who]) => (
          <label key={value} className="flex items-start gap-2 text-sm text-slate-800">
            <input type="radio" name="status" value={value} defaultChecked={state === value} className="mt-0.5" />
            <span>
              <span className="font-semibold">{label}</span>: {who}
            </span>
          </label>
        ))}
      </div>
      {errors.status ? <p className="mt-1.5 text-sm text-red-700">{errors.status[0]}</p> : null}
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <TextField
          id="publish_date"
          name="publish_date"
          type="date"
          label={`Publish on (for a scheduled ${noun})`}
          defaultValue={date}
          error={errors.publish_at?.[0]}
        />
        <TextField id="publish_time" name="publish_time" type="time" label={`At (${zone} time)`} defaultValue={time} />
      </div>
    </fieldset>
  );
}

/** The admin lists' State filter (news, pages): the same three states in the same words. */
export const PUBLICATION_FILTER: FilterSelects[string] = {
  label: "State",
  options: [
    ["published", "Published"],
    ["scheduled", "Scheduled"],
    ["draft", "Drafts"],
  ],
};

/** A list row's mark for what visitors do not see yet: Draft or Scheduled; nothing when published. */
export function PublicationBadge({ status }: { status: string }) {
  if (status === "draft")
    return (
      <span className="mr-2 inline-block rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">
        Draft
      </span>
    );
  if (status === "scheduled")
    return (
      <span className="mr-2 inline-block rounded bg-sky-100 px-1.5 py-0.5 text-xs font-semibold text-sky-900">
        Scheduled
      </span>
    );
  return null;
}

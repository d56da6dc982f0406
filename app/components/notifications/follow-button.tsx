import { BellPlus } from "lucide-react";
import { useRootData } from "../../root";

/**
 * Follow a library category, the news or the meetings (issue 33). A plain form posted to the
 * preferences page, which follows it and shows it there: the page it sits on is rendered once per
 * role (decision 0032), so it says nothing of whether this member follows it already. Shown to
 * signed-in members only.
 */
export function FollowButton(props: {
  kind: "category" | "news" | "meetings";
  id?: number;
  /** What is followed, as the preferences page's notice names it. */
  name: string;
  delivery: "instant" | "digest";
  label: string;
}) {
  const signedIn = Boolean(useRootData()?.user);
  if (!signedIn) return null;
  return (
    <form method="post" action="/dashboard/notifications" className="inline">
      <input type="hidden" name="intent" value="follow" />
      <input type="hidden" name="kind" value={props.kind} />
      {props.id === undefined ? null : <input type="hidden" name="id" value={props.id} />}
      <input type="hidden" name="delivery" value={props.delivery} />
      <input type="hidden" name="name" value={props.name} />
      <button
        type="submit"
        className="inline-flex items-center gap-2 rounded-md border border-sea-600 bg-white px-3 py-1.5 text-sm font-semibold text-sea-700 hover:bg-sea-50 focus:outline-none focus:ring-2 focus:ring-sea-600"
      >
        <BellPlus className="h-4 w-4" aria-hidden="true" />
        {props.label}
      </button>
    </form>
  );
}

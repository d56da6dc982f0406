import { useEffect, useState } from "react";
import { Link } from "react-router";
import type { GroupSummary } from "../../../core/groups/groups.schema";

/**
 * The member's working groups on the dashboard (issue 36). The dashboard is one render shared by
 * every member (decision 0032), so the groups, which are the person's own, come from
 * /api/dashboard/groups once the page runs; without JavaScript the "Working groups" card leads to
 * the same list.
 */
export function YourGroups() {
  const [groups, setGroups] = useState<Pick<GroupSummary, "id" | "name" | "slug" | "is_chair">[] | null>(null);
  useEffect(() => {
    let current = true;
    fetch("/api/dashboard/groups", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<{ data?: GroupSummary[] }>) : null))
      .then((body) => {
        if (current && body?.data) setGroups(body.data);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  if (!groups || groups.length === 0) return null;
  return (
    <section aria-labelledby="your-groups-title" className="mt-10">
      <h2 id="your-groups-title" className="font-display text-2xl font-bold text-navy-900">
        Your working groups
      </h2>
      <ul className="mt-4 flex flex-wrap gap-3">
        {groups.map((group) => (
          <li key={group.id}>
            <Link
              to={`/dashboard/groups/${group.slug}`}
              className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 font-semibold text-navy-900 shadow-sm ring-1 ring-slate-200 hover:ring-navy-700"
            >
              {group.name}
              {group.is_chair ? <span className="text-xs font-normal text-slate-600">(chair)</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

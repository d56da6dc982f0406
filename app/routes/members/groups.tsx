import { Users } from "lucide-react";
import { data, Link } from "react-router";
import { getRequestContext } from "../../context";
import type { Route } from "./+types/groups";

/**
 * /dashboard/groups: the working groups the member is in (every group for admins and editors).
 * Personal: no `handle`, never one of the shared renders of decision 0032.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  return { groups: await services.groups.list({ id: auth.user.id, role: auth.user.role.name }) };
}

export const meta: Route.MetaFunction = () => [{ title: "Working groups · Members area" }];

export default function Groups({ loaderData }: Route.ComponentProps) {
  const { groups } = loaderData;
  return (
    <div>
      <p className="text-sm font-semibold tracking-wide text-sea-600 uppercase">Members area</p>
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">Working groups</h1>
      <p className="mt-3 max-w-2xl text-slate-600">
        The committees and working groups you take part in: their chairs and members.
      </p>
      {groups.length === 0 ? (
        <p className="mt-8 rounded-xl bg-white p-5 text-slate-700 ring-1 ring-slate-200">
          You are not in a working group yet. A group's chair or an admin can add you.
        </p>
      ) : (
        <ul className="mt-8 grid gap-4 sm:grid-cols-2">
          {groups.map((group) => (
            <li key={group.id}>
              <Link
                to={`/dashboard/groups/${group.slug}`}
                className="group flex h-full items-start gap-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 transition hover:shadow-md hover:ring-navy-700"
              >
                <Users className="h-7 w-7 shrink-0 text-sea-600" aria-hidden="true" />
                <span>
                  <span className="block text-lg font-semibold text-navy-900 group-hover:underline">{group.name}</span>
                  <span className="mt-0.5 block text-sm text-slate-600">
                    {group.member_count} member{group.member_count === 1 ? "" : "s"}
                    {group.chairs.length
                      ? ` · chaired by ${group.chairs.map((c) => c.name).join(", ")}`
                      : " · no chair yet"}
                    {group.is_chair ? " · you chair it" : ""}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

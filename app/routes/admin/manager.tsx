import {
  Building2,
  CalendarRange,
  FileText,
  FolderTree,
  Inbox,
  Newspaper,
  ScrollText,
  Settings2,
  ShieldCheck,
  Users,
  UsersRound,
} from "lucide-react";
import { Link } from "react-router";
import { getRequestContext } from "../../context";
import type { Route } from "./+types/manager";

export const meta: Route.MetaFunction = () => [{ title: "Manager · Masthead" }];

/**
 * The screens of the admin area; `adminOnly` ones sit in layouts/admin-only.tsx (app/routes.ts),
 * which answers an editor 403 (issue 36), so the home shows an editor only the others.
 */
const SHORTCUTS = [
  { to: "/manager/requests", title: "Inbox", icon: Inbox, adminOnly: true },
  { to: "/manager/members", title: "Member companies", icon: Building2, adminOnly: true },
  { to: "/manage-news", title: "News", icon: Newspaper, adminOnly: false },
  { to: "/manage-events", title: "Events", icon: CalendarRange, adminOnly: false },
  { to: "/manager/library", title: "Categories and papers", icon: FolderTree, adminOnly: false },
  { to: "/manager/pages", title: "Pages", icon: FileText, adminOnly: false },
  { to: "/manager/settings", title: "Settings", icon: Settings2, adminOnly: true },
  { to: "/manager/users", title: "Users", icon: Users, adminOnly: true },
  { to: "/manager/groups", title: "Working groups", icon: UsersRound, adminOnly: true },
  { to: "/manager/audit", title: "Audit log", icon: ScrollText, adminOnly: true },
  { to: "/manager/privacy", title: "Personal data requests", icon: ShieldCheck, adminOnly: true },
];

/** The shortcuts the caller may follow, and the figures beside them: what there is, and what waits. */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  const admin = auth?.user.role.name === "admin";
  const [posts, upcoming, requests, users, companies] = await Promise.all([
    services.news.countPosts(),
    services.meetings.countUpcoming(),
    admin ? services.join.countOpen() : 0,
    admin ? services.accounts.countUsers() : 0,
    admin ? services.members.count() : 0,
  ]);
  const counts: Record<string, string> = {
    "/manage-news": `${posts} post${posts === 1 ? "" : "s"}`,
    "/manage-events": `${upcoming} upcoming`,
    ...(admin
      ? {
          "/manager/users": `${users} user${users === 1 ? "" : "s"}`,
          "/manager/requests": `${requests} open`,
          "/manager/members": `${companies} current`,
        }
      : {}),
  };
  return {
    shortcuts: SHORTCUTS.filter((s) => admin || !s.adminOnly).map(({ to, title }) => ({ to, title })),
    counts,
  };
}

const ICONS = Object.fromEntries(SHORTCUTS.map(({ to, icon }) => [to, icon]));

/** The admin home: for an editor, the content's screens only. */
export default function Manager({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <h1 className="font-display text-4xl font-bold text-navy-900">Manager</h1>
      <p className="mt-2 text-slate-600">Manage the association's website and members area.</p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 md:grid-cols-3 xl:grid-cols-4">
        {loaderData.shortcuts.map(({ to, title }) => {
          const Icon = ICONS[to] ?? FileText;
          return (
            <li key={to}>
              <Link
                to={to}
                className="flex items-center gap-3 rounded-lg bg-white p-5 font-semibold text-navy-900 shadow-sm ring-1 ring-slate-200 hover:ring-navy-700"
              >
                <Icon className="h-6 w-6 text-sea-600" aria-hidden="true" />
                <span className="flex flex-col">
                  {title}
                  {loaderData.counts[to] ? (
                    <span className="text-sm font-normal text-slate-600">{loaderData.counts[to]}</span>
                  ) : null}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

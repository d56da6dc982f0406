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
} from "lucide-react";
import { Link } from "react-router";
import { getRequestContext } from "../../context";
import type { Route } from "./+types/manager";

export const meta: Route.MetaFunction = () => [{ title: "Manager · Masthead" }];

/** The figures beside the shortcuts: what there is, and what waits for the admin. */
export async function loader({ context }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const [posts, upcoming, requests, users, companies] = await Promise.all([
    services.news.countPosts(),
    services.meetings.countUpcoming(),
    services.join.countOpen(),
    services.accounts.countUsers(),
    services.members.count(),
  ]);
  return {
    counts: {
      "/manage-news": `${posts} post${posts === 1 ? "" : "s"}`,
      "/manage-events": `${upcoming} upcoming`,
      "/manager/users": `${users} user${users === 1 ? "" : "s"}`,
      "/manager/requests": `${requests} open`,
      "/manager/members": `${companies} current`,
    } as Record<string, string>,
  };
}

const SHORTCUTS = [
  { to: "/manager/requests", title: "Inbox", icon: Inbox },
  { to: "/manager/members", title: "Member companies", icon: Building2 },
  { to: "/manage-news", title: "News", icon: Newspaper },
  { to: "/manage-events", title: "Events", icon: CalendarRange },
  { to: "/manager/library", title: "Categories and papers", icon: FolderTree },
  { to: "/manager/pages", title: "Pages", icon: FileText },
  { to: "/manager/settings", title: "Settings", icon: Settings2 },
  { to: "/manager/users", title: "Users", icon: Users },
  { to: "/manager/audit", title: "Audit log", icon: ScrollText },
  { to: "/manager/privacy", title: "Personal data requests", icon: ShieldCheck },
];

/** The admin home. */
export default function Manager({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <h1 className="font-display text-4xl font-bold text-navy-900">Manager</h1>
      <p className="mt-2 text-slate-600">Manage the association's website and members area.</p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 md:grid-cols-3 xl:grid-cols-4">
        {SHORTCUTS.map(({ to, title, icon: Icon }) => (
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
        ))}
      </ul>
    </div>
  );
}

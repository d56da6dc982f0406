import { CalendarRange, FileText, FolderTree, Inbox, Newspaper, Settings2, Users } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/manager";

export const meta: Route.MetaFunction = () => [{ title: "Manager · Masthead" }];

const SHORTCUTS = [
  { to: "/manage-news", title: "News", icon: Newspaper },
  { to: "/manage-events", title: "Events", icon: CalendarRange },
  { to: "/dashboard/library", title: "Categories and papers", icon: FolderTree },
  { to: "/manager/pages", title: "Pages", icon: FileText },
  { to: "/manager/settings", title: "Settings", icon: Settings2 },
  { to: "/manager/users", title: "Users", icon: Users },
  { to: "/manager/requests", title: "Join requests", icon: Inbox },
];

/** The admin home. */
export default function Manager() {
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
              {title}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

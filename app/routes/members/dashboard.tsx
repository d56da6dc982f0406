import { BookOpen, CalendarDays, Settings } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { Notice } from "../../components/ui/notice";
import { useRootData } from "../../root";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Members area · Masthead" }];

const ENTRY_POINTS = [
  {
    to: "/dashboard/library",
    title: "Document library",
    text: "Policies, technical papers, bulletins and standards.",
    icon: BookOpen,
  },
  {
    to: "/dashboard/events",
    title: "Members' events",
    text: "Meetings, working groups and their documents.",
    icon: CalendarDays,
  },
  { to: "/dashboard/user-settings", title: "Settings", text: "Your profile, avatar and password.", icon: Settings },
];

/** The members' home. */
export default function Dashboard() {
  const user = useRootData()?.user;
  // Set by /welcome once an invited member has chosen their password.
  const welcomed = useSearchParams()[0].get("notice") === "welcome";
  return (
    <div>
      {welcomed ? (
        <Notice tone="success" className="mb-6">
          Your account is ready. From now on, sign in with your e-mail address and the password you chose.
        </Notice>
      ) : null}
      <p className="text-sm font-semibold tracking-wide text-sea-600 uppercase">Members area</p>
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">Welcome, {user?.first_name || user?.email}</h1>
      <p className="mt-3 max-w-2xl text-slate-600">Everything the association shares with its member companies.</p>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 md:grid-cols-3">
        {ENTRY_POINTS.map(({ to, title, text, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="group flex h-full flex-col rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 transition hover:shadow-md hover:ring-navy-700"
            >
              <Icon className="h-8 w-8 text-sea-600" aria-hidden="true" />
              <span className="mt-4 text-lg font-semibold text-navy-900 group-hover:underline">{title}</span>
              <span className="mt-1 text-sm text-slate-600">{text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

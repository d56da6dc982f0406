import { BellRing, Building2, CalendarDays, Settings, Users } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { viewerOf } from "../../../core/access/access";
import { CategoryCards } from "../../components/library/category-cards";
import { YourGroups } from "../../components/members/your-groups";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import { useSignedInUser } from "../../lib/use-signed-in-user";
import type { Route } from "./+types/dashboard";

/**
 * Rendered once per role (decision 0032): the greeting's name comes from the browser's
 * /api/dashboard/user, as the user menu's does.
 */
export const handle = SHARED_WHEN_SIGNED_IN;

/** SPEC §2: the root of the category tree is shown on the dashboard under a fixed title. */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  return { categories: await services.library.rootCategories(viewerOf(auth)) };
}

export const meta: Route.MetaFunction = () => [{ title: "Members area · Masthead" }];

const ENTRY_POINTS = [
  {
    to: "/dashboard/events",
    title: "Members' events",
    text: "Meetings, working groups and their documents.",
    icon: CalendarDays,
  },
  {
    to: "/dashboard/groups",
    title: "Working groups",
    text: "The committees and groups you take part in, their members and chairs.",
    icon: Users,
  },
  {
    to: "/dashboard/company",
    title: "Your company",
    text: "Its membership, renewal and seats; primary contacts edit its profile and colleagues.",
    icon: Building2,
  },
  {
    to: "/dashboard/notifications",
    title: "Notifications",
    text: "What you follow, and how often you hear of it by e-mail.",
    icon: BellRing,
  },
  { to: "/dashboard/user-settings", title: "Settings", text: "Your profile, avatar and password.", icon: Settings },
];

/** The members' home. */
export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { categories } = loaderData;
  const user = useSignedInUser();
  const name = user?.first_name || user?.email;
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
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">{name ? `Welcome, ${name}` : "Welcome"}</h1>
      <p className="mt-3 max-w-2xl text-slate-600">Everything the association shares with its member companies.</p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {ENTRY_POINTS.map(({ to, title, text, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="group flex h-full items-start gap-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 transition hover:shadow-md hover:ring-navy-700"
            >
              <Icon className="h-7 w-7 shrink-0 text-sea-600" aria-hidden="true" />
              <span>
                <span className="block text-lg font-semibold text-navy-900 group-hover:underline">{title}</span>
                <span className="mt-0.5 block text-sm text-slate-600">{text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <YourGroups />
      <section id="library" aria-labelledby="library-title" className="mt-12 scroll-mt-24">
        <h2 id="library-title" className="font-display text-2xl font-bold text-navy-900 sm:text-3xl">
          Document library
        </h2>
        <p className="mt-2 max-w-2xl text-slate-600">
          Policies, technical papers, bulletins, standards and the magazine: search and download the association's
          documents.
        </p>
        <div className="mt-6">
          {categories.length === 0 ? (
            <p className="rounded-xl bg-white p-5 text-slate-700 ring-1 ring-slate-200">
              There are no documents in the library yet.
            </p>
          ) : (
            <CategoryCards categories={categories} home="/dashboard" />
          )}
        </div>
      </section>
    </div>
  );
}

import { ArrowLeft, LogIn, LogOut } from "lucide-react";
import { Form, Link, Outlet, useLoaderData } from "react-router";
import { managesContent } from "../../../core/access/access";
import { DEFAULT_SETTINGS } from "../../../core/settings/settings.defaults";
import { UserMenu } from "../../components/account/user-menu";
import { Logo } from "../../components/layout/logo";
import { ProgressBar } from "../../components/layout/route-feedback";
import { getRequestContext } from "../../context";
import { guards } from "../../lib/guards";
import { useRootData } from "../../root";
import type { Route } from "./+types/admin";

// Admins, editors and working groups' chairs (issue 36): the secretariat's screens sit in
// layouts/editor-only.tsx inside it, the admins' own in layouts/admin-only.tsx; a chair's are the meetings.
export const middleware = guards("auth", "chair");

/** Where the admin area starts for the caller: the admin home, or a chair's meetings. */
export function loader({ context }: Route.LoaderArgs) {
  const { auth } = getRequestContext(context);
  const chair = Boolean(auth) && !managesContent(auth?.user.role.name ?? "member");
  return { home: chair ? "/manage-events" : "/manager", chair };
}

/** SPEC §2 'Admin layout'. */
export default function AdminLayout() {
  const root = useRootData();
  const settings = root?.settings ?? DEFAULT_SETTINGS;
  const user = root?.user ?? null;
  const { home, chair } = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      {/* SPEC §4 'Route change': the bar in every layout. */}
      <ProgressBar />
      <header className="bg-navy-900 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <div className="flex items-center gap-6">
            <Link to={home} aria-label="Admin home">
              <Logo name={settings["site.name"]} inverted />
            </Link>
            <Link to="/" className="flex items-center gap-1.5 text-sm text-navy-100 hover:text-white">
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Back to home</span>
            </Link>
          </div>
          {user ? (
            <div className="flex flex-wrap items-center gap-3 sm:gap-4">
              <p className="text-sm text-navy-100">
                You're logged in as: <strong className="text-white">{chair ? "chair" : user.role.name}</strong>
              </p>
              <UserMenu user={user} inAdmin />
              <Form method="post" action="/logout">
                <button type="submit" className="btn border border-white/30 text-white hover:bg-white/10">
                  <LogOut className="h-4 w-4" aria-hidden="true" />
                  Logout
                </button>
              </Form>
            </div>
          ) : (
            <Link to="/login" className="btn-accent">
              <LogIn className="h-4 w-4" aria-hidden="true" />
              Login as Member
            </Link>
          )}
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-10 sm:px-6">
        <Outlet />
      </main>
    </div>
  );
}

import { ArrowLeft } from "lucide-react";
import { Link, Outlet } from "react-router";
import { DEFAULT_SETTINGS } from "../../../core/settings/settings.service";
import { Logo } from "../../components/logo";
import { CompactFooter } from "../../components/site-footer";
import { UserMenu } from "../../components/user-menu";
import { guards } from "../../lib/guards";
import { useRootData } from "../../root";

export const middleware = guards("auth");

/** SPEC §2: the member layout with a header and the member-menu dropdown. */
export default function MemberLayout() {
  const root = useRootData();
  const settings = root?.settings ?? DEFAULT_SETTINGS;
  return (
    <div className="flex min-h-screen flex-col bg-navy-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <Link to="/dashboard" aria-label="Members area home">
            <Logo name={settings["site.name"]} />
          </Link>
          <nav aria-label="Account" className="flex items-center gap-2 sm:gap-4">
            <Link to="/" className="btn-ghost px-2.5 sm:px-4">
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Back to home</span>
            </Link>
            <UserMenu user={root?.user ?? null} />
          </nav>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6">
        <Outlet />
      </main>
      <CompactFooter settings={settings} />
    </div>
  );
}

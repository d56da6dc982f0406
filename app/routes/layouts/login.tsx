import { ArrowLeft } from "lucide-react";
import { Link, Outlet } from "react-router";
import { DEFAULT_SETTINGS } from "../../../core/settings/settings.service";
import { Logo } from "../../components/logo";
import { CompactFooter } from "../../components/site-footer";
import { useRootData } from "../../root";

/** SPEC §2 'Member layout (login)': back-to-home, Become a member, and a footer. */
export default function LoginLayout() {
  const settings = useRootData()?.settings ?? DEFAULT_SETTINGS;
  return (
    <div className="flex min-h-screen flex-col bg-navy-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <Link to="/" aria-label={`${settings["site.name"]} home`}>
            <Logo name={settings["site.name"]} />
          </Link>
          <nav aria-label="Account" className="flex items-center gap-2 sm:gap-4">
            <Link to="/" className="btn-ghost px-2.5 sm:px-4">
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Back to home</span>
            </Link>
            <Link to="/members-join" className="btn-accent">
              Become a member
            </Link>
          </nav>
        </div>
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16">
        <Outlet />
      </main>
      <CompactFooter settings={settings} />
    </div>
  );
}

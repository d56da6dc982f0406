import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { SiteSettings } from "../../../core/settings/settings.schema";
import { Logo } from "../layout/logo";

/**
 * The white header of the login and member layouts: the logo, the Back-to-home link, and the account actions.
 */
export function AccountHeader({
  settings,
  logoTo = "/",
  logoLabel,
  children,
}: {
  settings: SiteSettings;
  logoTo?: string;
  logoLabel?: string;
  children: ReactNode;
}) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <Link to={logoTo} aria-label={logoLabel ?? `${settings["site.name"]} home`}>
          <Logo name={settings["site.name"]} />
        </Link>
        <nav aria-label="Account" className="flex items-center gap-2 sm:gap-4">
          <Link to="/" className="btn-ghost px-2.5 sm:px-4">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            <span className="sr-only sm:not-sr-only">Back to home</span>
          </Link>
          {children}
        </nav>
      </div>
    </header>
  );
}

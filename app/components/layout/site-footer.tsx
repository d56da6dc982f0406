import { Link } from "react-router";
import type { SiteSettings } from "../../../core/settings/settings.schema";
import { Logo } from "./logo";

/** The compact footer of the login and member layouts; the public footer is richer. */
export function CompactFooter({ settings }: { settings: SiteSettings }) {
  return (
    <footer className="border-t border-navy-800 bg-navy-900 text-navy-100">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-6 py-8 sm:flex-row sm:items-center sm:justify-between">
        <Logo name={settings["site.name"]} tagline={settings["site.tagline"]} inverted />
        <nav aria-label="Footer" className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          <Link to="/" className="hover:text-white hover:underline">
            Home
          </Link>
          <Link to="/members-join" className="hover:text-white hover:underline">
            Become a member
          </Link>
          {settings["site.email"] ? (
            <a href={`mailto:${settings["site.email"]}`} className="hover:text-white hover:underline">
              {settings["site.email"]}
            </a>
          ) : null}
        </nav>
      </div>
      <p className="border-t border-navy-800 py-4 text-center text-xs text-navy-100/80">
        © Copyright. 2022. {settings["site.name"]}
      </p>
    </footer>
  );
}

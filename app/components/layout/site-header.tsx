import { Mail, Phone } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import type { PublicUser } from "../../../core/accounts/accounts.schema";
import type { SiteSettings } from "../../../core/settings/settings.schema";
import type { OwnPageLink } from "../../lib/site-map";
import { UserMenu } from "../account/user-menu";
import { SearchBox } from "../search/search-box";
import { Logo } from "./logo";
import { MainNav } from "./main-nav";
import { SocialIcons } from "./social-icons";

/** SPEC §2 and §9: the header hides while scrolling down past 128 px and comes back on the way up. */
export const HEADER_SCROLL_THRESHOLD = 128;

function useHeaderHidden() {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      if (y > HEADER_SCROLL_THRESHOLD && y > last) setHidden(true);
      else if (y < last || y <= HEADER_SCROLL_THRESHOLD) setHidden(false);
      last = y;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  return hidden;
}

export function SiteHeader({
  settings,
  ownPages,
  user,
}: {
  settings: SiteSettings;
  ownPages: OwnPageLink[];
  user: PublicUser | null;
}) {
  const hidden = useHeaderHidden();
  const phone = settings["site.phone"];
  const email = settings["site.email"];
  return (
    <header
      data-hidden={hidden}
      className="sticky top-0 z-40 transition-transform duration-300 data-[hidden=true]:-translate-y-full focus-within:translate-y-0"
      // focus-within: keyboard users always get the header back when they tab into it.
    >
      <div className="bg-navy-900 text-navy-100">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-1.5 text-sm sm:px-6">
          <div className="flex min-w-0 items-center gap-4">
            <div className="hidden sm:block">
              <SocialIcons settings={settings} />
            </div>
            {email ? (
              <a href={`mailto:${email}`} className="hidden items-center gap-1.5 hover:text-white md:flex">
                <Mail className="h-4 w-4" aria-hidden="true" />
                {email}
              </a>
            ) : null}
            {phone ? (
              <a
                href={`tel:${phone.replace(/[^\d+]/g, "")}`}
                className="hidden items-center gap-1.5 hover:text-white lg:flex"
              >
                <Phone className="h-4 w-4" aria-hidden="true" />
                {phone}
              </a>
            ) : null}
          </div>
          <div className="flex shrink-0 items-center gap-2">
            <Link
              to="/members-join"
              className="btn bg-signal-500 px-3 py-1.5 whitespace-nowrap text-navy-950 hover:bg-signal-600"
            >
              Become a member
            </Link>
            <div className="[&_.btn-outline]:border-white/30 [&_.btn-outline]:bg-transparent [&_.btn-outline]:py-1.5 [&_.btn-outline]:text-white [&_.btn-outline:hover]:bg-white/10">
              <UserMenu user={user} />
            </div>
          </div>
        </div>
      </div>
      <div className="border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3 sm:px-6">
          <Link to="/" aria-label={`${settings["site.name"]} home`} className="shrink-0">
            <span className="2xl:hidden">
              <Logo name={settings["site.name"]} />
            </span>
            <span className="hidden 2xl:block">
              <Logo name={settings["site.name"]} tagline={settings["site.tagline"]} />
            </span>
          </Link>
          <div className="ml-auto flex shrink-0 items-center gap-2 nav:order-last nav:ml-0 nav:w-52 xl:w-64">
            <div className="hidden w-56 sm:block nav:w-full">
              <SearchBox />
            </div>
          </div>
          <div className="nav:mx-auto">
            <MainNav ownPages={ownPages} />
          </div>
        </div>
        <div className="px-4 pb-3 sm:hidden">
          <SearchBox />
        </div>
      </div>
    </header>
  );
}

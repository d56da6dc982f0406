import { ChevronDown, Menu, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { hasChildren, isActive, type MenuItem, mainMenu, type OwnPageLink } from "../../lib/site-map";

const linkBase = "block whitespace-nowrap rounded-md px-3 py-2 text-[15px] font-semibold transition-colors";

function itemActive(item: MenuItem, pathname: string) {
  return hasChildren(item) ? item.children.some((c) => isActive(pathname, c.to)) : isActive(pathname, item.to);
}

/**
 * SPEC §2 'Main menu': submenus toggle open and closed on click, a hamburger
 * toggles the mobile menu, the active item (and its parent) follows the path.
 * Escape closes and gives focus back; a click outside or a new page closes too.
 */
export function MainNav({ ownPages = [] }: { ownPages?: OwnPageLink[] }) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState<string | null>(null);
  const [mobileOpen, setMobileOpen] = useState(false);
  const navRef = useRef<HTMLElement>(null);
  const baseId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page closes every menu
  useEffect(() => {
    setOpen(null);
    setMobileOpen(false);
  }, [pathname]);

  useEffect(() => {
    if (!open && !mobileOpen) return;
    const onPointer = (event: PointerEvent) => {
      if (navRef.current && !navRef.current.contains(event.target as Node)) {
        setOpen(null);
        setMobileOpen(false);
      }
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const opener = open
        ? document.getElementById(`${baseId}-${open}-button`)
        : document.getElementById(`${baseId}-burger`);
      setOpen(null);
      setMobileOpen(false);
      opener?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, mobileOpen, baseId]);

  const menuKey = (label: string) => label.toLowerCase().replace(/\W+/g, "-");

  return (
    <nav ref={navRef} aria-label="Main" className="relative">
      <button
        type="button"
        id={`${baseId}-burger`}
        className="btn-ghost px-2.5 nav:hidden"
        aria-expanded={mobileOpen}
        aria-controls={`${baseId}-menu`}
        onClick={() => setMobileOpen((v) => !v)}
      >
        {mobileOpen ? <X className="h-6 w-6" aria-hidden="true" /> : <Menu className="h-6 w-6" aria-hidden="true" />}
        <span className="sr-only">{mobileOpen ? "Close menu" : "Open menu"}</span>
      </button>
      <ul
        id={`${baseId}-menu`}
        className={`${mobileOpen ? "flex" : "hidden"} absolute top-full right-0 z-40 mt-3 max-h-[75vh] w-[min(92vw,380px)] flex-col gap-1 overflow-y-auto rounded-xl border border-slate-200 bg-white p-3 shadow-2xl nav:static nav:mt-0 nav:flex nav:max-h-none nav:w-auto nav:flex-row nav:items-center nav:gap-0.5 nav:overflow-visible nav:border-0 nav:bg-transparent nav:p-0 nav:shadow-none`}
      >
        {mainMenu(ownPages).map((item) => {
          const active = itemActive(item, pathname);
          if (!hasChildren(item)) {
            return (
              <li key={item.label}>
                <Link
                  to={item.to}
                  aria-current={isActive(pathname, item.to) ? "page" : undefined}
                  className={`${linkBase} ${active ? "text-sea-600" : "text-navy-900 hover:bg-navy-50"}`}
                >
                  {item.label}
                </Link>
              </li>
            );
          }
          const key = menuKey(item.label);
          const expanded = open === key;
          return (
            <li key={item.label} className="relative">
              <button
                type="button"
                id={`${baseId}-${key}-button`}
                aria-expanded={expanded}
                aria-controls={`${baseId}-${key}`}
                onClick={() => setOpen(expanded ? null : key)}
                className={`${linkBase} flex w-full items-center justify-between gap-1 text-left ${active ? "text-sea-600" : "text-navy-900 hover:bg-navy-50"}`}
              >
                {item.label}
                <ChevronDown
                  className={`h-4 w-4 transition-transform ${expanded ? "rotate-180" : ""}`}
                  aria-hidden="true"
                />
              </button>
              <ul
                id={`${baseId}-${key}`}
                className={`${expanded ? "block" : "hidden"} mt-1 ml-3 border-l-2 border-sea-100 pl-2 nav:absolute nav:top-full nav:left-0 nav:z-40 nav:mt-2 nav:ml-0 nav:min-w-64 nav:rounded-lg nav:border nav:border-slate-200 nav:bg-white nav:p-2 nav:shadow-xl`}
              >
                {item.children.map((child) => (
                  <li key={child.to}>
                    <Link
                      to={child.to}
                      aria-current={isActive(pathname, child.to) ? "page" : undefined}
                      className={`block rounded-md px-3 py-2 text-sm ${isActive(pathname, child.to) ? "bg-sea-100 font-semibold text-navy-900" : "text-slate-700 hover:bg-navy-50 hover:text-navy-900"}`}
                    >
                      {child.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

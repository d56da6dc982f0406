/**
 * The public site's structure (SPEC §2): the main menu, the about and
 * services page groups, and what the footer and sitemap list.
 */
import { ABOUT_PAGES, type PageLink, type PageSectionId, SERVICES_PAGES } from "../../core/pages/fixed-pages";

export type MenuLink = PageLink;
export type MenuItem = MenuLink | { label: string; children: MenuLink[]; section?: PageSectionId };

export const MEETINGS_PAGES: MenuLink[] = [
  { label: "Events Calendar", to: "/events" },
  { label: "Annual Conference", to: "/conference" },
  { label: "Annual Technical Workshop", to: "/workshop" },
];

export const MEMBERSHIP_PAGES: MenuLink[] = [
  { label: "List of Members", to: "/members-list" },
  { label: "Join", to: "/members-join" },
];

/** The menu exactly as SPEC §2 lists it (the about and services groups show their menu entries only). */
export const MAIN_MENU: MenuItem[] = [
  { label: "Home", to: "/" },
  { label: "News", to: "/news" },
  { label: "About the association", children: ABOUT_PAGES.slice(0, 5), section: "about" },
  { label: "Meetings", children: MEETINGS_PAGES },
  { label: "Membership", children: MEMBERSHIP_PAGES },
  { label: "Services", children: SERVICES_PAGES.slice(0, 8), section: "services" },
];

/** A page of the association's own as the menus take it (pages.schema `PlacedPage`). */
export type OwnPageLink = MenuLink & { section: PageSectionId | null };

/** The main menu with the association's own pages after SPEC's items in their sections' submenus (decision 0072). */
export function mainMenu(ownPages: OwnPageLink[]): MenuItem[] {
  if (ownPages.length === 0) return MAIN_MENU;
  return MAIN_MENU.map((item) =>
    hasChildren(item) && item.section
      ? {
          ...item,
          children: [
            ...item.children,
            ...ownPages.filter((p) => p.section === item.section).map(({ label, to }) => ({ label, to })),
          ],
        }
      : item,
  );
}

/** Old addresses from the previous site's page map and where they live now (permanent redirects). */
export const LEGACY_REDIRECTS: Record<string, string> = {
  "/about": "/purpose-objectives",
  "/admin": "/manager",
  "/dashboard-events": "/dashboard/events",
  "/dashboard-meeting": "/dashboard/events",
  "/memberships": "/members-list",
  "/post": "/news",
  "/services": "/feedback-forum",
  "/user-settings": "/dashboard/user-settings",
};

export function isActive(pathname: string, to: string): boolean {
  return to === "/" ? pathname === "/" : pathname === to || pathname.startsWith(`${to}/`);
}

export function hasChildren(item: MenuItem): item is { label: string; children: MenuLink[] } {
  return "children" in item;
}

/**
 * The public site's structure (SPEC §2): the main menu, the about and
 * services page groups, and what the footer and sitemap list.
 */
export type MenuLink = { label: string; to: string };
export type MenuItem = MenuLink | { label: string; children: MenuLink[] };

export const ABOUT_PAGES: MenuLink[] = [
  { label: "Purpose & Objectives", to: "/purpose-objectives" },
  { label: "Structure & People", to: "/structure-people" },
  { label: "Position Papers", to: "/position-papers" },
  { label: "History", to: "/history" },
  { label: "Contact", to: "/contact" },
  { label: "Honorary Membership", to: "/honorary-membership" },
  { label: "Collaboration", to: "/collaboration" },
];

export const SERVICES_PAGES: MenuLink[] = [
  { label: "User Feedback Forum", to: "/feedback-forum" },
  { label: "Service Code of Practice", to: "/service-code-of-practice" },
  { label: "Manufacturer IDs", to: "/manufacturer-ids" },
  { label: "Publications", to: "/publications" },
  { label: "RTZ XML Schemas", to: "/rtz-xml-schemas" },
  { label: "S-421 Route Exchange", to: "/s-421" },
  { label: "Standards Guide", to: "/standards-guide" },
  { label: "SECOM", to: "/secom" },
  { label: "Traffic Accounting", to: "/traffic-accounting" },
];

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
  { label: "About the association", children: ABOUT_PAGES.slice(0, 5) },
  { label: "Meetings", children: MEETINGS_PAGES },
  { label: "Membership", children: MEMBERSHIP_PAGES },
  { label: "Services", children: SERVICES_PAGES.slice(0, 8) },
];

/** CMS pages with a route of their own, by group. */
export const CMS_GROUPS = [
  { id: "about", title: "About the association", pages: ABOUT_PAGES },
  { id: "services", title: "Services", pages: SERVICES_PAGES },
  { id: "tributes", title: "Tributes", pages: [{ label: "Tributes", to: "/tributes" }] },
  { id: "legal", title: "Privacy Policy", pages: [{ label: "Privacy Policy", to: "/privacy-policy" }] },
] as const;

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

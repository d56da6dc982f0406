/**
 * The CMS pages the site's structure needs (SPEC §2: the about and services
 * pages, tributes, the privacy policy). The menu, the footer and the route
 * table are built from these lists, and every one of these pages exists from
 * the first start (`ensureFixedPages`) so that no menu link leads to a 404.
 * Browser-safe: plain data.
 */
export type PageLink = { label: string; to: string };

export const ABOUT_PAGES: PageLink[] = [
  { label: "Purpose & Objectives", to: "/purpose-objectives" },
  { label: "Structure & People", to: "/structure-people" },
  { label: "Position Papers", to: "/position-papers" },
  { label: "History", to: "/history" },
  { label: "Contact", to: "/contact" },
  { label: "Honorary Membership", to: "/honorary-membership" },
  { label: "Collaboration", to: "/collaboration" },
];

export const SERVICES_PAGES: PageLink[] = [
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

/** The Privacy Policy (SPEC §2): its modal, and the revision each form's consent record names (decision 0077). */
export const PRIVACY_POLICY_PAGE = "/privacy-policy";

/** CMS pages with a route of their own, by group. */
export const CMS_GROUPS = [
  { id: "about", title: "About the association", pages: ABOUT_PAGES },
  { id: "services", title: "Services", pages: SERVICES_PAGES },
  { id: "tributes", title: "Tributes", pages: [{ label: "Tributes", to: "/tributes" }] },
  { id: "legal", title: "Privacy Policy", pages: [{ label: "Privacy Policy", to: PRIVACY_POLICY_PAGE }] },
] as const;

/**
 * The body of a fixed page nobody has written yet: neutral, so that a fresh
 * install reads as a site under construction rather than a broken one.
 */
export const PAGE_IN_PREPARATION =
  "<p>This page is being prepared. Please check back soon, or write to us through the form at the foot of the page.</p>";

/**
 * The CMS page whose text the home page shows under its banner ("Welcome to …"): stored at
 * /home, read at / (decision 0041). Search, the editor's View link and the home page agree on it.
 */
export const HOME_PAGE = "/home";

/** Where visitors read a CMS page: the home page's text at /, every other page at its own address. */
export const publicPageUrl = (url: string): string => (url === HOME_PAGE ? "/" : url);

/** The fixed pages' addresses: SPEC's structure, which cannot be removed, moved or made a draft. */
export const FIXED_PAGE_URLS: ReadonlySet<string> = new Set([
  HOME_PAGE,
  // The texts above the members list and the join page (read by their screens, app/routes/members).
  "/members-join",
  "/members-list",
  ...CMS_GROUPS.flatMap((group) => group.pages.map((page) => page.to)),
]);

/** Where a page of the association's own belongs (decision 0072): a submenu's section, or none. */
export const PAGE_SECTIONS = [
  { id: "about", title: "About the association" },
  { id: "services", title: "Services" },
] as const;
export type PageSectionId = (typeof PAGE_SECTIONS)[number]["id"];

/**
 * The first path segments the site answers itself (app/routes.ts, the legacy redirects, and the
 * server's own routes in server/app.ts, calendars.ts, papers.ts): a page of its own cannot take
 * one, or it would never be reached. tests/integration/own-pages.test.ts checks the route table against it.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  // app/routes.ts
  "search",
  "news",
  "post",
  "events",
  "registrations",
  "unsubscribe",
  "conference",
  "workshop",
  "members-list",
  "members-join",
  "join",
  "message",
  "library",
  "library-feed",
  "login",
  "forgot-password",
  "reset-password",
  "welcome",
  "logout",
  "dashboard",
  "manager",
  "manage-news",
  "manage-events",
  "home",
  // legacy redirects (app/lib/site-map.ts)
  "about",
  "admin",
  "dashboard-events",
  "dashboard-meeting",
  "memberships",
  "services",
  "user-settings",
  // the server's own
  "api",
  "assets",
  "uploads",
  "healthz",
  "readyz",
  "calendar",
  "papers",
  "pages",
]);

import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";
import { CMS_GROUPS } from "../core/pages/fixed-pages";
import { LEGACY_REDIRECTS } from "./lib/site-map";

const slug = (path: string) => path.replace(/^\//, "");

/**
 * The route table. Guards are declared by name in the layout modules:
 * layouts/member.tsx → guards("auth"), layouts/admin.tsx → guards("auth", "chair") (the meetings'
 * screens: admins, editors and working groups' chairs for their groups' meetings), and inside it
 * layouts/editor-only.tsx → guards("auth", "editor") and layouts/admin-only.tsx → guards("auth", "admin")
 * (issue 36, decision 0085: editors manage the content, admins the rest).
 * Each route is classified (public, member, admin…) in tests/integration/authorization.test.ts,
 * which tries it for a visitor, a member, a chair, an editor and an admin: a route added here without
 * one fails it.
 */
export default [
  layout("routes/layouts/public.tsx", [
    index("routes/site/home.tsx"),
    route("search", "routes/search/search.tsx"),
    route("news", "routes/news/index.tsx"),
    route("post/:slug", "routes/news/post.tsx"),
    route("news/preview/:token", "routes/news/preview.tsx"),
    route("pages/preview/:token", "routes/pages/page-preview.tsx"),
    route("events", "routes/events/index.tsx"),
    route("events/:slug", "routes/events/meeting.tsx"),
    route("registrations/:token", "routes/events/registration.tsx"),
    route("unsubscribe/:token", "routes/account/unsubscribe.tsx"),
    route("conference", "routes/events/featured.tsx", { id: "featured-conference" }),
    route("workshop", "routes/events/featured.tsx", { id: "featured-workshop" }),
    route("members-list", "routes/members/members-list.tsx"),
    route("members-list/:slug", "routes/members/member-company.tsx"),
    route("members-join", "routes/members/members-join.tsx"),
    route("join", "routes/join/join.tsx"),
    route("join/thank-you", "routes/join/join-thanks.tsx"),
    route("message", "routes/join/message.tsx"),
    route("library", "routes/library/index.tsx"),
    route("library/:slug", "routes/library/category.tsx"),
    // One shared screen for the about, services, tributes and privacy pages (content from the CMS).
    ...CMS_GROUPS.flatMap((group) =>
      group.pages.map((page) => route(slug(page.to), "routes/pages/cms-page.tsx", { id: `cms-${slug(page.to)}` })),
    ),
    // The association's own pages (decision 0072): any other single segment; the static routes above win.
    route(":slug", "routes/pages/cms-page.tsx", { id: "cms-own" }),
  ]),
  ...Object.keys(LEGACY_REDIRECTS).map((from) =>
    route(slug(from), "routes/site/legacy-redirect.tsx", { id: `legacy-${slug(from)}` }),
  ),
  route("sitemap.xml", "routes/site/sitemap.tsx"),
  route("news/rss.xml", "routes/news/feed.tsx", { id: "news-rss" }),
  route("news/atom.xml", "routes/news/feed.tsx", { id: "news-atom" }),
  route("library/:slug/feed.xml", "routes/library/feed.tsx"),
  route("library-feed/:file", "routes/library/private-feed.tsx"),
  route("robots.txt", "routes/site/robots.tsx"),
  layout("routes/layouts/login.tsx", [
    route("login", "routes/account/login.tsx"),
    route("forgot-password", "routes/account/forgot-password.tsx"),
    route("reset-password", "routes/account/reset-password.tsx"),
    route("welcome", "routes/account/welcome.tsx"),
  ]),
  route("logout", "routes/account/logout.tsx"),
  layout("routes/layouts/member.tsx", [
    route("dashboard", "routes/members/dashboard.tsx"),
    route("dashboard/user-settings", "routes/account/user-settings.tsx"),
    route("dashboard/user-settings/data.zip", "routes/account/data-export.ts"),
    route("dashboard/events", "routes/events/members-calendar.tsx"),
    route("dashboard/events/:slug", "routes/events/members-meeting.tsx"),
    route("dashboard/company", "routes/members/company.tsx"),
    route("dashboard/registrations", "routes/events/my-registrations.tsx"),
    route("dashboard/notifications", "routes/account/notifications.tsx"),
    route("dashboard/groups", "routes/members/groups.tsx"),
    route("dashboard/groups/:slug", "routes/members/group.tsx"),
    // Library categories; the fixed pages above win over a slug of the same name.
    route("dashboard/:slug", "routes/library/members-category.tsx"),
  ]),
  layout("routes/layouts/admin.tsx", [
    // A working group's chair comes this far: their groups' meetings, programme and registrations (issue 36).
    route("manage-events", "routes/events/manage-events.tsx"),
    route("manage-events/new", "routes/events/manage-event-edit.tsx", { id: "manage-event-new" }),
    route("manage-events/:id/edit", "routes/events/manage-event-edit.tsx", { id: "manage-event-edit" }),
    route("manage-events/:id/registrations", "routes/events/manage-registrations.tsx"),
    route("manage-events/:id/registrations/check-in", "routes/events/registrations-check-in.tsx"),
    route("manage-events/:id/registrations/export.csv", "routes/events/registrations-files.ts", {
      id: "registrations-csv",
    }),
    route("manage-events/:id/registrations/attendees.pdf", "routes/events/registrations-files.ts", {
      id: "registrations-attendees-pdf",
    }),
    route("manage-events/:id/registrations/badges.pdf", "routes/events/registrations-files.ts", {
      id: "registrations-badges-pdf",
    }),
    layout("routes/layouts/editor-only.tsx", [
      route("manager", "routes/admin/manager.tsx"),
      route("manager/pages", "routes/pages/manage-pages.tsx"),
      route("manager/pages/new", "routes/pages/manage-page-edit.tsx", { id: "manage-page-new" }),
      route("manager/pages/*", "routes/pages/manage-page-edit.tsx", { id: "manage-page-edit" }),
      route("manage-news", "routes/news/manage-news.tsx"),
      route("manage-news/new", "routes/news/manage-news-edit.tsx", { id: "manage-news-new" }),
      route("manage-news/:id/edit", "routes/news/manage-news-edit.tsx", { id: "manage-news-edit" }),
      route("manager/library", "routes/library/manage-library.tsx"),
      route("manager/library/:id", "routes/library/manage-papers.tsx"),
    ]),
    layout("routes/layouts/admin-only.tsx", [
      route("manager/settings", "routes/admin/settings.tsx"),
      route("manager/audit", "routes/admin/audit.tsx"),
      route("manager/audit/export.csv", "routes/admin/audit-export.ts"),
      route("manager/privacy", "routes/admin/privacy.tsx"),
      route("manager/privacy/export.zip", "routes/admin/privacy-export.ts"),
      route("manager/requests", "routes/join/manage-requests.tsx"),
      route("manager/users", "routes/account/manage-users.tsx"),
      route("manager/groups", "routes/admin/groups.tsx"),
      route("manager/members", "routes/members/manage-members.tsx"),
      route("manager/members/new", "routes/members/manage-member.tsx", { id: "manage-member-new" }),
      route("manager/members/import", "routes/members/import-members.tsx"),
      route("manager/members/:id", "routes/members/manage-member.tsx", { id: "manage-member-edit" }),
    ]),
  ]),
  route("*", "routes/site/not-found.tsx"),
] satisfies RouteConfig;

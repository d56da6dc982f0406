import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";
import { CMS_GROUPS } from "../core/pages/fixed-pages";
import { LEGACY_REDIRECTS } from "./lib/site-map";

const slug = (path: string) => path.replace(/^\//, "");

/**
 * The route table. Guards are declared by name in the layout modules:
 * layouts/member.tsx → guards("auth"), layouts/admin.tsx → guards("auth", "admin").
 */
export default [
  layout("routes/layouts/public.tsx", [
    index("routes/public/home.tsx"),
    route("search", "routes/public/search.tsx"),
    route("news", "routes/news/index.tsx"),
    route("post/:slug", "routes/news/post.tsx"),
    route("events", "routes/events/index.tsx"),
    route("events/:slug", "routes/events/meeting.tsx"),
    route("conference", "routes/events/featured.tsx", { id: "featured-conference" }),
    route("workshop", "routes/events/featured.tsx", { id: "featured-workshop" }),
    route("members-list", "routes/public/members-list.tsx"),
    route("members-join", "routes/public/members-join.tsx"),
    route("join", "routes/public/join.tsx"),
    route("join/thank-you", "routes/public/join-thanks.tsx"),
    // One shared screen for the about, services, tributes and privacy pages (content from the CMS).
    ...CMS_GROUPS.flatMap((group) =>
      group.pages.map((page) => route(slug(page.to), "routes/public/cms-page.tsx", { id: `cms-${slug(page.to)}` })),
    ),
  ]),
  ...Object.keys(LEGACY_REDIRECTS).map((from) =>
    route(slug(from), "routes/public/legacy-redirect.tsx", { id: `legacy-${slug(from)}` }),
  ),
  route("sitemap.xml", "routes/public/sitemap.tsx"),
  route("news/rss.xml", "routes/news/feed.tsx", { id: "news-rss" }),
  route("news/atom.xml", "routes/news/feed.tsx", { id: "news-atom" }),
  route("robots.txt", "routes/public/robots.tsx"),
  layout("routes/layouts/login.tsx", [
    route("login", "routes/auth/login.tsx"),
    route("forgot-password", "routes/auth/forgot-password.tsx"),
    route("reset-password", "routes/auth/reset-password.tsx"),
    route("welcome", "routes/auth/welcome.tsx"),
  ]),
  route("logout", "routes/auth/logout.tsx"),
  layout("routes/layouts/member.tsx", [
    route("dashboard", "routes/account/dashboard.tsx"),
    route("dashboard/user-settings", "routes/account/user-settings.tsx"),
  ]),
  layout("routes/layouts/admin.tsx", [
    route("manager", "routes/admin/manager.tsx"),
    route("manager/pages", "routes/admin/pages.tsx"),
    route("manager/pages/*", "routes/admin/page-edit.tsx"),
    route("manager/settings", "routes/admin/settings.tsx"),
    route("manager/requests", "routes/admin/requests.tsx"),
    route("manager/users", "routes/admin/users.tsx"),
    route("manage-news", "routes/admin/news-list.tsx"),
    route("manage-news/new", "routes/admin/news-edit.tsx", { id: "manage-news-new" }),
    route("manage-news/:id/edit", "routes/admin/news-edit.tsx", { id: "manage-news-edit" }),
  ]),
  route("*", "routes/public/not-found.tsx"),
] satisfies RouteConfig;

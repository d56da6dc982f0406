import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

/**
 * The route table. Guards are declared by name in the layout modules:
 * layouts/member.tsx → guards("auth"), layouts/admin.tsx → guards("auth", "admin").
 */
export default [
  index("routes/public/home.tsx"),
  layout("routes/layouts/login.tsx", [route("login", "routes/auth/login.tsx")]),
  route("logout", "routes/auth/logout.tsx"),
  layout("routes/layouts/member.tsx", [route("dashboard", "routes/account/dashboard.tsx")]),
  layout("routes/layouts/admin.tsx", [route("manager", "routes/admin/manager.tsx")]),
  route("*", "routes/public/not-found.tsx"),
] satisfies RouteConfig;

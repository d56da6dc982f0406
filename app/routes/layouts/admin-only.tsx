import { Outlet } from "react-router";
import { guards } from "../../lib/guards";

/**
 * The admins' own screens inside the admin layout (issue 36): users, member companies, join
 * requests, settings, privacy requests, the audit log. An editor is answered 403 with why.
 */
export const middleware = guards("auth", "admin");

export default function AdminOnlyLayout() {
  return <Outlet />;
}

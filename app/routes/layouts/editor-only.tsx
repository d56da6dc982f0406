import { Outlet } from "react-router";
import { guards } from "../../lib/guards";

/**
 * The secretariat's content screens inside the admin layout (issue 36): the admin home, news,
 * pages and the library, for admins and editors. A working group's chair, in the admin area for
 * their groups' meetings, is answered 403 with why.
 */
export const middleware = guards("auth", "editor");

export default function EditorOnlyLayout() {
  return <Outlet />;
}

import { useRouteLoaderData } from "react-router";

/**
 * The start of a breadcrumb trail in the admin area (the admin layout's loader says who is there):
 * the admin home for admins and editors; nothing for a working group's chair, whose admin area
 * begins at their groups' meetings and for whom the admin home is closed (issue 36).
 */
export function useAdminTrail(): { label: string; to: string }[] {
  const area = useRouteLoaderData<{ home: string; chair: boolean }>("routes/layouts/admin");
  return area?.chair ? [] : [{ label: "Manager", to: "/manager" }];
}

import { CategoryView } from "../../components/library/category-view";
import { getRequestContext } from "../../context";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/members-category";
import { loadCategoryScreen } from "./category.server";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = SHARED_WHEN_SIGNED_IN;

/** /dashboard/{slug}: a library category in the members' area (every live category; the layout signs in). */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  return loadCategoryScreen(getRequestContext(context), params.slug, url, "members");
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData ? loaderData.category.title || loaderData.category.name : "Library"} · Members area` },
];

export default function MembersCategory({ loaderData }: Route.ComponentProps) {
  return <CategoryView screen={loaderData} />;
}

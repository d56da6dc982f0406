import { htmlToText } from "../../../lib/html";
import { CategoryView } from "../../components/library/category-view";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/category";
import { loadCategoryScreen } from "./category.server";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

/**
 * /library/{slug}: a public category, read as a visitor reads it whoever asks (one page for all);
 * a members-only or unknown slug is the 404 (a signed-in member is sent to the members' page).
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  return loadCategoryScreen(getRequestContext(context), params.slug, url, "public");
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  if (!loaderData) return [];
  const { category } = loaderData;
  return seoMeta({
    matches,
    title: category.title || category.name,
    description: (
      category.title_description ||
      category.description ||
      htmlToText(category.content ?? "") ||
      "Documents from the association's library."
    ).slice(0, 158),
    path: `/library/${category.slug}`,
  }).concat({
    // Feed readers find the category's papers here (issue 33); the page shows the link too.
    tagName: "link",
    rel: "alternate",
    type: "application/atom+xml",
    title: `${category.name} (Atom)`,
    href: `/library/${category.slug}/feed.xml`,
  });
};

export default function PublicCategory({ loaderData }: Route.ComponentProps) {
  return <CategoryView screen={loaderData} />;
}

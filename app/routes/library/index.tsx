import { Link } from "react-router";
import { PageHero } from "../../components/layout/page-hero";
import { CategoryCards } from "../../components/library/category-cards";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/index";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

/** /library: the public document library, its highest public categories (the same for everyone). */
export async function loader({ context }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  return { categories: await services.library.rootCategories({ signedIn: false }) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seoMeta({
    matches,
    title: "Document library",
    description: "Publications of the association open to everyone: standards watch lists, the magazine and more.",
    path: "/library",
  });

export default function PublicLibrary({ loaderData }: Route.ComponentProps) {
  const { categories } = loaderData;
  return (
    <div>
      <PageHero eyebrow="Publications" title="Document library">
        <p className="mt-3 max-w-2xl text-lg text-navy-100">
          Publications of the association that are open to everyone. Members find policies, technical papers and
          bulletins in the{" "}
          <Link to="/dashboard" className="font-semibold text-white underline underline-offset-2">
            members area
          </Link>
          .
        </p>
      </PageHero>
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        {categories.length === 0 ? (
          <p className="text-slate-700">There are no public documents yet.</p>
        ) : (
          <CategoryCards categories={categories} home="/library" />
        )}
      </div>
    </div>
  );
}

import { data, Link } from "react-router";
import { CMS_GROUPS } from "../../../core/pages/fixed-pages";
import { AppError } from "../../../lib/errors";
import { htmlToText } from "../../../lib/html";
import { PageHero } from "../../components/layout/page-hero";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import { isActive } from "../../lib/site-map";
import type { Route } from "./+types/cms-page";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

/** The shared screen of the about pages, the services pages, tributes and the privacy policy. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  try {
    const page = await services.pages.getPage(url.pathname);
    const group = CMS_GROUPS.find((g) => g.pages.some((p) => p.to === url.pathname)) ?? CMS_GROUPS[0];
    const description = htmlToText(page.content).slice(0, 158);
    return { page, description, group: { title: group.title, pages: [...group.pages] } };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found")
      throw data("This page could not be found", { status: 404 });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches, location }) =>
  seoMeta({ matches, title: loaderData?.page.title, description: loaderData?.description, path: location.pathname });

export default function CmsPage({ loaderData }: Route.ComponentProps) {
  const { page, group } = loaderData;
  const siblings = group.pages.length > 1 ? group.pages : [];
  return (
    <div>
      <PageHero eyebrow={group.title} title={page.title} />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 grid-cols-[minmax(0,1fr)] md:grid-cols-[16rem_minmax(0,1fr)]">
        {siblings.length > 0 ? (
          <nav aria-label={group.title} className="md:sticky md:top-40 md:self-start">
            <ul className="flex gap-2 overflow-x-auto pb-2 md:flex-col md:gap-1 md:overflow-visible md:pb-0">
              {siblings.map((link) => {
                const active = isActive(page.url, link.to);
                return (
                  <li key={link.to} className="shrink-0">
                    <Link
                      to={link.to}
                      aria-current={active ? "page" : undefined}
                      className={`block rounded-md border-l-4 px-3 py-2 text-sm ${active ? "border-sea-600 bg-sea-100 font-semibold text-navy-900" : "border-transparent text-slate-700 hover:bg-navy-50 hover:text-navy-900"}`}
                    >
                      {link.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
        ) : (
          <div className="hidden md:block" />
        )}
        <article
          className="rich-text max-w-3xl"
          // Sanitized on write and again on read by the pages service.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized server-side
          dangerouslySetInnerHTML={{ __html: page.content }}
        />
      </div>
    </div>
  );
}

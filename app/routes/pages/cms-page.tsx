import { data, Link } from "react-router";
import { MESSAGE_FORM_PAGES } from "../../../core/join/join.values";
import { CMS_GROUPS } from "../../../core/pages/fixed-pages";
import { AppError } from "../../../lib/errors";
import { htmlToText } from "../../../lib/html";
import { MESSAGE_FORM_ID } from "../../components/layout/contact-form-link";
import { PageHero } from "../../components/layout/page-hero";
import { MessageFormIsland } from "../../components/layout/public-islands";
import { getRequestContext } from "../../context";
import { Island, SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import { isActive } from "../../lib/site-map";
import type { Route } from "./+types/cms-page";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

/**
 * The shared screen of the about pages, the services pages, tributes, the privacy policy and the
 * association's own pages (at /{slug}, decision 0072: an unknown address is a 404 here).
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  try {
    const [{ page, section }, placements] = await Promise.all([
      services.pages.getPageView(url.pathname),
      services.pages.placements(),
    ]);
    // The group's pages beside it: SPEC's, then the association's own in the same submenu (decision 0072).
    const group = CMS_GROUPS.find((g) => g.id === section);
    const own = placements.menu.filter((p) => p.section === section).map(({ label, to }) => ({ label, to }));
    const pages = group ? [...group.pages, ...(group.id === "about" || group.id === "services" ? own : [])] : [];
    const description = htmlToText(page.content).slice(0, 158);
    return { page, description, group: { title: group?.title ?? "", pages } };
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
  // The pages that tell visitors to use the contact form carry it (decision 0039).
  const messageForm = (MESSAGE_FORM_PAGES as readonly string[]).includes(page.url);
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
        <div className="min-w-0 max-w-3xl">
          <article
            className="rich-text"
            // Sanitized on write and again on read by the pages service.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized server-side
            dangerouslySetInnerHTML={{ __html: page.content }}
          />
          {messageForm ? (
            <section
              id={MESSAGE_FORM_ID}
              aria-labelledby="message-form-title"
              // Focused by the footer's 'Contact form' link (a target, not a stop in the Tab order).
              tabIndex={-1}
              className="mt-10 scroll-mt-32 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 focus:outline-none"
            >
              <h2 id="message-form-title" className="font-display text-2xl font-bold text-navy-900">
                Send us a message
              </h2>
              <p className="mt-2 mb-5 text-slate-700">
                The secretariat reads every message and answers within two working days.
              </p>
              <Island name="message-form" component={MessageFormIsland} props={{}} />
            </section>
          ) : null}
        </div>
      </div>
    </div>
  );
}

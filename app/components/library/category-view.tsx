import { ChevronDown } from "lucide-react";
import { Link } from "react-router";
import type { CategoryTree } from "../../../core/library/library.schema";
import { Island } from "../../islands/island";
import { PageHero } from "../layout/page-hero";
import { FollowButton } from "../notifications/follow-button";
import { Breadcrumbs } from "../ui/breadcrumbs";
import { CategoryCards } from "./category-cards";
import { listHref } from "./list-url";
import { OpenLinkedPaper } from "./open-linked-paper";
import { PapersList } from "./papers-list";
import type { CategoryScreen } from "./screen";

const titleOf = (category: Pick<CategoryTree, "title" | "name">) => category.title || category.name;

/** A child's papers, or its own children, or a word that it is empty: a tab's panel or a section's body. */
function ChildBody({ child, screen, path }: { child: CategoryTree; screen: CategoryScreen; path: string }) {
  const list = screen.lists[child.slug];
  return (
    <div className="space-y-5">
      {child.description ? <p className="max-w-3xl whitespace-pre-line text-slate-700">{child.description}</p> : null}
      {child.children.length > 0 ? (
        <nav aria-label={`Sections of ${child.name}`}>
          <CategoryCards categories={child.children} home={screen.home} compact />
        </nav>
      ) : null}
      {list ? (
        <PapersList category={child} list={list} path={path} tab={screen.tab} defaultList={screen.defaultList} />
      ) : child.children.length === 0 ? (
        <p className="rounded-xl bg-white p-5 text-slate-700 ring-1 ring-slate-200">There are no documents here yet.</p>
      ) : null}
    </div>
  );
}

function Tabs({ category, screen, path }: { category: CategoryTree; screen: CategoryScreen; path: string }) {
  const open = category.children.find((c) => c.slug === screen.tab) ?? category.children[0];
  return (
    <div>
      <nav aria-label={`${category.name}: sections`}>
        <ul className="flex flex-wrap gap-x-1 border-b border-slate-300">
          {category.children.map((child) => {
            const current = child.slug === open.slug;
            return (
              <li key={child.id}>
                <Link
                  to={listHref(path, { tab: child.slug, list: null })}
                  preventScrollReset
                  aria-current={current ? "page" : undefined}
                  className={`-mb-px block rounded-t-md border-b-4 px-4 py-2.5 text-sm font-semibold whitespace-nowrap transition-colors ${
                    current
                      ? "border-sea-600 bg-white text-navy-900"
                      : "border-transparent text-slate-600 hover:border-slate-300 hover:text-navy-900"
                  }`}
                >
                  {child.name}
                  <span className="ml-2 rounded-full bg-navy-100 px-2 py-0.5 text-xs font-medium text-navy-800">
                    {child.papers_count}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <section aria-labelledby={`tab-${open.slug}`} className="pt-6">
        <h2 id={`tab-${open.slug}`} className="font-display text-2xl font-bold text-navy-900">
          {titleOf(open)}
        </h2>
        {open.title_description ? <p className="mt-1 text-slate-600">{open.title_description}</p> : null}
        <div className="mt-5">
          <ChildBody child={open} screen={screen} path={path} />
        </div>
      </section>
    </div>
  );
}

function Accordion({ category, screen, path }: { category: CategoryTree; screen: CategoryScreen; path: string }) {
  return (
    <div className="divide-y divide-slate-200 overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      {category.children.map((child) => {
        const list = screen.lists[child.slug];
        // The section whose list the URL is about opens; so does a lone one.
        const isOpen = category.children.length === 1 || (list !== undefined && screen.namedList === child.slug);
        return (
          <details key={child.id} open={isOpen} className="group">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-3 px-4 py-4 sm:px-5 hover:bg-navy-50 [&::-webkit-details-marker]:hidden">
              <span className="min-w-0 flex-1">
                <h2 className="text-lg font-semibold text-navy-900">{titleOf(child)}</h2>
                {child.title_description ? (
                  <span className="mt-0.5 block text-sm text-slate-600">{child.title_description}</span>
                ) : null}
              </span>
              <span className="flex shrink-0 items-center gap-3">
                <span className="rounded-full bg-navy-100 px-2.5 py-0.5 text-xs font-medium whitespace-nowrap text-navy-800">
                  {child.papers_count}
                  <span className="sr-only sm:not-sr-only"> document{child.papers_count === 1 ? "" : "s"}</span>
                </span>
                <ChevronDown
                  className="h-5 w-5 text-slate-500 transition-transform group-open:rotate-180"
                  aria-hidden="true"
                />
              </span>
            </summary>
            <div className="border-t border-slate-200 bg-navy-50/40 px-3 py-4 sm:px-5 sm:py-5">
              <ChildBody child={child} screen={screen} path={path} />
            </div>
          </details>
        );
      })}
    </div>
  );
}

/** SPEC §2 'Category browser with breadcrumbs, tabs and accordion': one screen for members and visitors. */
export function CategoryView({ screen }: { screen: CategoryScreen }) {
  const { category, home, area, breadcrumbs } = screen;
  const path = `${home}/${category.slug}`;
  const own = screen.lists[category.slug];
  const trail = [
    { label: area === "members" ? "Members area" : "Document library", to: home },
    ...breadcrumbs.slice(0, -1).map((b) => ({ label: b.name, to: `${home}/${b.slug}` })),
  ];
  const crumbs = <Breadcrumbs trail={trail} current={category.name} />;
  const intro = (
    <>
      {category.description ? (
        <p className="max-w-3xl text-lg whitespace-pre-line text-slate-700">{category.description}</p>
      ) : null}
      {category.content ? (
        <div
          className="rich-text max-w-3xl"
          // Sanitized on write and again by the loader.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized server-side
          dangerouslySetInnerHTML={{ __html: category.content }}
        />
      ) : null}
    </>
  );
  const body = (
    <div className="space-y-10">
      <Island name="open-linked-paper" component={OpenLinkedPaper} props={{}} />
      {category.description || category.content ? <div className="space-y-5">{intro}</div> : null}
      {own ? (
        <section aria-labelledby="own-papers" className="space-y-4">
          {category.children.length > 0 ? (
            <h2 id="own-papers" className="font-display text-2xl font-bold text-navy-900">
              Documents
            </h2>
          ) : (
            <h2 id="own-papers" className="sr-only">
              Documents
            </h2>
          )}
          <PapersList category={category} list={own} path={path} tab={screen.tab} defaultList={screen.defaultList} />
        </section>
      ) : null}
      {category.children.length > 0 ? (
        category.children_display === "tabs" ? (
          <Tabs category={category} screen={screen} path={path} />
        ) : (
          <Accordion category={category} screen={screen} path={path} />
        )
      ) : null}
      {!own && category.children.length === 0 ? (
        <p className="rounded-xl bg-white p-5 text-slate-700 ring-1 ring-slate-200">There are no documents here yet.</p>
      ) : null}
    </div>
  );

  if (area === "public") {
    return (
      <div>
        <PageHero eyebrow="Document library" title={titleOf(category)}>
          {category.title_description ? (
            <p className="mt-3 max-w-2xl text-lg text-navy-100">{category.title_description}</p>
          ) : null}
        </PageHero>
        <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
          <div className="flex flex-wrap items-center justify-between gap-3">
            {crumbs}
            <div className="flex flex-wrap items-center gap-4">
              <FollowButton
                kind="category"
                id={category.id}
                name={category.name}
                delivery="instant"
                label="Follow: e-mail me new documents"
              />
              <a
                href={`/library/${category.slug}/feed.xml`}
                className="text-sm font-semibold text-sea-700 underline underline-offset-2 hover:text-navy-900"
              >
                Feed of new documents (Atom)
              </a>
            </div>
          </div>
          <div className="mt-6">{body}</div>
        </div>
      </div>
    );
  }
  return (
    <div>
      {crumbs}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-display text-3xl font-bold text-navy-900 sm:text-4xl">{titleOf(category)}</h1>
        <FollowButton
          kind="category"
          id={category.id}
          name={category.name}
          delivery="instant"
          label="Follow: e-mail me new documents"
        />
      </div>
      {category.title_description ? (
        <p className="mt-2 max-w-3xl text-lg text-slate-600">{category.title_description}</p>
      ) : null}
      <div className="mt-8">{body}</div>
    </div>
  );
}

import { Download, History } from "lucide-react";
import type { Category, Paper } from "../../../core/library/library.schema";
import {
  type PaperField,
  paperFieldLabel,
  paperFields,
  revisionLabel,
  versionLabel,
  viewOf,
} from "../../../core/library/library.values";
import { Island, useIslands } from "../../islands/island";
import { useLoadMore } from "../../lib/use-load-more";
import { SpriteIcon } from "../ui/icon-sprite";
import { LoadMoreIsland } from "../ui/load-more-island";
import { LoadMoreLink } from "../ui/load-more-link";
import { Notice } from "../ui/notice";
import { fileFacts, formatPaperDate } from "./format";
import { listHref } from "./list-url";
import { PapersSearch } from "./papers-search";
import type { PaperList } from "./screen";

const DATE_FIELDS: PaperField[] = ["date", "publication_date", "forecast_date"];

function fieldValue(paper: Paper, field: PaperField, viewType: Category["view_type"]): string | null {
  const value = paper[field];
  if (!value) return null;
  if (!DATE_FIELDS.includes(field)) return value;
  return formatPaperDate(value, viewOf(viewType) === "spotlight-magazine" ? "month" : "day");
}

function earlierFileLabel(revision: Paper["revisions"][number]): string {
  if (revision.revision) return revisionLabel(revision.revision, "Revision ") as string;
  if (revision.version) return versionLabel(revision.version, "Version ") as string;
  if (revision.date) return `Dated ${formatPaperDate(revision.date)}`;
  return "Earlier file";
}

/** One paper: its fields for the category's view, its file, where a search found it, its earlier files. */
export function PaperItem({ paper, viewType }: { paper: Paper; viewType: Category["view_type"] }) {
  const fields = paperFields(viewType)
    .map((field) => ({ field, value: fieldValue(paper, field, viewType) }))
    .filter((f) => f.value !== null);
  return (
    <li
      id={`paper-${paper.id}`}
      className="scroll-mt-28 rounded-xl bg-white p-4 shadow-sm sm:p-5 ring-1 ring-slate-200 target:ring-2 target:ring-sea-600"
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 gap-3">
          <SpriteIcon name="file-text" className="mt-0.5 hidden h-6 w-6 shrink-0 text-sea-600 sm:block" />
          <div className="min-w-0">
            <h3 className="text-lg leading-snug font-semibold break-words text-navy-900">{paper.name}</h3>
            {fields.length > 0 ? (
              <dl className="mt-1.5 flex flex-wrap gap-x-5 gap-y-1 text-sm">
                {fields.map(({ field, value }) => (
                  <div key={field} className="flex gap-1.5">
                    <dt className="text-slate-500">{paperFieldLabel(field, viewType)}</dt>
                    <dd className="font-medium text-slate-800">{value}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
            {paper.description ? (
              <p className="mt-2.5 text-[15px] whitespace-pre-line text-slate-700">{paper.description}</p>
            ) : null}
            {paper.match ? (
              <div className="mt-3 rounded-md border-l-4 border-signal-500 bg-navy-50 px-3 py-2 text-sm text-slate-700">
                <p
                  className="[&_mark]:rounded-sm [&_mark]:bg-signal-500/30 [&_mark]:px-0.5 [&_mark]:text-inherit"
                  // The search service escapes the text; only its <mark> is markup.
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped server-side
                  dangerouslySetInnerHTML={{ __html: paper.match.snippet }}
                />
                {paper.match.page !== null && paper.match.url ? (
                  <a href={paper.match.url} className="mt-1 inline-block font-semibold text-sea-700 hover:underline">
                    Found on page {paper.match.page}
                  </a>
                ) : null}
              </div>
            ) : null}
          </div>
        </div>
        {paper.file ? (
          <a href={paper.file.url} className="btn-outline shrink-0 self-start">
            <Download className="h-4 w-4" aria-hidden="true" />
            <span>
              Download<span className="sr-only"> {paper.name},</span>{" "}
              <span className="font-normal text-slate-600">{fileFacts(paper.file)}</span>
            </span>
          </a>
        ) : (
          <p className="shrink-0 text-sm text-slate-500">No file yet</p>
        )}
      </div>
      {paper.revisions.length > 0 ? (
        <details className="group mt-4 border-t border-slate-200 pt-3">
          <summary className="inline-flex cursor-pointer items-center gap-1.5 text-sm font-semibold text-navy-900 hover:text-sea-700">
            <History className="h-4 w-4" aria-hidden="true" />
            Earlier versions ({paper.revisions.length})
          </summary>
          <ul className="mt-2 space-y-2">
            {paper.revisions.map((revision) => (
              <li
                key={revision.id}
                className="flex flex-col gap-1 rounded-md bg-navy-50 px-3 py-2 text-sm sm:flex-row sm:items-center sm:justify-between"
              >
                <span>
                  <span className="font-medium text-slate-800">{earlierFileLabel(revision)}</span>
                  <span className="text-slate-600"> · replaced {formatPaperDate(revision.replaced_at)}</span>
                </span>
                <a href={revision.file.url} className="font-semibold text-sea-700 hover:underline">
                  Download
                  <span className="sr-only">
                    {" "}
                    {paper.name}, {earlierFileLabel(revision)},
                  </span>{" "}
                  <span className="font-normal">({fileFacts(revision.file)})</span>
                </a>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  );
}

/**
 * A category's papers with search, sort and load-more (SPEC §2 'Paper list'). The state lives in the
 * URL (a GET form and a next-page link work without JavaScript); with it, the sort applies at once
 * and the next page is appended in place.
 */
export function PapersList({
  category,
  list,
  path,
  tab,
  defaultList,
}: {
  category: Pick<Category, "name" | "slug" | "view_type" | "sort_options" | "default_sort">;
  list: PaperList;
  /** The screen's address, without its query. */
  path: string;
  tab: string | null;
  defaultList: string | null;
}) {
  const more = useLoadMore(list.page);
  const islands = useIslands();
  const listParam = list.slug === defaultList ? null : list.slug;
  const sortParam = list.page.sort === category.default_sort ? null : list.page.sort;
  const anchor = `list-${list.slug}`;
  const total = list.page.total;
  const nextHref = listHref(
    path,
    { tab, list: listParam, search: list.search, sort: sortParam, page: more.nextPage },
    anchor,
  );
  return (
    <section id={anchor} aria-label={`Documents in ${category.name}`} className="scroll-mt-28">
      <Island
        name="papers-search"
        component={PapersSearch}
        props={{
          path,
          tab,
          list: listParam,
          search: list.search,
          sort: list.page.sort,
          defaultSort: category.default_sort,
          sortOptions: category.sort_options,
          anchor,
          categoryName: category.name,
        }}
      />
      {list.badSort ? (
        <Notice tone="error" className="mt-3">
          This list cannot be sorted by “{list.badSort}”, so it is shown in its default order.
        </Notice>
      ) : null}
      <p className="mt-4 text-sm text-slate-600" aria-live="polite">
        {total} document{total === 1 ? "" : "s"}
        {list.search ? ` matching “${list.search}”` : ""}
      </p>
      {more.items.length === 0 ? (
        <p className="mt-4 rounded-xl bg-white p-5 text-slate-700 ring-1 ring-slate-200">
          {list.search ? "No document matches. Try other or fewer words." : "There are no documents here yet."}
        </p>
      ) : (
        <ul id={`${anchor}-items`} className="mt-3 space-y-4">
          {more.items.map((paper) => (
            <PaperItem key={paper.id} paper={paper} viewType={category.view_type} />
          ))}
        </ul>
      )}
      {more.hasMore ? (
        <div className="mt-6 text-center">
          {islands ? (
            <Island name="load-more" component={LoadMoreIsland} props={{ href: nextHref, list: `${anchor}-items` }} />
          ) : (
            <LoadMoreLink href={nextHref} loading={more.loading} onLoad={(href) => more.load(href.split("#")[0])} />
          )}
        </div>
      ) : null}
    </section>
  );
}

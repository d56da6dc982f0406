import { data } from "react-router";
import { PAGE_SECTIONS } from "../../../core/pages/fixed-pages";
import { PageHero } from "../../components/layout/page-hero";
import { PREVIEW_HEADERS, PreviewNote, previewMeta } from "../../components/layout/preview-note";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import type { Route } from "./+types/page-preview";

/** Served as islands (decision 0033): a page to read, nothing to run. */
export const handle = SERVED_AS_ISLANDS;

export const PAGE_PREVIEW_INVALID =
  "This preview link is not valid or has expired. Ask whoever sent it for a new one; a published page is at its own address.";

export const headers: Route.HeadersFunction = () => PREVIEW_HEADERS;

export const meta: Route.MetaFunction = ({ data: loaderData }) => previewMeta(loaderData?.page.title);

export async function loader({ context, params }: Route.LoaderArgs) {
  const found = await getRequestContext(context).services.pages.preview(params.token);
  if (!found) throw data(PAGE_PREVIEW_INVALID, { status: 404, headers: PREVIEW_HEADERS });
  const section = PAGE_SECTIONS.find((s) => s.id === found.section)?.title ?? "";
  return data({ ...found, sectionTitle: section }, { headers: PREVIEW_HEADERS });
}

/** A page as it will look (its heading and text), marked as a preview, for anyone with the link until it expires (decision 0072). */
export default function PagePreview({ loaderData }: Route.ComponentProps) {
  const { page, expires_at, sectionTitle } = loaderData;
  return (
    <div>
      <div className="mx-auto max-w-7xl px-4 pt-6 sm:px-6">
        <PreviewNote noun="page" status={page.status} publishAt={page.publish_at} expiresAt={expires_at} />
      </div>
      <PageHero eyebrow={sectionTitle} title={page.title} />
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
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

import { data, Form, Link, redirect, useNavigation } from "react-router";
import { PAGE_SECTIONS, publicPageUrl } from "../../../core/pages/fixed-pages";
import { type PageUpdate, pageCreateSchema } from "../../../core/pages/pages.schema";
import { isAppError } from "../../../lib/errors";
import { parseId } from "../../../lib/ids";
import { AuditHistory } from "../../components/admin/audit-rows";
import { PreviewLink, previewOf } from "../../components/admin/preview-link";
import { PublicationFields, publicationOf, publishOn, scheduledAt } from "../../components/admin/publication-fields";
import { RevisionsPanel } from "../../components/admin/revisions-panel";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { Notice } from "../../components/ui/notice";
import { RichTextEditor } from "../../components/ui/rich-text-editor";
import { SelectField } from "../../components/ui/select-field";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { shownAuditRows } from "../../lib/audit";
import { actionRefusal, fieldFailureOf, lengthLimit } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import { shownRevisions } from "../../lib/revisions";
import type { Route } from "./+types/manage-page-edit";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.page ? `Edit ${loaderData.page.title}` : "New page"} · Manager` },
];

/** The page at the splat; null on the "New page" screen (no splat). */
async function loadPage(context: Route.LoaderArgs["context"], splat: string | undefined) {
  if (splat === undefined) return null;
  try {
    return await getRequestContext(context).services.pages.getAdminPage(`/${splat}`);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw data("This page could not be found", { status: 404 });
    throw error;
  }
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const page = await loadPage(context, params["*"]);
  // A scheduled time is shown and typed in the site's time zone (decision 0071).
  const { services, origin } = getRequestContext(context);
  const zone = (await services.settings.getAll())["site.timezone"];
  // A draft or scheduled page gets a link to read it as it will look: a new one, valid for a week, each time.
  const link = page && page.status !== "published" ? await services.pages.previewLink(page.url) : null;
  const [revisions, history] = page
    ? await Promise.all([services.pages.revisions(page.url), services.audit.history("page", page.id)])
    : [[], []];
  return {
    page,
    zone,
    revisions: shownRevisions(revisions, zone),
    history: shownAuditRows(history, zone),
    publishOn: publishOn(page, zone),
    saved: url.searchParams.has("saved"),
    restored: url.searchParams.get("restored"),
    preview: previewOf(origin, link),
  };
}

const SECTION_OPTIONS: [string, string][] = [
  ["", "None: standing alone"],
  ...PAGE_SECTIONS.map((s): [string, string] => [s.id, s.title]),
];

export async function action({ context, params, request }: Route.ActionArgs) {
  const { services } = getRequestContext(context);
  const page = await loadPage(context, params["*"]);
  const form = await readForm(request);
  if (form.intent === "restore" && page) {
    try {
      const id = parseId(form.revision);
      if (id === null) throw data("Unknown revision.", { status: 400 });
      await services.pages.restoreRevision(page.url, id);
      return redirect(`/manager/pages${page.url}?restored=${id}`);
    } catch (error) {
      return actionRefusal(error);
    }
  }
  const field = (name: string) => String(form[name] ?? "");
  const values = {
    title: field("title"),
    content: field("content"),
    slug: field("slug"),
    section: field("section"),
    in_menu: form.in_menu === "1",
    in_footer: form.in_footer === "1",
    position: field("position"),
    status: publicationOf(form.status),
    publish_date: field("publish_date"),
    publish_time: field("publish_time"),
  };
  try {
    if (page?.fixed) {
      await services.pages.updatePage(page.url, { title: values.title, content: values.content });
      return redirect(`/manager/pages${page.url}?saved=1`);
    }
    const zone = (await services.settings.getAll())["site.timezone"];
    const input = {
      title: values.title,
      content: values.content,
      // Checked by the service's schema: an unknown section is a 422 on the field.
      section: values.section as PageUpdate["section"],
      in_menu: values.in_menu,
      in_footer: values.in_footer,
      position: values.position,
      status: values.status,
      publish_at:
        values.status === "scheduled" ? scheduledAt(values.publish_date, values.publish_time, zone) : undefined,
    };
    const saved = page
      ? await services.pages.updatePage(page.url, input)
      : await services.pages.createPage({ ...input, slug: values.slug });
    return redirect(`/manager/pages${saved.url}?saved=1`);
  } catch (error) {
    // What the admin typed comes back with the messages, so nothing is lost without JavaScript either.
    const { errors, status } = fieldFailureOf(error);
    return data({ errors, values }, { status });
  }
}

/** What the screen says of the page's state, beside "Page saved." and under the title. */
function stateLine(page: { status: string; fixed: boolean }, on: { date: string; time: string } | null, zone: string) {
  if (page.fixed) return "Part of the site's structure: always published, with a fixed place in the menus.";
  if (page.status === "draft") return "A draft: only admins see it; visitors get “not found” at its address.";
  if (page.status === "scheduled" && on)
    return `Scheduled: visitors get “not found” until ${on.date} ${on.time} (${zone} time).`;
  return "Published: everyone sees it.";
}

/** Create or edit a CMS page: SPEC's fixed pages (title and text) and the association's own (decision 0072). */
export default function EditPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, saved, zone } = loaderData;
  const edited = actionData && "values" in actionData ? actionData : undefined;
  const errors: Record<string, string[] | undefined> = edited?.errors ?? {};
  const restoredNumber = loaderData.revisions.find((r) => String(r.restored_from) === loaderData.restored)?.number;
  const values = edited?.values ?? {
    title: page?.title ?? "",
    content: page?.content ?? "",
    slug: "",
    section: page?.section ?? "",
    in_menu: page?.in_menu ?? false,
    in_footer: page?.in_footer ?? false,
    position: String(page?.position ?? 0),
    status: page?.status ?? ("published" as const),
    publish_date: loaderData.publishOn?.date ?? "",
    publish_time: loaderData.publishOn?.time ?? "",
  };
  const saving = useNavigation().state === "submitting";
  const own = !page?.fixed;
  return (
    <div className="max-w-4xl">
      <Breadcrumbs
        trail={[
          { label: "Manager", to: "/manager" },
          { label: "Pages", to: "/manager/pages" },
        ]}
        current={page?.title ?? "New page"}
      />
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <h1 className="font-display text-4xl font-bold text-navy-900">{page ? "Edit page" : "New page"}</h1>
        {page && page.status === "published" ? (
          <a
            href={publicPageUrl(page.url)}
            target="_blank"
            rel="noreferrer"
            className="text-sm font-semibold text-sea-600 hover:underline"
          >
            View {publicPageUrl(page.url)}
          </a>
        ) : null}
      </div>
      {page ? (
        <p className="mt-2 text-sm text-slate-600">
          {publicPageUrl(page.url)} · {stateLine(page, loaderData.publishOn, zone)}
        </p>
      ) : null}
      {loaderData.preview ? <PreviewLink {...loaderData.preview} noun="page" /> : null}
      {saved ? (
        <Notice tone="success" className="mt-4">
          Page saved.
        </Notice>
      ) : null}
      {loaderData.restored ? (
        <Notice tone="success" className="mt-4">
          Restored: the texts are back as revision {restoredNumber ?? "…"}. The page's state did not change.
        </Notice>
      ) : null}
      {actionData && "error" in actionData ? (
        <Notice tone="error" className="mt-4">
          {actionData.error}
        </Notice>
      ) : null}
      {Object.keys(errors).length > 0 ? (
        <p
          role="alert"
          className="mt-4 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
        >
          You have validation errors! Please fix them all
        </p>
      ) : null}
      {/* Keyed by the saved version: after a restore the fields show the restored texts. */}
      <Form
        key={page?.updated_at}
        method="post"
        className="mt-6 space-y-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
      >
        <TextField
          id="title"
          name="title"
          label="Title"
          defaultValue={values.title}
          error={errors.title?.[0]}
          required
          {...lengthLimit(pageCreateSchema.shape.title)}
        />
        {page ? null : (
          <TextField
            id="slug"
            name="slug"
            label="Address"
            hint="Lowercase words joined by hyphens, such as annual-report: the page is read at /annual-report. It cannot be changed later."
            defaultValue={values.slug}
            error={errors.slug?.[0]}
            required
            maxLength={80}
            pattern="[a-z0-9]+(-[a-z0-9]+)*"
          />
        )}
        <RichTextEditor name="content" label="Content" initialHtml={values.content} error={errors.content?.[0]} />
        {own ? (
          <>
            <fieldset className="space-y-3">
              <legend className="field-label">Place</legend>
              <div className="grid gap-3 sm:grid-cols-[1fr_10rem]">
                <SelectField
                  id="section"
                  name="section"
                  label="Section"
                  defaultValue={values.section}
                  options={SECTION_OPTIONS}
                  error={errors.section?.[0]}
                />
                <TextField
                  id="position"
                  name="position"
                  type="number"
                  label="Order"
                  hint="0 first, after the site's own pages."
                  min={0}
                  max={999}
                  defaultValue={values.position}
                  error={errors.position?.[0]}
                />
              </div>
              <label className="flex items-start gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="in_menu"
                  value="1"
                  defaultChecked={values.in_menu}
                  className="mt-0.5 h-4 w-4"
                  aria-describedby={errors.in_menu ? "in_menu-error" : undefined}
                />
                <span>In the section's submenu of the main menu</span>
              </label>
              {errors.in_menu ? (
                <p id="in_menu-error" className="text-sm text-red-700">
                  {errors.in_menu[0]}
                </p>
              ) : null}
              <label className="flex items-start gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="in_footer"
                  value="1"
                  defaultChecked={values.in_footer}
                  className="mt-0.5 h-4 w-4"
                />
                <span>In the footer (in the section's column; a page standing alone beside the privacy policy)</span>
              </label>
            </fieldset>
            <PublicationFields
              noun="page"
              state={values.status}
              date={values.publish_date}
              time={values.publish_time}
              zone={zone}
              errors={errors}
            />
          </>
        ) : null}
        <div className="flex justify-end gap-3">
          <Link to="/manager/pages" className="btn-outline">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving…" : page ? "Save page" : "Create page"}
          </button>
        </div>
      </Form>
      {page ? <RevisionsPanel revisions={loaderData.revisions} noun="page" /> : null}
      {page ? <AuditHistory rows={loaderData.history} /> : null}
    </div>
  );
}

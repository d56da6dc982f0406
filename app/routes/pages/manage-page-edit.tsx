import { data, Form, Link, redirect, useNavigation } from "react-router";
import { publicPageUrl } from "../../../core/pages/fixed-pages";
import { pageUpdateSchema } from "../../../core/pages/pages.schema";
import { isAppError } from "../../../lib/errors";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { Notice } from "../../components/ui/notice";
import { RichTextEditor } from "../../components/ui/rich-text-editor";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { fieldErrorsOf, lengthLimit } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-page-edit";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Edit ${loaderData?.page.title ?? "page"} · Manager` },
];

async function loadPage(context: Route.LoaderArgs["context"], splat: string | undefined) {
  try {
    return await getRequestContext(context).services.pages.getPage(`/${splat ?? ""}`);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw data("This page could not be found", { status: 404 });
    throw error;
  }
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  return { page: await loadPage(context, params["*"]), saved: url.searchParams.has("saved") };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const page = await loadPage(context, params["*"]);
  const form = await readForm(request);
  const values = { title: String(form.title ?? ""), content: String(form.content ?? "") };
  try {
    await getRequestContext(context).services.pages.updatePage(page.url, values);
  } catch (error) {
    // What the admin typed comes back with the messages, so nothing is lost without JavaScript either.
    return data({ errors: fieldErrorsOf(error), values }, { status: 422 });
  }
  return redirect(`/manager/pages${page.url}?saved=1`);
}

/** Editing one CMS page; the change is live on the next request. */
export default function EditPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, saved } = loaderData;
  const errors = actionData?.errors ?? {};
  const values = actionData?.values ?? { title: page.title, content: page.content };
  const saving = useNavigation().state === "submitting";
  return (
    <div className="max-w-4xl">
      <Breadcrumbs
        trail={[
          { label: "Manager", to: "/manager" },
          { label: "Pages", to: "/manager/pages" },
        ]}
        current={page.title}
      />
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <h1 className="font-display text-4xl font-bold text-navy-900">Edit page</h1>
        <a
          href={publicPageUrl(page.url)}
          target="_blank"
          rel="noreferrer"
          className="text-sm font-semibold text-sea-600 hover:underline"
        >
          View {publicPageUrl(page.url)}
        </a>
      </div>
      {saved ? (
        <Notice tone="success" className="mt-4">
          Page saved.
        </Notice>
      ) : null}
      <Form method="post" className="mt-6 space-y-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <TextField
          id="title"
          name="title"
          label="Title"
          defaultValue={values.title}
          error={errors.title?.[0]}
          required
          {...lengthLimit(pageUpdateSchema.shape.title)}
        />
        <RichTextEditor name="content" label="Content" initialHtml={values.content} error={errors.content?.[0]} />
        <div className="flex justify-end gap-3">
          <Link to="/manager/pages" className="btn-outline">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving…" : "Save page"}
          </button>
        </div>
      </Form>
    </div>
  );
}

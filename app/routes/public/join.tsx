import { data, redirect } from "react-router";
import { JOIN_FIELDS } from "../../../core/join/join.schema";
import { isAppError } from "../../../lib/errors";
import { JoinForm } from "../../components/public/join-form";
import { PageHero } from "../../components/public/page-hero";
import { getRequestContext } from "../../context";
import { firstMessages, readForm } from "../../lib/forms";
import { seoMeta } from "../../lib/seo";
import type { Route } from "./+types/join";

/**
 * Where the join form posts without JavaScript (with it, the form sends to
 * /api/join and thanks in a modal). Errors come back on this page with the
 * visitor's values; a stored request leads to the thank-you page.
 */
export async function loader() {
  return { renderedAt: Date.now() };
}

type ActionData = {
  errors?: Record<string, string>;
  failure?: string;
  values: Record<string, string>;
  renderedAt: number;
};

export async function action({ request, context }: Route.ActionArgs) {
  const { services, client } = getRequestContext(context);
  const form = await readForm(request);
  const values = Object.fromEntries(
    JOIN_FIELDS.map((field) => [field, typeof form[field] === "string" ? (form[field] as string) : ""]),
  );
  try {
    await services.join.submit(form, { ip: client.ip });
  } catch (error) {
    if (isAppError(error) && error.details.errors) {
      const errors = firstMessages(error.details.errors);
      return data<ActionData>({ errors, values, renderedAt: Date.now() }, { status: 422 });
    }
    if (isAppError(error) && error.code === "rate_limited") {
      return data<ActionData>(
        { failure: error.message, values, renderedAt: Date.now() },
        { status: 429, headers: { "Retry-After": String(error.details.retryAfter ?? 3600) } },
      );
    }
    throw error;
  }
  const from = typeof form.page_path === "string" && /^\/(?!\/)/.test(form.page_path) ? form.page_path : "/";
  return redirect(`/join/thank-you?from=${encodeURIComponent(from)}`);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seoMeta({ matches, title: "Join the community", description: "Send a membership request.", path: "/join" });

export default function Join({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div>
      <PageHero eyebrow="Membership" title="Join the community" />
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        {actionData?.failure ? (
          <p role="alert" className="mb-6 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {actionData.failure}
          </p>
        ) : null}
        <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <JoinForm
            user={null}
            idPrefix="join-page"
            initialValues={actionData?.values}
            serverErrors={actionData?.errors}
            startedAt={actionData?.renderedAt ?? loaderData.renderedAt}
          />
        </div>
      </div>
    </div>
  );
}

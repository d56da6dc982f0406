import { data, redirect } from "react-router";
import { safeRedirectPath } from "../../../core/auth/auth.schema";
import { JOIN_FIELDS, joinSubmissionSchema } from "../../../core/join/join.schema";
import { parseOrThrow } from "../../../lib/validation";
import { JoinForm } from "../../components/join/join-form";
import { PageHero } from "../../components/layout/page-hero";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { Island, SERVED_AS_ISLANDS } from "../../islands/island";
import { fieldFailureOf, firstMessages, rateLimitOf } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import { seoMeta } from "../../lib/seo";
import type { Route } from "./+types/join";

/**
 * Where the join form posts without JavaScript (with it, the form sends to
 * /api/join and thanks in a modal). Errors come back on this page with the
 * visitor's values; a stored request leads to the thank-you page.
 */
export const handle = SERVED_AS_ISLANDS;

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
  const { services, client, auth } = getRequestContext(context);
  const form = await readForm(request);
  const values = Object.fromEntries(
    JOIN_FIELDS.map((field) => [field, typeof form[field] === "string" ? (form[field] as string) : ""]),
  );
  try {
    await services.join.submit(parseOrThrow(joinSubmissionSchema, form), { ip: client.ip, signedIn: auth !== null });
  } catch (error) {
    const limited = rateLimitOf(error);
    if (limited) return data<ActionData>({ failure: limited.message, values, renderedAt: Date.now() }, limited.init);
    const { errors, status } = fieldFailureOf(error);
    // The spam check and a meeting that no longer takes registrations are not fields the visitor
    // can correct: said above the form.
    const { captcha_token, page_path, ...fields } = firstMessages(errors);
    return data<ActionData>(
      { errors: fields, failure: page_path ?? captcha_token, values, renderedAt: Date.now() },
      { status },
    );
  }
  return redirect(`/join/thank-you?from=${encodeURIComponent(safeRedirectPath(form.page_path, "/"))}`);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seoMeta({ matches, title: "Join the community", description: "Send a membership request.", path: "/join" });

export default function Join({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div>
      <PageHero eyebrow="Membership" title="Join the community" />
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        {actionData?.failure ? (
          <Notice tone="error" className="mb-6">
            {actionData.failure}
          </Notice>
        ) : null}
        <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <Island
            name="join-page-form"
            component={JoinForm}
            props={{
              user: null,
              idPrefix: "join-page",
              initialValues: actionData?.values,
              serverErrors: actionData?.errors,
              startedAt: actionData?.renderedAt ?? loaderData.renderedAt,
            }}
          />
        </div>
      </div>
    </div>
  );
}

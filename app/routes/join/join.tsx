import { PublicFormPage } from "../../components/join/public-form-page";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { retryAfterOf } from "../../lib/forms";
import { seoMeta } from "../../lib/seo";
import type { Route } from "./+types/join";
import { publicFormAction } from "./public-form.server";

/** Where the join form posts without JavaScript (decisions 0008, 0039; the shared handling in public-form.server.ts). */
export const handle = SERVED_AS_ISLANDS;

export async function action({ request, context }: Route.ActionArgs) {
  return publicFormAction("join", request, getRequestContext(context));
}

export const headers: Route.HeadersFunction = retryAfterOf;

export const meta: Route.MetaFunction = ({ matches }) =>
  seoMeta({ matches, title: "Join the community", description: "Send a membership request.", path: "/join" });

export default function Join({ actionData }: Route.ComponentProps) {
  return <PublicFormPage kind="join" shown={actionData} />;
}

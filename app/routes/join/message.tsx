import { PublicFormPage } from "../../components/join/public-form-page";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { retryAfterOf } from "../../lib/forms";
import { seoMeta } from "../../lib/seo";
import type { Route } from "./+types/message";
import { publicFormAction } from "./public-form.server";

/**
 * Where the contact form of /contact and /feedback-forum posts without JavaScript (decision 0039;
 * the shared handling in public-form.server.ts).
 */
export const handle = SERVED_AS_ISLANDS;

export async function action({ request, context }: Route.ActionArgs) {
  return publicFormAction("message", request, getRequestContext(context));
}

export const headers: Route.HeadersFunction = retryAfterOf;

export const meta: Route.MetaFunction = ({ matches }) =>
  seoMeta({ matches, title: "Send us a message", description: "Write to the secretariat.", path: "/message" });

export default function Message({ actionData }: Route.ComponentProps) {
  return <PublicFormPage kind="message" shown={actionData} />;
}

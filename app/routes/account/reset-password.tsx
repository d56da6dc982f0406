import { LockKeyhole } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { tokenPasswordSchema } from "../../../core/accounts/password.schema";
import { RESET_LINK_INVALID } from "../../../core/accounts/password-reset.schema";
import { AuthCard } from "../../components/account/auth-card";
import { NewPasswordFields } from "../../components/account/new-password-fields";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { fieldErrorsOf, firstMessages } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = () => [
  { title: "Choose a new password · Masthead" },
  { name: "robots", content: "noindex" },
  // Also the header below: this tag comes after the asset preloads, which the browser fetches first.
  { name: "referrer", content: "no-referrer" },
];

// The address carries the token: never cached anywhere, and never sent on in a Referer, not even with the
// page's own asset requests (a header, unlike the meta tag, holds from the first byte).
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });

/** Served as islands (decision 0033): a plain form, posted to the server. */
export const handle = SERVED_AS_ISLANDS;

export async function loader({ context, url }: Route.LoaderArgs) {
  const token = url.searchParams.get("token") ?? "";
  const usable = await getRequestContext(context).services.passwordReset.isUsable(token);
  return data({ token, usable }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  try {
    await getRequestContext(context).services.passwordReset.reset(tokenPasswordSchema.parse(form));
  } catch (error) {
    return data({ errors: firstMessages(fieldErrorsOf(error)) }, { status: 422 });
  }
  return redirect("/login?notice=password-changed");
}

/** The link from the reset mail: a new password and its confirmation. */
export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useNavigation().state === "submitting";
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  const invalid = !loaderData.usable || errors.token;
  return (
    <AuthCard title="Choose a new password" icon={<LockKeyhole className="h-5 w-5" aria-hidden="true" />}>
      {invalid ? (
        <>
          <Notice tone="error" className="mt-6">
            {RESET_LINK_INVALID}
          </Notice>
          <Link to="/forgot-password" className="btn-primary mt-6 w-full">
            Ask for a new link
          </Link>
        </>
      ) : (
        <Form method="post" noValidate className="mt-6 space-y-5">
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields errors={errors} labels={["New password", "Confirm the new password"]} />
          <button type="submit" className="btn-primary w-full py-3 text-base" disabled={submitting}>
            {submitting ? "Saving…" : "Save the new password"}
          </button>
        </Form>
      )}
    </AuthCard>
  );
}

import { Anchor } from "lucide-react";
import { data, Form, redirect, useNavigation } from "react-router";
import { INVITATION_LINK_INVALID } from "../../../core/accounts/invitation.schema";
import { tokenPasswordSchema } from "../../../core/accounts/password.schema";
import { sessionCookie } from "../../../core/auth/auth.cookie";
import { isAppError } from "../../../lib/errors";
import { AuthCard } from "../../components/account/auth-card";
import { NewPasswordFields } from "../../components/account/new-password-fields";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { fieldErrorsOf, firstMessages } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/welcome";

export const meta: Route.MetaFunction = () => [
  { title: "Welcome · Masthead" },
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
  const invitation = await getRequestContext(context).services.invitations.describe(token);
  return data({ token, invitation }, { headers: { "Cache-Control": "no-store" } });
}

/** Sets the first password, signs the new member in and opens the members area. */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, client, secureCookies } = getRequestContext(context);
  const form = await readForm(request);
  let userId: number;
  try {
    userId = await services.invitations.accept(tokenPasswordSchema.parse(form));
  } catch (error) {
    return data({ errors: firstMessages(fieldErrorsOf(error)) }, { status: 422 });
  }
  try {
    const session = await services.auth.openSession(userId, client);
    return redirect("/dashboard?notice=welcome", {
      headers: { "Set-Cookie": sessionCookie(session.token, { secure: secureCookies }) },
    });
  } catch (error) {
    // The password is saved; only signing in failed (the account was deactivated a moment ago).
    if (isAppError(error)) return redirect("/login?notice=password-changed");
    throw error;
  }
}

/** The link from the invitation mail: the invited person chooses their password. */
export default function Welcome({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useNavigation().state === "submitting";
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  const { invitation } = loaderData;
  return (
    <AuthCard
      title={invitation ? `Welcome, ${invitation.first_name}` : "Welcome"}
      icon={<Anchor className="h-5 w-5" aria-hidden="true" />}
    >
      {!invitation || errors.token ? (
        <Notice tone="error" className="mt-6">
          {INVITATION_LINK_INVALID}
        </Notice>
      ) : (
        <>
          <p className="mt-4 text-slate-700">
            Choose a password to open your account. You will sign in with{" "}
            <strong className="break-words text-navy-900">{invitation.email}</strong>.
          </p>
          <Form method="post" noValidate className="mt-6 space-y-5">
            <input type="hidden" name="token" value={loaderData.token} />
            {/* Lets password managers store the new password under the right account. */}
            <input type="hidden" name="username" autoComplete="username" value={invitation.email} />
            <NewPasswordFields errors={errors} labels={["Password", "Confirm the password"]} />
            <button type="submit" className="btn-primary w-full py-3 text-base" disabled={submitting}>
              {submitting ? "Opening your account…" : "Open my account"}
            </button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}

import { KeyRound } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { RESET_REQUESTED } from "../../../core/accounts/password-reset.schema";
import { AuthCard } from "../../components/account/auth-card";
import { Notice } from "../../components/ui/notice";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { fieldFailureOf, firstMessages, rateLimitOf } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = () => [
  { title: "Forgot password · Masthead" },
  { name: "robots", content: "noindex" },
];

type ActionData = { sent?: string; error?: string; email: string };

/** Served as islands (decision 0033): a plain form, posted to the server. */
export const handle = SERVED_AS_ISLANDS;

export async function action({ request, context }: Route.ActionArgs) {
  const { services, client, origin } = getRequestContext(context);
  const form = await readForm(request);
  const email = typeof form.email === "string" ? form.email : "";
  try {
    await services.passwordReset.request(email, { ip: client.ip, origin });
    return data<ActionData>({ sent: RESET_REQUESTED, email });
  } catch (error) {
    const limited = rateLimitOf(error);
    if (limited) return data<ActionData>({ error: limited.message, email }, limited.init);
    const { errors, status } = fieldFailureOf(error);
    return data<ActionData>({ error: firstMessages(errors).email, email }, { status });
  }
}

/** Asks for a reset link; the answer never tells whether the address has an account. */
export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const submitting = useNavigation().state === "submitting";
  return (
    <AuthCard title="Forgot password" icon={<KeyRound className="h-5 w-5" aria-hidden="true" />}>
      {actionData?.sent ? (
        <Notice tone="success" className="mt-6">
          {actionData.sent}
        </Notice>
      ) : (
        <>
          <p className="mt-4 text-slate-600">
            Enter the e-mail address of your account and we will send you a link to choose a new password.
          </p>
          <Form method="post" noValidate className="mt-6 space-y-5">
            <TextField
              id="email"
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              inputMode="email"
              defaultValue={actionData?.email}
              error={actionData?.error}
              required
            />
            <button type="submit" className="btn-primary w-full py-3 text-base" disabled={submitting}>
              {submitting ? "Sending…" : "Send the link"}
            </button>
          </Form>
        </>
      )}
      <p className="mt-6 text-sm">
        <Link to="/login" className="font-semibold text-sea-600 hover:text-navy-900 hover:underline">
          Back to the login
        </Link>
      </p>
    </AuthCard>
  );
}

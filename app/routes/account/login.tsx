import { Anchor, LockKeyhole } from "lucide-react";
import { data, redirect, useActionData, useSearchParams } from "react-router";
import { sessionCookie } from "../../../core/auth/auth.cookie";
import { loginSchema } from "../../../core/auth/auth.schema";
import type { LoginResult } from "../../../core/auth/auth.service";
import {
  LOGIN_FAILED_MESSAGE,
  PASSKEY_SIGN_IN_FAILED,
  SERVER_ERROR_MESSAGE,
  safeRedirectPath,
  TWO_FACTOR_EXPIRED,
} from "../../../core/auth/auth.values";
import { passkeyAuthenticationResponseSchema } from "../../../core/auth/passkeys.schema";
import { AppError } from "../../../lib/errors";
import { validate } from "../../../lib/validation";
import { type LoginActionData, LoginForm } from "../../components/account/login-form";
import { getRequestContext } from "../../context";
import { Island, SERVED_AS_ISLANDS } from "../../islands/island";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => [
  { title: "Member Login · Masthead" },
  { name: "robots", content: "noindex" },
];

export async function loader({ context, url }: Route.LoaderArgs) {
  // Someone already signed in has nothing to do here.
  if (getRequestContext(context).auth) throw redirect(safeRedirectPath(url.searchParams.get("redirect")));
  return null;
}

type ActionData = LoginActionData;

/** Served as islands (decision 0033): the form runs in the browser, the rest is the server's HTML. */
export const handle = SERVED_AS_ISLANDS;

export async function action({ request, context }: Route.ActionArgs) {
  const { services, client, secureCookies, sessionToken, requestId } = getRequestContext(context);
  const form = await readForm(request);
  if (form.intent === "two-factor") return secondStep(context, form);
  const input = validate(loginSchema, form);
  // The e-mail typed goes back with a refusal, for the form to keep; never the password.
  const email = typeof form.email === "string" ? form.email.slice(0, 254) : undefined;
  if (!input.success) return data<ActionData>({ kind: "invalid", errors: input.errors, email }, { status: 422 });
  try {
    // Signing in again (another account, or after the loader's redirect was skipped) ends the earlier session.
    const result = await services.auth.signIn(input.data, { ...client, requestId }, { endingSession: sessionToken });
    // Two-factor sign-in (decision 0075): the form's second step, with the challenge.
    if (result.kind === "two_factor") {
      return data<ActionData>({ kind: "two_factor", challenge: result.challenge, passkey: result.passkey });
    }
    return signedIn(result.session, form.redirect, secureCookies);
  } catch (error) {
    if (error instanceof AppError && error.code === "unauthorized") {
      return data<ActionData>({ kind: "failed", message: LOGIN_FAILED_MESSAGE, email }, { status: 401 });
    }
    if (error instanceof AppError && error.code === "rate_limited") return tooManyAttempts(error, email);
    // Anything else is our fault: log it, tell the user plainly (SPEC §8 'Server error...').
    getRequestContext(context).logger.error({ err: error }, "login failed unexpectedly");
    return data<ActionData>({ kind: "failed", message: SERVER_ERROR_MESSAGE }, { status: 500 });
  }
}

/** SPEC §8's lockout message, with the minutes left, for either step. */
function tooManyAttempts(error: AppError, email?: string) {
  const retryAfter = error.details.retryAfter ?? 60;
  const minutes = Math.max(1, Math.ceil(retryAfter / 60));
  return data<ActionData>(
    {
      kind: "failed",
      message: `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      retryAfter: error.details.retryAfter,
      email,
    },
    { status: 429, headers: { "Retry-After": String(retryAfter) } },
  );
}

/** The session's cookie, and on to where the visitor was going. */
function signedIn(session: LoginResult, to: unknown, secure: boolean) {
  return redirect(safeRedirectPath(to), {
    headers: {
      "Set-Cookie": sessionCookie(session.token, {
        secure,
        maxAgeSeconds: session.remember ? Math.round((Date.parse(session.expiresAt) - Date.now()) / 1000) : undefined,
      }),
    },
  });
}

/**
 * The second step: the code of the app or a recovery code, or a passkey's answer (decision 0076);
 * a wrong one keeps the step (with its passkey options), an expired one starts over.
 */
async function secondStep(context: Route.ActionArgs["context"], form: Record<string, FormDataEntryValue>) {
  const { services, client, secureCookies, sessionToken, requestId } = getRequestContext(context);
  const challenge = typeof form.challenge === "string" ? form.challenge.slice(0, 200) : "";
  const code = typeof form.code === "string" ? form.code.slice(0, 40) : "";
  const passkey = passkeyAnswer(form.passkey);
  const again = async (message: string, status: number) =>
    data<ActionData>(
      { kind: "two_factor", challenge, message, passkey: await services.twoFactor.passkeyOptionsFor(challenge) },
      { status },
    );
  if (passkey === "unreadable") return again(PASSKEY_SIGN_IN_FAILED, 422);
  if (!passkey && !code.trim()) return again("Type the code.", 422);
  try {
    const session = await services.auth.completeTwoFactor(
      passkey ? { challenge, passkey } : { challenge, code },
      { ...client, requestId },
      { endingSession: sessionToken },
    );
    return signedIn(session, form.redirect, secureCookies);
  } catch (error) {
    if (error instanceof AppError && error.code === "unauthorized") {
      if (error.message === TWO_FACTOR_EXPIRED) {
        return data<ActionData>({ kind: "failed", message: TWO_FACTOR_EXPIRED }, { status: 401 });
      }
      return again(error.message, 401);
    }
    if (error instanceof AppError && error.code === "rate_limited") return tooManyAttempts(error);
    throw error;
  }
}

/** The passkey's answer the form sent (JSON), checked against its schema; none, or "unreadable". */
function passkeyAnswer(value: FormDataEntryValue | undefined) {
  if (typeof value !== "string" || value === "") return null;
  try {
    const parsed = passkeyAuthenticationResponseSchema.safeParse(JSON.parse(value.slice(0, 64_000)));
    return parsed.success ? parsed.data : "unreadable";
  } catch {
    return "unreadable";
  }
}

/** What the page says after a change that ended the session (`?notice=`). */
const LOGIN_NOTICES: Record<string, string> = {
  "password-changed": "Your password is changed. Sign in with the new one.",
  "account-deleted":
    // Mails waiting in the queue were removed with the account; one being sent at that moment may still arrive.
    "Your account is deleted. Your registrations and requests are anonymised, and the mails waiting to go to your address are removed; one already on its way may still arrive.",
};

export default function Login() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const notice = LOGIN_NOTICES[searchParams.get("notice") ?? ""] ?? null;

  return (
    <div className="grid w-full max-w-4xl overflow-hidden rounded-2xl bg-white shadow-xl ring-1 ring-slate-200 md:grid-cols-2">
      <div className="relative hidden flex-col justify-between bg-gradient-to-br from-navy-900 via-navy-800 to-sea-600 p-10 text-white md:flex">
        <Anchor className="h-10 w-10 text-signal-500" aria-hidden="true" />
        <div>
          <p className="font-display text-3xl leading-tight font-bold">Welcome back to the members area</p>
          <p className="mt-4 text-navy-100">
            Working-group papers, meeting documents and the association's library, in one place for member companies.
          </p>
        </div>
        <p className="text-sm text-navy-100/80">
          Not a member yet? Join the community of marine electronics companies.
        </p>
      </div>
      <div className="p-6 sm:p-10">
        <div className="flex items-center gap-3">
          <span className="flex h-10 w-10 items-center justify-center rounded-full bg-navy-50 text-navy-900">
            <LockKeyhole className="h-5 w-5" aria-hidden="true" />
          </span>
          <h1 className="font-display text-3xl font-bold text-navy-900">Member Login</h1>
        </div>
        <Island
          name="login-form"
          component={LoginForm}
          props={{ actionData: actionData ?? null, notice, redirect: searchParams.get("redirect") ?? "" }}
        />
      </div>
    </div>
  );
}

import { Anchor, LockKeyhole } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useActionData, useNavigation, useSearchParams } from "react-router";
import { sessionCookie } from "../../../core/auth/auth.cookie";
import { loginSchema } from "../../../core/auth/auth.schema";
import {
  LOGIN_FAILED_MESSAGE,
  SERVER_ERROR_MESSAGE,
  safeRedirectPath,
  VALIDATION_SUMMARY,
} from "../../../core/auth/auth.values";
import { AppError } from "../../../lib/errors";
import { validate } from "../../../lib/validation";
import type { fieldErrors as FieldErrors } from "../../components/account/login-validation";
import { Notice } from "../../components/ui/notice";
import { TextField } from "../../components/ui/text-field";
import { toast } from "../../components/ui/toast";
import { getRequestContext } from "../../context";
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

type ActionData =
  | { kind: "invalid"; errors: Record<string, string[]> }
  | { kind: "failed"; message: string; retryAfter?: number };

export async function action({ request, context }: Route.ActionArgs) {
  const { services, client, secureCookies, sessionToken, requestId } = getRequestContext(context);
  const form = await readForm(request);
  const input = validate(loginSchema, form);
  if (!input.success) return data<ActionData>({ kind: "invalid", errors: input.errors }, { status: 422 });
  try {
    // Signing in again (another account, or after the loader's redirect was skipped) ends the earlier session.
    const session = await services.auth.login(input.data, { ...client, requestId }, { endingSession: sessionToken });
    return redirect(safeRedirectPath(form.redirect), {
      headers: {
        "Set-Cookie": sessionCookie(session.token, {
          secure: secureCookies,
          maxAgeSeconds: session.remember ? Math.round((Date.parse(session.expiresAt) - Date.now()) / 1000) : undefined,
        }),
      },
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "unauthorized") {
      return data<ActionData>({ kind: "failed", message: LOGIN_FAILED_MESSAGE }, { status: 401 });
    }
    if (error instanceof AppError && error.code === "rate_limited") {
      const minutes = Math.max(1, Math.ceil((error.details.retryAfter ?? 60) / 60));
      return data<ActionData>(
        {
          kind: "failed",
          message: `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
          retryAfter: error.details.retryAfter,
        },
        { status: 429, headers: { "Retry-After": String(error.details.retryAfter ?? 60) } },
      );
    }
    // Anything else is our fault: log it, tell the user plainly (SPEC §8 'Server error...').
    getRequestContext(context).logger.error({ err: error }, "login failed unexpectedly");
    return data<ActionData>({ kind: "failed", message: SERVER_ERROR_MESSAGE }, { status: 500 });
  }
}

type Fields = { email: string; password: string };

type Check = typeof FieldErrors;
/** The checks load with the first focus on the form, or at the latest on submit (decision 0028). */
let loadedCheck: Check | null = null;
async function loadCheck(): Promise<Check> {
  loadedCheck ??= (await import("../../components/account/login-validation")).fieldErrors;
  return loadedCheck;
}

export default function Login() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const [hydrated, setHydrated] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [values, setValues] = useState<Fields>({ email: "", password: "" });
  const [redirectTo, setRedirectTo] = useState(searchParams.get("redirect") ?? "");
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const submitting = navigation.state === "submitting";

  useEffect(() => {
    setHydrated(true);
    // The fragment never reaches the server; carry it through the login by hand.
    const param = new URLSearchParams(window.location.search).get("redirect");
    if (param && !param.includes("#") && window.location.hash) setRedirectTo(param + window.location.hash);
  }, []);

  useEffect(() => {
    if (actionData?.kind === "failed") {
      toast.error(actionData.message, { duration: 5000 });
    }
  }, [actionData]);

  // Errors show only after a submit attempt, then follow the user's corrections live.
  const [check, setCheck] = useState<Check | null>(() => loadedCheck);
  const prepare = () => loadCheck().then((loaded) => setCheck(() => loaded));
  const clientErrors = attempted && check ? check(values) : {};
  const serverErrors = actionData?.kind === "invalid" && !hydrated ? actionData.errors : {};
  const errors = hydrated ? clientErrors : serverErrors;
  const hasErrors = Object.keys(errors).length > 0;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // The e-mail only: a password is used exactly as typed, spaces included.
    const trimmed = { email: values.email.trim(), password: values.password };
    setValues(trimmed);
    setAttempted(true);
    if (!loadedCheck) {
      // Submitted before the checks arrived: check once they are here, then send it again.
      event.preventDefault();
      const form = event.currentTarget;
      void prepare().then(() => {
        const found = loadedCheck?.(trimmed) ?? {};
        if (Object.keys(found).length === 0) form.requestSubmit();
        else (found.email ? emailRef : passwordRef).current?.focus();
      });
      return;
    }
    const found = loadedCheck(trimmed);
    if (Object.keys(found).length > 0) {
      event.preventDefault();
      (found.email ? emailRef : passwordRef).current?.focus();
    }
  }

  const failedMessage = actionData?.kind === "failed" && !hydrated ? actionData.message : null;
  const notice =
    searchParams.get("notice") === "password-changed" ? "Your password is changed. Sign in with the new one." : null;

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
        <Form
          method="post"
          noValidate
          onSubmit={onSubmit}
          onFocus={() => {
            if (!check) void prepare();
          }}
          className="mt-8 space-y-5"
          aria-describedby={hasErrors ? "login-summary" : undefined}
        >
          <input type="hidden" name="redirect" value={redirectTo} />
          {hasErrors ? (
            <p
              id="login-summary"
              role="alert"
              className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
            >
              {VALIDATION_SUMMARY}
            </p>
          ) : null}
          {notice && !actionData ? <Notice tone="success">{notice}</Notice> : null}
          {failedMessage ? (
            <p
              role="alert"
              className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
            >
              {failedMessage}
            </p>
          ) : null}
          <TextField
            inputRef={emailRef}
            id="email"
            name="email"
            label="Email"
            type="email"
            autoComplete="username"
            inputMode="email"
            value={values.email}
            onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
            error={errors.email?.[0]}
          />
          <TextField
            inputRef={passwordRef}
            id="password"
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            value={values.password}
            onChange={(e) => setValues((v) => ({ ...v, password: e.target.value }))}
            error={errors.password?.[0]}
          />
          <div className="flex flex-wrap items-center justify-between gap-3">
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                name="remember"
                value="on"
                className="h-4 w-4 rounded border-slate-300 accent-navy-900"
              />
              Remember me
            </label>
            <Link
              to="/forgot-password"
              className="text-sm font-semibold text-sea-600 hover:text-navy-900 hover:underline"
            >
              Forgot password
            </Link>
          </div>
          <button type="submit" className="btn-primary w-full py-3 text-base" disabled={submitting}>
            {submitting ? "Signing in…" : "Login"}
          </button>
        </Form>
      </div>
    </div>
  );
}

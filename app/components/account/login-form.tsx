import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { KeyRound } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { VALIDATION_SUMMARY } from "../../../core/auth/auth.values";
import { sendAnswer, webAuthn } from "../../lib/passkey-browser";
import { Notice } from "../ui/notice";
import { TextField } from "../ui/text-field";
import { toast } from "../ui/toast";
import type { fieldErrors as FieldErrors } from "./login-validation";

/** What the login action answers when it does not sign in (app/routes/account/login.tsx). */
export type LoginActionData =
  | { kind: "invalid"; errors: Record<string, string[]>; email?: string }
  | { kind: "failed"; message: string; retryAfter?: number; email?: string }
  /**
   * The password was right; the account asks for its second factor (decision 0075), and offers
   * its passkeys with their WebAuthn options when it has some (decision 0076).
   */
  | { kind: "two_factor"; challenge: string; message?: string; passkey?: PasskeyOptions | null };

/** The WebAuthn options of the step, as @simplewebauthn/browser takes them. */
type PasskeyOptions = PublicKeyCredentialRequestOptionsJSON;

/**
 * The second step of a sign-in with two-factor (decision 0075): a code of the authenticator app or a
 * recovery code, with the challenge of the right password. A wrong code says so and keeps the step.
 */
function SecondStep({
  challenge,
  message,
  redirect,
  passkey,
}: {
  challenge: string;
  message?: string;
  redirect: string;
  passkey?: PasskeyOptions | null;
}) {
  const submitting = useNavigation().state === "submitting";
  const codeRef = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus the code again after each refusal
  useEffect(() => {
    codeRef.current?.focus();
  }, [message]);
  return (
    <div className="mt-8 space-y-5">
      <Form method="post" className="space-y-5" aria-describedby="second-step-hint">
        <input type="hidden" name="intent" value="two-factor" />
        <input type="hidden" name="challenge" value={challenge} />
        <input type="hidden" name="redirect" value={redirect} />
        <p id="second-step-hint" className="text-sm text-slate-700">
          Your password is right. Now type the six-digit code your authenticator app shows for this site, or one of your
          recovery codes{passkey ? ", or use one of your passkeys" : ""}. This step lasts five minutes.
        </p>
        {message ? (
          <p
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
          >
            {message}
          </p>
        ) : null}
        <TextField
          inputRef={codeRef}
          id="code"
          name="code"
          label="Code"
          autoComplete="one-time-code"
          inputMode="text"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={40}
          required
        />
        <button type="submit" className="btn-primary w-full py-3 text-base" disabled={submitting}>
          {submitting ? "Checking…" : "Sign in"}
        </button>
      </Form>
      {/* Outside the code's form: a form inside a form is not HTML. */}
      {passkey ? <PasskeyStep options={passkey} challenge={challenge} redirect={redirect} /> : null}
      <p className="text-sm text-slate-600">
        Lost your phone and your recovery codes? Ask the secretariat to reset your two-factor sign-in.{" "}
        <Link to="/login" reloadDocument className="font-semibold text-sea-600 hover:underline">
          Start again
        </Link>
      </p>
    </div>
  );
}

/**
 * The second step with a passkey (decision 0076): the browser signs the step's WebAuthn challenge
 * (@simplewebauthn/browser, loaded on the press), and its answer goes in a form of its own. Needs
 * JavaScript: without it the button does not show and a code does the step.
 */
function PasskeyStep({
  options,
  challenge,
  redirect,
}: {
  options: PasskeyOptions;
  challenge: string;
  redirect: string;
}) {
  const [hydrated, setHydrated] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const answerRef = useRef<HTMLInputElement>(null);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return null;

  async function signWithPasskey() {
    setProblem(null);
    setWaiting(true);
    try {
      const browser = await webAuthn();
      if (!browser) {
        setProblem("This browser cannot use passkeys: type a code of your app instead.");
        return;
      }
      sendAnswer(formRef.current, answerRef.current, await browser.startAuthentication({ optionsJSON: options }));
    } catch {
      // Cancelled, timed out, or no passkey of this account on this device: the codes still work.
      setProblem("No passkey was used. Try again, or type a code of your app.");
    } finally {
      setWaiting(false);
    }
  }

  return (
    <div className="border-t border-slate-200 pt-5">
      {/* Its own form: the code field above is required, and this answer is not a code. */}
      <Form method="post" ref={formRef} className="hidden">
        <input type="hidden" name="intent" value="two-factor" />
        <input type="hidden" name="challenge" value={challenge} />
        <input type="hidden" name="redirect" value={redirect} />
        <input type="hidden" name="passkey" ref={answerRef} />
      </Form>
      {problem ? (
        <p role="alert" className="mb-3 text-sm font-medium text-red-800">
          {problem}
        </p>
      ) : null}
      <button
        type="button"
        className="btn-outline flex w-full items-center justify-center gap-2 py-3 text-base"
        onClick={() => void signWithPasskey()}
        disabled={waiting}
      >
        <KeyRound className="h-5 w-5" aria-hidden="true" />
        {waiting ? "Waiting for the passkey…" : "Use a passkey"}
      </button>
    </div>
  );
}

type Fields = { email: string; password: string };

type Check = typeof FieldErrors;
/** The checks load with the first focus on the form, or at the latest on submit (decision 0028). */
let loadedCheck: Check | null = null;
async function loadCheck(): Promise<Check> {
  loadedCheck ??= (await import("./login-validation")).fieldErrors;
  return loadedCheck;
}

/**
 * SPEC §2 'Login screen': e-mail, password, remember me. Errors show after a submit attempt and
 * then follow the typing; a refusal is a toast. Without JavaScript it is a plain POST whose answer
 * shows the same messages on the page.
 */
export function LoginForm({
  actionData,
  notice,
  redirect,
}: {
  actionData: LoginActionData | null;
  notice: string | null;
  /** Where to go once signed in (the `redirect` parameter). */
  redirect: string;
}) {
  const navigation = useNavigation();
  const [hydrated, setHydrated] = useState(false);
  const [attempted, setAttempted] = useState(false);
  // A page answering a failed attempt (served as islands, decision 0033) keeps the e-mail typed.
  const [values, setValues] = useState<Fields>({
    email: actionData && "email" in actionData ? (actionData.email ?? "") : "",
    password: "",
  });
  const [redirectTo, setRedirectTo] = useState(redirect);
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

  if (actionData?.kind === "two_factor") {
    return (
      <SecondStep
        challenge={actionData.challenge}
        message={actionData.message}
        redirect={redirectTo}
        passkey={actionData.passkey}
      />
    );
  }

  return (
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
        <Link to="/forgot-password" className="text-sm font-semibold text-sea-600 hover:text-navy-900 hover:underline">
          Forgot password
        </Link>
      </div>
      <button type="submit" className="btn-primary w-full py-3 text-base" disabled={submitting}>
        {submitting ? "Signing in…" : "Login"}
      </button>
    </Form>
  );
}

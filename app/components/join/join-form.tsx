import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import type { PublicUser } from "../../../core/accounts/accounts.schema";
import type { JoinFields } from "../../../core/join/join.schema";
import { JOIN_FIELDS, JOIN_MAX_LENGTHS, JOIN_SUMMARY, thanksFor } from "../../../core/join/join.values";
import { CAPTCHA_VERSION, captchaToken } from "../../lib/third-party";
import { useCloseOnNavigation } from "../../lib/use-close-on-navigation";
import { useRootData } from "../../root";
import { TextField } from "../ui/text-field";

/**
 * The form sits in every public page's footer: its checks (the shared schema,
 * with Zod) load once the visitor starts on it, and the thank-you modal (with
 * its dialog code) once it opens (decision 0028).
 */
const loadValidation = () => import("./join-validation");
const ThanksDialog = lazy(() => import("./thanks-dialog"));
type Check = (values: Values) => Partial<Record<Field, string>>;

type Field = (typeof JOIN_FIELDS)[number];
type Values = Record<Field, string>;
const EMPTY: Values = { company_name: "", representative_name: "", email: "", phone_number: "" };

const LABELS: Record<Field, { label: string; type: string; autoComplete: string; inputMode?: "email" | "tel" }> = {
  company_name: { label: "Company Name", type: "text", autoComplete: "organization" },
  representative_name: { label: "Representative name", type: "text", autoComplete: "name" },
  email: { label: "Email", type: "email", autoComplete: "email", inputMode: "email" },
  phone_number: { label: "Phone number", type: "tel", autoComplete: "tel", inputMode: "tel" },
};

/** SPEC §3 'Join request': the fields that match the signed-in user's record start filled in. */
export function prefillFrom(user: PublicUser | null): Values {
  if (!user) return EMPTY;
  return {
    company_name: "",
    representative_name: [user.first_name, user.last_name].filter(Boolean).join(" "),
    email: user.email,
    phone_number: user.phone_number ?? "",
  };
}

/** `values` with its blank fields taken from `prefill`. */
export function fillBlanks(values: Values, prefill: Values): Values {
  const filled = { ...values };
  for (const field of Object.keys(filled) as Field[]) if (!filled[field]) filled[field] = prefill[field];
  return filled;
}

/** Sends the request; the visitor has already been thanked (SPEC §4), so a failure is only logged. */
async function send(values: JoinFields, extra: Record<string, string>) {
  const body = new FormData();
  for (const [name, value] of Object.entries({ ...values, ...extra })) body.append(name, value);
  try {
    const response = await fetch("/api/join", { method: "POST", body, headers: { Accept: "application/json" } });
    if (!response.ok) console.error("Join request not accepted", response.status, await response.text());
  } catch (error) {
    console.error("Join request failed", error);
  }
}

/**
 * SPEC §4 'Contact form', §5 'Join / registration form': errors appear after a
 * submit attempt and then follow the typing; a valid submit opens the confirm
 * modal, clears the fields and sends in the background. Without JavaScript
 * it is a plain POST to /join (server-rendered errors, then a thank-you page).
 */
export function JoinForm({
  user,
  idPrefix = "join",
  initialValues,
  serverErrors,
  startedAt,
}: {
  user: PublicUser | null;
  idPrefix?: string;
  initialValues?: Partial<Values>;
  serverErrors?: Partial<Record<Field, string>>;
  /** When the form was rendered (server time): the fill-time check of the no-JavaScript path. */
  startedAt: number;
}) {
  const location = useLocation();
  const [values, setValues] = useState<Values>({ ...prefillFrom(user), ...initialValues });
  const [attempted, setAttempted] = useState(Boolean(serverErrors && Object.keys(serverErrors).length > 0));
  const [hydrated, setHydrated] = useState(false);
  const [sending, setSending] = useState(false);
  const [thanked, setThanked] = useState(false);
  const [check, setCheck] = useState<Check | null>(null);
  // Here, not in the modal: the modal mounts when it opens, and would close itself at once.
  useCloseOnNavigation(setThanked);
  const shownAt = useRef(startedAt);
  const honeypot = useRef<HTMLInputElement>(null);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const captchaSlot = useRef<HTMLDivElement>(null);
  const captchaKey = useRootData()?.publicConfig.recaptchaSiteKey ?? null;

  useEffect(() => {
    setHydrated(true);
    shownAt.current = Date.now();
  }, []);
  // A sign-in, or the person behind a page shared by their role (decision 0032), fills the fields
  // still blank; what the visitor typed stays.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refill only when the user changes
  useEffect(() => setValues((current) => fillBlanks(current, prefillFrom(user))), [user?.id]);

  async function loadCheck(): Promise<Check> {
    const { errorsOf } = await loadValidation();
    setCheck(() => errorsOf);
    return errorsOf;
  }
  // Errors the server sent (a submit without JavaScript) follow the typing once the checks are here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once, when errors are to be shown
  useEffect(() => {
    if (attempted && !check) void loadCheck();
  }, [attempted]);

  const errors = hydrated && check ? (attempted ? check(values) : {}) : attempted ? (serverErrors ?? {}) : {};
  const hasErrors = Object.keys(errors).length > 0;
  const summaryId = `${idPrefix}-summary`;
  const pagePath = location.pathname;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = Object.fromEntries(JOIN_FIELDS.map((f) => [f, values[f].trim()])) as Values;
    setValues(trimmed);
    setAttempted(true);
    const found = (check ?? (await loadCheck()))(trimmed);
    const first = JOIN_FIELDS.find((f) => found[f]);
    if (first) {
      inputs.current[first]?.focus();
      return;
    }
    setThanked(true);
    setAttempted(false);
    setValues(EMPTY);
    setSending(true);
    let captcha = "";
    if (captchaKey && captchaSlot.current) {
      try {
        captcha = await captchaToken({ siteKey: captchaKey, version: CAPTCHA_VERSION, container: captchaSlot.current });
      } catch (error) {
        // SPEC §8: captcha errors go to the console, never to the visitor.
        console.error(error instanceof Error ? error.message : error);
      }
    }
    await send(trimmed, {
      captcha_token: captcha,
      page_path: pagePath,
      started_at: String(shownAt.current),
      website: honeypot.current?.value ?? "",
    });
    setSending(false);
  }

  return (
    <>
      <form
        method="post"
        action="/join"
        noValidate
        onSubmit={onSubmit}
        onFocus={() => {
          if (!check) void loadCheck();
        }}
        aria-describedby={hasErrors ? summaryId : undefined}
        className="space-y-4"
      >
        <input type="hidden" name="page_path" value={pagePath} />
        <input type="hidden" name="started_at" value={String(startedAt)} />
        {/* Hidden from people and from assistive technology; bots that fill every field give themselves away. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label htmlFor={`${idPrefix}-website`}>Leave this field empty</label>
          <input
            ref={honeypot}
            id={`${idPrefix}-website`}
            name="website"
            type="text"
            tabIndex={-1}
            autoComplete="off"
          />
        </div>
        {hasErrors ? (
          <p
            id={summaryId}
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
          >
            {JOIN_SUMMARY}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          {JOIN_FIELDS.map((field) => (
            <TextField
              key={field}
              inputRef={(element) => {
                inputs.current[field] = element;
              }}
              id={`${idPrefix}-${field}`}
              name={field}
              label={LABELS[field].label}
              type={LABELS[field].type}
              autoComplete={LABELS[field].autoComplete}
              inputMode={LABELS[field].inputMode}
              maxLength={JOIN_MAX_LENGTHS[field]}
              value={values[field]}
              // SPEC §5: text is trimmed as typed.
              onChange={(e) => {
                const value = e.target.value.trimStart();
                setValues((v) => ({ ...v, [field]: value }));
              }}
              onBlur={(e) => {
                const value = e.target.value.trim();
                setValues((v) => ({ ...v, [field]: value }));
              }}
              error={errors[field]}
            />
          ))}
        </div>
        <div ref={captchaSlot} />
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={sending} aria-busy={sending}>
          {sending ? "Sending…" : "Send"}
        </button>
      </form>
      {thanked ? (
        <Suspense fallback={null}>
          <ThanksDialog open={thanked} onOpenChange={setThanked} text={thanksFor(pagePath)} />
        </Suspense>
      ) : null}
    </>
  );
}

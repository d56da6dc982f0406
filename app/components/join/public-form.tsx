import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import type { PublicUser } from "../../../core/accounts/accounts.schema";
import {
  CONSENT_TEXT,
  type FormKind,
  JOIN_MAX_LENGTHS,
  JOIN_SUMMARY,
  JOIN_THANKS,
  MESSAGE_MAX_LENGTHS,
  NOTE_MAX,
  type RegistrationStatus,
  thanksFor,
} from "../../../core/join/join.values";
import { useCloseOnNavigation } from "../../lib/use-close-on-navigation";
import { useRootData } from "../../root";
import { PrivacyDialog } from "../layout/privacy-dialog";
import { TextAreaField } from "../ui/text-area-field";
import { TextField } from "../ui/text-field";
import { type SendOutcome, sendPublicForm } from "./form-send";
import type { ProofWidget } from "./proof-of-work";

/**
 * The forms sit in public pages (the join form in every footer): their checks (the shared
 * schemas, with Zod) load once the visitor starts on one, and the thank-you modal (with its
 * dialog code) once it opens (decision 0028).
 */
const loadValidation = () => import("./form-validation");
const ThanksDialog = lazy(() => import("./thanks-dialog"));
/** The proof-of-work widget (decision 0077) loads, and starts solving, as the checks do: when the visitor starts. */
const loadProof = () => import("./proof-of-work");
type Proof = { widget: ProofWidget; module: Awaited<ReturnType<typeof loadProof>> };

/** What the widget needs: a secure context (crypto.subtle) and workers. Without them the form is sent as without JavaScript. */
const canProve = () =>
  typeof window !== "undefined" && window.isSecureContext && Boolean(globalThis.crypto?.subtle) && "Worker" in window;

type Values = Record<string, string>;
type Errors = Partial<Record<string, string>>;

type FieldSpec = {
  name: string;
  label: string;
  maxLength: number;
  autoComplete: string;
  type?: "text" | "email" | "tel";
  inputMode?: "email" | "tel";
  /** A text area over the whole row, taken as typed (line breaks and leading spaces kept). */
  multiline?: boolean;
  /** The whole row, not half of it. */
  wide?: boolean;
};

/** What makes a public form the join form or the message form; everything else they share. */
type FormSpec = {
  kind: FormKind;
  fields: readonly FieldSpec[];
  /** Where the form posts without JavaScript, and the API it sends to with it. */
  action: "/join" | "/message";
  api: "/api/join" | "/api/contact";
  submit: string;
  idPrefix: string;
  /** The confirm modal's thanks for the page the form was sent from. */
  thanks: (pagePath: string, registration?: { status: RegistrationStatus } | null) => string;
  /** The fields a signed-in person's record fills in (SPEC §3). */
  prefill: (user: PublicUser) => Values;
};

const nameOf = (user: PublicUser) => [user.first_name, user.last_name].filter(Boolean).join(" ");

/** SPEC §3 'Join request', §5 'Join / registration form': the spec's four fields, labels and button. */
const JOIN_FORM: FormSpec = {
  kind: "join",
  fields: [
    {
      name: "company_name",
      label: "Company Name",
      maxLength: JOIN_MAX_LENGTHS.company_name,
      autoComplete: "organization",
    },
    {
      name: "representative_name",
      label: "Representative name",
      maxLength: JOIN_MAX_LENGTHS.representative_name,
      autoComplete: "name",
    },
    {
      name: "email",
      label: "Email",
      maxLength: JOIN_MAX_LENGTHS.email,
      type: "email",
      inputMode: "email",
      autoComplete: "email",
    },
    {
      name: "phone_number",
      label: "Phone number",
      maxLength: JOIN_MAX_LENGTHS.phone_number,
      type: "tel",
      inputMode: "tel",
      autoComplete: "tel",
    },
  ],
  action: "/join",
  api: "/api/join",
  submit: "Send",
  idPrefix: "join",
  thanks: thanksFor,
  prefill: (user) => ({ representative_name: nameOf(user), email: user.email, phone_number: user.phone_number ?? "" }),
};

/**
 * The join form as a meeting's registration form (issue 32): the spec's four fields and an
 * optional note for the organisers (dietary needs, accessibility), which the API takes as `note`.
 */
const REGISTRATION_FORM: FormSpec = {
  ...JOIN_FORM,
  fields: [
    ...JOIN_FORM.fields,
    {
      name: "note",
      label: "Note for the organisers (optional): dietary needs, accessibility",
      maxLength: NOTE_MAX,
      autoComplete: "off",
      multiline: true,
      wide: true,
    },
  ],
};

/** The contact form of /contact and /feedback-forum (decision 0039). */
const MESSAGE_FORM: FormSpec = {
  kind: "message",
  fields: [
    { name: "name", label: "Name", maxLength: MESSAGE_MAX_LENGTHS.name, autoComplete: "name" },
    {
      name: "email",
      label: "Email",
      maxLength: MESSAGE_MAX_LENGTHS.email,
      type: "email",
      inputMode: "email",
      autoComplete: "email",
    },
    { name: "subject", label: "Subject", maxLength: MESSAGE_MAX_LENGTHS.subject, autoComplete: "off", wide: true },
    {
      name: "message",
      label: "Message",
      maxLength: MESSAGE_MAX_LENGTHS.message,
      autoComplete: "off",
      multiline: true,
      wide: true,
    },
  ],
  action: "/message",
  api: "/api/contact",
  submit: "Send message",
  idPrefix: "message",
  thanks: () => JOIN_THANKS,
  prefill: (user) => ({ name: nameOf(user), email: user.email }),
};

type FormProps = {
  user: PublicUser | null;
  idPrefix?: string;
  initialValues?: Values;
  serverErrors?: Errors;
  /**
   * The shown-at time the server signed (decision 0039); the page's own by default. A form shown
   * again after a refusal without JavaScript keeps the one it was first sent with.
   */
  startedAt?: string;
  /** The page a form sent without JavaScript came from (/join, /message show it again): what it registers for. */
  pagePath?: string;
};

/** SPEC §4 'Contact form', §5 'Join / registration form': the join form, in every public page's footer. */
export function JoinForm({ registering = false, ...props }: FormProps & { registering?: boolean }) {
  return <PublicForm spec={registering ? REGISTRATION_FORM : JOIN_FORM} {...props} />;
}

/** The message form of the pages that promise a contact form (decision 0039). */
export function MessageForm(props: FormProps) {
  return <PublicForm spec={MESSAGE_FORM} {...props} />;
}

const blank = (spec: FormSpec): Values => Object.fromEntries(spec.fields.map((f) => [f.name, ""]));

/** `values` with its blank fields taken from `prefill`. */
function fillBlanks(values: Values, prefill: Values): Values {
  const filled = { ...values };
  for (const field of Object.keys(filled)) if (!filled[field]) filled[field] = prefill[field] ?? "";
  return filled;
}

/**
 * A public form (SPEC §4 'Contact form', decision 0039): errors appear after a submit attempt and
 * then follow the typing; a valid submit opens the confirm modal and sends behind it. Once the
 * server has taken the request the fields are cleared; when it refuses (a full meeting, the rate
 * limit, the spam check, a field), the modal says why instead of thanking and the fields keep what
 * was typed. Without JavaScript it is a plain POST to the spec's action (server-rendered errors or
 * refusal, then a thank-you page).
 */
function PublicForm({
  spec,
  user,
  idPrefix = spec.idPrefix,
  initialValues,
  serverErrors,
  startedAt,
  pagePath: sentFrom,
}: FormProps & { spec: FormSpec }) {
  const location = useLocation();
  const root = useRootData();
  const [values, setValues] = useState<Values>(() => ({
    ...fillBlanks(blank(spec), user ? spec.prefill(user) : {}),
    ...initialValues,
  }));
  const [attempted, setAttempted] = useState(Boolean(serverErrors && Object.keys(serverErrors).length > 0));
  const [hydrated, setHydrated] = useState(false);
  const [sending, setSending] = useState(false);
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<SendOutcome | null>(null);
  // Fields the server refused (its checks can differ from the browser's), until they are edited.
  const [refused, setRefused] = useState<Errors>({});
  const [check, setCheck] = useState<((values: Values) => Errors) | null>(null);
  // Here, not in the modal: the modal mounts when it opens, and would close itself at once.
  useCloseOnNavigation(setOpen);
  const honeypot = useRef<HTMLInputElement>(null);
  const inputs = useRef<Partial<Record<string, HTMLInputElement | HTMLTextAreaElement | null>>>({});
  const captchaSlot = useRef<HTMLDivElement>(null);
  const proofSlot = useRef<HTMLDivElement>(null);
  const proof = useRef<Promise<Proof | null> | null>(null);
  const captchaKey = root?.publicConfig.recaptchaSiteKey ?? null;
  const captchaEnterprise = root?.publicConfig.recaptchaEnterprise === true;
  const shownAt = startedAt ?? root?.formTimes[spec.kind] ?? "";
  const pagePath = sentFrom ?? location.pathname;
  const names = spec.fields.map((f) => f.name);

  useEffect(() => setHydrated(true), []);
  // A sign-in, or the person behind a page shared by their role (decision 0032), fills the fields
  // still blank; what the visitor typed stays.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refill only when the user changes
  useEffect(() => {
    if (user) setValues((current) => fillBlanks(current, spec.prefill(user)));
  }, [user?.id]);

  /**
   * Loads and shows the proof-of-work widget once (decision 0077). Not when reCAPTCHA is
   * configured (it replaces it), nor where it cannot run: the form then goes without the field
   * and the server's other checks decide, as without JavaScript.
   */
  function startProof(): Promise<Proof | null> {
    if (!proof.current) {
      const slot = proofSlot.current;
      proof.current =
        captchaKey || !slot || !canProve()
          ? Promise.resolve(null)
          : loadProof().then(
              (module) => ({ module, widget: module.mountProofOfWork(slot) }),
              (error: unknown) => {
                console.error("Spam check not loaded", error);
                return null;
              },
            );
    }
    return proof.current;
  }

  async function loadCheck() {
    const { errorsOf } = await loadValidation();
    const checkForm = (v: Values) => errorsOf(spec.kind, v);
    setCheck(() => checkForm);
    return checkForm;
  }
  // Errors the server sent (a submit without JavaScript) follow the typing once the checks are here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once, when errors are to be shown
  useEffect(() => {
    if (attempted && !check) void loadCheck();
  }, [attempted]);

  const errors: Errors = {
    ...refused,
    ...(hydrated && check ? (attempted ? check(values) : {}) : attempted ? (serverErrors ?? {}) : {}),
  };
  const hasErrors = Object.keys(errors).length > 0;
  const summaryId = `${idPrefix}-summary`;

  function change(field: FieldSpec, value: string) {
    // SPEC §5: text is trimmed as typed (a message keeps its lines as typed).
    const typed = field.multiline ? value : value.trimStart();
    setValues((v) => ({ ...v, [field.name]: typed }));
    if (refused[field.name]) setRefused(({ [field.name]: _, ...rest }) => rest);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = Object.fromEntries(names.map((f) => [f, (values[f] ?? "").trim()]));
    setValues(trimmed);
    setAttempted(true);
    const found = (check ?? (await loadCheck()))(trimmed);
    const first = names.find((f) => found[f]);
    if (first) {
      inputs.current[first]?.focus();
      return;
    }
    setSending(true);
    // Solved before the modal opens (usually already, since the first focus): the modal thanks only
    // for what is on its way.
    const started = await startProof();
    const solution = started ? await started.module.proofOfWork(started.widget) : null;
    setOutcome(null);
    setRefused({});
    setOpen(true);
    setAttempted(false);
    const answer = await sendPublicForm(spec.api, trimmed, {
      captcha:
        captchaKey && captchaSlot.current
          ? { siteKey: captchaKey, container: captchaSlot.current, enterprise: captchaEnterprise }
          : null,
      shownAt,
      honeypot: honeypot.current?.value ?? "",
      pagePath,
      proof: solution,
    });
    // A solution is good once: the next send solves anew, sent or refused.
    if (started) void started.module.resetProofOfWork(started.widget, !answer.sent);
    setOutcome(answer);
    if (answer.sent) setValues(blank(spec));
    else {
      setRefused(answer.fields);
      // Closed before the answer came: a refusal is never left unsaid.
      setOpen(true);
    }
    setSending(false);
  }

  /** After a refusal that names fields, closing the modal leads to the first of them. */
  function focusRefusedField(event: Event) {
    const first = names.find((f) => refused[f]);
    const input = first ? inputs.current[first] : null;
    if (!input) return;
    event.preventDefault();
    input.focus();
  }

  return (
    <>
      <form
        method="post"
        action={spec.action}
        noValidate
        onSubmit={onSubmit}
        onFocus={() => {
          if (!check) void loadCheck();
          void startProof();
        }}
        aria-describedby={hasErrors ? summaryId : undefined}
        className="space-y-4"
      >
        <input type="hidden" name="page_path" value={pagePath} />
        <input type="hidden" name="started_at" value={shownAt} />
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
          {spec.fields.map((field) => {
            const common = {
              id: `${idPrefix}-${field.name}`,
              name: field.name,
              label: field.label,
              autoComplete: field.autoComplete,
              maxLength: field.maxLength,
              value: values[field.name] ?? "",
              error: errors[field.name],
            };
            const input = field.multiline ? (
              <TextAreaField
                {...common}
                inputRef={(element) => {
                  inputs.current[field.name] = element;
                }}
                rows={6}
                onChange={(e) => change(field, e.target.value)}
              />
            ) : (
              <TextField
                {...common}
                inputRef={(element) => {
                  inputs.current[field.name] = element;
                }}
                type={field.type ?? "text"}
                inputMode={field.inputMode}
                onChange={(e) => change(field, e.target.value)}
                onBlur={(e) => {
                  const value = e.target.value.trim();
                  setValues((v) => ({ ...v, [field.name]: value }));
                }}
              />
            );
            return (
              <div key={field.name} className={field.wide ? "sm:col-span-2" : undefined}>
                {input}
              </div>
            );
          })}
        </div>
        <div ref={captchaSlot} />
        {/* The proof-of-work widget, once the visitor starts on the form (empty until then, and without JavaScript). */}
        <div ref={proofSlot} className="empty:hidden" />
        <p className="text-sm text-slate-600">
          {CONSENT_TEXT[spec.kind]}{" "}
          <PrivacyDialog triggerClassName="font-semibold text-sea-700 underline hover:text-sea-600" />.
        </p>
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={sending} aria-busy={sending}>
          {sending ? "Sending…" : spec.submit}
        </button>
      </form>
      {open ? (
        <Suspense fallback={null}>
          <ThanksDialog
            open={open}
            onOpenChange={setOpen}
            text={spec.thanks(pagePath, outcome?.sent ? outcome.registration : null)}
            outcome={outcome}
            onCloseAutoFocus={focusRefusedField}
          />
        </Suspense>
      ) : null}
    </>
  );
}

import { CalendarDays, KeyRound, UserRound } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, redirect, useNavigation, useSubmit } from "react-router";
import { profileSchema } from "../../../core/accounts/profile.schema";
import { clearSessionCookies } from "../../../core/auth/auth.cookie";
import { PASSKEY_NOT_CHECKED, passkeyAddSchema } from "../../../core/auth/passkeys.schema";
import { accountDeleteSchema } from "../../../core/privacy/privacy.schema";
import { isAppError } from "../../../lib/errors";
import { minuteInZone } from "../../../lib/time-zones";
import { IMAGE_ACCEPT } from "../../../lib/uploads";
import { parseOrThrow } from "../../../lib/validation";
import { NewPasswordFields } from "../../components/account/new-password-fields";
import { type TwoFactorResult, TwoFactorSection } from "../../components/account/two-factor-section";
import { Avatar } from "../../components/account/user-menu";
import { YourDataSection } from "../../components/account/your-data-section";
import { Notice } from "../../components/ui/notice";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { fieldFailureOf, firstMessages, lengthLimit, rateLimitOf } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import { useRootData } from "../../root";
import type { Route } from "./+types/user-settings";

export const meta: Route.MetaFunction = () => [{ title: "Settings · Members area" }];

type ActionData = {
  intent: string;
  errors?: Record<string, string>;
  saved?: string;
  /** The private calendar feed's new address: shown once, only its hash is kept. */
  feedUrl?: string;
  /** Two-factor sign-in's set-up and recovery codes (decision 0075). */
  twoFactor?: TwoFactorResult;
};

export async function loader({ context, url }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const [hasCalendarFeed, twoFactor, passkeys, site] = await Promise.all([
    services.profile.hasCalendarFeed(auth.user.id),
    services.twoFactor.status(auth.user.id),
    services.passkeys.list(auth.user.id),
    services.settings.getAll(),
  ]);
  const zone = site["site.timezone"];
  // The download's hourly limit was reached (data-export.ts sends the wait back here).
  const exportWait = Number(url.searchParams.get("export_wait")) || null;
  return {
    exportWait: exportWait && exportWait > 0 ? Math.min(Math.ceil(exportWait), 3600) : null,
    hasCalendarFeed,
    twoFactor,
    twoFactorRequired: auth.twoFactorSetupRequired === true,
    passkeys: {
      list: passkeys.map((passkey) => ({
        id: passkey.id,
        name: passkey.name,
        added: minuteInZone(passkey.created_at, zone),
        lastUsed: passkey.last_used_at ? minuteInZone(passkey.last_used_at, zone) : null,
      })),
      at: services.passkeys.relyingParty?.origin ?? null,
    },
  };
}

/** Adding (the browser's answer, as JSON) and removing a passkey (decision 0076). */
async function passkeyAction(
  intent: string,
  form: Record<string, FormDataEntryValue>,
  context: Route.ActionArgs["context"],
) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  try {
    if (intent === "passkey-remove") {
      await services.passkeys.remove(auth.user.id, Number(form.id) || 0);
      return data<ActionData>({ intent, saved: "The passkey is removed." });
    }
    let response: unknown;
    try {
      response = JSON.parse(typeof form.response === "string" ? form.response.slice(0, 64_000) : "");
    } catch {
      return data<ActionData>({ intent, errors: { passkey: PASSKEY_NOT_CHECKED } }, { status: 422 });
    }
    const input = parseOrThrow(passkeyAddSchema, {
      name: typeof form.name === "string" ? form.name : undefined,
      response,
    });
    const passkey = await services.passkeys.add(auth.user.id, input);
    return data<ActionData>({ intent, saved: `The passkey "${passkey.name}" is added: use it at your next sign-in.` });
  } catch (error) {
    if (isAppError(error) && !error.details.errors) {
      return data<ActionData>({ intent, errors: { passkey: error.message } }, { status: error.status });
    }
    const { errors, status } = fieldFailureOf(error);
    const messages = Object.values(firstMessages(errors));
    return data<ActionData>({ intent, errors: { passkey: messages[0] ?? PASSKEY_NOT_CHECKED } }, { status });
  }
}

/** The two-factor forms (decision 0075): each answers in place, its refusal beside its field. */
async function twoFactorAction(
  intent: string,
  form: Record<string, FormDataEntryValue>,
  context: Route.ActionArgs["context"],
) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const code = typeof form.code === "string" ? form.code.slice(0, 40) : "";
  try {
    if (intent === "2fa-setup") {
      const setup = await services.twoFactor.beginSetup(auth.user);
      return data<ActionData>({ intent, twoFactor: { setup: { qr_svg: setup.qr_svg, secret: setup.secret } } });
    }
    if (intent === "2fa-confirm") {
      const recoveryCodes = await services.twoFactor.confirmSetup(auth.user, code);
      return data<ActionData>({ intent, saved: "Two-factor sign-in is on.", twoFactor: { recoveryCodes } });
    }
    if (intent === "2fa-recovery") {
      const recoveryCodes = await services.twoFactor.renewRecoveryCodes(auth.user.id, code);
      return data<ActionData>({
        intent,
        saved: "New recovery codes are made; the old ones no longer work.",
        twoFactor: { recoveryCodes },
      });
    }
    const password = typeof form.password === "string" ? form.password : "";
    await services.twoFactor.disable(auth.user.id, password, code);
    return data<ActionData>({ intent, saved: "Two-factor sign-in is off." });
  } catch (error) {
    if (isAppError(error) && !error.details.errors) {
      return data<ActionData>({ intent, errors: { [intent]: error.message } }, { status: error.status });
    }
    const { errors, status } = fieldFailureOf(error);
    const messages = firstMessages(errors);
    // The code's message beside the form's code field; the password's beside the password.
    const { code: codeMessage, ...rest } = messages;
    // A wrong first code keeps the QR code on the screen, to try again.
    const pending = intent === "2fa-confirm" ? await services.twoFactor.pendingSetup(auth.user) : null;
    return data<ActionData>(
      {
        intent,
        errors: { ...rest, ...(codeMessage ? { [intent]: codeMessage } : {}) },
        ...(pending ? { twoFactor: { setup: { qr_svg: pending.qr_svg, secret: pending.secret } } } : {}),
      },
      { status },
    );
  }
}

/**
 * The member deletes their account (issue 35): the password, and a code when two-factor is on. Done,
 * they are signed out and sent to the sign-in page, which says what became of their data.
 */
async function deleteAccountAction(form: Record<string, FormDataEntryValue>, context: Route.ActionArgs["context"]) {
  const { services, auth, secureCookies } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const intent = "delete-account";
  try {
    await services.privacy.deleteOwnAccount(
      auth.user.id,
      parseOrThrow(accountDeleteSchema, {
        password: textOf(form.password) ?? "",
        code: textOf(form.code) || undefined,
      }),
    );
  } catch (error) {
    // The last admin: not a field to correct, a step to take first.
    if (isAppError(error) && !error.details.errors && error.code !== "rate_limited") {
      return data<ActionData>({ intent, errors: { form: error.message } }, { status: error.status });
    }
    return refusal(intent, error);
  }
  const headers = new Headers();
  for (const cleared of clearSessionCookies({ secure: secureCookies })) headers.append("Set-Cookie", cleared);
  throw redirect("/login?notice=account-deleted", { headers });
}

/** The profile's fields, with what an empty one says on this page (it shows their values). */
const PROFILE_FIELDS = {
  first_name: "The first name is required.",
  last_name: "The last name is required.",
  email: "Email is required.",
  phone_number: null,
} as const;
const textOf = (value: FormDataEntryValue | undefined) => (typeof value === "string" ? value : undefined);

/** What a refused change says beside its fields: too many wrong passwords, or the fields' messages. */
function refusal(intent: string, error: unknown) {
  const limited = rateLimitOf(error);
  if (limited) return data<ActionData>({ intent, errors: { password: limited.message } }, limited.init);
  const { errors, status } = fieldFailureOf(error);
  return data<ActionData>({ intent, errors: firstMessages(errors) }, { status });
}

/**
 * One action for the page's forms; the intent says which. The profile form sends only the fields
 * changed (with JavaScript; all of them without, which changes nothing more). A new e-mail
 * address, a new password and a new calendar address need the current password (decision 0035).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, auth, origin } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const form = await readForm(request);
  if (form.intent === "delete-account") return deleteAccountAction(form, context);
  if (form.intent === "passkey-add" || form.intent === "passkey-remove") {
    return passkeyAction(form.intent, form, context);
  }
  if (typeof form.intent === "string" && form.intent.startsWith("2fa-")) {
    if (!["2fa-setup", "2fa-confirm", "2fa-recovery", "2fa-disable"].includes(form.intent)) {
      throw data("Unknown action.", { status: 400 });
    }
    return twoFactorAction(form.intent, form, context);
  }
  if (form.intent === "calendar-feed") {
    try {
      const token = await services.profile.renewCalendarToken(auth.user.id, textOf(form.password));
      const feedUrl = `${origin}/calendar/${token}.ics`;
      return data<ActionData>({ intent: "calendar-feed", saved: "Your private calendar address is ready.", feedUrl });
    } catch (error) {
      return refusal("calendar-feed", error);
    }
  }
  if (form.intent === "end-calendar-feed") {
    await services.profile.endCalendarFeed(auth.user.id);
    return data<ActionData>({ intent: "calendar-feed", saved: "Your private calendar address no longer works." });
  }
  if (form.intent === "avatar" || form.intent === "remove-avatar") {
    try {
      if (form.intent === "remove-avatar") await services.profile.removeAvatar(auth.user.id);
      else {
        const file = form.avatar;
        const bytes = file instanceof File && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : undefined;
        await services.profile.setAvatar(auth.user.id, bytes);
      }
    } catch (error) {
      const { errors, status } = fieldFailureOf(error);
      return data<ActionData>({ intent: "avatar", errors: firstMessages(errors) }, { status });
    }
    const saved = form.intent === "remove-avatar" ? "Your picture is removed." : "Your picture is saved.";
    return data<ActionData>({ intent: "avatar", saved });
  }
  if (form.intent === "password") {
    if (!form.new_password) {
      return data<ActionData>(
        { intent: "password", errors: { new_password: "The new password is required." } },
        { status: 422 },
      );
    }
    let endedCalendarFeed: boolean;
    try {
      ({ endedCalendarFeed } = await services.profile.update(
        auth.user.id,
        auth.sessionId,
        parseOrThrow(profileSchema, {
          password: form.password,
          new_password: form.new_password,
          confirm_new_password: form.confirm_new_password,
        }),
      ));
    } catch (error) {
      return refusal("password", error);
    }
    return data<ActionData>({
      intent: "password",
      saved: endedCalendarFeed
        ? "Your password is changed. Your other sessions have been signed out, and your private calendar address no longer works: make a new one below."
        : "Your password is changed. Your other sessions have been signed out.",
    });
  }

  // The profile: the fields sent, each shown with its value, so that an empty name or address was emptied here.
  const sent = Object.keys(PROFILE_FIELDS).filter((name) => textOf(form[name]) !== undefined);
  const emptied = Object.fromEntries(
    Object.entries(PROFILE_FIELDS).flatMap(([name, message]) =>
      message && textOf(form[name])?.trim() === "" ? [[name, message]] : [],
    ),
  );
  if (Object.keys(emptied).length > 0) return data<ActionData>({ intent: "profile", errors: emptied }, { status: 422 });
  if (sent.length === 0) return data<ActionData>({ intent: "profile", saved: "Nothing was changed." });
  const before = auth.user.email;
  let user: Awaited<ReturnType<typeof services.profile.update>>["user"];
  try {
    ({ user } = await services.profile.update(
      auth.user.id,
      auth.sessionId,
      parseOrThrow(profileSchema, {
        ...Object.fromEntries(sent.map((name) => [name, form[name]])),
        password: form.password,
      }),
    ));
  } catch (error) {
    return refusal("profile", error);
  }
  return data<ActionData>({
    intent: "profile",
    saved:
      user.email !== before
        ? `Your profile is saved. A notice of the change goes to your previous address, ${before}.`
        : "Your profile is saved.",
  });
}

function Section({ title, icon, children }: { title: string; icon: React.ReactNode; children: React.ReactNode }) {
  return (
    <section className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <h2 className="flex items-center gap-2 font-display text-2xl font-bold text-navy-900">
        {icon}
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * Sends the profile form's changed fields only (SPEC §4 'Profile update'): the inputs show the stored
 * values, and an input's `defaultValue` is the value it was shown with. A password is sent when typed.
 */
function changedFields(form: HTMLFormElement): FormData {
  const changed = new FormData();
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement) || !element.name) continue;
    const send =
      element.type === "hidden" ||
      (element.type === "password" ? element.value !== "" : element.value !== element.defaultValue);
    if (send) changed.append(element.name, element.value);
  }
  return changed;
}

/** SPEC §2 'User menu' → Settings: profile and password. */
export default function UserSettings({ actionData, loaderData }: Route.ComponentProps) {
  const user = useRootData()?.user;
  const navigation = useNavigation();
  const submit = useSubmit();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const passwordForm = useRef<HTMLFormElement>(null);
  // After a save the fields show the stored values again (their defaultValue, from the revalidated user).
  const profileForm = useRef<HTMLFormElement>(null);
  const errors = (intent: string) => (actionData?.intent === intent ? (actionData.errors ?? {}) : {});

  // The notice below is the one message of a save (decision 0041): no toast beside it.
  useEffect(() => {
    if (actionData?.saved) {
      if (actionData.intent === "password") passwordForm.current?.reset();
      if (actionData.intent === "profile") profileForm.current?.reset();
    }
  }, [actionData]);

  return (
    <div>
      <p className="text-sm font-semibold tracking-wide text-sea-600 uppercase">Members area</p>
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">Settings</h1>
      {actionData?.saved ? (
        <Notice tone="success" className="mt-4">
          {actionData.saved}
        </Notice>
      ) : null}
      <section className="mt-8 flex flex-wrap items-center gap-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        {user ? <Avatar user={user} large /> : null}
        <div className="min-w-0 flex-1">
          <h2 className="font-display text-2xl font-bold text-navy-900">Picture</h2>
          <p className="mt-1 text-sm text-slate-600">A JPEG, PNG or WebP; it is cropped to a square.</p>
          <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="avatar" />
            <div>
              <label htmlFor="avatar" className="field-label">
                New picture
              </label>
              <input
                id="avatar"
                name="avatar"
                type="file"
                accept={IMAGE_ACCEPT}
                aria-invalid={errors("avatar").avatar ? true : undefined}
                aria-describedby={errors("avatar").avatar ? "avatar-error" : undefined}
                className="block text-sm file:mr-3 file:rounded-md file:border-0 file:bg-navy-50 file:px-3 file:py-2 file:font-semibold file:text-navy-900"
              />
            </div>
            <button type="submit" className="btn-primary" disabled={busy("avatar")}>
              {busy("avatar") ? "Uploading…" : "Upload"}
            </button>
          </Form>
          {errors("avatar").avatar ? (
            <p id="avatar-error" className="mt-2 text-sm text-red-700">
              {errors("avatar").avatar}
            </p>
          ) : null}
          {user?.avatar ? (
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="remove-avatar" />
              <button type="submit" className="text-sm font-semibold text-red-700 hover:underline">
                Remove the picture
              </button>
            </Form>
          ) : null}
        </div>
      </section>
      <div className="mt-8 grid gap-8 lg:grid-cols-2">
        <Section title="Profile" icon={<UserRound className="h-6 w-6 text-sea-600" aria-hidden="true" />}>
          <p className="mt-2 text-sm text-slate-600">Change what you need; an emptied phone number is removed.</p>
          <Form
            method="post"
            noValidate
            className="mt-6 space-y-5"
            ref={profileForm}
            onSubmit={(event) => {
              event.preventDefault();
              submit(changedFields(event.currentTarget), { method: "post" });
            }}
          >
            <input type="hidden" name="intent" value="profile" />
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField
                id="first_name"
                name="first_name"
                label="First name"
                autoComplete="given-name"
                defaultValue={user?.first_name}
                error={errors("profile").first_name}
                {...lengthLimit(profileSchema.shape.first_name)}
              />
              <TextField
                id="last_name"
                name="last_name"
                label="Last name"
                autoComplete="family-name"
                defaultValue={user?.last_name}
                error={errors("profile").last_name}
                {...lengthLimit(profileSchema.shape.last_name)}
              />
            </div>
            <TextField
              id="email"
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              defaultValue={user?.email}
              error={errors("profile").email}
              {...lengthLimit(profileSchema.shape.email)}
            />
            <TextField
              id="phone_number"
              name="phone_number"
              label="Phone number"
              type="tel"
              autoComplete="tel"
              defaultValue={user?.phone_number ?? ""}
              error={errors("profile").phone_number}
              {...lengthLimit(profileSchema.shape.phone_number)}
            />
            <TextField
              id="profile_password"
              name="password"
              label="Current password, to change the e-mail address"
              type="password"
              autoComplete="current-password"
              hint="Needed only when the e-mail address changes: mail for your account, reset links included, goes there."
              error={errors("profile").password}
            />
            <button type="submit" className="btn-primary" disabled={busy("profile")}>
              {busy("profile") ? "Saving…" : "Save profile"}
            </button>
          </Form>
        </Section>
        <Section title="Password" icon={<KeyRound className="h-6 w-6 text-sea-600" aria-hidden="true" />}>
          <p className="mt-2 text-sm text-slate-600">Your other sessions are signed out when it changes.</p>
          <Form method="post" noValidate className="mt-6 space-y-5" ref={passwordForm}>
            <input type="hidden" name="intent" value="password" />
            <TextField
              id="password"
              name="password"
              label="Current password"
              type="password"
              autoComplete="current-password"
              error={errors("password").password}
            />
            <NewPasswordFields
              errors={errors("password")}
              labels={["New password", "Confirm the new password"]}
              names={["new_password", "confirm_new_password"]}
            />
            <button type="submit" className="btn-primary" disabled={busy("password")}>
              {busy("password") ? "Saving…" : "Change password"}
            </button>
          </Form>
        </Section>
        <TwoFactorSection
          status={loaderData.twoFactor}
          required={loaderData.twoFactorRequired}
          result={actionData?.twoFactor}
          errors={
            actionData?.intent.startsWith("2fa-") || actionData?.intent.startsWith("passkey-")
              ? (actionData.errors ?? {})
              : {}
          }
          busy={busy}
          passkeys={loaderData.passkeys}
        />
        <CalendarFeed
          hasFeed={loaderData.hasCalendarFeed}
          feedUrl={actionData?.feedUrl}
          busy={busy}
          passwordError={errors("calendar-feed").password}
        />
        <YourDataSection
          twoFactor={loaderData.twoFactor.enabled}
          exportWait={loaderData.exportWait}
          errors={errors("delete-account")}
          busy={busy("delete-account")}
        />
      </div>
    </div>
  );
}

/**
 * The member's private calendar feed (issue 13 'Calendars'): every meeting they may see, members-only
 * ones included, at a secret address. Only its hash is stored, so the address is shown once, when
 * made; a new one ends the old one (decision 0023).
 */
function CalendarFeed(props: {
  hasFeed: boolean;
  feedUrl?: string;
  busy: (intent: string) => boolean;
  passwordError?: string;
}) {
  const webcal = props.feedUrl?.replace(/^https?:/, "webcal:");
  return (
    <div id="calendar" className="scroll-mt-24 lg:col-span-2">
      <Section
        title="Your calendar of meetings"
        icon={<CalendarDays className="h-6 w-6 text-sea-600" aria-hidden="true" />}
      >
        <p className="mt-2 max-w-2xl text-sm text-slate-600">
          Subscribe in Outlook, Google Calendar or Apple Calendar to see every meeting of the association, members-only
          ones included, with their programmes. The address is personal: do not share it.
        </p>
        {props.feedUrl ? (
          <div className="mt-5 rounded-lg bg-sea-100/60 p-4 ring-1 ring-sea-500/30">
            <label htmlFor="calendar-feed-url" className="text-sm font-semibold text-navy-900">
              Your private calendar address (shown only now: copy it into your calendar app)
            </label>
            <input
              id="calendar-feed-url"
              readOnly
              value={props.feedUrl}
              className="mt-2 w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm"
              onFocus={(event) => event.currentTarget.select()}
            />
            {webcal ? (
              <a href={webcal} className="mt-3 inline-flex text-sm font-semibold text-sea-700 underline">
                Open in my calendar app
              </a>
            ) : null}
          </div>
        ) : props.hasFeed ? (
          <p className="mt-4 text-sm text-slate-700">
            Your private calendar address is active. For your security it is not shown again: make a new one if you need
            it (the old one then stops working).
          </p>
        ) : null}
        <div className="mt-5 flex flex-wrap items-end gap-3">
          {/* The address reads members-only meetings without a session: making one needs the password. */}
          <Form method="post" noValidate className="flex flex-wrap items-end gap-3" key={props.feedUrl ?? "none"}>
            <input type="hidden" name="intent" value="calendar-feed" />
            <TextField
              id="calendar_password"
              name="password"
              label="Current password, to make an address"
              type="password"
              autoComplete="current-password"
              error={props.passwordError}
            />
            <button type="submit" className="btn-primary" disabled={props.busy("calendar-feed")}>
              {props.hasFeed || props.feedUrl ? "Make a new address" : "Make my calendar address"}
            </button>
          </Form>
          {props.hasFeed || props.feedUrl ? (
            <Form method="post">
              <input type="hidden" name="intent" value="end-calendar-feed" />
              <button type="submit" className="btn-outline" disabled={props.busy("end-calendar-feed")}>
                Stop my calendar address
              </button>
            </Form>
          ) : null}
        </div>
      </Section>
    </div>
  );
}

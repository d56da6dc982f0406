import { CalendarDays, KeyRound, UserRound } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import { profileSchema } from "../../../core/accounts/profile.schema";
import { IMAGE_ACCEPT } from "../../../lib/uploads";
import { parseOrThrow } from "../../../lib/validation";
import { NewPasswordFields } from "../../components/account/new-password-fields";
import { Avatar } from "../../components/account/user-menu";
import { Notice } from "../../components/ui/notice";
import { TextField } from "../../components/ui/text-field";
import { toast } from "../../components/ui/toast";
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
};

export async function loader({ context }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  return { hasCalendarFeed: await services.profile.hasCalendarFeed(auth.user.id) };
}

/** One action for both forms; the intent says which. Empty fields are left as they are (SPEC §4). */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw data("Sign in first.", { status: 401 });
  const form = await readForm(request);
  if (form.intent === "calendar-feed") {
    const token = await services.profile.renewCalendarToken(auth.user.id);
    const feedUrl = `${getRequestContext(context).origin}/calendar/${token}.ics`;
    return data<ActionData>({ intent: "calendar-feed", saved: "Your private calendar address is ready.", feedUrl });
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
  const intent = form.intent === "password" ? "password" : "profile";
  const fields =
    intent === "password"
      ? { password: form.password, new_password: form.new_password, confirm_new_password: form.confirm_new_password }
      : {
          first_name: form.first_name,
          last_name: form.last_name,
          email: form.email,
          phone_number: form.phone_number,
        };
  if (intent === "password" && !form.new_password) {
    return data<ActionData>({ intent, errors: { new_password: "The new password is required." } }, { status: 422 });
  }
  try {
    await services.profile.update(auth.user.id, auth.sessionId, parseOrThrow(profileSchema, fields));
  } catch (error) {
    // Too many wrong current passwords: said beside the field.
    const limited = rateLimitOf(error);
    if (limited) return data<ActionData>({ intent, errors: { password: limited.message } }, limited.init);
    const { errors, status } = fieldFailureOf(error);
    return data<ActionData>({ intent, errors: firstMessages(errors) }, { status });
  }
  return data<ActionData>({
    intent,
    saved:
      intent === "password"
        ? "Your password is changed. Your other sessions have been signed out."
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

/** SPEC §2 'User menu' → Settings: profile and password. */
export default function UserSettings({ actionData, loaderData }: Route.ComponentProps) {
  const user = useRootData()?.user;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const passwordForm = useRef<HTMLFormElement>(null);
  // After a save the fields empty again and their placeholders show the stored values.
  const profileForm = useRef<HTMLFormElement>(null);
  const errors = (intent: string) => (actionData?.intent === intent ? (actionData.errors ?? {}) : {});

  useEffect(() => {
    if (actionData?.saved) {
      toast.success(actionData.saved, { duration: 5000 });
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
          <p className="mt-1 text-sm text-slate-600">A JPEG, PNG, WebP or GIF; it is cropped to a square.</p>
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
          <p className="mt-2 text-sm text-slate-600">Fields left empty keep their current value.</p>
          <Form method="post" noValidate className="mt-6 space-y-5" ref={profileForm}>
            <input type="hidden" name="intent" value="profile" />
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField
                id="first_name"
                name="first_name"
                label="First name"
                autoComplete="given-name"
                placeholder={user?.first_name}
                error={errors("profile").first_name}
                {...lengthLimit(profileSchema.shape.first_name)}
              />
              <TextField
                id="last_name"
                name="last_name"
                label="Last name"
                autoComplete="family-name"
                placeholder={user?.last_name}
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
              placeholder={user?.email}
              error={errors("profile").email}
              {...lengthLimit(profileSchema.shape.email)}
            />
            <TextField
              id="phone_number"
              name="phone_number"
              label="Phone number"
              type="tel"
              autoComplete="tel"
              placeholder={user?.phone_number ?? ""}
              error={errors("profile").phone_number}
              {...lengthLimit(profileSchema.shape.phone_number)}
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
        <CalendarFeed hasFeed={loaderData.hasCalendarFeed} feedUrl={actionData?.feedUrl} busy={busy} />
      </div>
    </div>
  );
}

/**
 * The member's private calendar feed (issue 13 'Calendars'): every meeting they may see, members-only
 * ones included, at a secret address. Only its hash is stored, so the address is shown once, when
 * made; a new one ends the old one (decision 0023).
 */
function CalendarFeed(props: { hasFeed: boolean; feedUrl?: string; busy: (intent: string) => boolean }) {
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
        <div className="mt-5 flex flex-wrap gap-3">
          <Form method="post">
            <input type="hidden" name="intent" value="calendar-feed" />
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

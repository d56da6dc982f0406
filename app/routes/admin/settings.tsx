import { data, Form, redirect, useNavigation } from "react-router";
import { settingsUpdateSchema } from "../../../core/settings/settings.schema";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { Notice } from "../../components/ui/notice";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { fieldErrorsOf, lengthLimit } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "Settings · Manager" }];

const FIELDS = [
  { key: "site.name", label: "Company name", type: "text", hint: "Shown in the header, footer and copyright line." },
  { key: "site.tagline", label: "Tagline", type: "text" },
  { key: "site.email", label: "Contact e-mail", type: "email" },
  { key: "site.phone", label: "Contact phone", type: "tel" },
  {
    key: "site.address",
    label: "Postal address",
    type: "text",
    hint: "On one line; shown in the footer of every e-mail the site sends.",
  },
  { key: "site.twitter", label: "Twitter page", type: "url", hint: "Full https:// address; leave empty to hide." },
  { key: "site.youtube", label: "YouTube channel", type: "url" },
  { key: "site.linkedin", label: "LinkedIn page", type: "url" },
  {
    key: "site.timezone",
    label: "Default time zone for meetings",
    type: "text",
    hint: "A time zone name such as Europe/London or America/New_York; each meeting can have its own. Membership dates are days in it.",
  },
  {
    key: "members.grace_days",
    label: "Grace period after a renewal date (days)",
    type: "number",
    hint: "A member company stays current this many days after its renewal date; then its representatives see what visitors see.",
  },
  {
    key: "members.reminder_days",
    label: "Renewal reminder (days before the renewal date)",
    type: "number",
    hint: "The company's primary contacts get one e-mail this many days before its renewal date, and one when it lapses.",
  },
  {
    key: "meetings.reminder_days",
    label: "Meeting reminder (days before a meeting)",
    type: "number",
    hint: "Confirmed attendees get one e-mail this many days before the meeting starts; 0 sends none.",
  },
  {
    key: "mail.announcements_per_second",
    label: "Announcements sent per second",
    type: "number",
    hint: "A news post sent to the members leaves at most this many e-mails a second, so that the mail server does not refuse them.",
  },
  {
    key: "audit.retention_days",
    label: "Keep the audit log for (days)",
    type: "number",
    hint: "Rows older than this are removed each night (30 to 3650; 730 is two years). Nothing else removes one.",
  },
  {
    key: "privacy.retention_months",
    label: "Keep applicants' and registrants' details for (months)",
    type: "number",
    hint: "After a request was handled, or a registration's meeting ended, the person's name, address, phone and note are erased each night (1 to 120; the Privacy Policy should say the same).",
  },
] as const;

export async function loader({ context, url }: Route.LoaderArgs) {
  return {
    settings: await getRequestContext(context).services.settings.getAll(),
    saved: url.searchParams.has("saved"),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await readForm(request);
  const input = {
    ...Object.fromEntries(FIELDS.map((f) => [f.key, String(form[f.key] ?? "")])),
    // A checkbox: absent means off.
    "security.admin_two_factor": form["security.admin_two_factor"] === "1" ? "1" : "0",
  };
  try {
    await getRequestContext(context).services.settings.update(input);
  } catch (error) {
    return data({ errors: fieldErrorsOf(error), values: input }, { status: 422 });
  }
  return redirect("/manager/settings?saved=1");
}

/** Site settings: the contact data of header and footer and the company name (SPEC §1). */
export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const errors = actionData?.errors ?? {};
  const values: Record<string, string> = actionData?.values ?? loaderData.settings;
  const saving = useNavigation().state === "submitting";
  return (
    <div className="max-w-3xl">
      <Breadcrumbs trail={[{ label: "Manager", to: "/manager" }]} current={"Settings"} />
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">Site settings</h1>
      {loaderData.saved ? (
        <Notice tone="success" className="mt-4">
          Settings saved.
        </Notice>
      ) : null}
      <Form
        method="post"
        noValidate
        className="mt-6 grid gap-5 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2"
      >
        {FIELDS.map((field) => (
          <div
            key={field.key}
            className={
              field.key === "site.tagline" || field.key === "site.name" || field.key === "site.address"
                ? "sm:col-span-2"
                : ""
            }
          >
            <TextField
              id={field.key.replace(".", "-")}
              name={field.key}
              label={field.label}
              type={field.type}
              defaultValue={values[field.key] ?? ""}
              error={errors[field.key]?.[0]}
              {...lengthLimit(settingsUpdateSchema.shape[field.key])}
            />
            {"hint" in field ? <p className="mt-1 text-xs text-slate-500">{field.hint}</p> : null}
          </div>
        ))}
        <div className="sm:col-span-2">
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              name="security.admin_two_factor"
              value="1"
              defaultChecked={values["security.admin_two_factor"] === "1"}
              className="mt-0.5 h-4 w-4"
              aria-describedby="admin-two-factor-hint"
            />
            <span className="font-semibold">
              Admins, editors and working groups' chairs must use two-factor sign-in
            </span>
          </label>
          <p id="admin-two-factor-hint" className="mt-1 text-xs text-slate-500">
            Someone without it is sent to set it up before any other admin page; API clients get a 403 that says so.
          </p>
        </div>
        <div className="flex justify-end sm:col-span-2">
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving…" : "Save settings"}
          </button>
        </div>
      </Form>
    </div>
  );
}

import { Download, ShieldCheck } from "lucide-react";
import { Form } from "react-router";
import { waitText } from "../../../core/join/join.values";
import { Notice } from "../ui/notice";
import { TextField } from "../ui/text-field";

/**
 * "Your data" on the settings page (issue 35): the member downloads everything the site holds about
 * them, and deletes their account after confirming with their password (and a code when two-factor
 * is on). Deleting sits behind a disclosure, so that it is never one slip away.
 */
export function YourDataSection(props: {
  twoFactor: boolean;
  /** Seconds to wait before the next download, when the hourly limit was reached. */
  exportWait: number | null;
  errors: Record<string, string>;
  busy: boolean;
}) {
  const failed = Object.keys(props.errors).length > 0;
  return (
    <section
      id="your-data"
      className="scroll-mt-24 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8 lg:col-span-2"
    >
      <h2 className="flex items-center gap-2 font-display text-2xl font-bold text-navy-900">
        <ShieldCheck className="h-6 w-6 text-sea-600" aria-hidden="true" />
        Your data
      </h2>
      <p className="mt-2 max-w-2xl text-sm text-slate-600">
        Download everything the site holds about you: your profile and picture, your companies, registrations and
        requests, what you follow, your open sign-ins, the e-mails sent to you and the log of what you did. One ZIP file
        of readable JSON, with a README.
      </p>
      {props.exportWait ? (
        <Notice tone="error" className="mt-4">
          You downloaded your data five times in the last hour. Please try again {waitText(props.exportWait)}.
        </Notice>
      ) : null}
      <a href="/dashboard/user-settings/data.zip" download className="btn-outline mt-4 inline-flex items-center gap-2">
        <Download className="h-4 w-4" aria-hidden="true" />
        Download my data
      </a>
      <details className="mt-8 rounded-lg border border-red-200 bg-red-50/40 p-4" open={failed}>
        <summary className="cursor-pointer font-semibold text-red-800">Delete my account</summary>
        <div className="mt-3 max-w-2xl space-y-2 text-sm text-slate-700">
          <p>This cannot be undone. When you delete your account:</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              you are signed out everywhere; your picture, private feeds, follows and two-factor sign-in are removed;
            </li>
            <li>
              your registrations and requests are kept without your name, address, phone or note, so that the meeting
              counts stay true; registrations for meetings still to come are cancelled and their seats freed;
            </li>
            <li>news posts you wrote keep the author name they were published with;</li>
            <li>your companies lose you as a representative.</li>
          </ul>
        </div>
        <Form method="post" noValidate className="mt-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="delete-account" />
          <TextField
            id="delete_password"
            name="password"
            label="Your password"
            type="password"
            autoComplete="current-password"
            error={props.errors.password}
          />
          {props.twoFactor ? (
            <TextField
              id="delete_code"
              name="code"
              label="Code from your authenticator app"
              autoComplete="one-time-code"
              inputMode="numeric"
              hint="Or one of your recovery codes."
              error={props.errors.code}
            />
          ) : null}
          <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={props.busy}>
            {props.busy ? "Deleting…" : "Delete my account for good"}
          </button>
        </Form>
        {props.errors.form ? (
          <Notice tone="error" className="mt-3">
            {props.errors.form}
          </Notice>
        ) : null}
      </details>
    </section>
  );
}

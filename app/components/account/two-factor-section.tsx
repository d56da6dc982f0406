import { ShieldCheck } from "lucide-react";
import { Form } from "react-router";
import { Notice } from "../ui/notice";
import { TextField } from "../ui/text-field";
import { PasskeysSection, type ShownPasskey } from "./passkeys-section";

/** What the settings page's two-factor forms answered (decision 0075). */
export type TwoFactorResult = {
  /** A set-up waiting for its first code: the QR code (SVG drawn by the site) and the secret to type instead. */
  setup?: { qr_svg: string; secret: string };
  /** Shown once, after the first code or a renewal. */
  recoveryCodes?: string[];
};

/**
 * Two-factor sign-in on the settings page (issue 34, decision 0075): set up an authenticator app
 * (QR code, confirmed with a first code), the ten recovery codes shown once, new codes, turning it
 * off with the password and a current code.
 */
export function TwoFactorSection({
  status,
  required,
  result,
  errors,
  busy,
  passkeys,
}: {
  status: { enabled: boolean; recovery_codes_left: number };
  /** The user's passkeys and where they work (decision 0076): shown once the app is on. */
  passkeys: { list: ShownPasskey[]; at: string | null };
  /** The site asks admins for it and this admin has none yet. */
  required: boolean;
  result: TwoFactorResult | undefined;
  errors: Record<string, string>;
  busy: (intent: string) => boolean;
}) {
  const codes = result?.recoveryCodes;
  return (
    <section
      id="two-factor"
      aria-labelledby="two-factor-title"
      tabIndex={-1}
      className="scroll-mt-24 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 focus:outline-none sm:p-8"
    >
      <h2 id="two-factor-title" className="flex items-center gap-2 font-display text-2xl font-bold text-navy-900">
        <ShieldCheck className="h-6 w-6 text-sea-600" aria-hidden="true" />
        Two-factor sign-in
      </h2>
      {required ? (
        <Notice tone="error" className="mt-4">
          The association asks its admins, editors and working groups' chairs to sign in with a second factor. Set up an
          authenticator app below; the admin area, and a chair's papers and meetings, open once it is on.
        </Notice>
      ) : null}
      {codes ? (
        <div className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4">
          <p className="font-semibold text-amber-950">Your recovery codes, shown this once</p>
          <p className="mt-1 text-sm text-amber-950">
            Each signs you in once if your phone is lost. Print them or keep them in a password manager: they are not
            shown again.
          </p>
          <ul aria-label="Recovery codes" className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5">
            {codes.map((code) => (
              <li key={code} className="rounded bg-white px-2 py-1 text-center ring-1 ring-amber-200">
                {code}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {status.enabled ? (
        <>
          <p className="mt-3 text-sm text-slate-700">
            On: after your password, the sign-in asks for a code of your authenticator app
            {passkeys.list.length > 0 ? " or one of your passkeys" : ""}. {status.recovery_codes_left} recovery code
            {status.recovery_codes_left === 1 ? "" : "s"} left.
          </p>
          <div className="mt-5 grid gap-6 md:grid-cols-2">
            <Form method="post" noValidate className="space-y-3">
              <input type="hidden" name="intent" value="2fa-recovery" />
              <p className="text-sm font-semibold text-navy-900">New recovery codes</p>
              <TextField
                id="recovery_code"
                name="code"
                label="A code of your app"
                autoComplete="one-time-code"
                error={errors["2fa-recovery"]}
              />
              <button type="submit" className="btn-outline" disabled={busy("2fa-recovery")}>
                Make new recovery codes
              </button>
            </Form>
            <Form method="post" noValidate className="space-y-3">
              <input type="hidden" name="intent" value="2fa-disable" />
              <p className="text-sm font-semibold text-navy-900">Turn off two-factor sign-in</p>
              <TextField
                id="disable_password"
                name="password"
                label="Current password"
                type="password"
                autoComplete="current-password"
                error={errors.password}
              />
              <TextField
                id="disable_code"
                name="code"
                label="A code of your app, or a recovery code"
                autoComplete="one-time-code"
                error={errors["2fa-disable"]}
              />
              <button type="submit" className="btn-outline text-red-700" disabled={busy("2fa-disable")}>
                Turn off
              </button>
            </Form>
          </div>
          <PasskeysSection passkeys={passkeys.list} at={passkeys.at} error={errors.passkey} busy={busy} />
        </>
      ) : result?.setup ? (
        <div className="mt-4 grid gap-6 md:grid-cols-[14rem_minmax(0,1fr)]">
          <div
            role="img"
            aria-label="QR code to scan with your authenticator app"
            className="h-56 w-56 rounded-md bg-white p-2 ring-1 ring-slate-200 [&_svg]:h-full [&_svg]:w-full"
            // Drawn by the site (uqr) from the otpauth:// address: no markup from elsewhere.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG generated server-side by uqr
            dangerouslySetInnerHTML={{ __html: result.setup.qr_svg }}
          />
          <Form method="post" noValidate className="space-y-3">
            <input type="hidden" name="intent" value="2fa-confirm" />
            <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
              <li>Open your authenticator app (such as Google Authenticator, Microsoft Authenticator, 1Password).</li>
              <li>
                Scan the QR code, or type this key:{" "}
                <code className="break-all font-mono text-navy-900">{result.setup.secret}</code>
              </li>
              <li>Type the six digits it shows for this site.</li>
            </ol>
            <TextField
              id="setup_code"
              name="code"
              label="Code from the app"
              autoComplete="one-time-code"
              inputMode="numeric"
              error={errors["2fa-confirm"]}
            />
            <button type="submit" className="btn-primary" disabled={busy("2fa-confirm")}>
              Turn on two-factor sign-in
            </button>
          </Form>
        </div>
      ) : (
        <>
          <p className="mt-3 text-sm text-slate-700">
            Off: your password alone signs you in. With an authenticator app on your phone, a stolen password is not
            enough. Once the app is on, you can add passkeys too.
          </p>
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="2fa-setup" />
            {errors["2fa-setup"] ? <p className="mb-2 text-sm text-red-700">{errors["2fa-setup"]}</p> : null}
            <button type="submit" className="btn-primary" disabled={busy("2fa-setup")}>
              Set up an authenticator app
            </button>
          </Form>
        </>
      )}
    </section>
  );
}

import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { KeyRound } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import { PASSKEY_NAME_MAX } from "../../../core/auth/passkeys.schema";
import { sendAnswer, webAuthn } from "../../lib/passkey-browser";
import { TextField } from "../ui/text-field";

/** A passkey as the settings page lists it: times already in the site's zone. */
export type ShownPasskey = { id: number; name: string; added: string; lastUsed: string | null };

/** What the options call answers (POST /api/dashboard/user/passkeys/options). */
type OptionsAnswer = { status?: string; options?: PublicKeyCredentialCreationOptionsJSON; message?: string };

/**
 * Passkeys beside the authenticator app (decision 0076): the list with a remove button each, and
 * "Add a passkey": the options from the API, the browser's passkey dialog (@simplewebauthn/browser,
 * loaded on the press), then the answer to the page's action, which checks it and keeps it.
 */
export function PasskeysSection({
  passkeys,
  /** Where passkeys work (the relying party's origin), or null when the site's address has none. */
  at,
  error,
  busy,
}: {
  passkeys: ShownPasskey[];
  at: string | null;
  error: string | undefined;
  busy: (intent: string) => boolean;
}) {
  const [hydrated, setHydrated] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const answerRef = useRef<HTMLInputElement>(null);
  useEffect(() => setHydrated(true), []);
  // A passkey added (or removed): the name typed for it is done with. Not on the first render: a
  // name typed before the page came to life (hydration) is kept.
  const shownCount = useRef(passkeys.length);
  useEffect(() => {
    if (shownCount.current === passkeys.length) return;
    shownCount.current = passkeys.length;
    formRef.current?.reset();
  }, [passkeys.length]);
  const elsewhere = hydrated && at !== null && window.location.origin !== at;

  async function addPasskey() {
    setProblem(null);
    setWaiting(true);
    try {
      const browser = await webAuthn();
      if (!browser) {
        setProblem("This browser cannot make passkeys.");
        return;
      }
      const response = await fetch("/api/dashboard/user/passkeys/options", {
        method: "POST",
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      const answer = (await response.json().catch(() => ({}))) as OptionsAnswer;
      if (!response.ok || !answer.options) {
        setProblem(answer.message ?? "The site could not start adding a passkey. Try again.");
        return;
      }
      let created: unknown;
      try {
        created = await browser.startRegistration({ optionsJSON: answer.options });
      } catch {
        setProblem("No passkey was made: the browser's dialog was closed or timed out. Try again.");
        return;
      }
      sendAnswer(formRef.current, answerRef.current, created);
    } catch {
      setProblem("The site could not be reached. Check your connection and try again.");
    } finally {
      setWaiting(false);
    }
  }

  const shown = problem ?? error;
  return (
    <div className="mt-8 border-t border-slate-200 pt-6">
      <h3 className="flex items-center gap-2 text-lg font-semibold text-navy-900">
        <KeyRound className="h-5 w-5 text-sea-600" aria-hidden="true" />
        Passkeys
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        A passkey on this device, your phone or a security key signs you in instead of a code of the app. The app and
        its recovery codes stay your way back in.
      </p>
      {passkeys.length > 0 ? (
        <ul aria-label="Your passkeys" className="mt-4 divide-y divide-slate-200 rounded-md ring-1 ring-slate-200">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="font-semibold text-navy-900">{passkey.name}</p>
                <p className="text-sm text-slate-600">
                  Added {passkey.added} · {passkey.lastUsed ? `last used ${passkey.lastUsed}` : "not used yet"}
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="passkey-remove" />
                <input type="hidden" name="id" value={passkey.id} />
                <button
                  type="submit"
                  className="text-sm font-semibold text-red-700 hover:underline"
                  aria-label={`Remove the passkey ${passkey.name}`}
                  disabled={busy("passkey-remove")}
                >
                  Remove
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-sm text-slate-600">No passkeys yet.</p>
      )}
      {at === null ? (
        <p className="mt-4 text-sm text-slate-700">
          Passkeys need the site on https: the site's address (BASE_URL) is not, so they cannot be added here.
        </p>
      ) : elsewhere ? (
        <p className="mt-4 text-sm text-slate-700">
          Passkeys are made for <a href={`${at}/dashboard/user-settings#two-factor`}>{at}</a>: open the site there to
          add one.
        </p>
      ) : (
        <Form
          method="post"
          ref={formRef}
          noValidate
          className="mt-4 flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            // The press first makes the passkey; its answer then sends this form.
            if (!answerRef.current?.value) {
              event.preventDefault();
              void addPasskey();
              return;
            }
            // Sent once: the form's data is read as it goes; a next press makes a new passkey.
            setTimeout(() => {
              if (answerRef.current) answerRef.current.value = "";
            }, 0);
          }}
        >
          <input type="hidden" name="intent" value="passkey-add" />
          <input type="hidden" name="response" ref={answerRef} />
          <div className="min-w-48 flex-1">
            <TextField
              id="passkey_name"
              name="name"
              label="Name (optional)"
              placeholder="Laptop, phone, security key…"
              maxLength={PASSKEY_NAME_MAX}
            />
          </div>
          <button type="submit" className="btn-outline" disabled={!hydrated || waiting || busy("passkey-add")}>
            {waiting ? "Waiting for the browser…" : "Add a passkey"}
          </button>
        </Form>
      )}
      {shown ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-800">
          {shown}
        </p>
      ) : null}
      {!hydrated && at !== null ? (
        <p className="mt-2 text-sm text-slate-600">Adding a passkey needs JavaScript in your browser.</p>
      ) : null}
    </div>
  );
}

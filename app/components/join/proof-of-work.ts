/**
 * The public forms' proof-of-work check in the browser (ALTCHA, decision 0077): the widget
 * (about 34 kB gzip, with its solver's workers) loads once the visitor starts on a form, like the
 * form's checks (decision 0028), and solves a challenge from our own origin. It writes its answer
 * into a hidden field named `altcha`, which the form sends with the rest.
 */
import "altcha";
import type { AltchaWidgetElement } from "altcha";

export const PROOF_FIELD = "altcha";
const CHALLENGE_URL = "/api/altcha/challenge";

/** The widget's texts: each state says that it is the spam check (a screen reader hears them as the box's name). */
const STRINGS = {
  label: "Automatic spam check",
  verifying: "Spam check running…",
  verified: "Spam check passed",
  error: "The spam check failed. Tick the box to try again.",
  expired: "The spam check expired. Tick the box to run it again.",
  waitAlert: "The spam check is running. Please wait a moment.",
  verificationRequired: "Verification required.",
};

globalThis.$altcha.i18n.set("en", { ...globalThis.$altcha.i18n.get("en"), ...STRINGS });

/** The widget, and when its methods are there (a custom element renders after it is inserted). */
export type ProofWidget = { element: AltchaWidgetElement; ready: Promise<void> };

/**
 * Puts the widget into `slot` (inside the form, beside the send button) and starts solving as soon
 * as it is there: the visitor has started on the form. After a reset it solves again when the form
 * gets the focus.
 */
export function mountProofOfWork(slot: HTMLElement): ProofWidget {
  const element = document.createElement("altcha-widget");
  element.setAttribute("challenge", CHALLENGE_URL);
  element.setAttribute("name", PROOF_FIELD);
  element.setAttribute("auto", "onfocus");
  element.setAttribute("language", "en");
  // The attribution link and logo point to a third party's site from inside our form: left out.
  element.setAttribute("configuration", JSON.stringify({ hideFooter: true, hideLogo: true }));
  const ready = new Promise<void>((resolve) => element.addEventListener("load", () => resolve(), { once: true }));
  slot.replaceChildren(element);
  void ready.then(() => {
    if (element.getState() === "unverified") void element.verify();
  });
  return { element, ready };
}

/** The widget's answer, solving first when it has not yet (or again, when it failed or expired); "" if it cannot. */
export async function proofOfWork({ element, ready }: ProofWidget): Promise<string> {
  await ready;
  const field = () => element.querySelector<HTMLInputElement>(`input[name="${PROOF_FIELD}"]`)?.value ?? "";
  const state = element.getState();
  if (state === "verified" && field()) return field();
  if (state !== "verifying") {
    const result = await element.verify();
    return result?.payload ?? "";
  }
  // Already solving (started on focus): wait for it to end, either way.
  return new Promise<string>((resolve) => {
    const done = () => {
      const now = element.getState();
      if (now === "verifying") return;
      element.removeEventListener("statechange", done);
      resolve(now === "verified" ? field() : "");
    };
    element.addEventListener("statechange", done);
    done();
  });
}

/**
 * After a send, sent or refused: a solution is good once, so the next send needs a new one. After a
 * refusal the visitor is likely to send again: `solveAgain` starts on it while they read why.
 */
export async function resetProofOfWork({ element, ready }: ProofWidget, solveAgain: boolean): Promise<void> {
  await ready;
  element.reset();
  if (solveAgain) void element.verify();
}

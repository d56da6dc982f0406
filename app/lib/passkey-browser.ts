/**
 * The browser's side of passkeys (decision 0076), shared by the sign-in's step and the settings
 * page: @simplewebauthn/browser loaded on the first press (null where the browser has no
 * passkeys), and the answer sent in a form of its own, as any form of the page is sent.
 */
export async function webAuthn() {
  const browser = await import("@simplewebauthn/browser");
  return browser.browserSupportsWebAuthn() ? browser : null;
}

/** Puts a passkey's answer in its form's hidden field and sends that form. */
export function sendAnswer(form: HTMLFormElement | null, field: HTMLInputElement | null, answer: unknown): void {
  if (!form || !field) return;
  field.value = JSON.stringify(answer);
  form.requestSubmit();
}

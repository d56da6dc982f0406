/**
 * The two third-party scripts the site may load, each only when configured:
 * reCAPTCHA for the join form and Google Tag Manager. Both are added after
 * the page is interactive, with the page's CSP nonce.
 */

type Grecaptcha = {
  ready(callback: () => void): void;
  render(container: HTMLElement, parameters: Record<string, unknown>): number;
  execute(widget: number): void;
  reset(widget: number): void;
};

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    dataLayer?: unknown[];
  }
}

/** Invisible reCAPTCHA v2 in English (SPEC §7). */
export const CAPTCHA_VERSION = "v2";
const CAPTCHA_SCRIPT = "https://www.google.com/recaptcha/api.js?render=explicit&hl=en";

function addScript(src: string, nonce: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    if (nonce) script.nonce = nonce;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error("Failed to load script"));
    document.head.append(script);
  });
}

/** The page's CSP nonce as the browser exposes it (the attribute itself reads empty). */
export function pageNonce(): string | undefined {
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
}

let captchaScript: Promise<Grecaptcha> | null = null;

function loadCaptcha(nonce: string | undefined): Promise<Grecaptcha> {
  captchaScript ??= addScript(CAPTCHA_SCRIPT, nonce)
    .then(
      () =>
        new Promise<Grecaptcha>((resolve, reject) => {
          const api = window.grecaptcha;
          if (!api) reject(new Error("Failed to load script"));
          else api.ready(() => resolve(api));
        }),
    )
    .catch((error) => {
      captchaScript = null;
      throw error;
    });
  return captchaScript;
}

/**
 * A fresh captcha token. Rejects with the messages of SPEC §8 ('No key
 * provided', 'No version provided', 'Failed to load script', 'Failed to
 * execute'); callers log them and never show them to the visitor.
 */
export async function captchaToken(options: {
  siteKey: string | null;
  version: string | null;
  container: HTMLElement;
}): Promise<string> {
  if (!options.siteKey) throw new Error("No key provided");
  if (!options.version) throw new Error("No version provided");
  const api = await loadCaptcha(pageNonce());
  return new Promise<string>((resolve, reject) => {
    try {
      const slot = document.createElement("div");
      options.container.replaceChildren(slot);
      const widget = api.render(slot, {
        sitekey: options.siteKey,
        size: "invisible",
        hl: "en",
        callback: (token: string) => resolve(token),
        "error-callback": () => reject(new Error("Failed to execute")),
        "expired-callback": () => reject(new Error("Failed to execute")),
      });
      api.execute(widget);
    } catch {
      reject(new Error("Failed to execute"));
    }
  });
}

let tagManagerLoaded = false;

/** Google Tag Manager, once per page load, after hydration. */
export function loadTagManager(id: string): void {
  if (tagManagerLoaded) return;
  tagManagerLoaded = true;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ "gtm.start": Date.now(), event: "gtm.js" });
  addScript(`https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}`, pageNonce()).catch((error) =>
    console.error("Tag manager", error instanceof Error ? error.message : error),
  );
}

/**
 * The two third-party scripts the site may load, each only when configured:
 * reCAPTCHA for the join form and Google Tag Manager. Both are added after
 * the page is interactive, with the page's CSP nonce.
 */

type Grecaptcha = {
  ready(callback: () => void): void;
  render(container: HTMLElement, parameters: Record<string, unknown>): number;
  /** reCAPTCHA Enterprise's returns a promise of the token; the standard one returns nothing. */
  execute(widget: number): unknown;
  reset(widget: number): void;
};

declare global {
  interface Window {
    grecaptcha?: Grecaptcha & { enterprise?: Grecaptcha };
    dataLayer?: unknown[];
  }
}

/** Invisible reCAPTCHA v2 in English (SPEC §7). */
export const CAPTCHA_VERSION = "v2";
/** The widget's scripts: the standard one and reCAPTCHA Enterprise's (decision 0040), rendered by us. */
const CAPTCHA_SCRIPTS = {
  standard: "https://www.google.com/recaptcha/api.js?render=explicit&hl=en",
  enterprise: "https://www.google.com/recaptcha/enterprise.js?render=explicit&hl=en",
} as const;
type CaptchaMode = keyof typeof CAPTCHA_SCRIPTS;
/** Long enough for a person to solve a challenge the invisible widget may still ask for. */
const CAPTCHA_TIMEOUT_MS = 120_000;

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

const captchaScripts: Partial<Record<CaptchaMode, Promise<Grecaptcha>>> = {};

function loadCaptcha(mode: CaptchaMode, nonce: string | undefined): Promise<Grecaptcha> {
  captchaScripts[mode] ??= addScript(CAPTCHA_SCRIPTS[mode], nonce)
    .then(
      () =>
        new Promise<Grecaptcha>((resolve, reject) => {
          const api = mode === "enterprise" ? window.grecaptcha?.enterprise : window.grecaptcha;
          if (!api) reject(new Error("Failed to load script"));
          else api.ready(() => resolve(api));
        }),
    )
    .catch((error) => {
      delete captchaScripts[mode];
      throw error;
    });
  return captchaScripts[mode];
}

/**
 * A fresh captcha token from the invisible widget, with reCAPTCHA Enterprise's script and API
 * (`grecaptcha.enterprise`, the token made for the form's `action`) when `enterprise`. Rejects
 * with the messages of SPEC §8 ('No key provided', 'No version provided', 'Failed to load
 * script', 'Failed to execute'); callers log them and never show them to the visitor.
 */
export async function captchaToken(options: {
  siteKey: string | null;
  version: string | null;
  container: HTMLElement;
  enterprise?: boolean;
  action?: string;
}): Promise<string> {
  if (!options.siteKey) throw new Error("No key provided");
  if (!options.version) throw new Error("No version provided");
  const api = await loadCaptcha(options.enterprise ? "enterprise" : "standard", pageNonce());
  return new Promise<string>((resolve, reject) => {
    const failed = () => reject(new Error("Failed to execute"));
    const timer = setTimeout(failed, CAPTCHA_TIMEOUT_MS);
    const done = (token: unknown) => {
      clearTimeout(timer);
      if (typeof token === "string" && token) resolve(token);
      else failed();
    };
    try {
      const slot = document.createElement("div");
      options.container.replaceChildren(slot);
      const widget = api.render(slot, {
        sitekey: options.siteKey,
        size: "invisible",
        hl: "en",
        ...(options.enterprise && options.action ? { action: options.action } : {}),
        callback: done,
        "error-callback": () => done(null),
        "expired-callback": () => done(null),
      });
      // Enterprise's execute also answers with a promise: its token, or a rejection the callbacks may not see.
      const executed = api.execute(widget) as PromiseLike<unknown> | undefined;
      if (typeof executed?.then === "function")
        executed.then(
          (token) => {
            if (typeof token === "string" && token) done(token);
          },
          () => done(null),
        );
    } catch {
      done(null);
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

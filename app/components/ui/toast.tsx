import { useEffect, useState } from "react";
import type { ExternalToast, ToasterProps } from "sonner";

/**
 * Toasts (sonner) that cost nothing until one is shown: the library and the
 * toaster load with the first toast, since most pages never show one and the
 * public pages have a JavaScript budget (decision 0028). sonner replays a toast
 * made before its toaster subscribed, so the first one is not lost.
 */
type Sonner = typeof import("sonner");

let sonner: Promise<Sonner> | null = null;
const waiting = new Set<(module: Sonner) => void>();

function loadSonner(): Promise<Sonner> {
  sonner ??= import("sonner").then((module) => {
    for (const show of waiting) show(module);
    return module;
  });
  return sonner;
}

export const toast = {
  success: (message: string, options?: ExternalToast) => {
    void loadSonner().then((module) => module.toast.success(message, options));
  },
  error: (message: string, options?: ExternalToast) => {
    void loadSonner().then((module) => module.toast.error(message, options));
  },
};

/** Where toasts appear; renders nothing until the first toast has loaded sonner. */
export function Toaster(props: ToasterProps) {
  const [module, setModule] = useState<Sonner | null>(null);
  useEffect(() => {
    waiting.add(setModule);
    void sonner?.then(setModule);
    return () => {
      waiting.delete(setModule);
    };
  }, []);
  return module ? <module.Toaster {...props} /> : null;
}

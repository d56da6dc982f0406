import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import { type RefObject, useEffect, useState } from "react";

type State = { status: "loading" | "error" } | { status: "ready"; html: string };

/**
 * The privacy policy modal itself (see PrivacyDialog): loaded with its dialog
 * code when first opened, its content fetched from the server then.
 */
export default function PrivacyDialogContent({
  open,
  onOpenChange,
  trigger,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Gets the focus back when the modal closes. */
  trigger: RefObject<HTMLAnchorElement | null>;
}) {
  const [state, setState] = useState<State>({ status: "loading" });

  useEffect(() => {
    if (!open || state.status === "ready") return;
    let current = true;
    fetch("/api/page/privacy-policy")
      .then((r) => r.json() as Promise<{ status?: string; content?: string }>)
      .then((body) => {
        if (!current) return;
        setState(
          body.status === "success" && typeof body.content === "string"
            ? { status: "ready", html: body.content }
            : { status: "error" },
        );
      })
      .catch(() => {
        if (current) setState({ status: "error" });
      });
    return () => {
      current = false;
    };
  }, [open, state.status]);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/60" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 flex h-[90%] max-h-[800px] w-[90%] max-w-[1200px] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-2xl"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            trigger.current?.focus();
          }}
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-6 py-4">
            <Dialog.Title className="font-display text-2xl font-bold text-navy-900">Privacy Policy</Dialog.Title>
            <Dialog.Close className="btn-ghost px-2" aria-label="Close">
              <X className="h-5 w-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">How the association handles personal data.</Dialog.Description>
          <div className="flex-1 overflow-y-auto px-6 py-5">
            {state.status === "ready" ? (
              // The page API sanitizes this HTML on the server.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized server-side
              <div className="rich-text" dangerouslySetInnerHTML={{ __html: state.html }} />
            ) : state.status === "error" ? (
              <p className="text-slate-600">
                The privacy policy could not be loaded.{" "}
                <a href="/privacy-policy" className="text-sea-600 underline">
                  Open it as a page
                </a>
                .
              </p>
            ) : (
              <p className="text-slate-500">Loading…</p>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

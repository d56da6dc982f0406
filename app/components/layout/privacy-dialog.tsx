import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useEffect, useState } from "react";
import { useLocation } from "react-router";

type State = { status: "idle" | "loading" | "error" } | { status: "ready"; html: string };

/**
 * SPEC §2 'Privacy policy modal': the page titled Privacy Policy, its rich
 * content fetched from the server when opened; 90 % of the screen, at most
 * 1200 × 800. Without JavaScript the trigger is a plain link to the page.
 */
export function PrivacyDialog({ triggerClassName }: { triggerClassName?: string }) {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<State>({ status: "idle" });
  const { key } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page closes the modal
  useEffect(() => setOpen(false), [key]);

  useEffect(() => {
    if (!open || state.status === "ready" || state.status === "loading") return;
    setState({ status: "loading" });
    fetch("/api/page/privacy-policy")
      .then((r) => r.json() as Promise<{ status?: string; content?: string }>)
      .then((body) =>
        setState(
          body.status === "success" && typeof body.content === "string"
            ? { status: "ready", html: body.content }
            : { status: "error" },
        ),
      )
      .catch(() => setState({ status: "error" }));
  }, [open, state.status]);

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <a
          href="/privacy-policy"
          className={triggerClassName}
          onClick={(event) => {
            event.preventDefault();
            setOpen(true);
          }}
        >
          Privacy Policy
        </a>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex h-[90%] max-h-[800px] w-[90%] max-w-[1200px] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-2xl">
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

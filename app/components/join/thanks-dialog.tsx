import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import { NOT_SENT_TITLE } from "../../../core/join/join.values";
import type { SendOutcome } from "./form-send";

/**
 * SPEC §2 'Modals': the confirm modal, titled Thank you!; closes with its close icon or on route
 * change (JoinForm). It opens as soon as the form is valid (SPEC §4), before the server answers;
 * when the server refuses, it says so and why instead of thanking (decision 0039).
 */
export default function ThanksDialog({
  open,
  onOpenChange,
  text,
  outcome,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The thanks for this page (SPEC §8). */
  text: string;
  /** Null while the request is on its way. */
  outcome: SendOutcome | null;
  /** Where focus goes when it closes (a field to correct), instead of back to the Send button. */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const refused = outcome && !outcome.sent ? outcome : null;
  const fieldMessages = refused ? Object.values(refused.fields) : [];
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/60" />
        <Dialog.Content
          onCloseAutoFocus={onCloseAutoFocus}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[90vh] min-h-[348px] w-[90%] max-w-[450px] -translate-x-1/2 -translate-y-1/2 flex-col items-center justify-center overflow-y-auto rounded-xl bg-white p-8 text-center shadow-2xl"
        >
          <Dialog.Close
            aria-label="Close"
            className="absolute top-3 right-3 rounded-full p-2 text-slate-500 hover:bg-slate-100 hover:text-navy-900"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </Dialog.Close>
          <span
            aria-hidden="true"
            className={`flex h-16 w-16 shrink-0 items-center justify-center rounded-full text-3xl ${refused ? "bg-red-50 font-bold text-red-700" : "bg-sea-600/10 text-sea-600"}`}
          >
            {refused ? "!" : "✓"}
          </span>
          <Dialog.Title className="mt-5 font-display text-3xl font-bold text-navy-900">
            {refused ? NOT_SENT_TITLE : "Thank you!"}
          </Dialog.Title>
          {refused ? (
            <Dialog.Description asChild>
              <div role="alert" className="mt-3 text-slate-700">
                <p>{refused.message}</p>
                {refused.link ? (
                  <p className="mt-3">
                    {/* A plain link: the dialog is also an island's, outside the router (decision 0033). */}
                    <a href={refused.link.to} className="font-semibold text-sea-700 underline hover:text-sea-600">
                      {refused.link.label}
                    </a>
                  </p>
                ) : null}
                {fieldMessages.length > 0 ? (
                  <ul className="mt-3 list-inside list-disc text-left text-sm text-red-800">
                    {fieldMessages.map((message) => (
                      <li key={message}>{message}</li>
                    ))}
                  </ul>
                ) : null}
              </div>
            </Dialog.Description>
          ) : (
            <Dialog.Description className="mt-3 text-slate-700">{text}</Dialog.Description>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

import { X } from "lucide-react";
import { Dialog } from "radix-ui";

/** SPEC §2 'Modals': the confirm modal, titled Thank you!; closes with its close icon or on route change (JoinForm). */
export default function ThanksDialog({
  open,
  onOpenChange,
  text,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  text: string;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex min-h-[348px] w-[90%] max-w-[450px] -translate-x-1/2 -translate-y-1/2 flex-col items-center justify-center rounded-xl bg-white p-8 text-center shadow-2xl">
          <Dialog.Close
            aria-label="Close"
            className="absolute top-3 right-3 rounded-full p-2 text-slate-500 hover:bg-slate-100 hover:text-navy-900"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </Dialog.Close>
          <span
            aria-hidden="true"
            className="flex h-16 w-16 items-center justify-center rounded-full bg-sea-600/10 text-3xl text-sea-600"
          >
            ✓
          </span>
          <Dialog.Title className="mt-5 font-display text-3xl font-bold text-navy-900">Thank you!</Dialog.Title>
          <Dialog.Description className="mt-3 text-slate-700">{text}</Dialog.Description>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

import { Dialog } from "radix-ui";
import { Form } from "react-router";
import { useCloseOnNavigation } from "../../lib/use-close-on-navigation";

/** SPEC §2 'Logout modal': closes on route change, max width 450. */
export function LogoutDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  useCloseOnNavigation(onOpenChange);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[90%] max-w-[450px] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-2xl">
          <Dialog.Title className="font-display text-2xl font-bold text-navy-900">Logout?</Dialog.Title>
          <Dialog.Description className="mt-2 text-slate-600">
            Do you want to logout of your account?
          </Dialog.Description>
          <div className="mt-6 flex justify-end gap-3">
            <Dialog.Close className="btn-outline">Cancel</Dialog.Close>
            <Form method="post" action="/logout">
              <button type="submit" className="btn-primary">
                Confirm
              </button>
            </Form>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

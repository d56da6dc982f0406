import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/** The modal and its dialog code load when a visitor first opens it (decision 0028). */
const PrivacyDialogContent = lazy(() => import("./privacy-dialog-content"));

/**
 * SPEC §2 'Privacy policy modal': the page titled Privacy Policy, its rich
 * content fetched from the server when opened; 90 % of the screen, at most
 * 1200 × 800. Without JavaScript the trigger is a plain link to the page.
 */
export function PrivacyDialog({ triggerClassName }: { triggerClassName?: string }) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const trigger = useRef<HTMLAnchorElement>(null);
  const { key } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page closes the modal
  useEffect(() => setOpen(false), [key]);

  return (
    <>
      <a
        ref={trigger}
        href="/privacy-policy"
        className={triggerClassName}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={(event) => {
          event.preventDefault();
          setWanted(true);
          setOpen(true);
        }}
      >
        Privacy Policy
      </a>
      {wanted ? (
        <Suspense fallback={null}>
          <PrivacyDialogContent open={open} onOpenChange={setOpen} trigger={trigger} />
        </Suspense>
      ) : null}
    </>
  );
}

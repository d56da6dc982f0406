import { useEffect } from "react";
import { useLocation } from "react-router";

/** SPEC §2 'Modals': a modal closes when the route changes. */
export function useCloseOnNavigation(onOpenChange: (open: boolean) => void) {
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the reaction to a new location
  useEffect(() => onOpenChange(false), [location.key]);
}

import { useEffect } from "react";
import { useLocation } from "react-router";

/**
 * A paper linked as #paper-{id} (the site search does) may sit in a closed accordion section:
 * open the section so the browser can scroll to it.
 */
function useOpenLinkedPaper() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!/^#paper-\d+$/.test(hash)) return;
    const target = document.getElementById(hash.slice(1));
    const section = target?.closest("details");
    if (section && !section.open) {
      section.open = true;
      target?.scrollIntoView();
    }
  }, [hash]);
}

/** Renders nothing: the hook above, as a component an islands page can run (decision 0033). */
export function OpenLinkedPaper() {
  useOpenLinkedPaper();
  return null;
}

import type { MouseEvent } from "react";
import { MESSAGE_FORM_PAGES } from "../../../core/join/join.values";

/**
 * The footer's contact block (SPEC §1: anchor id contact-us); on /join, where the footer leaves
 * the band out, the page's own form carries the id.
 */
export const CONTACT_SECTION_ID = "contact-us";
/** The message form of the pages that promise one (/contact, /feedback-forum; decision 0039). */
export const MESSAGE_FORM_ID = "message-form";

/** Where 'Contact form' leads on a page: its own form, never another page (SPEC §3 'scrollTo target'). */
export function contactFormTarget(pathname: string): string {
  return (MESSAGE_FORM_PAGES as readonly string[]).includes(pathname) ? MESSAGE_FORM_ID : CONTACT_SECTION_ID;
}

/**
 * The footer's 'Contact form' link: a fragment link to the contact form on the page the visitor is
 * on (so a conference page keeps its registration wording), which works without JavaScript; with
 * it, the page scrolls there smoothly (at once under prefers-reduced-motion) and focus moves to
 * the form's block, so the next Tab reaches its first field (decision 0040).
 */
export function ContactFormLink({ target, className }: { target: string; className?: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const element = document.getElementById(target);
    if (!element) return;
    event.preventDefault();
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    element.scrollIntoView({ behavior: reduced ? "auto" : "smooth", block: "start" });
    element.focus({ preventScroll: true });
  };
  return (
    <a href={`#${target}`} className={className} onClick={onClick}>
      Contact form
    </a>
  );
}

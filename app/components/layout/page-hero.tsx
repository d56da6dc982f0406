import type { ReactNode } from "react";

/** The navy banner that opens every public content page: a section eyebrow and the page title. */
export function PageHero({ eyebrow, title, children }: { eyebrow: string; title: string; children?: ReactNode }) {
  return (
    <div className="bg-gradient-to-br from-navy-950 via-navy-900 to-navy-700 text-white">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 md:py-16">
        {eyebrow ? <p className="text-sm font-semibold tracking-widest text-signal-500 uppercase">{eyebrow}</p> : null}
        <h1 className="mt-3 font-display text-4xl font-bold sm:text-5xl">{title}</h1>
        {children}
      </div>
    </div>
  );
}

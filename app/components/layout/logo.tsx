/** The association's mark: a mast with radio waves over a wave line. */
export function LogoMark({ className = "h-9 w-9" }: { className?: string }) {
  return (
    <svg viewBox="0 0 48 48" className={className} aria-hidden="true" focusable="false">
      <rect width="48" height="48" rx="10" fill="#0a2342" />
      <path d="M24 10v24" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
      <path
        d="M18 16a8.5 8.5 0 0 1 12 0M14.5 12.5a13.5 13.5 0 0 1 19 0"
        stroke="#10a59c"
        strokeWidth="2.4"
        fill="none"
        strokeLinecap="round"
      />
      <path d="M16 28l8-5 8 5" stroke="#fff" strokeWidth="2.2" fill="none" strokeLinejoin="round" />
      <path
        d="M8 37c4 0 4-3 8-3s4 3 8 3 4-3 8-3 4 3 8 3"
        stroke="#f2a413"
        strokeWidth="2.4"
        fill="none"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function Logo({ name, tagline, inverted = false }: { name: string; tagline?: string; inverted?: boolean }) {
  return (
    <span className="flex items-center gap-3">
      <LogoMark />
      <span className="flex flex-col leading-tight">
        <span className={`font-display text-xl font-bold tracking-tight ${inverted ? "text-white" : "text-navy-900"}`}>
          {name}
        </span>
        {tagline ? (
          <span className={`hidden text-xs sm:block ${inverted ? "text-navy-100" : "text-slate-500"}`}>{tagline}</span>
        ) : null}
      </span>
    </span>
  );
}

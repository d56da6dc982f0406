import type { ReactNode } from "react";

const TONES = {
  success: { role: "status", className: "bg-sea-100 text-navy-900" },
  error: { role: "alert", className: "border border-red-200 bg-red-50 text-red-800" },
} as const;

/**
 * A message about what just happened: a success is a polite status, a refusal
 * an alert that screen readers announce at once. `className` places it.
 */
export function Notice({
  tone,
  className = "",
  children,
}: {
  tone: keyof typeof TONES;
  className?: string;
  children: ReactNode;
}) {
  const { role, className: look } = TONES[tone];
  return (
    <p role={role} className={`rounded-md px-4 py-2.5 text-sm ${look} ${className}`}>
      {children}
    </p>
  );
}

import type { ReactNode } from "react";

/** The white card of the sign-in screens that are not the login itself (forgotten password, reset). */
export function AuthCard({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 sm:p-10">
      <div className="flex items-center gap-3">
        <span className="flex h-10 w-10 items-center justify-center rounded-full bg-navy-50 text-navy-900">{icon}</span>
        <h1 className="font-display text-3xl font-bold text-navy-900">{title}</h1>
      </div>
      {children}
    </div>
  );
}

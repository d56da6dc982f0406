import { Fragment } from "react";
import { Link } from "react-router";

/** Admin breadcrumbs: links for the trail, plain text for the current screen. */
export function Breadcrumbs({ trail, current }: { trail: { label: string; to: string }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
      {trail.map((step) => (
        <Fragment key={step.to}>
          <Link to={step.to} className="hover:underline">
            {step.label}
          </Link>
          {" / "}
        </Fragment>
      ))}
      <span aria-current="page">{current}</span>
    </nav>
  );
}

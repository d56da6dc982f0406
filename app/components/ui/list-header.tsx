import { Plus } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Breadcrumbs } from "./breadcrumbs";
import { Notice } from "./notice";

/**
 * The top of an admin list: breadcrumbs, title (with a line saying what the list holds, if any),
 * its "New …" button or another action, and the notice a save left.
 */
export function ListHeader({
  title,
  newLink,
  action,
  description,
  notice = null,
  trail = [{ label: "Manager", to: "/manager" }],
}: {
  title: string;
  newLink?: { to: string; label: string };
  /** Beside the title, after the "New …" button: e.g. an export link. */
  action?: ReactNode;
  description?: ReactNode;
  notice?: string | null;
  /** The breadcrumbs above the title: the manager's home by default. */
  trail?: { label: string; to: string }[];
}) {
  const heading = <h1 className="font-display text-4xl font-bold text-navy-900">{title}</h1>;
  return (
    <>
      <Breadcrumbs trail={trail} current={title} />
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        {description ? (
          <div>
            {heading}
            <p className="mt-1 text-slate-700">{description}</p>
          </div>
        ) : (
          heading
        )}
        {/* One group, so that several buttons stay together at the right (or wrap under the title). */}
        <div className="flex flex-wrap items-center gap-2">
          {newLink ? (
            <Link to={newLink.to} className="btn-primary">
              <Plus className="h-4 w-4" aria-hidden="true" />
              {newLink.label}
            </Link>
          ) : null}
          {action}
        </div>
      </div>
      {notice ? (
        <Notice tone="success" className="mt-4">
          {notice}
        </Notice>
      ) : null}
    </>
  );
}

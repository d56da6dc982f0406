import { Plus } from "lucide-react";
import { Link } from "react-router";
import { Breadcrumbs } from "./breadcrumbs";
import { Notice } from "./notice";

/** The top of an admin list: breadcrumbs, title, its "New …" button, and the notice a save left. */
export function ListHeader({
  title,
  newTo,
  newLabel,
  notice,
}: {
  title: string;
  newTo: string;
  newLabel: string;
  notice: string | null;
}) {
  return (
    <>
      <Breadcrumbs trail={[{ label: "Manager", to: "/manager" }]} current={title} />
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <h1 className="font-display text-4xl font-bold text-navy-900">{title}</h1>
        <Link to={newTo} className="btn-primary">
          <Plus className="h-4 w-4" aria-hidden="true" />
          {newLabel}
        </Link>
      </div>
      {notice ? (
        <Notice tone="success" className="mt-4">
          {notice}
        </Notice>
      ) : null}
    </>
  );
}

import { Link } from "react-router";

/**
 * Previous and next links around "Page n of m" for the admin lists; the
 * links keep the list's filters (`params`) and change only the page.
 */
export function Pager({
  path,
  params,
  current,
  last,
  labels = ["Previous", "Next"],
}: {
  path: string;
  params: URLSearchParams;
  current: number;
  last: number;
  labels?: [previous: string, next: string];
}) {
  if (last <= 1) return null;
  const href = (page: number) => `${path}?${new URLSearchParams([...params, ["page", String(page)]])}`;
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between text-sm">
      {current > 1 ? (
        <Link to={href(current - 1)} className="btn-outline">
          {labels[0]}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-600">
        Page {current} of {last}
      </span>
      {current < last ? (
        <Link to={href(current + 1)} className="btn-outline">
          {labels[1]}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

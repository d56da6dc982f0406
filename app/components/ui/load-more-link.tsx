import { Link } from "react-router";

/** A next-page link that, with JavaScript, appends the next page in place instead. */
export function LoadMoreLink({
  href,
  loading,
  onLoad,
}: {
  href: string;
  loading: boolean;
  onLoad: (href: string) => void;
}) {
  return (
    <Link
      to={href}
      className="btn-outline px-6"
      onClick={(event) => {
        event.preventDefault();
        onLoad(href);
      }}
    >
      {loading ? "Loading…" : "Load more"}
    </Link>
  );
}

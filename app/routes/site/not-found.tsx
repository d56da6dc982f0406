import { data } from "react-router";

/** Every path no other route claims: the 404 error page (SPEC §2). */
export function loader() {
  throw data("This page could not be found", { status: 404 });
}

export default function NotFound() {
  return null;
}

import { data } from "react-router";
import { SERVED_AS_ISLANDS } from "../../islands/island";

export const handle = SERVED_AS_ISLANDS;

/** Every path no other route claims: the 404 error page (SPEC §2). */
export function loader() {
  throw data("This page could not be found", { status: 404 });
}

export default function NotFound() {
  return null;
}

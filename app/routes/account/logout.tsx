import { redirect } from "react-router";
import { clearSessionCookies } from "../../../core/auth/auth.cookie";
import { getRequestContext } from "../../context";
import type { Route } from "./+types/logout";

/** Ends the session server-side and returns to /login (SPEC §4 'Auth'). */
export async function action({ context }: Route.ActionArgs) {
  const { services, sessionToken, secureCookies } = getRequestContext(context);
  await services.auth.logout(sessionToken);
  const headers = new Headers();
  for (const cleared of clearSessionCookies({ secure: secureCookies })) headers.append("Set-Cookie", cleared);
  return redirect("/login", { headers });
}

/** A GET must not log anyone out (links can be forged); it just goes to the login page. */
export function loader() {
  return redirect("/login");
}

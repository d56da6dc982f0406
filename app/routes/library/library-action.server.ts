import { redirect } from "react-router";
import type { LibraryResult } from "../../components/library/library-admin";
import { setFlash } from "../../lib/flash.server";

/**
 * How the library admin's actions answer a done form: data for a fetcher (the form says `_fetch`
 * once hydrated), else a redirect to `to` with the message as a flash notice.
 */
export function answerDone(
  form: Record<string, unknown>,
  session: { sessionToken: string | null | undefined; secureCookies: boolean },
  answer: { intent: string; row: string; message: string },
  to: string,
) {
  if (form._fetch === "1") return { ...answer, done: true } satisfies LibraryResult;
  const headers = session.sessionToken
    ? { "Set-Cookie": setFlash(answer.message, { token: session.sessionToken, secure: session.secureCookies }) }
    : undefined;
  return redirect(to, { headers });
}

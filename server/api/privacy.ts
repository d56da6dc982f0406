import { z } from "@hono/zod-openapi";
import { clearSessionCookies } from "../../core/auth/auth.cookie";
import {
  accountDeleteSchema,
  EXPORTS_PER_HOUR,
  erasureSchema,
  privacyEraseSchema,
  privacyLookupAnswerSchema,
  privacyLookupSchema,
} from "../../core/privacy/privacy.schema";
import { zipResponse } from "../../lib/zip-response";
import type { Runtime } from "../env";
import { apiRouter, declare, success } from "./contract";
import { access, currentAuth, ok } from "./http";

const ZIP_ANSWER = {
  schema: z.string().openapi({ format: "binary" }),
  mediaType: "application/zip",
  description:
    "A ZIP written as it is sent: README.txt, then JSON files (profile, companies, registrations, requests, " +
    "notifications, sessions, mails, audit log) and the picture.",
} as const;

/** A person's data (issue 35, decision 0079): their own export and deletion, and the secretariat's requests. */
export function privacyRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = apiRouter();
  const own = "Account";
  const tag = "Personal data (admin)";

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/user/export",
      access: access.member,
      tag: own,
      summary: "Download everything the site holds about oneself, as a ZIP",
      description: `At most ${EXPORTS_PER_HOUR} an hour (429 with Retry-After beyond). Audited.`,
      response: ZIP_ANSWER,
      errors: [429],
    },
    async (c) => zipResponse(await services.privacy.exportArchive({ userId: currentAuth(c).user.id })),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/user/delete",
      access: access.member,
      tag: own,
      summary: "Delete one's own account",
      description:
        "Needs the password, and `code` (the authenticator app's, or a recovery code) when two-factor sign-in is on. " +
        "The account goes with its sessions, tokens, feeds, follows, two-factor and picture; registrations and " +
        "requests are anonymised (upcoming registrations cancelled first); news posts keep their author's name as " +
        "published; companies lose a representative. The site's last admin is refused (409). The session cookie is cleared.",
      body: { schema: accountDeleteSchema },
      response: { schema: success({ erased: erasureSchema }) },
      errors: [409, 429],
    },
    async (c, { body }) => {
      const erased = await services.privacy.deleteOwnAccount(currentAuth(c).user.id, body);
      for (const cleared of clearSessionCookies({ secure: c.get("secureCookies") })) {
        c.header("Set-Cookie", cleared, { append: true });
      }
      return ok(c, { erased });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/privacy",
      access: access.admin,
      tag,
      summary: "Find everything held about an e-mail address",
      description:
        "The account (if any), the join requests, registrations and messages, the mails waiting, sent and failed, a " +
        "permanent refusal of the address, the companies represented and the number of audit entries.",
      query: privacyLookupSchema,
      response: { schema: success({ found: privacyLookupAnswerSchema }) },
    },
    async (c, { query }) => ok(c, { found: await services.privacy.lookup(query.email) }),
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/privacy/export",
      access: access.admin,
      tag,
      summary: "Export everything held about an e-mail address, as a ZIP",
      description: "The same archive a member downloads from their settings page. Audited.",
      query: privacyLookupSchema,
      response: ZIP_ANSWER,
    },
    async (_c, { query }) => zipResponse(await services.privacy.exportArchive({ email: query.email })),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/privacy/erase",
      access: access.admin,
      tag,
      summary: "Erase everything held about an e-mail address",
      description:
        "`confirm` repeats the address. The account, when there is one, is deleted as its owner would delete it " +
        "(not one's own: 403; not the last admin: 409); requests and registrations are anonymised, mails to the " +
        "address removed. Audited, with the address masked.",
      body: { schema: privacyEraseSchema },
      response: { schema: success({ erased: erasureSchema }) },
      errors: [403, 409],
    },
    async (c, { body }) => {
      const { user } = currentAuth(c);
      const name = `${user.first_name} ${user.last_name}`.trim() || user.email;
      return ok(c, { erased: await services.privacy.eraseFor(body.email, { id: user.id, name }) });
    },
  );

  return api;
}

import type { Context } from "hono";
import {
  adminUserListSchema,
  adminUserSchema,
  inviteSchema,
  userChangeSchema,
  userListSchema,
} from "../../core/accounts/accounts.schema";
import { sessionCookie } from "../../core/auth/auth.cookie";
import type { AppEnv, Runtime } from "../env";
import { idParams } from "./admin-news";
import { messageAnswer, newPasswordBody, sessionAnswer } from "./auth";
import { apiRouter, declare, success } from "./contract";
import { access, currentAuth, idParam, ok } from "./http";

const userAnswer = success({ user: adminUserSchema });

/** The users screen's API (admin only), and accepting an invitation (public, by its token). */
export function adminUsersRoutes(runtime: Runtime) {
  const { services, config } = runtime;
  const api = apiRouter();
  const tag = "Users (admin)";
  const actor = (c: Context<AppEnv>) => {
    const auth = currentAuth(c);
    return { id: auth.user.id, invitation: { origin: config.baseUrl.origin, inviter: auth.user } };
  };
  const notFound = "User not found.";

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/users",
      access: access.admin,
      tag,
      summary: "List users (search, role, status, page)",
      query: userListSchema,
      response: { schema: success(adminUserListSchema.shape) },
    },
    async (c, { query }) => ok(c, await services.accounts.list(query)),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/users",
      access: access.admin,
      tag,
      summary: "Invite a user",
      body: { schema: inviteSchema },
      response: { status: 201, schema: userAnswer },
      errors: [409],
    },
    async (c, { body }) => ok(c, { user: await services.invitations.invite(body, actor(c).invitation) }, 201),
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/users/:id",
      access: access.admin,
      tag,
      summary: "A user",
      params: idParams,
      response: { schema: userAnswer },
      errors: [404],
    },
    async (c) => ok(c, { user: await services.accounts.getUser(idParam(c, notFound)) }),
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/users/:id",
      access: access.admin,
      tag,
      summary: "Change a user's role or activity",
      params: idParams,
      body: { schema: userChangeSchema },
      response: { schema: userAnswer },
      errors: [404],
    },
    async (c, { body }) => ok(c, { user: await services.accounts.change(actor(c).id, idParam(c, notFound), body) }),
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/users/:id",
      access: access.admin,
      tag,
      summary: "Delete a user",
      params: idParams,
      response: { schema: messageAnswer },
      errors: [404],
    },
    async (c) => {
      await services.accounts.remove(actor(c).id, idParam(c, notFound));
      return ok(c, { message: "The user is deleted." });
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/users/:id/invitation",
      access: access.admin,
      tag,
      summary: "Send a user's invitation again",
      params: idParams,
      response: { schema: userAnswer },
      errors: [404],
    },
    async (c) => ok(c, { user: await services.invitations.resend(idParam(c, notFound), actor(c).invitation) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/welcome",
      access: access.public,
      tag: "Session and profile",
      summary: "Accept an invitation: set the first password and sign in",
      body: { schema: newPasswordBody },
      response: { schema: sessionAnswer },
    },
    async (c, { body }) => {
      const userId = await services.invitations.accept(body);
      const session = await services.auth.openSession(userId, {
        ip: c.get("clientIp"),
        userAgent: c.req.header("user-agent") ?? null,
      });
      c.header("Set-Cookie", sessionCookie(session.token, { secure: c.get("secureCookies") }));
      return ok(c, { access_token: session.token, expires_at: session.expiresAt, user: session.user });
    },
  );

  return api;
}

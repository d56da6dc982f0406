import { z } from "@hono/zod-openapi";
import { publicUserSchema } from "../../core/accounts/accounts.schema";
import { forgotPasswordSchema, passwordCheckSchema, tokenPasswordSchema } from "../../core/accounts/password.schema";
import { RESET_REQUESTED } from "../../core/accounts/password-reset.schema";
import { profileSchema } from "../../core/accounts/profile.schema";
import { clearSessionCookies, sessionCookie } from "../../core/auth/auth.cookie";
import { loginSchema } from "../../core/auth/auth.schema";
import { userCompanySchema } from "../../core/members/members.schema";
import type { Runtime } from "../env";
import { imageUpload } from "./admin-media";
import { apiRouter, declare, success } from "./contract";
import { access, currentAuth, ok, uploadedImage } from "./http";

/** What a session's answer holds (login, accepting an invitation). */
export const sessionAnswer = success({ access_token: z.string(), expires_at: z.string(), user: publicUserSchema });
export const messageAnswer = success({ message: z.string() });
/**
 * A field the service checks itself, against stored data: a reset or invitation token is checked
 * before the password rules (they depend on the account's e-mail); a wrong password is `valid: false`.
 */
export const newPasswordBody = tokenPasswordSchema;
const passwordCheck = passwordCheckSchema;
const validAnswer = success({ valid: z.boolean() });

/** SPEC §7 'Session': login, the current user, logout; forgotten passwords. */
export function authRoutes(runtime: Runtime) {
  const { services, config } = runtime;
  const api = apiRouter();
  const tag = "Session and profile";

  declare(
    api,
    {
      method: "post",
      path: "/login",
      access: access.public,
      tag,
      summary: "Sign in",
      description: "Answers a Bearer token and sets the same session as an httpOnly cookie.",
      body: { schema: loginSchema },
      response: { schema: sessionAnswer },
      errors: [429],
    },
    async (c, { body }) => {
      const result = await services.auth.login(
        body,
        { ip: c.get("clientIp"), userAgent: c.req.header("user-agent") ?? null, requestId: c.get("requestId") },
        // A browser's earlier session ends; an API client's other tokens are its own business.
        { endingSession: c.get("authVia") === "cookie" ? c.get("sessionToken") : null },
      );
      // Browsers using the API get the same httpOnly session as the login form.
      c.header(
        "Set-Cookie",
        sessionCookie(result.token, {
          secure: c.get("secureCookies"),
          maxAgeSeconds: result.remember ? config.sessionTtlSeconds : undefined,
        }),
      );
      return ok(c, { access_token: result.token, expires_at: result.expiresAt, user: result.user });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/user",
      access: access.member,
      tag,
      summary: "The signed-in user",
      description:
        "With `company`: the member company they represent (`current`: whether it gives members' access today; `primary`: whether they are a primary contact), or null.",
      response: {
        schema: success({ user: publicUserSchema.extend({ company: z.union([userCompanySchema, z.null()]) }) }),
      },
    },
    (c) => {
      const auth = currentAuth(c);
      return ok(c, { user: { ...auth.user, company: auth.company } });
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/logout",
      access: access.member,
      tag,
      summary: "Sign out",
      response: { schema: messageAnswer },
    },
    async (c) => {
      await services.auth.logout(c.get("sessionToken"));
      for (const cleared of clearSessionCookies({ secure: c.get("secureCookies") })) {
        c.header("Set-Cookie", cleared, { append: true });
      }
      return ok(c, { message: "Logged out." });
    },
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/user/settings",
      access: access.member,
      tag,
      summary: "Update one's own profile (and password)",
      description:
        "Changes the fields sent; an empty name or e-mail address is left as it is, an empty `phone_number` removes it. " +
        "A new e-mail address or password needs the current one in `password` (422 on `password` without it or when " +
        "wrong); a new address is told to the old one.",
      body: { schema: profileSchema },
      response: { schema: success({ user: publicUserSchema }) },
      errors: [429],
    },
    async (c, { body }) => {
      const auth = currentAuth(c);
      return ok(c, { user: (await services.profile.update(auth.user.id, auth.sessionId, body)).user });
    },
  );

  // SPEC §7 clients send the password in the query string; our pages use the POST below (no password in a URL or log).
  declare(
    api,
    {
      method: "get",
      path: "/dashboard/user/checkValidPass",
      access: access.member,
      tag,
      summary: "Check one's current password (SPEC §7: in the query)",
      query: passwordCheck,
      response: { schema: validAnswer },
      errors: [429],
    },
    async (c, { query }) =>
      ok(c, { valid: await services.profile.checkPassword(currentAuth(c).user.id, query.password) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/user/checkValidPass",
      access: access.member,
      tag,
      summary: "Check one's current password",
      body: { schema: passwordCheck },
      response: { schema: validAnswer },
      errors: [429],
    },
    async (c, { body }) =>
      ok(c, { valid: await services.profile.checkPassword(currentAuth(c).user.id, body.password) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/settings/profile/updateAvatar",
      access: access.member,
      tag,
      summary: "Set one's avatar (the file in `avatar` or `image`)",
      body: { schema: imageUpload("avatar").extend(imageUpload("image").shape), encodings: ["multipart"] },
      response: { schema: success({ avatar: z.string().openapi({ description: "The new avatar's address." }) }) },
      errors: [507],
    },
    async (c, { raw }) => {
      const image = await uploadedImage(raw, raw.avatar !== undefined ? "avatar" : "image");
      return ok(c, { avatar: await services.profile.setAvatar(currentAuth(c).user.id, image) });
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/settings/profile/avatar",
      access: access.member,
      tag,
      summary: "Remove one's avatar",
      response: { schema: success({ avatar: z.null() }) },
    },
    async (c) => {
      await services.profile.removeAvatar(currentAuth(c).user.id);
      return ok(c, { avatar: null });
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/forgot-password",
      access: access.public,
      tag,
      summary: "Ask for a password reset link",
      body: { schema: forgotPasswordSchema },
      response: { schema: messageAnswer },
      errors: [429],
    },
    async (c, { body }) => {
      await services.passwordReset.request(body.email, { ip: c.get("clientIp"), origin: config.baseUrl.origin });
      return ok(c, { message: RESET_REQUESTED });
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/reset-password",
      access: access.public,
      tag,
      summary: "Set a new password with a reset link's token",
      body: { schema: newPasswordBody },
      response: { schema: messageAnswer },
    },
    async (c, { body }) => {
      await services.passwordReset.reset(body);
      return ok(c, { message: "Your password is changed. Sign in with the new one." });
    },
  );

  return api;
}

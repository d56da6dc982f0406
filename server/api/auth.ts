import { z } from "@hono/zod-openapi";
import { publicUserSchema } from "../../core/accounts/accounts.schema";
import { forgotPasswordSchema, passwordCheckSchema, tokenPasswordSchema } from "../../core/accounts/password.schema";
import { RESET_REQUESTED } from "../../core/accounts/password-reset.schema";
import { profileSchema } from "../../core/accounts/profile.schema";
import { clearSessionCookies, sessionCookie } from "../../core/auth/auth.cookie";
import { loginSchema } from "../../core/auth/auth.schema";
import type { LoginResult } from "../../core/auth/auth.service";
import {
  passkeyAddSchema,
  passkeyCreationOptionsSchema,
  passkeyRequestOptionsSchema,
  passkeySchema,
} from "../../core/auth/passkeys.schema";
import {
  recoveryCodesSchema,
  twoFactorCodeSchema,
  twoFactorDisableSchema,
  twoFactorLoginSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from "../../core/auth/two-factor.schema";
import { userCompanySchema } from "../../core/members/members.schema";
import type { Runtime } from "../env";
import { imageUpload } from "./admin-media";
import { apiRouter, declare, success } from "./contract";
import { access, currentAuth, idParam, ok, uploadedImage } from "./http";

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
      response: {
        schema: z.union([
          sessionAnswer,
          z.object({
            status: z.literal("two_factor_required"),
            challenge: z.string().meta({ description: "For POST /login/two-factor, with a code or a passkey." }),
            expires_at: z.string(),
            passkey_options: passkeyRequestOptionsSchema.nullable().meta({
              description: "For an account with passkeys: the options for `startAuthentication()`; null without.",
            }),
          }),
        ]),
      },
      errors: [429],
    },
    async (c, { body }) => {
      const result = await services.auth.signIn(
        body,
        { ip: c.get("clientIp"), userAgent: c.req.header("user-agent") ?? null, requestId: c.get("requestId") },
        // A browser's earlier session ends; an API client's other tokens are its own business.
        { endingSession: c.get("authVia") === "cookie" ? c.get("sessionToken") : null },
      );
      // Two-factor sign-in (decision 0075): no token yet; the challenge goes to /login/two-factor with a code.
      if (result.kind === "two_factor") {
        return c.json({
          status: "two_factor_required" as const,
          challenge: result.challenge,
          expires_at: result.expiresAt,
          passkey_options: result.passkey,
        });
      }
      return sessionOk(c, result.session);
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/login/two-factor",
      access: access.public,
      tag,
      summary: "Sign in: the second step",
      description:
        "For an account with two-factor sign-in: the `challenge` of `POST /login` (five minutes, single use) and a " +
        "`code` of the authenticator app (accepted once) or a recovery code (spent), or instead of the code a " +
        "`passkey`: the browser's answer to the `passkey_options` of `POST /login`. Wrong codes and passkeys " +
        "count toward the account's lockout like wrong passwords (429).",
      body: { schema: twoFactorLoginSchema },
      response: { schema: sessionAnswer },
      errors: [401, 429],
    },
    async (c, { body }) => {
      const session = await services.auth.completeTwoFactor(
        body,
        { ip: c.get("clientIp"), userAgent: c.req.header("user-agent") ?? null, requestId: c.get("requestId") },
        { endingSession: c.get("authVia") === "cookie" ? c.get("sessionToken") : null },
      );
      return sessionOk(c, session);
    },
  );

  /** A session's answer, and the same session as an httpOnly cookie for a browser using the API. */
  function sessionOk(c: Parameters<typeof ok>[0], result: LoginResult) {
    c.header(
      "Set-Cookie",
      sessionCookie(result.token, {
        secure: c.get("secureCookies"),
        maxAgeSeconds: result.remember ? config.sessionTtlSeconds : undefined,
      }),
    );
    return ok(c, { access_token: result.token, expires_at: result.expiresAt, user: result.user });
  }

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

  const twoFactorTag = "Two-factor sign-in";
  declare(
    api,
    {
      method: "get",
      path: "/dashboard/user/two-factor",
      access: access.member,
      tag: twoFactorTag,
      summary: "Whether one's two-factor sign-in is on",
      response: { schema: success({ two_factor: twoFactorStatusSchema }) },
    },
    async (c) => ok(c, { two_factor: await services.twoFactor.status(currentAuth(c).user.id) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/user/two-factor/setup",
      access: access.member,
      tag: twoFactorTag,
      summary: "Start setting up an authenticator app",
      description:
        "A new secret waiting for its first code (a set-up not confirmed is replaced): its otpauth:// address and QR " +
        "code. 409 while two-factor sign-in is on.",
      response: { schema: success(twoFactorSetupSchema.shape) },
      errors: [409],
    },
    async (c) => ok(c, await services.twoFactor.beginSetup(currentAuth(c).user)),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/user/two-factor/confirm",
      access: access.member,
      tag: twoFactorTag,
      summary: "Confirm the app with its first code; answers the recovery codes, once",
      body: { schema: twoFactorCodeSchema },
      response: { schema: success(recoveryCodesSchema.shape) },
      errors: [409],
    },
    async (c, { body }) =>
      ok(c, { recovery_codes: await services.twoFactor.confirmSetup(currentAuth(c).user, body.code) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/user/two-factor/recovery-codes",
      access: access.member,
      tag: twoFactorTag,
      summary: "New recovery codes (a current code needed); the old ones stop working",
      body: { schema: twoFactorCodeSchema },
      response: { schema: success(recoveryCodesSchema.shape) },
      errors: [409],
    },
    async (c, { body }) =>
      ok(c, { recovery_codes: await services.twoFactor.renewRecoveryCodes(currentAuth(c).user.id, body.code) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/user/two-factor/disable",
      access: access.member,
      tag: twoFactorTag,
      summary: "Turn off one's two-factor sign-in (the password and a current code needed)",
      body: { schema: twoFactorDisableSchema },
      response: { schema: success({}) },
    },
    async (c, { body }) => {
      await services.twoFactor.disable(currentAuth(c).user.id, body.password, body.code);
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/user/passkeys",
      access: access.member,
      tag: twoFactorTag,
      summary: "One's passkeys",
      description: "`available`: whether passkeys work at this site's address (https, or localhost).",
      response: { schema: success({ available: z.boolean(), passkeys: z.array(passkeySchema) }) },
    },
    async (c) =>
      ok(c, {
        available: services.passkeys.relyingParty !== null,
        passkeys: await services.passkeys.list(currentAuth(c).user.id),
      }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/user/passkeys/options",
      access: access.member,
      tag: twoFactorTag,
      summary: "Start adding a passkey: the options for the browser",
      description:
        "Answers the options for `startRegistration()` of @simplewebauthn/browser, good for five minutes, once. A " +
        "passkey is added beside the authenticator app: 409 until two-factor sign-in is on, with ten passkeys " +
        "already, or where passkeys do not work (plain http).",
      response: { schema: success({ options: passkeyCreationOptionsSchema }) },
      errors: [409],
    },
    async (c) => ok(c, { options: await services.passkeys.registrationOptions(currentAuth(c).user) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/user/passkeys",
      access: access.member,
      tag: twoFactorTag,
      summary: "Add a passkey: the browser's answer to the options",
      description: "422 when the answer does not check against the options given (another challenge, origin or site).",
      body: { schema: passkeyAddSchema },
      response: { schema: success({ passkey: passkeySchema }) },
      errors: [409],
    },
    async (c, { body }) => ok(c, { passkey: await services.passkeys.add(currentAuth(c).user.id, body) }),
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/user/passkeys/:id",
      access: access.member,
      tag: twoFactorTag,
      summary: "Remove one of one's passkeys",
      params: z.object({ id: z.string() }),
      response: { schema: success({}) },
      errors: [404],
    },
    async (c) => {
      await services.passkeys.remove(currentAuth(c).user.id, idParam(c, "Passkey not found."));
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/users/:id/two-factor/reset",
      access: access.admin,
      tag: twoFactorTag,
      summary: "Reset a user's two-factor sign-in (a lost phone): audited, and the user is told by mail",
      params: z.object({ id: z.string() }),
      response: { schema: success({}) },
      errors: [404, 409],
    },
    async (c) => {
      await services.twoFactor.reset(idParam(c, "User not found."));
      return ok(c);
    },
  );

  return api;
}

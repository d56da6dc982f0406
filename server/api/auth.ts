import { Hono } from "hono";
import { RESET_REQUESTED } from "../../core/accounts/password-reset.schema";
import { clearSessionCookie, sessionCookie } from "../../core/auth/auth.cookie";
import { loginSchema } from "../../core/auth/auth.schema";
import { validate } from "../../lib/validation";
import type { AppEnv, Runtime } from "../env";
import { access, currentAuth, ok, readBody, unprocessable, uploadedImage } from "./http";

/** SPEC §7 'Session': login, the current user, logout; forgotten passwords. */
export function authRoutes(runtime: Runtime) {
  const { services, config } = runtime;
  const secure = config.baseUrl.protocol === "https:";
  const api = new Hono<AppEnv>();

  api.post("/login", access.public, async (c) => {
    const input = validate(loginSchema, await readBody(c));
    if (!input.success) return unprocessable(c, input.errors);
    const result = await services.auth.login(
      input.data,
      { ip: c.var.clientIp, userAgent: c.req.header("user-agent") ?? null, requestId: c.var.requestId },
      // A browser's earlier session ends; an API client's other tokens are its own business.
      { endingSession: c.var.authVia === "cookie" ? c.var.sessionToken : null },
    );
    // Browsers using the API get the same httpOnly session as the login form.
    c.header(
      "Set-Cookie",
      sessionCookie(result.token, { secure, maxAgeSeconds: result.remember ? config.sessionTtlSeconds : undefined }),
    );
    return ok(c, { access_token: result.token, expires_at: result.expiresAt, user: result.user });
  });

  api.get("/dashboard/user", access.member, (c) => ok(c, { user: c.var.auth?.user }));

  api.post("/dashboard/logout", access.member, async (c) => {
    await services.auth.logout(c.var.sessionToken);
    c.header("Set-Cookie", clearSessionCookie({ secure }));
    return ok(c, { message: "Logged out." });
  });

  api.patch("/dashboard/user/settings", access.member, async (c) => {
    const auth = currentAuth(c);
    const user = await services.profile.update(auth.user.id, auth.sessionId, await readBody(c));
    return ok(c, { user });
  });

  // SPEC §7 clients send the password in the query string; our pages use the POST below (no password in a URL or log).
  api.get("/dashboard/user/checkValidPass", access.member, async (c) => {
    const auth = currentAuth(c);
    return ok(c, { valid: await services.profile.checkPassword(auth.user.id, c.req.query("password")) });
  });

  api.post("/dashboard/user/checkValidPass", access.member, async (c) => {
    const auth = currentAuth(c);
    const body = await readBody(c);
    return ok(c, { valid: await services.profile.checkPassword(auth.user.id, body.password) });
  });

  api.post("/settings/profile/updateAvatar", access.member, async (c) => {
    const auth = currentAuth(c);
    const body = await readBody(c, ["multipart"]);
    const avatar = await services.profile.setAvatar(
      auth.user.id,
      await uploadedImage(body, body.avatar !== undefined ? "avatar" : "image"),
    );
    return ok(c, { avatar });
  });

  api.delete("/settings/profile/avatar", access.member, async (c) => {
    const auth = currentAuth(c);
    await services.profile.removeAvatar(auth.user.id);
    return ok(c, { avatar: null });
  });

  api.post("/forgot-password", access.public, async (c) => {
    const body = await readBody(c);
    await services.passwordReset.request(body.email, { ip: c.var.clientIp, origin: config.baseUrl.origin });
    return ok(c, { message: RESET_REQUESTED });
  });

  api.post("/reset-password", access.public, async (c) => {
    await services.passwordReset.reset(await readBody(c));
    return ok(c, { message: "Your password is changed. Sign in with the new one." });
  });

  return api;
}

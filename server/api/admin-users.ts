import { type Context, Hono } from "hono";
import { sessionCookie } from "../../core/auth/auth.cookie";
import type { AppEnv, Runtime } from "../env";
import { access, currentAuth, idParam, ok, readBody } from "./http";

/** The users screen's API (admin only), and accepting an invitation (public, by its token). */
export function adminUsersRoutes(runtime: Runtime) {
  const { services, config } = runtime;
  const api = new Hono<AppEnv>();
  const actor = (c: Context<AppEnv>) => {
    const auth = currentAuth(c);
    return { id: auth.user.id, invitation: { origin: config.baseUrl.origin, inviter: auth.user } };
  };
  const notFound = "User not found.";

  api.get("/dashboard/users", access.admin, async (c) => ok(c, await services.accounts.list(c.req.query())));

  api.post("/dashboard/users", access.admin, async (c) => {
    const user = await services.invitations.invite(await readBody(c), actor(c).invitation);
    return ok(c, { user }, 201);
  });

  api.get("/dashboard/users/:id", access.admin, async (c) =>
    ok(c, { user: await services.accounts.getUser(idParam(c, notFound)) }),
  );

  api.patch("/dashboard/users/:id", access.admin, async (c) => {
    const user = await services.accounts.change(actor(c).id, idParam(c, notFound), await readBody(c));
    return ok(c, { user });
  });

  api.delete("/dashboard/users/:id", access.admin, async (c) => {
    await services.accounts.remove(actor(c).id, idParam(c, notFound));
    return ok(c, { message: "The user is deleted." });
  });

  api.post("/dashboard/users/:id/invitation", access.admin, async (c) => {
    const user = await services.invitations.resend(idParam(c, notFound), actor(c).invitation);
    return ok(c, { user });
  });

  api.post("/welcome", access.public, async (c) => {
    const userId = await services.invitations.accept(await readBody(c));
    const session = await services.auth.openSession(userId, {
      ip: c.var.clientIp,
      userAgent: c.req.header("user-agent") ?? null,
    });
    c.header("Set-Cookie", sessionCookie(session.token, { secure: config.baseUrl.protocol === "https:" }));
    return ok(c, { access_token: session.token, expires_at: session.expiresAt, user: session.user });
  });

  return api;
}

import type { RoleName } from "../../core/accounts/accounts.schema";
import type { Services } from "../../core/services";

let sequence = 0;

export const PASSWORD = "correct horse battery";

export async function createUser(
  services: Services,
  overrides: { role?: RoleName; email?: string; password?: string; first_name?: string; last_name?: string } = {},
) {
  sequence += 1;
  const password = overrides.password ?? PASSWORD;
  const user = await services.accounts.createUser({
    email: overrides.email ?? `user${sequence}-${Date.now()}@example.org`,
    role: overrides.role ?? "member",
    first_name: overrides.first_name ?? "Test",
    last_name: overrides.last_name ?? `User ${sequence}`,
    password,
  });
  return { user, password };
}

/** A signed-in user and their token, through the real login service. */
export async function signIn(services: Services, role: RoleName = "member") {
  const { user, password } = await createUser(services, { role });
  const session = await services.auth.login({ email: user.email, password }, { ip: "203.0.113.9" });
  return { user, password, token: session.token, cookie: `auth.session=${session.token}` };
}

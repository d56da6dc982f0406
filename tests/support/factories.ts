import type { Kysely } from "kysely";
import type { RoleName } from "../../core/accounts/accounts.schema";
import type { Services } from "../../core/services";
import type { Database } from "../../db/types";

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

let companies = 0;

/**
 * A signed-in representative of a member company whose membership is current (or, with `lapsed`,
 * has lapsed), named `first_name`, with the company's name.
 */
export async function representative(services: Services, db: Kysely<Database>, first_name: string, lapsed = false) {
  companies += 1;
  const name = `Groups Marine ${companies} ${Date.now().toString(36)} AS`;
  const company = await services.members.create({
    name,
    country: "NO",
    member_since: "2020-01-01",
    membership_type: "full",
    renews_on: lapsed ? "2021-01-01" : null,
  } as never);
  const signedIn = await signIn(services, "member");
  await db.updateTable("users").set({ first_name }).where("id", "=", signedIn.user.id).execute();
  await db
    .insertInto("company_representatives")
    .values({ user_id: signedIn.user.id, company_id: company.id, is_primary: 0, created_at: new Date().toISOString() })
    .execute();
  return { ...signedIn, company: name };
}

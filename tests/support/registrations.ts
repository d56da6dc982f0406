import { expect } from "vitest";
import { call, type TestContext } from "./app";
import { formTimeAt } from "./form-time";

let sequence = 0;

/**
 * A registration sent through the public form's API, as a visitor who spent 20 s on the form
 * (never held as probable spam), from an address of its own so that no limit is shared; with a
 * Bearer token it is the signed-in person's. Answers the stored row's id and the address.
 */
export async function registerThroughForm(
  context: TestContext,
  path: string,
  options: { now: Date; email?: string; name?: string; token?: string },
): Promise<{ id: number; email: string }> {
  sequence += 1;
  const email = options.email ?? `registrant${sequence}@example.org`;
  const res = await call(context.app, "POST", "/api/join", {
    json: {
      company_name: "Baltic Bridge Sp. z o.o.",
      representative_name: options.name ?? `Łucja Registrant ${sequence}`,
      email,
      phone_number: "+48 58 000 00 00",
      page_path: path,
      started_at: await formTimeAt(context.database.db, "join", options.now.getTime() - 20_000),
    },
    token: options.token,
    headers: { "x-forwarded-for": `198.51.100.${(sequence % 250) + 1}` },
  });
  expect(res.status, res.text).toBe(200);
  const row = await context.database.db
    .selectFrom("join_requests")
    .select("id")
    .where("email", "=", email)
    .where("page_path", "=", path)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}

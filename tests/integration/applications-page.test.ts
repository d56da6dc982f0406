import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestContext } from "../../app/context";
import { action, loader } from "../../app/routes/join/manage-requests";
import type { Authenticated } from "../../core/auth/auth.service";
import { REASON_REQUIRED, TYPE_REQUIRED } from "../../core/join/join.schema";
import { COUNTRY_MESSAGE } from "../../core/members/members.schema";
import type { RequestContext } from "../../core/request-context";
import { createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * The inbox's approve and decline as a browser without JavaScript uses them (decision 0047): a
 * link opens a row's form in the page's data, prefilled; the form posts to the page's action, which
 * answers a notice, or the fields' messages with what was typed.
 */
let t: TestContext;
let context: RouterContextProvider;

beforeAll(async () => {
  t = await createTestContext({ JOIN_RATE_LIMIT: "1000" });
  const admin = await signIn(t.runtime.services, "admin");
  const auth = (await t.runtime.services.auth.authenticate(admin.token)) as Authenticated;
  context = new RouterContextProvider();
  const value: RequestContext = {
    services: t.runtime.services,
    auth,
    sessionToken: admin.token,
    client: { ip: "192.0.2.45", userAgent: "vitest" },
    nonce: "",
    requestId: "applications-page-1",
    secureCookies: false,
    origin: ORIGIN,
    logger: t.runtime.logger,
    publicConfig: { recaptchaSiteKey: null, gtmId: null },
  };
  context.set(requestContext, value);
});
afterAll(async () => t.close());

async function application(company: string, name = "Maren Holt") {
  const outcome = await t.runtime.services.join.submit(
    {
      company_name: company,
      representative_name: name,
      email: `${Date.now()}@harbour.example`,
      phone_number: "+4722334455",
      page_path: "/members-join",
    },
    { ip: "192.0.2.9", trusted: true },
  );
  return outcome.id;
}

const load = (path: string) => {
  const url = new URL(`${ORIGIN}${path}`);
  return loader({ request: new Request(url), context, params: {}, url } as never);
};

async function post(path: string, fields: Record<string, string>) {
  const form = new URLSearchParams(fields);
  const request = new Request(`${ORIGIN}${path}`, {
    method: "POST",
    body: form,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
  });
  const answer = (await action({ request, context, params: {}, url: new URL(request.url) } as never)) as unknown;
  // A refusal comes as data() with its status; a success as a plain object.
  if (
    answer &&
    typeof answer === "object" &&
    "type" in answer &&
    (answer as { type: string }).type === "DataWithResponseInit"
  ) {
    const { data, init } = answer as unknown as { data: Record<string, unknown>; init: { status?: number } | null };
    return { status: init?.status ?? 200, data };
  }
  return { status: 200, data: answer as Record<string, unknown> };
}

describe("the inbox without JavaScript", () => {
  it("opens a new application's approve form prefilled, with the companies that match and the countries", async () => {
    const existing = await t.runtime.services.members.create({ name: "Harbour Lights Holding ASA", country: "NO" });
    const id = await application("Harbour Lights Radio AS");
    const page = await load(`/manager/requests?status=new&approve=${id}`);
    expect(page.approving).toMatchObject({ id, companySearch: "Harbour" });
    expect(page.approving?.companies).toEqual([{ id: existing.id, name: existing.name, country_name: "Norway" }]);
    expect(page.approving?.countries.find((c) => c.code === "NO")).toEqual({ code: "NO", name: "Norway" });
    const row = page.data.find((r) => r.id === id);
    expect(row).toMatchObject({ status: "new", company_name: "Harbour Lights Radio AS", history: [] });

    // A decided one opens no form.
    const declined = await application("Declined Marine");
    await t.runtime.services.applications.decline(
      declined,
      { reason: "No." },
      { id: 1, first_name: "A", last_name: "B" },
    );
    expect((await load(`/manager/requests?approve=${declined}`)).approving).toBeNull();
    expect((await load(`/manager/requests?decline=${declined}`)).declining).toBeNull();
    expect((await load(`/manager/requests?decline=${id}`)).declining).toBe(id);
  });

  it("approves through the form; a refusal gives the fields' messages and what was typed", async () => {
    const id = await application("Skagerrak Sonar AS", "Ola Nordmann");
    const refused = await post(`/manager/requests?approve=${id}`, {
      intent: "approve",
      id: String(id),
      company_id: "",
      company_name: "Skagerrak Sonar AS",
      first_name: "Ola",
      last_name: "Nordmann",
      email: "ola@skagerrak.example",
      country: "",
      membership_type: "",
    });
    expect(refused.status).toBe(422);
    expect(refused.data.refusal).toMatchObject({
      intent: "approve",
      id,
      errors: { country: COUNTRY_MESSAGE, membership_type: TYPE_REQUIRED },
      values: { first_name: "Ola", email: "ola@skagerrak.example" },
    });

    const done = await post(`/manager/requests?approve=${id}`, {
      intent: "approve",
      id: String(id),
      company_id: "",
      company_name: "Skagerrak Sonar AS",
      first_name: "Ola",
      last_name: "Nordmann",
      email: "ola@skagerrak.example",
      country: "NO",
      membership_type: "associate",
    });
    expect(done.status).toBe(200);
    expect(done.data.notice).toBe(
      "Approved: Skagerrak Sonar AS is a member company, and an invitation was sent to ola@skagerrak.example.",
    );
    const page = await load("/manager/requests?status=approved");
    expect(page.data.find((r) => r.id === id)).toMatchObject({
      status: "approved",
      history: [{ event: "approved", company_name: "Skagerrak Sonar AS" }],
    });
    // Twice: the page says why.
    const again = await post("/manager/requests", { intent: "decline", id: String(id), reason: "No." });
    expect(again.status).toBe(409);
    expect(again.data.error).toBe("This application was already approved.");
  });

  it("declines through the form, and asks for the reason", async () => {
    const id = await application("Quick Gadgets");
    const refused = await post(`/manager/requests?decline=${id}`, { intent: "decline", id: String(id), reason: "" });
    expect(refused.status).toBe(422);
    expect(refused.data.refusal).toMatchObject({ errors: { reason: REASON_REQUIRED } });
    const done = await post(`/manager/requests?decline=${id}`, {
      intent: "decline",
      id: String(id),
      reason: "Not a marine electronics company.",
    });
    expect(done.data.notice).toBe("Declined: the reason was e-mailed to the applicant.");
    const page = await load("/manager/requests?status=declined");
    expect(page.data.find((r) => r.id === id)?.history).toMatchObject([
      { event: "declined", reason: "Not a marine electronics company." },
    ]);
  });
});

import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Page, Route } from "@playwright/test";
import { type ServerProcess, startServer } from "../process/server";
import { expect, expectAccessible, test } from "./fixtures";

/**
 * reCAPTCHA Enterprise on the join form (SPEC §7 'invisible, version 2, enterprise mode, language
 * en'; decision 0040), end to end: the built server started here with RECAPTCHA_MODE=enterprise,
 * its assessment endpoint a stand-in on this machine, and Google's script a fake served to
 * Chromium (nothing leaves the machine).
 */

test.describe.configure({ mode: "serial" });

const SITE_KEY = "e2e-enterprise-site-key";
const TOKEN = "e2e-token-from-the-fake-widget";
/** Tokens for which the stand-in answers as the Enterprise API does when it is down, or refuses the site's key. */
const TOKEN_SERVICE_DOWN = "e2e-token-service-down";
const TOKEN_KEY_REFUSED = "e2e-token-key-refused";
type Assessment = { url: string; event: Record<string, unknown> };
let assessments: Assessment[] = [];
let standIn: http.Server;
let server: ServerProcess;

test.beforeAll(async () => {
  // A fresh install migrates on start: more than a test's 30 s when the machine is busy.
  test.setTimeout(120_000);
  standIn = http.createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => {
      const event = (JSON.parse(text || "{}") as { event?: Record<string, unknown> }).event ?? {};
      assessments.push({ url: request.url ?? "", event });
      if (event.token === TOKEN_SERVICE_DOWN || event.token === TOKEN_KEY_REFUSED) {
        const down = event.token === TOKEN_SERVICE_DOWN;
        response.writeHead(down ? 503 : 403, { "Content-Type": "application/json" });
        response.end(
          JSON.stringify({ error: { code: down ? 503 : 403, status: down ? "UNAVAILABLE" : "PERMISSION_DENIED" } }),
        );
        return;
      }
      const valid = event.token === TOKEN;
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(
        JSON.stringify({
          tokenProperties: valid ? { valid: true, action: "join" } : { valid: false, invalidReason: "MALFORMED" },
          riskAnalysis: { score: valid ? 0.9 : 0 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
  server = await startServer({
    env: {
      RECAPTCHA_MODE: "enterprise",
      RECAPTCHA_SITE_KEY: SITE_KEY,
      RECAPTCHA_PROJECT_ID: "masthead-e2e",
      RECAPTCHA_API_KEY: "e2e-api-key",
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`,
      LOG_LEVEL: "warn",
    },
  });
});
test.afterAll(async () => {
  await server?.stop();
  server?.cleanup();
  await new Promise((resolve) => standIn.close(resolve));
});
test.beforeEach(() => {
  assessments = [];
});

/** What the fake `enterprise.js` does when the form asks for a token. */
type Fake = "token" | "error" | "no-enterprise-api";
function fakeScript(fake: Fake, token: string): string {
  if (fake === "no-enterprise-api") return "window.grecaptcha = { ready: function (f) { f(); } };";
  return `window.fakeCaptcha = { rendered: [] };
window.grecaptcha = { enterprise: {
  ready: function (f) { setTimeout(f, 0); },
  render: function (element, parameters) {
    window.fakeCaptcha.rendered.push({ sitekey: parameters.sitekey, size: parameters.size, hl: parameters.hl, action: parameters.action });
    window.fakeCaptcha.parameters = parameters;
    return 3;
  },
  execute: function (widget) {
    var p = window.fakeCaptcha.parameters;
    setTimeout(function () { ${fake === "token" ? `p.callback(${JSON.stringify(token)})` : 'p["error-callback"]()'}; }, 10);
    return new Promise(function () {});
  },
  reset: function () {}
} };`;
}

/** Serves Google's script as `fake` (or fails to), and notes what was asked for. */
async function routeGoogle(page: Page, fake: Fake | "unreachable", token = TOKEN) {
  const asked: string[] = [];
  await page.route(
    (url) => url.hostname.endsWith("google.com") || url.hostname.endsWith("gstatic.com"),
    async (route: Route) => {
      asked.push(route.request().url());
      if (fake === "unreachable") await route.abort("internetdisconnected");
      else await route.fulfill({ status: 200, contentType: "text/javascript", body: fakeScript(fake, token) });
    },
  );
  return asked;
}

/** Fills the footer's form as a person would and sends it; resolves with the server's answer. */
async function sendJoinForm(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(`${server.url}/`);
  const form = page.getByRole("region", { name: "Join the community" });
  await form.getByLabel("Company Name").fill("Baltic Radar Works");
  await form.getByLabel("Representative name").fill("Tomas Lind");
  await form.getByLabel("Email").fill(`radar-${Date.now()}@balticradar.example`);
  await form.getByLabel("Phone number").fill("+46 31 123 45 67");
  // A person takes a few seconds over four fields; the server keeps faster senders as probable spam.
  await page.waitForTimeout(3000);
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/join");
  await form.getByRole("button", { name: "Send" }).click();
  const response = await answer;
  return { response, errors };
}

test("the invisible widget of reCAPTCHA Enterprise gives the form a token, which the server has assessed", async ({
  page,
}) => {
  const asked = await routeGoogle(page, "token");
  const { response, errors } = await sendJoinForm(page);
  expect(asked[0]).toBe("https://www.google.com/recaptcha/enterprise.js?render=explicit&hl=en");
  expect(
    await page.evaluate(() => (window as Window & { fakeCaptcha?: { rendered: unknown[] } }).fakeCaptcha?.rendered),
  ).toEqual([{ sitekey: SITE_KEY, size: "invisible", hl: "en", action: "join" }]);
  expect(response.request().postData()).toContain(TOKEN);
  // reCAPTCHA replaces the site's own proof of work (decision 0077): its widget is neither shown nor sent.
  await expect(page.locator("altcha-widget")).toHaveCount(0);
  expect(response.request().postData()).not.toContain('name="altcha"');
  expect(response.status()).toBe(200);
  expect(assessments).toEqual([
    {
      url: "/v1/projects/masthead-e2e/assessments?key=e2e-api-key",
      event: expect.objectContaining({ token: TOKEN, siteKey: SITE_KEY, expectedAction: "join" }),
    },
  ]);
  expect(errors.filter((e) => e.startsWith("Failed"))).toEqual([]);
});

for (const [fake, message] of [
  ["unreachable", "Failed to load script"],
  ["no-enterprise-api", "Failed to load script"],
  ["error", "Failed to execute"],
] as const) {
  test(`the widget reports '${message}' (${fake}); the form is sent without a token and the server refuses it`, async ({
    page,
  }) => {
    await routeGoogle(page, fake);
    const { response, errors } = await sendJoinForm(page);
    expect(errors).toContain(message);
    expect(response.status()).toBe(422);
    expect(await response.json()).toMatchObject({
      errors: { captcha_token: ["The spam check failed. Please try again."] },
    });
    expect(assessments).toEqual([]);
  });
}

const SHOTS = path.resolve("tmp/screenshots");

test("the verification service is down: the modal says to try again in 1 minute, the fields stay", async ({ page }) => {
  await routeGoogle(page, "token", TOKEN_SERVICE_DOWN);
  const { response } = await sendJoinForm(page);
  expect(response.status()).toBe(503);
  expect(response.headers()["retry-after"]).toBe("60");
  const dialog = page.getByRole("dialog", { name: "Not sent" });
  await expect(dialog).toContainText("The spam check could not be reached just now. Please try again in 1 minute.");
  await expect(dialog).toContainText("What you typed is still in the form.");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("region", { name: "Join the community" }).getByLabel("Company Name")).toHaveValue(
    "Baltic Radar Works",
  );
});

test("the service refuses the site's key: the modal says it is the site's fault and where to turn", async ({
  page,
}) => {
  await routeGoogle(page, "token", TOKEN_KEY_REFUSED);
  const { response } = await sendJoinForm(page);
  expect(response.status()).toBe(503);
  expect(response.headers()["retry-after"]).toBeUndefined();
  const dialog = page.getByRole("dialog", { name: "Not sent" });
  await expect(dialog).toContainText(
    "This form cannot be checked for spam just now because of a fault on our side, not yours.",
  );
  await expect(dialog).not.toContainText("The spam check failed");
  await expectAccessible(page);
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: path.join(SHOTS, `refusal-captcha-misconfigured-${width}.png`) });
  }
  // The operator reads why in the log, with the setting to check.
  await expect
    .poll(() => server.logs().some((line) => String(line.msg).startsWith("captcha misconfigured")))
    .toBe(true);
});

test("without JavaScript, a captcha service that is away answers /join with 503 and Retry-After", async ({
  request,
}) => {
  const response = await request.post(`${server.url}/join`, {
    form: {
      company_name: "Plain Post Marine",
      representative_name: "Petra Plain",
      email: "petra@plainpost.example",
      phone_number: "+46 31 123 45 67",
      page_path: "/",
      started_at: "",
      website: "",
      captcha_token: TOKEN_SERVICE_DOWN,
    },
    headers: { Origin: server.url },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(503);
  expect(response.headers()["retry-after"]).toBe("60");
  const html = await response.text();
  expect(html).toContain("The spam check could not be reached just now. Please try again in 1 minute.");
  expect(html).toContain("Plain Post Marine");
});

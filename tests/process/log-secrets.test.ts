import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./server";

/**
 * No secret in any log line (issue 30 point 4): the built server, logging everything (debug), is
 * used with passwords, session cookies, a Bearer token, a private calendar feed's address and the
 * password links' tokens; then its whole output is searched for each of those values.
 */
const ADMIN = { email: "secrets-admin@masthead.test", password: "secrets admin long password" };
const NEW_PASSWORD = "a fresh secret for the reset link";
const WELCOME_PASSWORD = "the welcome secret of a new member";
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: "debug" } });
});
afterAll(async () => {
  await server?.stop();
  server?.cleanup();
});

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .filter((value): value is string => value !== undefined);

/** The token of the last link to `route` mailed to `to`, from the server's .eml outbox (mail is sent after the answer). */
async function mailedToken(to: string, route: string): Promise<string> {
  const outbox = path.join(server.dataDir, "outbox");
  const pattern = new RegExp(`${route}\\?token=([\\w-]+)`);
  for (let wait = 0; wait < 100; wait++) {
    const mails = fs.existsSync(outbox)
      ? fs
          .readdirSync(outbox)
          .sort()
          .map((file) =>
            fs
              .readFileSync(path.join(outbox, file), "utf8")
              .replace(/=\r?\n/g, "")
              .replace(/=3D/g, "="),
          )
          .filter((text) => text.split(/\r?\n/).includes(`To: ${to}`))
      : [];
    const token = mails.map((text) => pattern.exec(text)?.[1]).findLast((found) => found !== undefined);
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No ${route} link was mailed to ${to}.`);
}

/** Sends a POST's headers and part of its declared body, then goes away (a client that gave up). */
async function abandonedPost(target: string): Promise<void> {
  const { hostname, port } = new URL(server.url);
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `POST ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"search":`,
        () => setTimeout(() => socket.destroy(), 200),
      );
    });
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
}

describe("the built server's logs", () => {
  it("hold none of the passwords, cookies, tokens and secret addresses a session used", async () => {
    const secrets: Record<string, string> = { "admin password": ADMIN.password };
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const formHeaders = { origin: server.url, "content-type": "application/x-www-form-urlencoded" };

    // Signing in on the page: the password in a form, the session in a cookie.
    const pageLogin = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: formHeaders,
      body: form({ email: ADMIN.email, password: ADMIN.password }),
      redirect: "manual",
    });
    const sessionCookies = cookiesOf(pageLogin);
    expect(sessionCookies.length).toBeGreaterThan(0);
    for (const [index, value] of sessionCookies.entries())
      secrets[`page session cookie ${index}`] = value.split("=")[1] ?? "";
    const cookie = sessionCookies.join("; ");
    expect((await fetch(`${server.url}/dashboard`, { headers: { cookie } })).status).toBe(200);

    // Signing in through the API: the password in JSON, a Bearer token in the answer.
    const apiLogin = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const { access_token: bearer } = (await apiLogin.json()) as { access_token: string };
    secrets["Bearer token"] = bearer;
    for (const [index, value] of cookiesOf(apiLogin).entries())
      secrets[`API session cookie ${index}`] = value.split("=")[1] ?? "";
    const authorization = `Bearer ${bearer}`;
    expect((await fetch(`${server.url}/api/dashboard/user`, { headers: { authorization } })).status).toBe(200);
    // A wrong password is logged as an event, never as the password.
    const wrong = "not the admin password at all";
    secrets["wrong password"] = wrong;
    await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ADMIN.email, password: wrong }),
    });

    // The private calendar feed: its address is the secret.
    const settings = await fetch(`${server.url}/dashboard/user-settings`, {
      method: "POST",
      headers: { ...formHeaders, cookie },
      body: form({ intent: "calendar-feed", password: ADMIN.password }),
    });
    const feedToken = /\/calendar\/([\w-]+)\.ics/.exec(await settings.text())?.[1] ?? "";
    expect(feedToken).not.toBe("");
    secrets["calendar feed token"] = feedToken;
    for (let read = 0; read < 2; read++) {
      const feed = await fetch(`${server.url}/calendar/${feedToken}.ics`);
      expect(feed.status).toBe(200);
      await feed.text();
    }

    // Other spellings of the feed's address (the router decodes %63; the others are not served, but
    // carry the token all the same), an admin page refused for one, and a POST the page cache starts to
    // read for one of its stored answers (a content route) that the client abandons.
    for (const spelling of [
      `/%63alendar/${feedToken}.ics`,
      `/calendar%2F${feedToken}.ics`,
      `/manager/calendar%2F${feedToken}.ics`,
    ]) {
      await (await fetch(`${server.url}${spelling}`, { redirect: "manual" })).text();
    }
    await abandonedPost(`/api/dashboard/getPapersByCategory/calendar%2F${feedToken}.ics`);

    // A password reset link, opened and used.
    await fetch(`${server.url}/api/forgot-password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ADMIN.email }),
    });
    const resetToken = await mailedToken(ADMIN.email, "/reset-password");
    secrets["reset token"] = resetToken;
    secrets["new password"] = NEW_PASSWORD;
    expect((await fetch(`${server.url}/reset-password?token=${resetToken}`)).status).toBe(200);
    const reset = await fetch(`${server.url}/reset-password?token=${resetToken}`, {
      method: "POST",
      headers: formHeaders,
      body: form({ token: resetToken, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD }),
      redirect: "manual",
    });
    expect(reset.status).toBeLessThan(400);

    // An invitation's welcome link, opened and used.
    const invitee = "new-member@masthead.test";
    const invited = await fetch(`${server.url}/api/dashboard/users`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ first_name: "New", last_name: "Member", email: invitee, role: "member" }),
    });
    // The reset ended the admin's sessions; sign in again with the new password if so.
    if (invited.status === 401) {
      const again = await fetch(`${server.url}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: ADMIN.email, password: NEW_PASSWORD }),
      });
      const { access_token: fresh } = (await again.json()) as { access_token: string };
      secrets["second Bearer token"] = fresh;
      const retried = await fetch(`${server.url}/api/dashboard/users`, {
        method: "POST",
        headers: { authorization: `Bearer ${fresh}`, "content-type": "application/json" },
        body: JSON.stringify({ first_name: "New", last_name: "Member", email: invitee, role: "member" }),
      });
      expect(retried.status).toBe(201);
    } else {
      expect(invited.status).toBe(201);
    }
    const welcomeToken = await mailedToken(invitee, "/welcome");
    secrets["welcome token"] = welcomeToken;
    secrets["welcome password"] = WELCOME_PASSWORD;
    expect((await fetch(`${server.url}/welcome?token=${welcomeToken}`)).status).toBe(200);
    await fetch(`${server.url}/api/welcome`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        token: welcomeToken,
        password: WELCOME_PASSWORD,
        password_confirmation: WELCOME_PASSWORD,
      }),
    });

    // pino writes asynchronously; stopping the process flushes what is left.
    await server.stop();
    const output = [...server.stdout, ...server.stderr].join("\n");
    const found = Object.entries(secrets).filter(([, value]) => value.length >= 8 && output.includes(value));
    expect(found.map(([name]) => name)).toEqual([]);
    expect(Object.values(secrets).every((value) => value.length >= 8)).toBe(true);
    expect(output).toContain('"path":"/calendar/[redacted].ics"');
    const lines = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The page cache's line for the abandoned read (499) names the path, redacted.
    expect(lines).toContainEqual(
      expect.objectContaining({ status: 499, path: "/api/dashboard/getPapersByCategory/calendar/[redacted].ics" }),
    );
  });
});

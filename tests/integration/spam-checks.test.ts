import http from "node:http";
import type { AddressInfo } from "node:net";
import { type Challenge, createChallenge, type Solution, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publicFormAction } from "../../app/routes/join/public-form.server";
import {
  KEPT_IN_FORM,
  PROOF_EXPIRED,
  PROOF_INVALID,
  PROOF_REPLAYED,
  PROOF_UNSOLVED,
  THROWAWAY_EMAIL,
} from "../../core/join/join.values";
import { CHALLENGE_TTL_SECONDS } from "../../core/join/proof-of-work";
import { pruneSpentChallenges } from "../../core/join/spent-challenges.repository";
import { PRIVACY_POLICY_PAGE } from "../../core/pages/fixed-pages";
import type { RequestContext } from "../../core/request-context";
import { createLogger } from "../../lib/logger";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { formTimeAt } from "../support/form-time";

/**
 * Issue 35, decision 0077: the public forms' proof of work (ALTCHA) from our own origin, the
 * throwaway-address refusal and the consent record, through the real API on a real database.
 *
 * The clock starts at the real time: altcha-lib judges a challenge's expiry on the machine's
 * clock as well as ours, so the site's clock may run ahead of it (each test moves it on, for a
 * fresh rate-limit window) but not behind.
 */
let t: TestContext;
let now = new Date();
const clock = () => now;

const VALID = {
  company_name: "Nordic Bridge Systems AS",
  representative_name: "Ingrid Solberg",
  email: "ingrid@nordicbridge.example",
  phone_number: "+47 22 33 44 55",
};
const MESSAGE = {
  name: "Ingrid Solberg",
  email: "ingrid@nordicbridge.example",
  subject: "Radar interfaces",
  message: "Which working group covers radar interfaces?",
};

beforeAll(async () => {
  t = await createTestContext({ JOIN_RATE_LIMIT: "20" }, { clock });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  now = new Date(now.getTime() + 2 * 3600_000);
  await t.database.db.deleteFrom("join_requests").execute();
  await t.database.db.deleteFrom("rate_limits").execute();
  await t.database.db.deleteFrom("spent_challenges").execute();
});

/** The signed shown-at time of a form rendered `seconds` ago. */
const shown = (kind: "join" | "message" = "join", seconds = 20) =>
  formTimeAt(t.database.db, kind, now.getTime() - seconds * 1000);
const requests = () => t.database.db.selectFrom("join_requests").selectAll().orderBy("id").execute();
const spent = () => t.database.db.selectFrom("spent_challenges").selectAll().execute();

/** The join form sent without JavaScript: a plain POST to /join, through its page action. */
function postedForm(fields: Record<string, string>) {
  const context = {
    services: t.runtime.services,
    auth: null,
    sessionToken: null,
    client: { ip: "192.0.2.80", userAgent: null },
    nonce: "",
    requestId: "test",
    secureCookies: false,
    origin: "http://localhost:3000",
    logger: createLogger("silent"),
    publicConfig: { recaptchaSiteKey: null, gtmId: null },
  } satisfies RequestContext;
  const request = new Request("http://localhost:3000/join", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return publicFormAction("join", request, context);
}

/** A challenge as the widget fetches it, from our own origin. */
async function fetchChallenge(): Promise<Challenge> {
  const res = await call(t.app, "GET", "/api/altcha/challenge");
  expect(res.status, res.text).toBe(200);
  const { parameters, signature } = res.json as unknown as Challenge;
  return { parameters, signature };
}

/** Solves as the widget's workers do: four solvers on interleaved counters, the first to find wins. */
async function solve(challenge: Challenge): Promise<Solution> {
  const controller = new AbortController();
  const solutions = await Promise.all(
    [0, 1, 2, 3].map(async (start) => {
      const solution = await solveChallenge({ challenge, deriveKey, controller, counterStart: start, counterStep: 4 });
      if (solution) controller.abort();
      return solution;
    }),
  );
  const found = solutions.find((s) => s !== null);
  if (!found) throw new Error("no solution found");
  return found;
}

/** The widget's hidden field: base64 of { challenge, solution }. */
const payloadOf = (challenge: Challenge, solution: Solution) =>
  Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");

/** A solved challenge from the site, as the widget sends it. */
async function solved(): Promise<string> {
  const challenge = await fetchChallenge();
  return payloadOf(challenge, await solve(challenge));
}

describe("the proof-of-work challenge", () => {
  it("is served from our own origin, signed, expiring in 10 minutes, never cached, and documented", async () => {
    const res = await call(t.app, "GET", "/api/altcha/challenge");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const challenge = res.json as unknown as Challenge;
    expect(challenge.parameters).toMatchObject({ algorithm: "PBKDF2/SHA-256", keyLength: 32 });
    expect(challenge.parameters.expiresAt).toBe(Math.floor(now.getTime() / 1000) + CHALLENGE_TTL_SECONDS);
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.keySignature).toMatch(/^[0-9a-f]{64}$/);
    // A new one every time: nothing to share between visitors.
    const again = (await call(t.app, "GET", "/api/altcha/challenge")).json as unknown as Challenge;
    expect(again.parameters.nonce).not.toBe(challenge.parameters.nonce);

    const document = (await call(t.app, "GET", "/api/openapi.json")).json as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.paths["/api/altcha/challenge"]?.get).toBeTruthy();
    const join = JSON.stringify(document.paths["/api/join"]);
    expect(join).toContain("altcha");

    // Its widget runs the solver in workers made from blob: URLs of its own code; nothing else is opened.
    const csp = (await call(t.app, "GET", "/healthz")).headers.get("content-security-policy") ?? "";
    expect(csp).toContain("worker-src 'self' blob:");
  });
});

describe("POST /api/join with the proof of work", () => {
  it("stores a request with a solved challenge and spends it: the same solution again is refused", async () => {
    const altcha = await solved();
    const first = await call(t.app, "POST", "/api/join", { json: { ...VALID, started_at: await shown(), altcha } });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ status: "success" });
    expect((await requests()).map((r) => [r.email, r.spam_reason])).toEqual([[VALID.email, null]]);
    expect(await spent()).toHaveLength(1);

    // Replayed, even as the other form (they share the check): refused, nothing more stored.
    const replay = await call(t.app, "POST", "/api/join", {
      json: { ...VALID, email: "again@nordicbridge.example", started_at: await shown(), altcha },
    });
    expect(replay.status).toBe(422);
    expect(replay.json?.errors).toEqual({ altcha: [PROOF_REPLAYED] });
    const asMessage = await call(t.app, "POST", "/api/contact", {
      json: { ...MESSAGE, started_at: await shown("message"), altcha },
    });
    expect(asMessage.status).toBe(422);
    expect(asMessage.json?.errors).toEqual({ altcha: [PROOF_REPLAYED] });
    expect(await requests()).toHaveLength(1);
  });

  it("takes the widget's field in the multipart post of the form, for the message form too", async () => {
    const join = await call(t.app, "POST", "/api/join", {
      form: { ...VALID, page_path: "/history", started_at: await shown(), website: "", altcha: await solved() },
      multipart: true,
    });
    expect(join.status, join.text).toBe(200);
    const message = await call(t.app, "POST", "/api/contact", {
      form: { ...MESSAGE, page_path: "/contact", started_at: await shown("message"), altcha: await solved() },
      multipart: true,
    });
    expect(message.status, message.text).toBe(200);
    expect((await requests()).map((r) => [r.kind, r.spam_reason])).toEqual([
      ["join", null],
      ["message", null],
    ]);
    expect(await spent()).toHaveLength(2);
  });

  it("refuses with 422 and what to do when the field came but does not pass", async () => {
    const base = { ...VALID, started_at: await shown() };
    const challenge = await fetchChallenge();
    const solution = await solve(challenge);
    const cases: [string, unknown, string][] = [
      ["not solved (the widget had not finished)", "", PROOF_UNSOLVED],
      ["not a payload", "not-base64-json", PROOF_INVALID],
      [
        "the widget's test mode",
        Buffer.from(JSON.stringify({ challenge: null, test: true })).toString("base64"),
        PROOF_INVALID,
      ],
      ["a wrong derived key", payloadOf(challenge, { ...solution, derivedKey: "00".repeat(32) }), PROOF_INVALID],
      [
        "parameters changed after signing (an easier prefix)",
        payloadOf({ ...challenge, parameters: { ...challenge.parameters, keyPrefix: "0" } }, solution),
        PROOF_INVALID,
      ],
      ["over-long", "A".repeat(5000), PROOF_UNSOLVED],
    ];
    for (const [what, altcha, message] of cases) {
      const res = await call(t.app, "POST", "/api/join", { json: { ...base, altcha } });
      expect(res.status, what).toBe(422);
      expect(res.json?.errors, what).toEqual({ altcha: [message] });
    }
    // A challenge signed with another key, solved: refused too.
    const forged = await createChallenge({
      algorithm: "PBKDF2/SHA-256",
      cost: 10,
      counter: 5,
      deriveKey,
      expiresAt: Math.floor(now.getTime() / 1000) + 600,
      hmacSignatureSecret: "someone-else's-key",
    });
    const foreign = await call(t.app, "POST", "/api/join", {
      json: { ...base, altcha: payloadOf(forged, await solve(forged)) },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.json?.errors).toEqual({ altcha: [PROOF_INVALID] });
    expect(await requests()).toEqual([]);
    expect(await spent()).toEqual([]);

    // The good solution of the same challenge still passes: none of the above spent it.
    const right = await call(t.app, "POST", "/api/join", { json: { ...base, altcha: payloadOf(challenge, solution) } });
    expect(right.status, right.text).toBe(200);
  });

  it("refuses a solution of a challenge past its 10 minutes, on the site's clock", async () => {
    const altcha = await solved();
    now = new Date(now.getTime() + (CHALLENGE_TTL_SECONDS + 60) * 1000);
    const res = await call(t.app, "POST", "/api/join", { json: { ...VALID, started_at: await shown(), altcha } });
    expect(res.status).toBe(422);
    expect(res.json?.errors).toEqual({ altcha: [PROOF_EXPIRED] });
    expect(await requests()).toEqual([]);
  });

  it("without the field (JavaScript off) leaves the decision to the other checks, as before", async () => {
    const person = await call(t.app, "POST", "/api/join", { json: { ...VALID, started_at: await shown() } });
    expect(person.status).toBe(200);
    const hasty = await call(t.app, "POST", "/api/join", {
      json: { ...VALID, email: "hasty@nordicbridge.example", started_at: await shown("join", 1) },
    });
    const bot = await call(t.app, "POST", "/api/join", {
      json: { ...VALID, email: "bot@nordicbridge.example", started_at: await shown(), website: "http://x.example" },
    });
    expect([hasty.status, bot.status]).toEqual([200, 200]);
    expect((await requests()).map((r) => r.spam_reason)).toEqual([null, "too_fast", "honeypot"]);
    expect(await spent()).toEqual([]);

    // The page action the form posts to without JavaScript: the same checks; a broken field is said above the form.
    const plain = await postedForm({
      ...VALID,
      email: "plain@nordicbridge.example",
      page_path: "/history",
      started_at: await shown(),
    });
    expect(plain instanceof Response && plain.status).toBe(302);
    expect(plain instanceof Response && plain.headers.get("location")).toMatch(/^\/join\/thank-you/);
    const broken = await postedForm({
      ...VALID,
      email: "broken@nordicbridge.example",
      started_at: await shown(),
      altcha: "",
    });
    expect(broken).toMatchObject({
      init: { status: 422 },
      data: { failure: `${PROOF_UNSOLVED} ${KEPT_IN_FORM}`, values: { email: "broken@nordicbridge.example" } },
    });
    expect(await requests()).toHaveLength(4);
  });

  it("is not asked of a signed-in API client, and reCAPTCHA replaces it when configured", async () => {
    const member = await signIn(t.runtime.services, "member");
    const trusted = await call(t.app, "POST", "/api/join", {
      json: { ...VALID, altcha: "whatever" },
      token: member.token,
    });
    expect(trusted.status).toBe(200);

    const verifier = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        const success = new URLSearchParams(body).get("response") === "good-token";
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ success }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, "127.0.0.1", resolve));
    const guarded = await createTestContext(
      {
        RECAPTCHA_SITE_KEY: "test-site-key",
        RECAPTCHA_SECRET_KEY: "test-secret",
        RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`,
      },
      { database: t.database, clock },
    );
    try {
      // The widget is not shown then: a field that comes anyway is not read; the captcha decides.
      const started_at = await shown();
      const right = await call(guarded.app, "POST", "/api/join", {
        json: { ...VALID, email: "captcha@nordicbridge.example", started_at, captcha_token: "good-token", altcha: "" },
      });
      expect(right.status, right.text).toBe(200);
      const wrong = await call(guarded.app, "POST", "/api/join", {
        json: { ...VALID, started_at, captcha_token: "bad-token", altcha: await solved() },
      });
      expect(wrong.status).toBe(422);
      expect(Object.keys(wrong.json?.errors as object)).toEqual(["captcha_token"]);
      expect(await spent()).toEqual([]);
    } finally {
      await guarded.close();
      await new Promise((resolve) => verifier.close(resolve));
    }
    expect(await requests()).toHaveLength(2);
  });

  it("forgets spent challenges once they expired (the retention job's call)", async () => {
    await call(t.app, "POST", "/api/join", { json: { ...VALID, started_at: await shown(), altcha: await solved() } });
    const [row] = await spent();
    expect(await pruneSpentChallenges(t.database.db, now.toISOString())).toBe(0);
    expect(await pruneSpentChallenges(t.database.db, new Date(Date.parse(row.expires_at) + 1000).toISOString())).toBe(
      1,
    );
    expect(await spent()).toEqual([]);
  });
});

describe("throwaway addresses", () => {
  it("are refused on the join and registration form with a message on the e-mail field", async () => {
    for (const email of ["someone@mailinator.com", "someone@YOPMAIL.com", "someone@inbox.mailinator.com"]) {
      const res = await call(t.app, "POST", "/api/join", {
        json: { ...VALID, email, started_at: await shown(), altcha: await solved() },
      });
      expect(res.status, email).toBe(422);
      expect(res.json?.errors, email).toEqual({ email: [THROWAWAY_EMAIL] });
    }
    const registration = await call(t.app, "POST", "/api/join", {
      json: { ...VALID, email: "someone@guerrillamail.com", page_path: "/conference", started_at: await shown() },
    });
    expect(registration.status).toBe(422);
    expect(registration.json?.errors).toEqual({ email: [THROWAWAY_EMAIL] });
    // Said before the checks: no request counted against the limit, no proof of work spent.
    expect(await requests()).toEqual([]);
    expect(await spent()).toEqual([]);
    // Ordinary providers and company domains pass.
    for (const email of ["someone@gmail.com", "someone@nordicbridge.no"]) {
      const res = await call(t.app, "POST", "/api/join", { json: { ...VALID, email, started_at: await shown() } });
      expect(res.status, email).toBe(200);
    }
  });
});

describe("the consent record", () => {
  it("keeps the Privacy Policy's revision in force when the form was shown, and when that was", async () => {
    const { pages } = t.runtime.services;
    await pages.ensureFixedPages();
    const admin = await signIn(t.runtime.services, "admin");

    // No revision of the page kept yet: null, with the time the form was shown.
    const shownFirst = now.getTime() - 20_000;
    await call(t.app, "POST", "/api/join", {
      json: { ...VALID, started_at: await formTimeAt(t.database.db, "join", shownFirst) },
    });

    // Revision 1, then a form is shown; revision 2 while the visitor types; the form is sent after it.
    now = new Date(now.getTime() + 60_000);
    await pages.updatePage(PRIVACY_POLICY_PAGE, { title: "Privacy Policy", content: "<p>First text.</p>" });
    now = new Date(now.getTime() + 60_000);
    const shownAt = now.getTime();
    const started_at = await formTimeAt(t.database.db, "join", shownAt);
    now = new Date(now.getTime() + 60_000);
    await pages.updatePage(PRIVACY_POLICY_PAGE, { title: "Privacy Policy", content: "<p>Second text.</p>" });
    now = new Date(now.getTime() + 30_000);
    await call(t.app, "POST", "/api/join", {
      json: { ...VALID, email: "second@nordicbridge.example", started_at, altcha: await solved() },
    });
    // A message form shown now (revision 2); an API client without a shown-at time: its arrival, revision 2.
    await call(t.app, "POST", "/api/contact", { json: { ...MESSAGE, started_at: await shown("message") } });
    await call(t.app, "POST", "/api/join", { json: { ...VALID, email: "api@nordicbridge.example" } });

    const rows = await requests();
    expect(rows.map((r) => [r.email, r.privacy_revision, r.privacy_shown_at])).toEqual([
      [VALID.email, null, new Date(shownFirst).toISOString()],
      ["second@nordicbridge.example", 1, new Date(shownAt).toISOString()],
      [MESSAGE.email, 2, new Date(now.getTime() - 20_000).toISOString()],
      ["api@nordicbridge.example", 2, now.toISOString()],
    ]);
    // The page's revisions number them the same way.
    expect((await pages.revisions(PRIVACY_POLICY_PAGE)).map((r) => r.number)).toEqual([2, 1]);

    // The inbox's API says it.
    const inbox = await call(t.app, "GET", "/api/dashboard/join-requests", { token: admin.token });
    const data = inbox.json?.data as { email: string; privacy_revision: number | null; privacy_shown_at: string }[];
    const listed = data.map((r) => [r.email, r.privacy_revision, r.privacy_shown_at]).reverse();
    expect(listed).toEqual(rows.map((r) => [r.email, r.privacy_revision, r.privacy_shown_at]));
  });
});

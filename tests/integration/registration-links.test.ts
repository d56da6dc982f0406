import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINK_INVALID } from "../../app/routes/events/registration";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";
import { pagesApp, pageText } from "../support/pages";
import { registerThroughForm } from "../support/registrations";

/**
 * Issue 32, "Cancelling without an account": every registrant mail has a link to manage the
 * registration (`/registrations/{token}`: unguessable, stored hashed, valid until the meeting
 * ends); it shows the registration and its state and cancels it after a confirmation (POST); the
 * freed seat goes to the waiting list at once. Through the public form's API and the page, as a
 * browser without JavaScript uses it, on SQLite or PostgreSQL.
 */
let t: TestContext;
let pages: TestContext["app"];
let closePages: () => Promise<void>;
let now = new Date("2026-11-20T10:00:00Z");
const clock = () => new Date(now);

beforeAll(async () => {
  t = await createTestContext({ JOIN_RATE_LIMIT: "1000" }, { clock });
  ({ pages, close: closePages } = await pagesApp(t));
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

let slugs = 0;
async function meeting(capacity: number | null, start = "2026-12-10") {
  slugs += 1;
  const stamp = now.toISOString();
  const row = await t.database.db
    .insertInto("meetings")
    .values({
      slug: `linked-meeting-${slugs}`,
      title: `Linked Meeting ${slugs}`,
      type: "workshop",
      start_date: start,
      end_date: null,
      location: "Gdańsk, Poland",
      timezone: "Europe/Warsaw",
      capacity,
      registration_open: 1,
      registration_waitlist: 1,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning(["id", "slug"])
    .executeTakeFirstOrThrow();
  return { id: row.id, path: `/events/${row.slug}` };
}

let people = 0;
async function register(path: string, as: { email?: string; token?: string } = {}) {
  people += 1;
  const email = as.email ?? `linked${people}@example.org`;
  await registerThroughForm(t, path, { now, email, name: `Person ${people}`, token: as.token });
  return email;
}

/** The links in the mails to an address, newest last. */
async function linksTo(email: string): Promise<string[]> {
  const mails = await t.database.db
    .selectFrom("mail_queue")
    .select("body_text")
    .where("to_address", "=", email)
    .orderBy("id")
    .execute();
  return mails.flatMap((m) => [...m.body_text.matchAll(/\/registrations\/([A-Za-z0-9_-]{43})/g)].map((x) => x[1]));
}
const statusOf = async (email: string) =>
  (
    await t.database.db
      .selectFrom("join_requests")
      .select("registration_status")
      .where("email", "=", email)
      .executeTakeFirstOrThrow()
  ).registration_status;

const page = async (path: string, init: { form?: Record<string, string> } = {}) => {
  const answer = init.form
    ? await call(pages, "POST", `${ORIGIN}${path}`, { form: init.form })
    : await call(pages, "GET", `${ORIGIN}${path}`);
  return { ...answer, page: pageText(answer.text) };
};

describe("a registrant's link", () => {
  it("comes in every mail, absolute from BASE_URL, each its own, stored only as a hash", async () => {
    const m = await meeting(10);
    const email = await register(m.path);
    const mails = await t.database.db
      .selectFrom("mail_queue")
      .select("body_text")
      .where("to_address", "=", email)
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0].body_text).toContain(`To see your registration or cancel it: ${ORIGIN}/registrations/`);
    const [token] = await linksTo(email);
    const stored = await t.database.db.selectFrom("registration_links").select(["token_hash", "expires_at"]).execute();
    expect(stored.map((s) => s.token_hash)).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);
    // Valid until the meeting has ended: the day after it, from midnight in Warsaw (UTC+1 in December).
    expect(stored.at(-1)?.expires_at).toBe("2026-12-10T23:00:00.000Z");
  });

  it("shows the registration and its state, never cached, not indexed, and cancels it after a confirmation; the seat goes to the waiting list at once", async () => {
    const m = await meeting(1);
    const first = await register(m.path);
    const second = await register(m.path);
    expect(await statusOf(first)).toBe("pending");
    expect(await statusOf(second)).toBe("waitlisted");
    const [token] = await linksTo(first);

    const shown = await page(`/registrations/${token}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("cache-control")).toContain("no-store");
    expect(shown.text).toContain('<meta name="robots" content="noindex"/>');
    expect(shown.page).toContain("Received: the secretariat will confirm it within 48 hours.");
    expect(shown.page).toContain(`Linked Meeting ${slugs}`);
    expect(shown.page).toContain("10 December 2026");
    expect(shown.page).toContain("Gdańsk, Poland");
    expect(shown.page).toContain(first);
    expect(shown.page).toContain("Cancel my registration…");
    // Asking is a GET: nothing changes until the confirmation is posted.
    const asked = await page(`/registrations/${token}?cancel`);
    expect(asked.page).toContain("Yes, cancel my registration");
    expect(await statusOf(first)).toBe("pending");

    const done = await page(`/registrations/${token}`, { form: { intent: "cancel" } });
    expect(done.status, done.page.slice(0, 300)).toBe(200);
    expect(done.page).toContain("Your registration is cancelled.");
    expect(await statusOf(first)).toBe("cancelled");
    expect(await statusOf(second)).toBe("pending");
    // Both are told, each with a link of their own; the first link still opens the (cancelled) registration.
    const [cancelMail] = await t.database.db
      .selectFrom("mail_queue")
      .select(["subject", "body_text"])
      .where("to_address", "=", first)
      .orderBy("id", "desc")
      .execute();
    expect(cancelMail.subject).toContain("Registration cancelled");
    expect((await linksTo(second)).length).toBe(2);
    const again = await page(`/registrations/${token}`);
    expect(again.page).toContain("Cancelled.");
    expect(again.page).not.toContain("Cancel my registration");
    // A second cancel is refused with the reason, not a failure.
    const twice = await page(`/registrations/${token}`, { form: { intent: "cancel" } });
    expect(twice.status).toBe(422);
    expect(twice.page).toContain("A cancelled registration cannot be cancelled.");
  });

  it("opens nothing when made up, mistyped or once the meeting is over, and says so", async () => {
    const m = await meeting(null, "2026-11-25");
    const email = await register(m.path);
    const [token] = await linksTo(email);
    const mistyped = `${token.slice(0, 42)}${token.endsWith("A") ? "B" : "A"}`;
    for (const bad of ["x".repeat(43), mistyped, "short"]) {
      const answer = await page(`/registrations/${bad}`);
      expect(answer.status).toBe(404);
      expect(answer.page).toContain(LINK_INVALID);
      const post = await page(`/registrations/${bad}`, { form: { intent: "cancel" } });
      expect(post.status).toBe(404);
    }
    expect((await page(`/registrations/${token}`)).status).toBe(200);
    // The meeting (one day, in Warsaw) ends at midnight there: 23:00 UTC.
    now = new Date("2026-11-25T22:59:00Z");
    expect((await page(`/registrations/${token}`)).status).toBe(200);
    now = new Date("2026-11-25T23:00:00Z");
    expect((await page(`/registrations/${token}`)).status).toBe(404);
    expect((await page(`/registrations/${token}`, { form: { intent: "cancel" } })).status).toBe(404);
    expect(await statusOf(email)).toBe("pending");
    now = new Date("2026-11-20T10:00:00Z");
  });

  it("is refused a cross-site POST (the CSRF check): the registration stays", async () => {
    const m = await meeting(5);
    const email = await register(m.path);
    const [token] = await linksTo(email);
    const forged = await call(pages, "POST", `${ORIGIN}/registrations/${token}`, {
      form: { intent: "cancel" },
      headers: { origin: "https://evil.example" },
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
    expect(await statusOf(email)).toBe("pending");
  });
});

/**
 * 'Signed-in members see My registrations on /dashboard/events, with the same cancel': their
 * registrations by account or by address, on /dashboard/registrations and as an island of the
 * shared /dashboard/events; nobody else's, and nobody else's cancel.
 */
describe("My registrations", () => {
  const personal = async (path: string, cookie: string, form?: Record<string, string>) => {
    const answer = form
      ? await call(pages, "POST", `${ORIGIN}${path}`, { cookie, form })
      : await call(pages, "GET", `${ORIGIN}${path}`, { cookie });
    return { ...answer, page: pageText(answer.text) };
  };
  const idOf = async (email: string) =>
    (await t.database.db.selectFrom("join_requests").select("id").where("email", "=", email).executeTakeFirstOrThrow())
      .id;

  it("lists a member's registrations, by account and by address, only theirs, never cached", async () => {
    const { user } = await createUser(t.runtime.services, { email: "mine@example.org" });
    const session = await t.runtime.services.auth.login(
      { email: user.email, password: PASSWORD },
      { ip: "203.0.113.9" },
    );
    const cookie = `auth.session=${session.token}`;
    const signedOut = await meeting(10);
    const signedIn = await meeting(10);
    const someoneElses = await meeting(10);
    const over = await meeting(10, "2026-11-01");
    // Sent signed out from the member's address (upper case: the key is folded), and signed in with another one.
    await register(signedOut.path, { email: "Mine@Example.org" });
    await register(signedIn.path, { email: "attendee-of-mine@example.org", token: session.token });
    await register(someoneElses.path);
    await t.database.db
      .insertInto("join_requests")
      .values({
        kind: "registration",
        meeting_id: over.id,
        company_name: "Old",
        representative_name: "Past Me",
        email: "mine@example.org",
        phone_number: "1",
        page_path: over.path,
        registration_status: "confirmed",
        registration_email: "mine@example.org",
        user_id: user.id,
        created_at: "2026-10-01T00:00:00Z",
        status: "new",
      })
      .execute();

    const mine = await personal("/dashboard/registrations", cookie);
    expect(mine.status, mine.page.slice(0, 300)).toBe(200);
    expect(mine.headers.get("cache-control")).toContain("no-store");
    const titles = [...mine.text.matchAll(/>(Linked Meeting \d+)</g)].map((m) => m[1]);
    expect(titles.sort()).toEqual([`Linked Meeting ${slugs - 3}`, `Linked Meeting ${slugs - 2}`].sort());
    expect(mine.page).toContain("Received, to be confirmed");
    expect(mine.page).not.toContain("Past Me");

    // Another member sees none of them; the shared /dashboard/events names nobody's registrations.
    const other = (await signIn(t.runtime.services, "member")).cookie;
    const theirs = await personal("/dashboard/registrations", other);
    expect(theirs.page).toContain("You have no registrations for coming meetings.");
    expect(theirs.page).not.toContain("Linked Meeting");
    const events = await personal("/dashboard/events", cookie);
    expect(events.status).toBe(200);
    expect(events.page).toContain("My registrations");
    expect(events.text).toContain('href="/dashboard/registrations"');
    expect(events.page).not.toContain("Received, to be confirmed");
    expect(events.page).not.toContain("Cancel…");
    // Signed out: the members' area's sign-in.
    const anonymous = await call(pages, "GET", `${ORIGIN}/dashboard/registrations`);
    expect(anonymous.status).toBe(302);
  });

  it("cancels one after a confirmation, the seat going to the waiting list; another's is not found", async () => {
    const { cookie, user, token } = await signIn(t.runtime.services, "member");
    const m = await meeting(1);
    await register(m.path, { email: user.email, token });
    const waiting = await register(m.path);
    expect(await statusOf(waiting)).toBe("waitlisted");
    const id = await idOf(user.email);

    const asked = await personal(`/dashboard/registrations?cancel=${id}`, cookie);
    expect(asked.page).toContain("Yes, cancel my registration");
    expect(await statusOf(user.email)).toBe("pending");

    const other = (await signIn(t.runtime.services, "member")).cookie;
    const forged = await personal("/dashboard/registrations", other, { intent: "cancel", id: String(id) });
    expect(forged.status).toBe(404);
    expect(forged.page).toContain("Registration not found.");
    expect(await statusOf(user.email)).toBe("pending");
    const notANumber = await personal("/dashboard/registrations", cookie, { intent: "cancel", id: "1 or 1=1" });
    expect(notANumber.status).toBe(400);

    const done = await personal("/dashboard/registrations", cookie, { intent: "cancel", id: String(id) });
    expect(done.status, done.page.slice(0, 300)).toBe(200);
    expect(done.page).toContain(`Your registration for Linked Meeting ${slugs} is cancelled.`);
    expect(await statusOf(user.email)).toBe("cancelled");
    expect(await statusOf(waiting)).toBe("pending");
    const [mail] = await t.database.db
      .selectFrom("mail_queue")
      .select("subject")
      .where("to_address", "=", user.email)
      .orderBy("id", "desc")
      .execute();
    expect(mail.subject).toContain("Registration cancelled");
    const twice = await personal("/dashboard/registrations", cookie, { intent: "cancel", id: String(id) });
    expect(twice.status).toBe(422);
    expect(twice.page).toContain("A cancelled registration cannot be cancelled.");
  });
});

describe("the registration form's note without JavaScript", () => {
  it("comes back on /join with the rest of what was typed when the registration is refused", async () => {
    const m = await meeting(5);
    const refused = await call(pages, "POST", `${ORIGIN}/join`, {
      form: {
        company_name: "Baltic Bridge Sp. z o.o.",
        representative_name: "Noted Person",
        email: "not-an-address",
        phone_number: "+48 58 000 00 00",
        page_path: m.path,
        note: "Step-free access, please",
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/<textarea[^>]*name="note"[^>]*>Step-free access, please<\/textarea>/);
    expect(pageText(refused.text)).toContain("Note for the organisers (optional)");
  });
});

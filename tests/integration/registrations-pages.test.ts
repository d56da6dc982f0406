import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: 120_000 });

import { joinSubmissionSchema } from "../../core/join/join.schema";
import { NO_SEAT_LEFT } from "../../core/join/registrations.service";
import { meetingInputSchema } from "../../core/meetings/meetings.schema";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pagesApp, pageText } from "../support/pages";

/**
 * Issue 32 'The secretariat: /manage-events/{id}/registrations' (decision 0055), as a browser
 * without JavaScript uses it: GETs and form posts through the page loaders and actions, over a real
 * database, the registrations made through the public registration path (services.join.submit).
 */
let t: TestContext;
let pages: TestContext["app"];
let closePages: () => Promise<void>;
let admin: string;
let member: string;

type Meeting = { id: number; slug: string; title: string };
let meeting: Meeting;
let other: Meeting;
const ids: Record<string, number> = {};
let sequence = 0;

const get = async (url: string, cookie = admin) => {
  const answer = await call(pages, "GET", `${ORIGIN}${url}`, { cookie });
  return { ...answer, page: pageText(answer.text) };
};
/** A form post as a browser sends it (urlencoded, repeated fields kept: the bulk form's `ids`). */
const post = async (url: string, fields: [string, string][], cookie = admin) => {
  const answer = await call(pages, "POST", `${ORIGIN}${url}`, {
    cookie,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return { ...answer, page: pageText(answer.text) };
};
const bytesOf = async (url: string, cookie = admin) => {
  const response = await pages.request(`${ORIGIN}${url}`, { headers: { cookie } });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
};
const pdfText = async (bytes: Uint8Array) => {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text as string;
};

async function register(on: Meeting, name: string, company: string, note?: string) {
  sequence += 1;
  const outcome = await t.runtime.services.join.submit(
    joinSubmissionSchema.parse({
      company_name: company,
      representative_name: name,
      email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.org`,
      phone_number: "+44 20 7946 0000",
      page_path: `/events/${on.slug}`,
      note,
    }),
    { ip: `198.51.100.${sequence}`, trusted: true },
  );
  ids[name] = outcome.id;
  return outcome;
}

const path = () => `/manage-events/${meeting.id}/registrations`;

beforeAll(async () => {
  t = await createTestContext();
  ({ pages, close: closePages } = await pagesApp(t));
  admin = (await signIn(t.runtime.services, "admin")).cookie;
  member = (await signIn(t.runtime.services, "member")).cookie;
  const create = (title: string, capacity?: number) =>
    t.runtime.services.meetingsAdmin.create(
      meetingInputSchema.parse({
        title,
        type: "workshop",
        start_date: "2099-05-12",
        end_date: "2099-05-13",
        location: "Harbour Hall",
        ...(capacity ? { capacity: String(capacity) } : {}),
      }),
    );
  meeting = await create("Radar Workshop", 2);
  other = await create("Sonar Day");
  await register(meeting, "Łukasz Wróblewski", "Lagoon Marine", "Vegetarian, please");
  await register(meeting, "Ada Lovelace", "Analytical Engines");
  await register(meeting, "Grace Hopper", "Compiler Works");
  await register(other, "Alan Turing", "Bletchley Radio");
}, 180_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

describe("the registrations screen", () => {
  it("shows the meeting, its places against capacity, each registration with its state, and filters", async () => {
    const list = await get(path());
    expect(list.status).toBe(200);
    expect(list.page).toContain("Radar Workshop");
    expect(list.page).toContain("12–13 May 2099");
    expect(list.page).toContain("2 of 2 places taken · 1 waitlisted");
    expect(list.page).toContain("3 registrations");
    for (const name of ["Łukasz Wróblewski", "Ada Lovelace", "Grace Hopper"]) expect(list.page).toContain(name);
    expect(list.page).not.toContain("Alan Turing");
    expect(list.page).toContain("Note: Vegetarian, please");
    expect(list.page).toContain("ada.lovelace@example.org");
    expect(list.page).toContain("Waiting list");
    expect(list.page).toContain("+44 20 7946 0000");
    expect(list.page).toMatch(/Registered \d+ \w+, \d\d:\d\d/);
    // The state filter and the search, in the URL.
    const waiting = await get(`${path()}?status=waitlisted`);
    expect(waiting.page).toContain("1 registration");
    expect(waiting.page).toContain("Grace Hopper");
    expect(waiting.page).not.toContain("Ada Lovelace");
    const searched = await get(`${path()}?search=analytical`);
    expect(searched.page).toContain("1 registration matching “analytical”");
    expect(searched.page).toContain("Ada Lovelace");
    expect(searched.page).not.toContain("Grace Hopper");
    // Linked from the meetings' list and the meeting's edit screen.
    expect((await get("/manage-events")).text).toContain(`href="${path()}"`);
    expect((await get(`/manage-events/${meeting.id}/edit`)).text).toContain(`href="${path()}"`);
  });

  it("refuses a confirmation past capacity with the service's reason, and confirms a pending one", async () => {
    const full = await post(path(), [
      ["intent", "confirm"],
      ["id", String(ids["Grace Hopper"])],
    ]);
    expect(full.status).toBe(422);
    expect(full.page).toContain(`The registration of Grace Hopper was not confirmed: ${NO_SEAT_LEFT}`);
    const movedUp = await post(path(), [
      ["intent", "move-up"],
      ["id", String(ids["Grace Hopper"])],
    ]);
    expect(movedUp.status).toBe(422);
    expect(movedUp.page).toContain("was not moved up");
    const confirmed = await post(path(), [
      ["intent", "confirm"],
      ["id", String(ids["Ada Lovelace"])],
    ]);
    expect(confirmed.status).toBe(200);
    expect(confirmed.page).toContain("Confirmed the registration of Ada Lovelace");
    expect((await t.runtime.services.registrations.get(meeting.id, ids["Ada Lovelace"])).status).toBe("confirmed");
  });

  it("opens the decline question in place, declines with the reason, and the waiting list moves up", async () => {
    const asked = await get(`${path()}?decline=${ids["Łukasz Wróblewski"]}`);
    expect(asked.page).toContain("Decline the registration of Łukasz Wróblewski?");
    expect(asked.text).toContain(`id="decline-${ids["Łukasz Wróblewski"]}-reason"`);
    const declined = await post(path(), [
      ["intent", "decline"],
      ["id", String(ids["Łukasz Wróblewski"])],
      ["reason", "The workshop is for members' engineers."],
    ]);
    expect(declined.status).toBe(200);
    expect(declined.page).toContain("Declined the registration of Łukasz Wróblewski");
    expect((await t.runtime.services.registrations.get(meeting.id, ids["Grace Hopper"])).status).toBe("pending");
    const again = await post(path(), [
      ["intent", "decline"],
      ["id", String(ids["Łukasz Wróblewski"])],
    ]);
    expect(again.status).toBe(422);
    expect(again.page).toContain("A declined registration cannot be declined.");
  });

  it("checks in and undoes it from the list; cancels after its question", async () => {
    const checked = await post(path(), [
      ["intent", "check-in"],
      ["id", String(ids["Ada Lovelace"])],
    ]);
    expect(checked.status).toBe(200);
    expect(checked.page).toMatch(/Ada Lovelace checked in at \d+ \w+, \d\d:\d\d\./);
    expect((await get(path())).page).toMatch(/Checked in \d+ \w+, \d\d:\d\d/);
    const undone = await post(path(), [
      ["intent", "undo-check-in"],
      ["id", String(ids["Ada Lovelace"])],
    ]);
    expect(undone.page).toContain("Check-in of Ada Lovelace undone.");
    expect((await t.runtime.services.registrations.get(meeting.id, ids["Ada Lovelace"])).attended_at).toBeNull();
    const refused = await post(path(), [
      ["intent", "check-in"],
      ["id", String(ids["Łukasz Wróblewski"])],
    ]);
    expect(refused.status).toBe(422);
    expect(refused.page).toContain("A declined registration cannot be checked in.");
    const question = await get(`${path()}?cancel=${ids["Grace Hopper"]}`);
    expect(question.page).toContain("Cancel the registration of Grace Hopper?");
    const cancelled = await post(path(), [
      ["intent", "cancel"],
      ["id", String(ids["Grace Hopper"])],
    ]);
    expect(cancelled.page).toContain("Cancelled the registration of Grace Hopper");
    expect((await t.runtime.services.registrations.get(meeting.id, ids["Grace Hopper"])).status).toBe("cancelled");
  });

  it("changes several at once: the allowed ones done, each refused one named with its reason", async () => {
    await register(meeting, "Hedy Lamarr", "Frequency Hopping Ltd");
    const bulk = await post(path(), [
      ["intent", "bulk-cancel"],
      ["ids", String(ids["Hedy Lamarr"])],
      ["ids", String(ids["Ada Lovelace"])],
      ["ids", String(ids["Grace Hopper"])],
      ["ids", String(ids["Alan Turing"])],
    ]);
    expect(bulk.status).toBe(200);
    expect(bulk.page).toContain("Cancelled 2 registrations: Hedy Lamarr, Ada Lovelace.");
    expect(bulk.page).toContain(
      "The registration of Grace Hopper was not cancelled: A cancelled registration cannot be cancelled.",
    );
    // Another meeting's registration is not touched, and said so.
    expect(bulk.page).toContain(`Registration ${ids["Alan Turing"]} was not changed: Registration not found.`);
    expect((await t.runtime.services.registrations.get(other.id, ids["Alan Turing"])).status).toBe("pending");
    const none = await post(path(), [["intent", "bulk-confirm"]]);
    expect(none.status).toBe(422);
    expect(none.page).toContain("Select at least one registration first.");
    // Back to seats for the files and the door below.
    await register(meeting, "Katherine Johnson", "Orbital Maths");
    await register(meeting, "Mary Jackson", "Wind Tunnel Co");
    await register(meeting, "Dorothy Vaughan", "Fortran Group");
    const mixed = await post(path(), [
      ["intent", "bulk-confirm"],
      ["ids", String(ids["Katherine Johnson"])],
      ["ids", String(ids["Dorothy Vaughan"])],
      ["ids", String(ids["Ada Lovelace"])],
    ]);
    expect(mixed.status).toBe(200);
    expect(mixed.page).toContain("Confirmed 1 registration: Katherine Johnson.");
    expect(mixed.page).toContain(`The registration of Dorothy Vaughan was not confirmed: ${NO_SEAT_LEFT}`);
    expect(mixed.page).toContain("A cancelled registration cannot be confirmed.");
  });
});

describe("the files", () => {
  it("exports every registration as CSV with its state, note and check-in", async () => {
    await post(path(), [
      ["intent", "check-in"],
      ["id", String(ids["Katherine Johnson"])],
    ]);
    const csv = await get(`${path()}/export.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toContain(`filename="${meeting.slug}-registrations.csv"`);
    const lines = csv.text.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe(
      '"Registered","Name","Company","E-mail","Phone","Note","State","Attended at","Probable spam"',
    );
    const line = (name: string) => lines.find((l) => l.includes(`"${name}"`)) ?? "";
    expect(line("Łukasz Wróblewski")).toContain('"Vegetarian, please","declined"');
    expect(line("Katherine Johnson")).toMatch(/"confirmed","\d{4}-\d\d-\d\dT[\d:.]+Z"/);
    expect(line("Dorothy Vaughan")).toContain('"waitlisted",""');
    expect(line("Hedy Lamarr")).toContain('"cancelled"');
    expect(csv.text).not.toContain("Alan Turing");
  });

  it("prints the attendee list (seat holders and the waiting list) and the badges (seat holders) as PDF", async () => {
    const list = await bytesOf(`${path()}/attendees.pdf`);
    expect(list.response.status).toBe(200);
    expect(list.response.headers.get("content-type")).toBe("application/pdf");
    expect(list.response.headers.get("content-disposition")).toContain(
      `inline; filename="${meeting.slug}-attendee-list.pdf"`,
    );
    const listed = await pdfText(list.bytes);
    for (const name of ["Katherine Johnson", "Mary Jackson", "Dorothy Vaughan"]) expect(listed).toContain(name);
    expect(listed).toContain("Radar Workshop");
    for (const gone of ["Łukasz Wróblewski", "Hedy Lamarr", "Alan Turing"]) expect(listed).not.toContain(gone);
    const badges = await bytesOf(`${path()}/badges.pdf`);
    expect(badges.response.status).toBe(200);
    expect(badges.response.headers.get("content-disposition")).toContain(`filename="${meeting.slug}-badges.pdf"`);
    const printed = await pdfText(badges.bytes);
    expect(printed).toContain("Katherine Johnson");
    expect(printed).toContain("Orbital Maths");
    expect(printed).toContain("Mary Jackson");
    expect(printed).not.toContain("Dorothy Vaughan");
  });
});

describe("check-in at the door", () => {
  it("lists the pending and confirmed, finds by name, checks in with the time and undoes it", async () => {
    const door = await get(`${path()}/check-in`);
    expect(door.status).toBe(200);
    expect(door.page).toContain("Katherine Johnson");
    expect(door.page).toContain("Mary Jackson");
    expect(door.page).not.toContain("Dorothy Vaughan");
    expect(door.page).not.toContain("Hedy Lamarr");
    expect(door.page).toContain("1 of 2 checked in");
    expect(door.text).toMatch(/aria-pressed="true"/);
    const found = await get(`${path()}/check-in?search=wind`);
    expect(found.page).toContain("Mary Jackson");
    expect(found.page).not.toContain("Katherine Johnson");
    const tapped = await post(`${path()}/check-in?search=wind`, [
      ["intent", "check-in"],
      ["id", String(ids["Mary Jackson"])],
    ]);
    expect(tapped.status).toBe(200);
    expect(tapped.page).toMatch(/Mary Jackson checked in at \d+ \w+, \d\d:\d\d\./);
    expect(tapped.page).toMatch(/Checked in \d+ \w+, \d\d:\d\d · tap to undo/);
    expect((await t.runtime.services.registrations.get(meeting.id, ids["Mary Jackson"])).attended_at).not.toBeNull();
    const untapped = await post(`${path()}/check-in`, [
      ["intent", "undo-check-in"],
      ["id", String(ids["Mary Jackson"])],
    ]);
    expect(untapped.page).toContain("Check-in of Mary Jackson undone.");
    expect((await t.runtime.services.registrations.get(meeting.id, ids["Mary Jackson"])).attended_at).toBeNull();
  });

  it("is seen at once by the registrations API, whose answers are kept per content version", async () => {
    const { token } = await signIn(t.runtime.services, "admin");
    const api = `/api/dashboard/meeting/${meeting.id}/registrations?search=wind`;
    const attendedAt = async () => {
      const answer = await call(t.app, "GET", api, { token });
      expect(answer.status).toBe(200);
      return (answer.json as { data: { attended_at: string | null }[] }).data[0]?.attended_at;
    };
    expect(await attendedAt()).toBeNull();
    expect(await attendedAt()).toBeNull();
    await post(`${path()}/check-in`, [
      ["intent", "check-in"],
      ["id", String(ids["Mary Jackson"])],
    ]);
    expect(await attendedAt()).not.toBeNull();
    await post(`${path()}/check-in`, [
      ["intent", "undo-check-in"],
      ["id", String(ids["Mary Jackson"])],
    ]);
    expect(await attendedAt()).toBeNull();
  });
});

describe("who may", () => {
  it("sends members and visitors away from every screen and file, and answers 404 for what is not this meeting's", async () => {
    for (const url of [path(), `${path()}/check-in`, `${path()}/export.csv`, `${path()}/attendees.pdf`]) {
      const asMember = await call(pages, "GET", `${ORIGIN}${url}`, { cookie: member });
      expect(asMember.status, url).toBe(302);
      expect(asMember.headers.get("location"), url).toBe("/dashboard");
      const asVisitor = await call(pages, "GET", `${ORIGIN}${url}`);
      expect(asVisitor.status, url).toBe(302);
      expect(asVisitor.headers.get("location"), url).toMatch(/^\/login\?redirect=/);
    }
    const refused = await post(
      path(),
      [
        ["intent", "confirm"],
        ["id", String(ids["Mary Jackson"])],
      ],
      member,
    );
    expect(refused.status).toBe(302);
    expect((await t.runtime.services.registrations.get(meeting.id, ids["Mary Jackson"])).status).toBe("pending");
    // Another meeting's registration through this meeting's screens: not found, and untouched.
    const elsewhere = await post(path(), [
      ["intent", "confirm"],
      ["id", String(ids["Alan Turing"])],
    ]);
    expect(elsewhere.status).toBe(404);
    const door = await post(`${path()}/check-in`, [
      ["intent", "check-in"],
      ["id", String(ids["Alan Turing"])],
    ]);
    expect(door.status).toBe(404);
    expect((await t.runtime.services.registrations.get(other.id, ids["Alan Turing"])).attended_at).toBeNull();
    for (const url of ["/manage-events/987654/registrations", "/manage-events/987654/registrations/export.csv"]) {
      expect((await get(url)).status, url).toBe(404);
    }
  });
});

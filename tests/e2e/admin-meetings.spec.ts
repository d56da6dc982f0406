import sharp from "sharp";
import { ADMIN, expect, expectAccessible, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

const TITLE = "Harbour Pilots Symposium 2031";
const SLUG = "harbour-pilots-symposium-2031";
const DAY_ONE = "Tuesday 16 September 2031";
const DAY_TWO = "Wednesday 17 September 2031";

const picture = (background: string) =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background } })
    .jpeg()
    .toBuffer();
const logo = (background: string) =>
  sharp({ create: { width: 400, height: 200, channels: 4, background } })
    .png()
    .toBuffer();

test("an admin creates a meeting with its programme, sponsors and pictures, edits it and deletes it", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto("/login?redirect=%2Fmanage-events");
  await signIn(page, ADMIN);
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  await expectAccessible(page);

  // Create, with its first picture.
  await page.getByRole("link", { name: "New meeting" }).click();
  await expect(page.getByLabel("Time zone", { exact: true })).toHaveValue("Europe/London");
  // The zones offered: the IANA list, the site's zone first.
  const zones = page.locator("datalist#time-zones option");
  await expect(zones.first()).toHaveAttribute("value", "Europe/London");
  expect(await zones.count()).toBeGreaterThan(400);
  await expect(page.locator('datalist#time-zones option[value="Pacific/Chatham"]')).toHaveCount(1);
  await page.getByLabel("Title", { exact: true }).fill(TITLE);
  await page.getByLabel("Type", { exact: true }).selectOption("meeting");
  await page.getByLabel("Format", { exact: true }).fill("Hybrid");
  await page.getByLabel("Organization", { exact: true }).fill("Masthead pilotage working group");
  await page.getByLabel("Start date", { exact: true }).fill("2031-09-16");
  await page.getByLabel("End date", { exact: true }).fill("2031-09-17");
  await page.getByLabel("Time zone", { exact: true }).fill("Europe/Amsterdam");
  await page.getByLabel("Location", { exact: true }).fill("Maritime Museum, Rotterdam");
  await page.getByLabel("Capacity", { exact: true }).fill("40");
  await page.getByRole("textbox", { name: "About" }).click();
  await page.keyboard.type("Two days on pilot boarding, data exchange and port approaches.");
  const newPicture = page.getByRole("region", { name: "Pictures", exact: true });
  await newPicture
    .getByLabel("Add a picture", { exact: true })
    .setInputFiles({ name: "quay.jpg", mimeType: "image/jpeg", buffer: await picture("#12335c") });
  // Without its alt text the picture is refused beside the field, what was typed stays.
  await page.getByRole("button", { name: "Create meeting" }).click();
  await expect(newPicture.getByText("The alt text field is required unless the image is decorative.")).toBeVisible();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue(TITLE);
  await newPicture
    .getByLabel("Add a picture", { exact: true })
    .setInputFiles({ name: "quay.jpg", mimeType: "image/jpeg", buffer: await picture("#12335c") });
  await newPicture.getByLabel("Alt text", { exact: true }).fill("The quay at the Maritime Museum");
  await page.getByRole("button", { name: "Create meeting" }).click();
  await expect(page.getByRole("status").first()).toContainText(`Saved “${TITLE}”.`);
  await expect(page).toHaveURL(/\/manage-events\/\d+\/edit$/);
  const editUrl = page.url();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(TITLE);
  // Two more, one at a time: one described, one decorative.
  for (const [name, colour, alt] of [
    ["pilot-boat.jpg", "#0a7c75", "The pilot boat alongside"],
    ["bridge.jpg", "#f2a413", null],
  ] as const) {
    await newPicture
      .getByLabel("Add a picture", { exact: true })
      .setInputFiles({ name, mimeType: "image/jpeg", buffer: await picture(colour) });
    if (alt) await newPicture.getByLabel("Alt text", { exact: true }).fill(alt);
    else await newPicture.getByLabel(/^Decorative/).check();
    await page.getByRole("button", { name: "Save meeting" }).click();
    await expect(page).toHaveURL(/\/manage-events$/);
    await page.goto(editUrl);
  }
  const gallery = page.getByRole("region", { name: "Pictures of this meeting" });
  const pictures = gallery.getByRole("listitem");
  await expect(pictures).toHaveCount(3);
  await expect(gallery.getByRole("img", { name: "picture 1 of 3: The quay at the Maritime Museum" })).toBeVisible();
  await expect(gallery.getByLabel(/^Decorative/).nth(2)).toBeChecked();
  // A picture's alt text changes in place.
  const second = pictures.nth(1);
  await second.getByLabel("Alt text", { exact: true }).fill("The pilot boat alongside the quay");
  await second.getByRole("button", { name: "Save alt text" }).click();
  await expect(second.getByRole("status")).toHaveText("Alt text saved.");
  await expect(gallery.getByRole("img", { name: "picture 2 of 3: The pilot boat alongside the quay" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Registrations" })).toContainText("0 / 40 registered");

  // The programme: two days, several sessions each.
  const addSession = page.getByRole("form", { name: "Add a session" });
  const sessions: [string, string, string, string, boolean][] = [
    ["2031-09-16", "09:00", "10:30", "Opening and keynote", false],
    ["2031-09-16", "11:00", "12:30", "Pilot boarding arrangements", false],
    ["2031-09-16", "19:00", "22:00", "Dinner at the harbour", true],
    ["2031-09-17", "09:30", "11:00", "Route exchange with S-421", false],
    ["2031-09-17", "11:30", "13:00", "Port approach data", false],
  ];
  for (const [date, start, finish, description, evening] of sessions) {
    await addSession.getByLabel("Date", { exact: true }).fill(date);
    await addSession.getByLabel("Start", { exact: true }).fill(start);
    await addSession.getByLabel("Finish", { exact: true }).fill(finish);
    await addSession.getByLabel("Evening session", { exact: true }).setChecked(evening);
    await addSession.getByLabel("Description", { exact: true }).fill(description);
    await addSession.getByRole("button", { name: "Add session" }).click();
    await expect(page.getByRole("row", { name: new RegExp(description) })).toBeVisible();
    // Ready for the next one: the form is empty again and focus is back on its first field.
    await expect(addSession.getByLabel("Description", { exact: true })).toHaveValue("");
    await expect(addSession.getByLabel("Date", { exact: true })).toBeFocused();
  }
  await expect(page.getByRole("rowheader", { name: DAY_ONE })).toBeVisible();
  await expect(page.getByRole("rowheader", { name: DAY_TWO })).toBeVisible();

  // A refused session: the message is beside its field, and what was typed stays.
  await addSession.getByLabel("Date", { exact: true }).fill("2031-09-17");
  await addSession.getByLabel("Start", { exact: true }).fill("15:00");
  await addSession.getByLabel("Finish", { exact: true }).fill("14:00");
  await addSession.getByLabel("Description", { exact: true }).fill("Closing remarks");
  await addSession.getByRole("button", { name: "Add session" }).click();
  await expect(addSession.getByText("The finish time must be after the start time.")).toBeVisible();
  await expect(addSession.getByLabel("Finish", { exact: true })).toBeFocused();
  await expect(addSession.getByLabel("Description", { exact: true })).toHaveValue("Closing remarks");
  await addSession.getByLabel("Finish", { exact: true }).fill("15:30");
  await addSession.getByRole("button", { name: "Add session" }).click();
  await expect(page.getByRole("row", { name: /Closing remarks/ })).toBeVisible();

  // Edit a session in place.
  await page.getByRole("link", { name: `Edit the session 11:00–12:30 on ${DAY_ONE}` }).click();
  const editing = page.getByRole("form", { name: `Edit the session 11:00–12:30 on ${DAY_ONE}` });
  await expect(editing.getByLabel("Date", { exact: true })).toBeFocused();
  await editing.getByLabel("Finish", { exact: true }).fill("12:45");
  await editing.getByLabel("Description", { exact: true }).fill("Pilot boarding arrangements and ladders");
  await editing.getByRole("button", { name: "Save session" }).click();
  await expect(page.getByRole("row", { name: /11:00–12:45.*Pilot boarding arrangements and ladders/ })).toBeVisible();
  await expect(page.getByRole("link", { name: `Edit the session 11:00–12:45 on ${DAY_ONE}` })).toBeFocused();

  // Two sponsors with logos.
  const addSponsor = page.getByRole("form", { name: "Add a sponsor" });
  for (const [name, link, colour] of [
    ["Nordlys Radar AS", "https://nordlys-radar.example", "#0a2342"],
    ["Kestrel Bridge Systems", "https://kestrel-bridge.example", "#10a59c"],
  ]) {
    await addSponsor.getByLabel("Name", { exact: true }).fill(name);
    await addSponsor.getByLabel("Link", { exact: true }).fill(link);
    await addSponsor
      .getByLabel("Logo", { exact: true })
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await logo(colour) });
    await addSponsor.getByRole("button", { name: "Add sponsor" }).click();
    await expect(page.getByRole("img", { name: `${name} logo` })).toBeVisible();
  }
  await expectAccessible(page);

  // Delete a picture and a sponsor, each after confirming, on a slow phone: React Router's updates
  // are transitions, which a busy browser merges, so the answer can come in the same render that
  // removes the row and its dialog; focus still goes to the section's heading.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
  await page.getByRole("button", { name: "Delete picture 2" }).click();
  await page.getByRole("dialog", { name: "Delete this picture?" }).getByRole("button", { name: "Delete" }).click();
  await expect(pictures).toHaveCount(2);
  await expect(page.getByRole("heading", { name: "Pictures of this meeting" })).toBeFocused();
  await page.getByRole("button", { name: "Delete the sponsor Nordlys Radar AS" }).click();
  await page.getByRole("dialog", { name: "Delete this sponsor?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("img", { name: "Nordlys Radar AS logo" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Sponsors" })).toBeFocused();
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });

  // The public page shows the changes.
  await page.goto(`/events/${SLUG}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(TITLE);
  const programme = page.getByRole("region", { name: "Programme" });
  await expect(programme.getByRole("table")).toHaveCount(2);
  await expect(programme).toContainText("Pilot boarding arrangements and ladders");
  await expect(programme).toContainText("11:00–12:45");
  await expect(programme).toContainText("Route exchange with S-421");
  const sponsors = page.getByRole("region", { name: "Sponsors" });
  await expect(sponsors.getByRole("img", { name: "Kestrel Bridge Systems" })).toBeVisible();
  await expect(sponsors).not.toContainText("Nordlys");
  await expect(page.locator("main img[src*='/uploads/meetings/']")).toHaveCount(2);
  await expect(page.locator("main img[src*='/uploads/meetings/']").first()).toHaveAttribute(
    "alt",
    "The quay at the Maritime Museum",
  );
  await expect(page.locator("main img[src*='/uploads/meetings/']").nth(1)).toHaveAttribute("alt", "");

  // The list's search finds it, with its registrations; delete removes it.
  await page.goto("/manage-events?search=pilots%20symposium");
  await expect(page.getByText("1 meeting matching")).toBeVisible();
  const row = page.locator("main li", { hasText: TITLE });
  await expect(row).toContainText("0 / 40 registered");
  await expect(row).toContainText("Public");
  await expect(row.getByRole("link", { name: `View ${TITLE}` })).toHaveAttribute("href", `/events/${SLUG}`);
  await page.getByRole("button", { name: `Delete ${TITLE}` }).click();
  await page.getByRole("dialog", { name: "Delete this meeting?" }).getByRole("button", { name: "Delete" }).click();
  await expect(row).toHaveCount(0);
  expect((await page.goto(`/events/${SLUG}`))?.status()).toBe(404);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the meeting form and the programme work as plain forms", async ({ page }) => {
    await page.goto("/login?redirect=%2Fmanage-events%2Fnew");
    await signIn(page, ADMIN, { javaScript: false });
    await expect(page.getByRole("heading", { level: 1, name: "New meeting" })).toBeVisible();

    // A refusal keeps what was typed, with the message beside the field.
    await page.getByLabel("Title", { exact: true }).fill("Plain forms check meeting");
    await page.getByLabel("Start date", { exact: true }).fill("2031-10-02");
    await page.getByLabel("End date", { exact: true }).fill("2031-10-01");
    await page.getByLabel("Members only", { exact: true }).check();
    await page.getByRole("button", { name: "Create meeting" }).click();
    await expect(page.getByText("The end date may not be before the start date.")).toBeVisible();
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Plain forms check meeting");
    await expect(page.getByLabel("Members only", { exact: true })).toBeChecked();
    await page.getByLabel("End date", { exact: true }).fill("2031-10-03");
    await page.getByRole("button", { name: "Create meeting" }).click();
    await expect(page).toHaveURL(/\/manage-events\/\d+\/edit$/);
    await expect(page.getByRole("status").first()).toContainText("Saved “Plain forms check meeting”.");

    // Add a session, then edit it through its own address.
    const addSession = page.getByRole("form", { name: "Add a session" });
    await addSession.getByLabel("Date", { exact: true }).fill("2031-10-02");
    await addSession.getByLabel("Start", { exact: true }).fill("10:00");
    await addSession.getByLabel("Finish", { exact: true }).fill("11:00");
    await addSession.getByLabel("Description", { exact: true }).fill("Plain session");
    await addSession.getByRole("button", { name: "Add session" }).click();
    await expect(page.getByRole("row", { name: /Plain session/ })).toBeVisible();
    await page.getByRole("link", { name: /^Edit the session 10:00–11:00/ }).click();
    const editing = page.getByRole("form", { name: /^Edit the session 10:00–11:00/ });
    await editing.getByLabel("Start", { exact: true }).fill("11:30");
    await editing.getByRole("button", { name: "Save session" }).click();
    await expect(editing.getByText("The finish time must be after the start time.")).toBeVisible();
    await expect(editing.getByLabel("Start", { exact: true })).toHaveValue("11:30");
    await editing.getByLabel("Finish", { exact: true }).fill("12:00");
    await editing.getByRole("button", { name: "Save session" }).click();
    await expect(page.getByRole("row", { name: /11:30–12:00.*Plain session/ })).toBeVisible();

    // Members only: the list links to the members' page; the list's search works as a plain GET.
    await page.goto("/manage-events");
    await page.getByLabel("Search meetings", { exact: true }).fill("plain forms");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/search=plain\+forms/);
    const row = page.locator("main li", { hasText: "Plain forms check meeting" });
    await expect(row).toContainText("Members only");
    await expect(row.getByRole("link", { name: /^View/ })).toHaveAttribute(
      "href",
      "/dashboard/events/plain-forms-check-meeting",
    );
  });
});

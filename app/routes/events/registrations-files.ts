import { data } from "react-router";
import { SEAT_HOLDING } from "../../../core/join/join.values";
import { attendeeListPdf, badgesPdf } from "../../../core/meetings/attendee-pdf";
import { contentDisposition } from "../../../lib/content-disposition";
import { toCsv } from "../../../lib/csv";
import { createSlots } from "../../../lib/slots";
import { formatDateRange } from "../../components/events/format";
import { getRequestContext } from "../../context";
import type { Route } from "./+types/registrations-files";
import { meetingOf } from "./registrations.server";

/**
 * A PDF takes the event loop for about 0.3 s per 60 attendees (decision 0054): one is made at a
 * time, a few more wait their turn, and past that the secretariat is asked to try again (503).
 */
const pdfSlots = createSlots(1);
export const PDF_MAX_WAITING = 3;
export const PDF_BUSY = "Another PDF is being made just now. Please try again in a few seconds.";

/** The printed list: who holds a seat and who waits for one (its own state, with a dash to tick); not the declined and cancelled. */
const LISTED = ["pending", "confirmed", "waitlisted"] as const;

/**
 * A meeting's registrations as files (issue 32, decision 0055): `export.csv` (every registration
 * with its state, note and check-in), `attendees.pdf` (the printable list) and `badges.pdf` (a
 * badge for each pending or confirmed registration). Under the admin layout: admins, editors, and the meeting's groups' chairs (meetingOf).
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const meeting = await meetingOf(context, params.id);
  const file = url.pathname.slice(url.pathname.lastIndexOf("/") + 1);
  if (file === "export.csv") {
    const rows = await services.registrations.all(meeting.id);
    const csv = toCsv(
      ["Registered", "Name", "Company", "E-mail", "Phone", "Note", "State", "Attended at", "Probable spam"],
      rows.map((r) => [
        r.created_at,
        r.representative_name,
        r.company_name,
        r.email,
        r.phone_number,
        r.note ?? "",
        r.status,
        r.attended_at ?? "",
        r.spam_reason ?? "",
      ]),
    );
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": contentDisposition("attachment", `${meeting.slug}-registrations.csv`),
        "Cache-Control": "private, no-store",
      },
    });
  }
  const badges = file === "badges.pdf";
  if (!badges && file !== "attendees.pdf") throw data("This page could not be found", { status: 404 });
  // The check and the slot (or the place in line) are taken in one step, with nothing awaited in
  // between: otherwise requests that arrive together all pass the check before any holds the slot.
  if (pdfSlots.busy > 0 && pdfSlots.waiting >= PDF_MAX_WAITING) {
    return new Response(PDF_BUSY, {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "5", "Cache-Control": "no-store" },
    });
  }
  const bytes = await pdfSlots.run(async () => {
    const [rows, site] = await Promise.all([
      services.registrations.all(meeting.id, badges ? SEAT_HOLDING : LISTED),
      services.settings.getAll(),
    ]);
    const about = {
      title: meeting.title,
      dates: formatDateRange(meeting.start_date, meeting.end_date),
      place: meeting.location,
      timeZone: meeting.timezone,
      capacity: meeting.registration_settings.capacity,
    };
    const attendees = rows.map((r) => ({
      name: r.representative_name || r.email,
      company: r.company_name,
      email: r.email,
      status: r.status as (typeof LISTED)[number],
      attended_at: r.attended_at,
    }));
    return badges
      ? badgesPdf({ meeting: about, siteName: site["site.name"], attendees })
      : attendeeListPdf({ meeting: about, siteName: site["site.name"], generatedAt: new Date(), attendees });
  });
  return new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": contentDisposition("inline", `${meeting.slug}-${badges ? "badges" : "attendee-list"}.pdf`),
      "Cache-Control": "private, no-store",
    },
  });
}

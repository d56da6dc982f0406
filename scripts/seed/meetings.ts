import type { SceneName } from "./assets";
import { CONFERENCE_CAPACITY } from "./registrations";
import { addDays, dateRange, isoDate, monthStart, nthWeekday, slugify, toMidweek } from "./util";

/**
 * Events of the demo: three editions each of the Annual Conference and the
 * Annual Technical Workshop (one upcoming), plus working group meetings,
 * board meetings and webinars over the past two years and the next year.
 * All dates are computed from `now` so that upcoming events stay upcoming.
 */

export type ImageSeed = { scene: SceneName; variant: number; label: string; title: string; subtitle?: string };

export type ScheduleSeed = {
  meeting_date: string;
  is_evening: number;
  start: string;
  finish: string;
  meeting_date_info: string;
  description: string;
};

export type MeetingSeed = {
  slug: string;
  title: string;
  type: "conference" | "workshop" | "meeting" | "webinar";
  meeting_type: "In person" | "Online" | "Hybrid";
  organization: string;
  start: Date;
  end: Date;
  location: string;
  information: string;
  health: string | null;
  registration: string;
  content_title: string;
  content: string;
  images: ImageSeed[];
  schedules: ScheduleSeed[];
  sponsors: string[];
  /** The IANA zone the programme's times are in (issue 13 'Time zones'). */
  timezone: string;
  /** 'members': shown to signed-in users only. */
  visibility: "public" | "members";
  /** The working groups (their slugs) a members' meeting is for: their members only (issue 36). */
  groups?: string[];
  registration_open: boolean;
  registration_closes_on: string | null;
  capacity: number | null;
};

export type MeetingRef = {
  title: string;
  slug: string;
  year: number;
  city: string;
  venue: string;
  dates: string;
  start: Date;
  end: Date;
};

const IN_PERSON_HEALTH =
  "<p>Please do not travel to the meeting if you feel unwell. First aid is available at the venue reception, and the venue is fully accessible for wheelchair users. Let the secretariat know in advance about any accessibility or dietary requirements and we will make the necessary arrangements.</p>";

type Edition = {
  offsetMonths: number;
  city: string;
  timezone: string;
  country: string;
  venue: string;
  address: string;
  host: string;
  theme: string;
  keynote: string;
  sessions: string[];
  visit: string;
  sponsors: string[];
  variant: number;
};

const CONFERENCES: Edition[] = [
  {
    offsetMonths: 4,
    city: "Rotterdam",
    timezone: "Europe/Amsterdam",
    country: "Netherlands",
    venue: "Maaskade Congress Centre",
    address: "Maaskade 120, 3071 NL Rotterdam",
    host: "Zeeland Radio Services B.V.",
    theme: "Connected ships, trusted data",
    keynote: "Keynote: the connected ship ten years from now",
    sessions: [
      "Session 1: Regulatory update from IMO, ITU and IEC",
      "Session 2: S-100 services in the port approach — S-421 and SECOM in operation",
      "Session 3: Panel — who is responsible for software on board?",
      "Session 4: VDES and the next generation of AIS",
      "Session 5: Cyber resilience one year after IACS E26 and E27",
      "Session 6: Service and maintenance in a connected fleet",
    ],
    visit: "Technical visit to the Port of Rotterdam vessel traffic centre",
    sponsors: [
      "Zeeland Radio Services B.V.",
      "Nordhavn Marine Electronics AS",
      "Sato Maritime Instruments K.K.",
      "Fjordlink Satellite AS",
      "Harbour Shield Cyber OÜ",
      "Bluefin Integrated Bridge Systems LLC",
    ],
    variant: 6,
  },
  {
    offsetMonths: -8,
    city: "Singapore",
    timezone: "Asia/Singapore",
    country: "Singapore",
    venue: "Harbourfront Convention Centre",
    address: "1 Harbourfront Walk, Singapore 098585",
    host: "Lion City Marine Systems Pte Ltd",
    theme: "Navigating the digital transition",
    keynote: "Keynote: digitalisation of port and ship interfaces in Asia",
    sessions: [
      "Session 1: Regulatory update from IMO, ITU and IEC",
      "Session 2: Maritime single window and just-in-time arrival",
      "Session 3: Panel — the modernised GMDSS in practice",
      "Session 4: Remote software updates and type approval",
      "Session 5: Satellite services for safety communications",
      "Session 6: Training the next generation of service engineers",
    ],
    visit: "Technical visit to a port operations control centre",
    sponsors: [
      "Lion City Marine Systems Pte Ltd",
      "Hanbit Marine Systems Co., Ltd",
      "Sato Maritime Instruments K.K.",
      "Atlantic Bridge Systems Ltd",
      "Mistral Antenna Technologies S.p.A.",
    ],
    variant: 2,
  },
  {
    offsetMonths: -20,
    city: "Hamburg",
    timezone: "Europe/Berlin",
    country: "Germany",
    venue: "Elbufer Congress Hall",
    address: "Am Elbufer 15, 20459 Hamburg",
    host: "Brightwater Navigation GmbH",
    theme: "Resilience at sea",
    keynote: "Keynote: GNSS vulnerability and resilient position, navigation and timing",
    sessions: [
      "Session 1: Regulatory update from IMO, ITU and IEC",
      "Session 2: Resilient PNT — terrestrial back-up and multi-system receivers",
      "Session 3: Panel — cyber incidents on board, lessons learned",
      "Session 4: Bridge alert management after five years",
      "Session 5: Preparing for ECDIS with S-100",
      "Session 6: Spectrum for maritime services at the next WRC",
    ],
    visit: "Technical visit to a shipyard integration test bench",
    sponsors: [
      "Brightwater Navigation GmbH",
      "Nordhavn Marine Electronics AS",
      "Meridian Gyro Instruments Inc.",
      "Atlantic Bridge Systems Ltd",
    ],
    variant: 7,
  },
];

const WORKSHOPS: Edition[] = [
  {
    offsetMonths: 7,
    city: "Copenhagen",
    timezone: "Europe/Copenhagen",
    country: "Denmark",
    venue: "Refshaleøen Innovation Centre",
    address: "Refshalevej 163, 1432 Copenhagen",
    host: "Østersø Maritime Communications A/S",
    theme: "S-100 in service: from test beds to the bridge",
    keynote: "Opening talk: lessons from three years of S-100 test beds",
    sessions: [
      "Tutorial: S-100 data models and the feature catalogue",
      "Tutorial: signing and verifying data sets for SECOM",
      "Interoperability session: S-421 route exchange between ECDIS and shore",
      "Interoperability session: SECOM services and certificate handling",
      "Results and open issues",
      "Drafting session: comments on the next S-421 edition",
    ],
    visit: "Demonstration on board a training vessel",
    sponsors: ["Fjordlink Satellite AS", "Brightwater Navigation GmbH", "Hanbit Marine Systems Co., Ltd"],
    variant: 4,
  },
  {
    offsetMonths: -5,
    city: "Genoa",
    timezone: "Europe/Rome",
    country: "Italy",
    venue: "Porto Antico Conference Centre",
    address: "Calata Molo Vecchio 15, 16128 Genoa",
    host: "Tirreno Navigazione Elettronica S.r.l.",
    theme: "Interoperability in practice: S-421, SECOM and IEC 61162-450",
    keynote: "Opening talk: why interfaces still fail on board",
    sessions: [
      "Tutorial: IEC 61162-450 network configuration",
      "Tutorial: S-421 route plans and RTZ mapping",
      "Interoperability session: route exchange between six ECDIS makes",
      "Interoperability session: SECOM upload and acknowledgement",
      "Results and open issues",
      "Drafting session: technical bulletin on network segregation",
    ],
    visit: "Visit to a bridge simulator centre",
    sponsors: [
      "Mistral Antenna Technologies S.p.A.",
      "Atlantic Bridge Systems Ltd",
      "Zeeland Radio Services B.V.",
      "Meridian Gyro Instruments Inc.",
    ],
    variant: 0,
  },
  {
    offsetMonths: -17,
    city: "Southampton",
    timezone: "Europe/London",
    country: "United Kingdom",
    venue: "Ocean Village Conference Centre",
    address: "Ocean Way, Southampton SO14 3JZ",
    host: "Kestrel Radio Systems Ltd",
    theme: "Cyber security by design: applying IEC 63154",
    keynote: "Opening talk: from threat model to test report",
    sessions: [
      "Tutorial: the structure of IEC 63154",
      "Tutorial: secure software updates and integrity checking",
      "Hands-on session: testing USB and network interfaces",
      "Hands-on session: logging and audit records",
      "Results and open issues",
      "Drafting session: guidance for service engineers",
    ],
    visit: "Visit to a maritime cyber range",
    sponsors: ["Kestrel Radio Systems Ltd", "Nordhavn Marine Electronics AS", "Atlantic Bridge Systems Ltd"],
    variant: 3,
  },
];

function row(
  day: Date,
  start: string,
  finish: string,
  info: string,
  description: string,
  evening = false,
): ScheduleSeed {
  return {
    meeting_date: isoDate(day),
    is_evening: evening ? 1 : 0,
    start,
    finish,
    meeting_date_info: info,
    description,
  };
}

function conference(edition: Edition, now: Date, upcoming: boolean): MeetingSeed {
  const start = nthWeekday(monthStart(now, edition.offsetMonths), 1, 2); // second Monday
  const end = addDays(start, 3);
  const year = start.getUTCFullYear();
  const title = `Masthead Annual Conference ${year}`;
  const [d1, d2, d3, d4] = [0, 1, 2, 3].map((n) => addDays(start, n));
  const s = edition.sessions;
  const day1 = "Day 1 — Working group meetings";
  const day2 = "Day 2 — Opening and plenary sessions";
  const day3 = "Day 3 — Plenary sessions and exhibition";
  const day4 = "Day 4 — General Assembly and technical visit";
  return {
    slug: `annual-conference-${year}`,
    title,
    type: "conference",
    meeting_type: "In person",
    organization: "Masthead",
    start,
    end,
    location: `${edition.venue}, ${edition.city}, ${edition.country}`,
    information: [
      `<p><strong>Venue:</strong> ${edition.venue}, ${edition.address}, ${edition.country}.</p>`,
      `<p>The conference is hosted by <strong>${edition.host}</strong>. A block of rooms at a reduced rate is reserved at hotels within walking distance of the venue; the booking code is sent with the registration confirmation.</p>`,
      "<p>Working group meetings on the first day are open to members only. All other sessions are open to members and invited guests.</p>",
    ].join("\n"),
    health: IN_PERSON_HEALTH,
    registration: upcoming
      ? [
          "<p>Registration is open. Use the registration form on this page; the secretariat confirms every registration within 48 hours.</p>",
          "<ul><li>Members: EUR 650 (early registration until two months before the conference: EUR 550)</li><li>Non-members: EUR 950</li><li>Accompanying persons (social programme and dinner): EUR 250</li></ul>",
          "<p>The fee includes lunches, refreshments, the welcome reception and the conference dinner.</p>",
        ].join("\n")
      : "<p>Presentations are available to members in the document library.</p>",
    content_title: `${edition.theme}`,
    content: [
      `<p>The ${title} takes place in ${edition.city} from ${dateRange(start, end)} under the theme <em>${edition.theme}</em>. Over four days, manufacturers, service companies, regulators and users of marine electronic equipment meet to discuss the developments that will shape the equipment on board in the years ahead.</p>`,
      "<p>The first day is reserved for the association's working groups. The plenary programme on days two and three combines regulatory updates from IMO, ITU and IEC with presentations from members and invited speakers, and a small exhibition of new products runs alongside. The conference closes with the General Assembly of members and a technical visit.</p>",
      "<h3>Who should attend</h3>",
      "<ul><li>Product managers and engineers of equipment manufacturers</li><li>Managers of service and installation companies</li><li>Representatives of flag States, classification societies and ports</li><li>Shipowners' technical and marine superintendents</li></ul>",
    ].join("\n"),
    images: [
      {
        scene: "harbour",
        variant: edition.variant,
        label: "Annual Conference",
        title: title,
        subtitle: `${dateRange(start, end)} · ${edition.city}, ${edition.country}`,
      },
      { scene: "signal", variant: edition.variant + 1, label: "Programme", title: edition.theme },
      {
        scene: "horizon",
        variant: edition.variant + 2,
        label: `${edition.city} ${year}`,
        title: "Four days of working groups, plenary sessions and the General Assembly",
      },
    ],
    schedules: [
      row(d1, "08:30", "09:00", day1, "Registration and welcome coffee"),
      row(d1, "09:00", "10:30", day1, "Working group Navigation"),
      row(d1, "11:00", "12:30", day1, "Working group Radiocommunications"),
      row(d1, "14:00", "15:30", day1, "Working group Cyber security"),
      row(d1, "16:00", "17:30", day1, "Working group Service and installation"),
      row(d1, "19:00", "21:30", day1, `Welcome reception hosted by ${edition.host}`, true),
      row(d2, "09:00", "09:30", day2, "Opening addresses by the President of Masthead and the host"),
      row(d2, "09:30", "10:30", day2, edition.keynote),
      row(d2, "11:00", "12:30", day2, s[0]),
      row(d2, "14:00", "15:30", day2, s[1]),
      row(d2, "16:00", "17:30", day2, s[2]),
      row(d2, "19:30", "23:00", day2, "Conference dinner", true),
      row(d3, "09:00", "10:30", day3, s[3]),
      row(d3, "11:00", "12:30", day3, s[4]),
      row(d3, "14:00", "15:30", day3, s[5]),
      row(d3, "16:00", "17:30", day3, "Exhibition and poster session"),
      row(d4, "09:00", "10:30", day4, "General Assembly of members (members only)"),
      row(d4, "11:00", "12:30", day4, "Closing session and presentation of the Masthead awards"),
      row(d4, "14:00", "17:00", day4, edition.visit),
    ],
    sponsors: edition.sponsors,
    timezone: edition.timezone,
    visibility: "public",
    registration_open: true,
    registration_closes_on: null,
    // The demo's registrations fill most of it, with a waiting list (registrations.ts).
    capacity: upcoming ? CONFERENCE_CAPACITY : null,
  };
}

function workshop(edition: Edition, now: Date, upcoming: boolean): MeetingSeed {
  const start = nthWeekday(monthStart(now, edition.offsetMonths), 2, 3); // third Tuesday
  const end = addDays(start, 2);
  const year = start.getUTCFullYear();
  const title = `Annual Technical Workshop ${year}`;
  const [d1, d2, d3] = [0, 1, 2].map((n) => addDays(start, n));
  const s = edition.sessions;
  const day1 = "Day 1 — Tutorials";
  const day2 = "Day 2 — Interoperability and hands-on sessions";
  const day3 = "Day 3 — Results and drafting";
  return {
    slug: `annual-technical-workshop-${year}`,
    title,
    type: "workshop",
    meeting_type: "In person",
    organization: "Masthead",
    start,
    end,
    location: `${edition.venue}, ${edition.city}, ${edition.country}`,
    information: [
      `<p><strong>Venue:</strong> ${edition.venue}, ${edition.address}, ${edition.country}.</p>`,
      `<p>The workshop is hosted by <strong>${edition.host}</strong>. Participants taking part in the interoperability sessions should bring a laptop with their test software installed; power, a wired network and Wi-Fi are provided at every table.</p>`,
    ].join("\n"),
    health: IN_PERSON_HEALTH,
    registration: upcoming
      ? [
          "<p>Places are limited to 80 participants so that everyone can take part in the hands-on sessions. Register with the form on this page.</p>",
          "<ul><li>Members: EUR 450</li><li>Non-members: EUR 700</li><li>Academic participants: EUR 200</li></ul>",
          "<p>Companies wishing to take part in the interoperability sessions should tell the secretariat which products and software versions they will bring at least four weeks in advance.</p>",
        ].join("\n")
      : "<p>The workshop report is available in the document library.</p>",
    content_title: edition.theme,
    content: [
      `<p>The ${title} brings engineers and developers together in ${edition.city} from ${dateRange(start, end)} to work on <em>${edition.theme}</em>. Unlike the Annual Conference, the workshop is hands-on: tutorials on the first day are followed by interoperability and test sessions in which participants connect their own equipment and software.</p>`,
      "<p>Findings are summarised on the last day and published as a workshop report. Issues found in the standards are passed to the responsible IEC working group through the association's liaison.</p>",
      "<h3>Format</h3>",
      "<ul><li>Short tutorials by the editors of the standards</li><li>Test sessions in small groups with a shared test plan</li><li>A drafting session to agree the workshop conclusions</li></ul>",
    ].join("\n"),
    images: [
      {
        scene: "chart",
        variant: edition.variant,
        label: "Annual Technical Workshop",
        title,
        subtitle: `${dateRange(start, end)} · ${edition.city}, ${edition.country}`,
      },
      { scene: "radar", variant: edition.variant + 1, label: "Workshop theme", title: edition.theme },
    ],
    schedules: [
      row(d1, "09:00", "09:30", day1, "Welcome and introduction of participants"),
      row(d1, "09:30", "10:30", day1, edition.keynote),
      row(d1, "11:00", "12:30", day1, s[0]),
      row(d1, "14:00", "17:00", day1, s[1]),
      row(d2, "09:00", "12:30", day2, s[2]),
      row(d2, "14:00", "17:30", day2, s[3]),
      row(d2, "18:30", "21:00", day2, `Evening reception hosted by ${edition.host}`, true),
      row(d3, "09:00", "10:30", day3, s[4]),
      row(d3, "11:00", "12:30", day3, s[5]),
      row(d3, "14:00", "16:00", day3, edition.visit),
    ],
    sponsors: edition.sponsors,
    timezone: edition.timezone,
    visibility: "public",
    registration_open: true,
    registration_closes_on: null,
    // The hands-on sessions have room for 80 (the registration text says so).
    capacity: upcoming ? 80 : null,
  };
}

type OtherEvent = {
  offsetDays: number;
  title: string;
  type: "meeting" | "webinar" | "workshop";
  meeting_type: "In person" | "Online" | "Hybrid";
  organization: string;
  location: string;
  days: number;
  summary: string;
  body: string[];
  scene: SceneName;
  timezone: string;
  /** A webinar's start, local to its zone (90 minutes). */
  time?: string;
  /** Board and some working group meetings are for members only. */
  membersOnly?: boolean;
  /** A working group's meeting: for its members only (their slugs; issue 36). */
  groups?: string[];
  /** By invitation: the registration form is closed. */
  closed?: boolean;
};

const OTHER_EVENTS: OtherEvent[] = [
  {
    offsetDays: 20,
    timezone: "Europe/Oslo",
    groups: ["secom"],
    title: "SECOM working group: interoperability trial review",
    type: "meeting",
    meeting_type: "Hybrid",
    organization: "Masthead",
    location: "Nordhavn Marine Electronics AS, Bergen, Norway",
    days: 1,
    summary: "The results of the autumn interoperability trial and the next test vectors.",
    body: [
      "Each participant reports on the trial: which services exchanged data, which certificates were accepted and where the profile left room for interpretation.",
      "The group agrees the corrections to the test vectors and the date of the next trial.",
    ],
    scene: "signal",
  },
  {
    offsetDays: 45,
    timezone: "Asia/Tokyo",
    time: "09:00",
    groups: ["s-421-route-exchange"],
    title: "S-421 route exchange: product specification review",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "Comments on the draft product specification and the test data set.",
    body: ["The editors go through the comments received on the draft and propose answers for the group's agreement."],
    scene: "chart",
  },
  {
    offsetDays: 70,
    timezone: "Europe/Helsinki",
    groups: ["cyber-security"],
    title: "Cyber security working group: type approval questions",
    type: "meeting",
    meeting_type: "Hybrid",
    organization: "Masthead",
    location: "Baltic Beacon Technologies Oy, Helsinki, Finland",
    days: 1,
    summary: "Questions from test houses on IEC 61162-460 and the answers the group proposes.",
    body: [
      "Test houses have sent questions on the network boundary requirements; the group drafts its answers for the Board.",
    ],
    scene: "radar",
  },
  {
    offsetDays: -640,
    timezone: "Europe/London",
    time: "14:00",
    title: "Webinar: SECOM in practice",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "An introduction to IEC 63173-2 for developers of shore services and on-board systems.",
    body: [
      "Speakers from two test beds explain how SECOM services are built, how data sets are signed and verified, and what shipowners need to do to manage certificates on board.",
      "The webinar closes with a question and answer session with the editors of the standard.",
    ],
    scene: "signal",
  },
  {
    offsetDays: -600,
    timezone: "America/New_York",
    time: "11:00",
    title: "Webinar: cyber security for service engineers",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "Good practice for service engineers connecting to equipment on board.",
    body: [
      "Service companies and manufacturers explain how to prepare laptops and removable media, how to log a service visit and what to do when an infection is found on board.",
    ],
    scene: "radar",
  },
  {
    offsetDays: -520,
    timezone: "Asia/Singapore",
    time: "15:00",
    title: "Webinar: e-navigation services in Asian ports",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "Port and shore services for e-navigation in Singapore, Busan and Shanghai.",
    body: [
      "Port authorities present the digital services they offer to ships today and their plans for S-100 based services, followed by a discussion with equipment makers.",
    ],
    scene: "horizon",
  },
  {
    offsetDays: -560,
    timezone: "Europe/London",
    membersOnly: true,
    title: "Board of Directors meeting",
    type: "meeting",
    meeting_type: "Hybrid",
    organization: "Masthead",
    location: "Masthead secretariat, London, United Kingdom",
    days: 1,
    summary: "Regular meeting of the Board of Directors.",
    body: [
      "The Board reviews the work programme of the working groups, the budget and the preparations for the Annual Conference.",
      "Members who wish to raise a matter with the Board should contact the Secretary General at least two weeks before the meeting.",
    ],
    scene: "seascape",
  },
  {
    offsetDays: -470,
    timezone: "Europe/Berlin",
    title: "Working Group Navigation — spring meeting",
    type: "meeting",
    meeting_type: "In person",
    organization: "Masthead",
    location: "Brightwater Navigation GmbH, Bremen, Germany",
    days: 2,
    summary: "Spring meeting of the navigation working group.",
    body: [
      "Agenda items include comments on the draft revision of IEC 62388 (radar), the mapping between RTZ and S-421, and feedback received through the User Feedback Forum on ECDIS alerts.",
      "The meeting is open to experts from member companies. Please register with the secretariat.",
    ],
    scene: "chart",
  },
  {
    offsetDays: -400,
    timezone: "America/New_York",
    time: "10:00",
    title: "Webinar: preparing for IEC 63154 type approval",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "What manufacturers need to prepare before testing equipment against IEC 63154.",
    body: [
      "Test laboratory engineers and manufacturers who have completed testing share their experience: documentation to prepare, typical findings and how to plan software releases around the test programme.",
      "The recording is available to members in the document library.",
    ],
    scene: "radar",
  },
  {
    offsetDays: -330,
    timezone: "Europe/London",
    title: "Working Group Radiocommunications meeting",
    type: "meeting",
    meeting_type: "Hybrid",
    organization: "Masthead",
    location: "Kestrel Radio Systems Ltd, Southampton, United Kingdom",
    days: 2,
    summary: "Meeting of the radiocommunications working group.",
    body: [
      "The working group prepares input to ITU-R Working Party 5B, reviews the status of VDES standards and discusses the transition to the modernised GMDSS.",
      "Remote participation is available for members who cannot travel.",
    ],
    scene: "signal",
  },
  {
    offsetDays: -270,
    timezone: "Europe/Amsterdam",
    time: "15:00",
    title: "Webinar: S-421 route exchange for ECDIS manufacturers",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "Implementing S-421 route import and export in ECDIS and planning stations.",
    body: [
      "The webinar covers the S-421 data model, route status handling, schedules and the mapping from existing RTZ routes, with examples from the Masthead test datasets.",
      "Participants receive access to the test datasets after the session.",
    ],
    scene: "chart",
  },
  {
    offsetDays: -240,
    timezone: "Europe/London",
    time: "14:00",
    title: "Webinar: the revised service code of practice",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "What changes for member service companies in the revised Service Code of Practice.",
    body: [
      "The working group that revised the Service Code of Practice presents the changes, the transition period and the self-assessment form for service companies.",
    ],
    scene: "seascape",
  },
  {
    offsetDays: -205,
    timezone: "Europe/London",
    membersOnly: true,
    title: "Board of Directors meeting",
    type: "meeting",
    meeting_type: "In person",
    organization: "Masthead",
    location: "Masthead secretariat, London, United Kingdom",
    days: 1,
    summary: "Regular meeting of the Board of Directors.",
    body: [
      "The Board approves the accounts for the General Assembly, reviews membership applications and discusses the association's priorities for the coming year.",
    ],
    scene: "seascape",
  },
  {
    offsetDays: -150,
    timezone: "Asia/Singapore",
    time: "16:00",
    title: "Webinar: GMDSS modernisation and the revised SOLAS Chapter IV",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "What the modernised GMDSS means for manufacturers, service companies and shipowners.",
    body: [
      "Speakers explain the changes to SOLAS Chapter IV, the new and revised performance standards and the transition arrangements for ships in service.",
      "A panel of service companies discusses the practical implications for radio surveys and shore-based maintenance.",
    ],
    scene: "signal",
  },
  {
    offsetDays: -95,
    timezone: "Europe/Helsinki",
    membersOnly: true,
    groups: ["cyber-security"],
    title: "Working Group Cyber Security meeting",
    type: "meeting",
    meeting_type: "Hybrid",
    organization: "Masthead",
    location: "Baltic Beacon Technologies Oy, Helsinki, Finland",
    days: 2,
    summary: "Meeting of the cyber security working group.",
    body: [
      "The group reviews experience with IACS unified requirements E26 and E27, prepares comments on the maintenance of IEC 63154 and continues work on guidance for secure remote service.",
    ],
    scene: "radar",
  },
  {
    offsetDays: -40,
    timezone: "America/New_York",
    time: "11:00",
    title: "Webinar: bridge alert management in service",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "Experience with central alert management on bridges built to IEC 62923.",
    body: [
      "Masters, pilots and manufacturers discuss how central alert management has changed the workload on the bridge, and which issues remain when equipment from several makers is combined.",
    ],
    scene: "horizon",
  },
  {
    offsetDays: 12,
    timezone: "Europe/Stockholm",
    title: "Working Group Navigation — autumn meeting",
    type: "meeting",
    meeting_type: "In person",
    organization: "Masthead",
    location: "Göteborg Bridge Technology AB, Gothenburg, Sweden",
    days: 2,
    summary: "Autumn meeting of the navigation working group.",
    body: [
      "The agenda includes the review of the draft S-421 edition, comments on the revision of the INS performance standard and preparation of the navigation sessions of the Annual Conference.",
      "Experts from member companies are welcome. Please register with the secretariat by email.",
    ],
    scene: "chart",
  },
  {
    offsetDays: 33,
    timezone: "America/New_York",
    time: "10:00",
    title: "Webinar: VDES — from standard to ship",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "The VHF Data Exchange System explained for equipment makers and users.",
    body: [
      "The webinar explains the terrestrial and satellite components of VDES as defined in ITU-R M.2092, the status of IEC test standards and the first applications being trialled by administrations.",
      "The session is free of charge and open to everyone. Registration is required to receive the link.",
    ],
    scene: "signal",
  },
  {
    offsetDays: 62,
    timezone: "Europe/London",
    membersOnly: true,
    title: "Board of Directors meeting",
    type: "meeting",
    meeting_type: "Hybrid",
    organization: "Masthead",
    location: "Masthead secretariat, London, United Kingdom",
    days: 1,
    summary: "Regular meeting of the Board of Directors.",
    body: ["The Board finalises the programme of the Annual Conference and reviews the budget for the coming year."],
    scene: "seascape",
  },
  {
    offsetDays: 96,
    timezone: "Europe/Paris",
    closed: true,
    title: "Joint Masthead–IALA expert meeting on VDES",
    type: "meeting",
    meeting_type: "Hybrid",
    organization: "Masthead / IALA",
    location: "Saint-Germain-en-Laye, France",
    days: 2,
    summary: "Joint expert meeting on the implementation of VDES ashore and on board.",
    body: [
      "Experts from administrations, aids-to-navigation authorities and equipment manufacturers discuss the alignment of shore and ship equipment standards for VDES, test results from trials and a roadmap for the first operational services.",
      "Participation is by invitation. Members interested in attending should contact the secretariat.",
    ],
    scene: "signal",
  },
  {
    offsetDays: 165,
    timezone: "Asia/Singapore",
    time: "15:00",
    title: "Webinar: the Masthead service engineer qualification scheme",
    type: "webinar",
    meeting_type: "Online",
    organization: "Masthead",
    location: "Online",
    days: 1,
    summary: "An introduction to the qualification scheme for radio and navigation service engineers.",
    body: [
      "The webinar presents the competence levels of the scheme, how training providers can be recognised and how service companies can register their engineers.",
    ],
    scene: "horizon",
  },
  {
    offsetDays: 255,
    timezone: "Asia/Tokyo",
    title: "Working Group Radiocommunications meeting",
    type: "meeting",
    meeting_type: "In person",
    organization: "Masthead",
    location: "Sato Maritime Instruments K.K., Yokohama, Japan",
    days: 2,
    summary: "Meeting of the radiocommunications working group.",
    body: [
      "The working group prepares the association's positions for the next World Radiocommunication Conference and reviews the draft revision of the DSC equipment standards.",
    ],
    scene: "signal",
  },
];

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "14:00" plus 90 minutes: "15:30". */
function ninetyMinutesAfter(time: string): string {
  const [h, m] = time.split(":").map(Number);
  const total = h * 60 + m + 90;
  return `${String(Math.floor(total / 60) % 24).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
}

function otherEvent(event: OtherEvent, now: Date, index: number): MeetingSeed {
  const start = toMidweek(addDays(now, event.offsetDays));
  const end = addDays(start, event.days - 1);
  const online = event.meeting_type === "Online";
  const slug = `${slugify(event.title.replace(/^Webinar: /, "webinar "))}-${isoDate(start).slice(0, 7)}`;
  const upcoming = start.getTime() > now.getTime();
  const images: ImageSeed[] = [
    {
      scene: event.scene,
      variant: index + 1,
      label: event.type === "webinar" ? "Webinar" : "Meeting",
      title: capitalise(event.title.replace(/^Webinar: /, "")),
      subtitle: `${dateRange(start, end)} · ${event.location}`,
    },
  ];
  if (index % 3 === 0) {
    images.push({
      scene: event.scene === "radar" ? "seascape" : "radar",
      variant: index + 4,
      label: "Masthead events",
      title: event.summary.replace(/\.$/, ""),
    });
  }
  return {
    slug,
    title: event.title,
    type: event.type,
    meeting_type: event.meeting_type,
    organization: event.organization,
    start,
    end,
    location: event.location,
    information: online
      ? "<p>The webinar runs for 90 minutes; its time is shown above in the organiser's time zone and in yours. The joining link is sent by email to registered participants the day before. Slides and the recording are shared with participants afterwards.</p>"
      : `<p><strong>Location:</strong> ${event.location}.</p><p>Sessions run from 09:00 to 17:30 local time.${event.meeting_type === "Hybrid" ? " Remote participation is available; the link is sent to registered participants." : ""}</p>`,
    health: online ? null : IN_PERSON_HEALTH,
    registration: event.closed
      ? "<p>Participation is by invitation. Members interested in attending should contact the secretariat.</p>"
      : upcoming
        ? '<p>Please register using the form on this page or by email to <a href="mailto:events@masthead.example">events@masthead.example</a>. Participation is free of charge for members.</p>'
        : "<p>This event has taken place. Members can find the minutes, slides or recording in the document library.</p>",
    content_title: event.summary.replace(/\.$/, ""),
    content: event.body.map((p) => `<p>${p}</p>`).join("\n"),
    images,
    schedules: event.time
      ? [row(start, event.time, ninetyMinutesAfter(event.time), "Online", capitalise(event.summary))]
      : [],
    sponsors: [],
    timezone: event.timezone,
    visibility: event.membersOnly || event.groups ? "members" : "public",
    groups: event.groups,
    registration_open: !event.closed,
    registration_closes_on: null,
    capacity: null,
  };
}

export type MeetingPlan = {
  meetings: MeetingSeed[];
  nextConference: MeetingRef;
  lastConference: MeetingRef;
  nextWorkshop: MeetingRef;
  lastWorkshop: MeetingRef;
};

function ref(meeting: MeetingSeed, edition: Edition): MeetingRef {
  return {
    title: meeting.title,
    slug: meeting.slug,
    year: meeting.start.getUTCFullYear(),
    city: edition.city,
    venue: edition.venue,
    dates: dateRange(meeting.start, meeting.end),
    start: meeting.start,
    end: meeting.end,
  };
}

export function planMeetings(now: Date): MeetingPlan {
  const conferences = CONFERENCES.map((e, i) => conference(e, now, i === 0));
  const workshops = WORKSHOPS.map((e, i) => workshop(e, now, i === 0));
  const others = OTHER_EVENTS.map((e, i) => otherEvent(e, now, i));
  const meetings = [...conferences, ...workshops, ...others].sort((a, b) => a.start.getTime() - b.start.getTime());
  return {
    meetings,
    nextConference: ref(conferences[0], CONFERENCES[0]),
    lastConference: ref(conferences[1], CONFERENCES[1]),
    nextWorkshop: ref(workshops[0], WORKSHOPS[0]),
    lastWorkshop: ref(workshops[1], WORKSHOPS[1]),
  };
}

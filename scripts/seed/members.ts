/** Fictional member companies (names are invented; countries are real, as ISO 3166-1 alpha-2 codes). */

/** `joined` 0 means the year of the seed (the members announced in the latest news). */
export type MemberSeed = { name: string; country: string; joined: number; domain: string };

const m = (name: string, country: string, joined: number, domain: string): MemberSeed => ({
  name,
  country,
  joined,
  domain,
});

export const MEMBERS: MemberSeed[] = [
  m("Nordhavn Marine Electronics AS", "NO", 1962, "nordhavn-marine"),
  m("Atlantic Bridge Systems Ltd", "GB", 1987, "atlanticbridge"),
  m("Tirreno Navigazione Elettronica S.r.l.", "IT", 1974, "tirreno-nav"),
  m("Sato Maritime Instruments K.K.", "JP", 1969, "sato-maritime"),
  m("Zeeland Radio Services B.V.", "NL", 1955, "zeelandradio"),
  m("Hanbit Marine Systems Co., Ltd", "KR", 1998, "hanbit-marine"),
  m("Cantábrico Electrónica Naval S.L.", "ES", 1981, "cantabrico-naval"),
  m("Kestrel Radio Systems Ltd", "GB", 1949, "kestrelradio"),
  m("Brightwater Navigation GmbH", "DE", 1978, "brightwater-nav"),
  m("Østersø Maritime Communications A/S", "DK", 1958, "ostersoe-maritime"),
  m("Baltic Beacon Technologies Oy", "FI", 2006, "balticbeacon"),
  m("Skerry Satellite Services Ltd", "IE", 2011, "skerry-satellite"),
  m("Hafenkante Schiffselektronik GmbH", "DE", 1952, "hafenkante"),
  m("Meridian Gyro Instruments Inc.", "US", 1972, "meridiangyro"),
  m("Gulf Coast Marine Radio LLC", "US", 1984, "gulfcoastradio"),
  m("Porto Atlântico Eletrónica Marítima Lda.", "PT", 1993, "portoatlantico"),
  m("Aegean Marine Telecom S.A.", "GR", 1977, "aegeantelecom"),
  m("Piraeus Navtronics S.A.", "GR", 2003, "piraeus-navtronics"),
  m("Bosphorus Denizcilik Elektronik A.Ş.", "TR", 2009, "bosphorus-elektronik"),
  m("Lion City Marine Systems Pte Ltd", "SG", 1996, "lioncitymarine"),
  m("Pearl River Navigation Technology Co., Ltd", "CN", 2008, "pearlriver-nav"),
  m("Malacca Strait Electronics Sdn Bhd", "MY", 2012, "malaccastrait"),
  m("Konkan Harbour Radio Pvt Ltd", "IN", 1999, "konkanradio"),
  m("Southern Cross Marine Electronics Pty Ltd", "AU", 1971, "southerncross-marine"),
  m("Tasman Navigation Systems Ltd", "NZ", 2001, "tasmannav"),
  m("Great Lakes Marine Instruments Inc.", "CA", 1966, "greatlakes-instruments"),
  m("Fundy Bay Ocean Technologies Inc.", "CA", 2014, "fundybay"),
  m("Rio Grande Eletrônica Naval Ltda.", "BR", 2004, "riogrande-naval"),
  m("Valparaíso Radio Marítima S.A.", "CL", 1988, "valparaiso-radio"),
  m("Cape Agulhas Marine Electronics (Pty) Ltd", "ZA", 1991, "capeagulhas"),
  m("Suez Gateway Marine Systems S.A.E.", "EG", 2010, "suezgateway"),
  m("Gdańsk Elektronika Morska Sp. z o.o.", "PL", 1995, "gdansk-morska"),
  m("Adriatic Navtech d.o.o.", "HR", 2007, "adriatic-navtech"),
  m("Daugava Bay Radio SIA", "LV", 0, "daugavabay"),
  m("Göteborg Bridge Technology AB", "SE", 1976, "goteborg-bridge"),
  m("Bergen Sonar & Sensors AS", "NO", 1990, "bergensonar"),
  m("Brest Océan Électronique SAS", "FR", 1968, "brest-ocean"),
  m("Calanques Navigation Services SARL", "FR", 1994, "calanques-nav"),
  m("Scheldt Marine Radio NV", "BE", 1951, "scheldtradio"),
  m("Clyde Marine Surveyors & Electronics Ltd", "GB", 1983, "clydemarine"),
  m("Helvetic Timing & Navigation AG", "CH", 2013, "helvetic-timing"),
  m("Trident Classification Bureau Ltd", "GB", 1998, "trident-class"),
  m("Nautilus Maritime Training Institute", "PH", 0, "nautilus-mti"),
  m("Kaigan Radio Engineering Co., Ltd", "JP", 1979, "kaigan-radio"),
  m("Haeundae Satellite Communications Inc.", "KR", 2018, "haeundae-satcom"),
  m("Harbour Shield Cyber OÜ", "EE", 0, "harbourshield"),
  m("Bluefin Integrated Bridge Systems LLC", "US", 2005, "bluefin-ibs"),
  m("Mistral Antenna Technologies S.p.A.", "IT", 1985, "mistral-antenna"),
  m("Fjordlink Satellite AS", "NO", 0, "fjordlink"),
  m("Creekside Marine Electronics LLC", "AE", 2011, "creekside-marine"),
];

export function memberWebsite(member: MemberSeed): string {
  return `https://www.${member.domain}.example`;
}

/** Product tags by what a company's name says it does (first match first); two to four each. */
const PRODUCT_HINTS: [RegExp, string[]][] = [
  [/sonar/i, ["Sonar", "Echo sounder"]],
  [/gyro/i, ["Gyrocompass", "Autopilot"]],
  [/satellite|satcom/i, ["Satcom", "GMDSS"]],
  [/antenna/i, ["Antennas", "Satcom"]],
  [/timing/i, ["GNSS", "Timing"]],
  [/cyber/i, ["Cyber security", "Networks"]],
  [/training/i, ["Training", "ECDIS"]],
  [/classification|surveyors/i, ["Surveys", "Type approval"]],
  [/beacon/i, ["EPIRB", "AIS"]],
  [/bridge/i, ["Integrated bridge", "ECDIS", "Radar"]],
  [/radio|telecom|communications/i, ["GMDSS", "VHF radio", "AIS"]],
  [/navigation|navtech|navtronics|navegación|navigazione|naval|nav\b/i, ["ECDIS", "Radar", "AIS"]],
  [/instruments|electronics|elektronik|electrónica|eletrónica|eletrônica|électronique|elektronika/i, ["Radar", "AIS"]],
  [/systems|technolog/i, ["VDR", "Radar"]],
];

/** A company's product tags (Radar, ECDIS, AIS, GMDSS…), from its name. */
export function memberProducts(member: MemberSeed): string[] {
  const products: string[] = [];
  for (const [hint, tags] of PRODUCT_HINTS) {
    if (!hint.test(member.name)) continue;
    for (const tag of tags) if (!products.includes(tag)) products.push(tag);
  }
  return (products.length > 0 ? products : ["Radar", "AIS"]).slice(0, 4);
}

/** Training, classification, cyber security and timing companies are associate members; the rest full. */
export function membershipType(member: MemberSeed): "full" | "associate" {
  return /training|classification|surveyors|cyber|timing|institute/i.test(member.name) ? "associate" : "full";
}

/** Two companies whose membership has lapsed (renewal long and just past the 30 days' grace), one that left. */
export const LAPSED_MEMBERS: Record<string, number> = {
  "Gulf Coast Marine Radio LLC": -120,
  "Piraeus Navtronics S.A.": -45,
};
export const LEFT_MEMBER = "Malacca Strait Electronics Sdn Bhd";
/** Past its renewal date but within the grace period: still current. */
export const IN_GRACE_MEMBER = "Skerry Satellite Services Ltd";

/**
 * Days from the seed's day to a company's renewal date: the lapsed ones and the one in grace as
 * above; every ninth company none (no renewal date); the others spread over the coming year, so
 * that some renewals are due within 60 days.
 */
export function renewsInDays(member: MemberSeed, index: number): number | null {
  if (member.name in LAPSED_MEMBERS) return LAPSED_MEMBERS[member.name];
  if (member.name === IN_GRACE_MEMBER) return -10;
  if (index % 9 === 8) return null;
  return ((index * 37) % 360) + 5;
}

/** Seats: five for a full member, two for an associate; every fifth company has no limit. */
export function memberSeats(member: MemberSeed, index: number): number | null {
  if (index % 5 === 4) return null;
  return membershipType(member) === "full" ? 5 : 2;
}

/** The demo member (npm run demo prints it): a primary contact of the first represented company. */
export const DEMO_MEMBER = {
  email: "member@masthead.example",
  password: "masthead-demo-member",
  first_name: "Ingrid",
  last_name: "Solberg",
};

/** The demo editor (issue 36): manages the news, pages, meetings and the library, nothing else. */
export const DEMO_EDITOR = {
  email: "editor@masthead.example",
  password: "masthead-demo-editor",
  first_name: "Elena",
  last_name: "Marchetti",
};

/**
 * Three working groups (issue 36): their chairs and members by address (representatives of current
 * companies, and the demo editor). The demo member is in the first.
 */
export const GROUPS: { name: string; slug: string; description: string; chairs: string[]; members: string[] }[] = [
  {
    name: "SECOM working group",
    slug: "secom",
    description:
      "Secure communication between ships and shore (IEC 63173-2): the protocol profile, test vectors and the interoperability trials.",
    chairs: ["o.hughes@atlanticbridge.example"],
    members: ["member@masthead.example", "h.sato@sato-maritime.example", "sigrid.aasen@nordhavn-marine.example"],
  },
  {
    name: "S-421 route exchange",
    slug: "s-421-route-exchange",
    description:
      "Route plans exchanged between ECDIS and shore services: the S-421 product specification and its test data.",
    chairs: ["h.sato@sato-maritime.example"],
    members: ["y.tanaka@sato-maritime.example", "chloe.nguyen@southerncross-marine.example"],
  },
  {
    name: "Cyber security",
    slug: "cyber-security",
    description: "IEC 61162-460 and the type-approval questions of networked bridge equipment.",
    chairs: ["chloe.nguyen@southerncross-marine.example"],
    members: ["o.hughes@atlanticbridge.example", "editor@masthead.example"],
  },
];

export type RepresentativeSeed = { first_name: string; last_name: string; email: string; primary: boolean };

/**
 * Five companies with representatives (one of them lapsed). The demo member is the first
 * company's primary contact; the others have been invited and have not chosen a password yet.
 */
export const REPRESENTATIVES: { company: string; people: RepresentativeSeed[] }[] = [
  {
    company: "Nordhavn Marine Electronics AS",
    people: [
      { first_name: DEMO_MEMBER.first_name, last_name: DEMO_MEMBER.last_name, email: DEMO_MEMBER.email, primary: true },
      { first_name: "Sigrid", last_name: "Aasen", email: "sigrid.aasen@nordhavn-marine.example", primary: false },
    ],
  },
  {
    company: "Atlantic Bridge Systems Ltd",
    people: [{ first_name: "Oliver", last_name: "Hughes", email: "o.hughes@atlanticbridge.example", primary: true }],
  },
  {
    company: "Sato Maritime Instruments K.K.",
    people: [
      { first_name: "Haruto", last_name: "Sato", email: "h.sato@sato-maritime.example", primary: true },
      { first_name: "Yui", last_name: "Tanaka", email: "y.tanaka@sato-maritime.example", primary: false },
    ],
  },
  {
    company: "Southern Cross Marine Electronics Pty Ltd",
    people: [
      { first_name: "Chloe", last_name: "Nguyen", email: "chloe.nguyen@southerncross-marine.example", primary: true },
    ],
  },
  {
    company: "Gulf Coast Marine Radio LLC",
    people: [{ first_name: "Dwayne", last_name: "Boudreaux", email: "dwayne@gulfcoastradio.example", primary: true }],
  },
];

export type JoinRequestSeed = {
  kind: "join" | "registration";
  company_name: string;
  representative_name: string;
  email: string;
  phone_number: string;
  page_path: string;
  daysAgo: number;
  handled: boolean;
  /**
   * What the secretariat decided on an application (decision 0047), `daysAfter` it arrived: approved
   * into (linked to) the member company of the same name, seeded with this person as its representative; or
   * declined with the reason mailed. Without it, an application is new.
   */
  decision?: { status: "approved" | "declined"; daysAfter: number; reason?: string };
};

export const JOIN_REQUESTS: JoinRequestSeed[] = [
  {
    kind: "join",
    company_name: "Lagoon Coast Marine Radio Ltd",
    representative_name: "Adaeze Nwosu",
    email: "a.nwosu@lagooncoast.example",
    phone_number: "+234 803 555 0142",
    page_path: "/members-join",
    daysAgo: 2,
    handled: false,
  },
  {
    kind: "registration",
    company_name: "Nordhavn Marine Electronics AS",
    representative_name: "Sigrid Aasen",
    email: "sigrid.aasen@nordhavn-marine.example",
    phone_number: "+47 55 55 01 23",
    page_path: "/conference",
    daysAgo: 3,
    handled: false,
  },
  {
    kind: "registration",
    company_name: "Tasman Navigation Systems Ltd",
    representative_name: "Liam Walker",
    email: "liam.walker@tasmannav.example",
    phone_number: "+64 9 555 0187",
    page_path: "/conference",
    daysAgo: 5,
    handled: true,
  },
  {
    kind: "join",
    company_name: "Andes Pacific Navegación S.A.C.",
    representative_name: "Lucía Fernández",
    email: "lfernandez@andespacifico.example",
    phone_number: "+51 1 555 0199",
    page_path: "/",
    daysAgo: 8,
    handled: false,
  },
  {
    kind: "registration",
    company_name: "Baltic Beacon Technologies Oy",
    representative_name: "Mikko Virtanen",
    email: "mikko.virtanen@balticbeacon.example",
    phone_number: "+358 40 555 0116",
    page_path: "/conference",
    daysAgo: 11,
    handled: true,
  },
  {
    kind: "join",
    company_name: "Coral Sea Electronics Pty Ltd",
    representative_name: "Hannah Brooks",
    email: "hannah@coralsea-electronics.example",
    phone_number: "+61 7 5550 1934",
    page_path: "/members-join",
    daysAgo: 16,
    handled: false,
  },
  {
    kind: "join",
    company_name: "Northern Fjord Maritime Academy",
    representative_name: "Dr Erik Solberg",
    email: "erik.solberg@nfma.example",
    phone_number: "+47 77 55 50 42",
    page_path: "/contact",
    daysAgo: 23,
    handled: true,
    decision: {
      status: "declined",
      daysAfter: 2,
      reason:
        "Membership is open to companies that make, install or service marine electronics. A maritime academy is most welcome as a guest at our conference and workshop, and the secretariat will send you the invitations.",
    },
  },
  {
    kind: "join",
    company_name: "Mekong Delta Marine Services JSC",
    representative_name: "Nguyen Thi Lan",
    email: "lan.nguyen@mekongmarine.example",
    phone_number: "+84 28 5555 0123",
    page_path: "/members-join",
    daysAgo: 1,
    handled: false,
  },
  {
    kind: "join",
    company_name: "Atlantic Bridge Systems Ltd",
    representative_name: "Oliver Hughes",
    email: "o.hughes@atlanticbridge.example",
    phone_number: "+44 23 8055 0147",
    page_path: "/members-join",
    daysAgo: 41,
    handled: true,
    decision: { status: "approved", daysAfter: 3 },
  },
  {
    kind: "join",
    company_name: "Southern Cross Marine Electronics Pty Ltd",
    representative_name: "Chloe Nguyen",
    email: "chloe.nguyen@southerncross-marine.example",
    phone_number: "+61 2 5550 1876",
    page_path: "/",
    daysAgo: 58,
    handled: true,
    decision: { status: "approved", daysAfter: 1 },
  },
  {
    kind: "join",
    company_name: "Quayside Gadget Traders",
    representative_name: "Sam Parker",
    email: "sales@quayside-gadgets.example",
    phone_number: "+44 20 5550 0199",
    page_path: "/",
    daysAgo: 34,
    handled: true,
    decision: {
      status: "declined",
      daysAfter: 1,
      reason:
        "We could not find that your company makes, installs or services marine electronics; a retailer of consumer goods is not eligible. If we misunderstood your business, please reply with a short description of it.",
    },
  },
  {
    kind: "registration",
    company_name: "Piraeus Navtronics S.A.",
    representative_name: "Eleni Papadopoulou",
    email: "e.papadopoulou@piraeus-navtronics.example",
    phone_number: "+30 210 555 0173",
    page_path: "/conference",
    daysAgo: 27,
    handled: false,
  },
];

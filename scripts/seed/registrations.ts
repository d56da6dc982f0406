/**
 * The demo's registrations for the featured meetings (issue 32): the conference with registrations
 * in every state and a waiting list, the workshop full with three on its waiting list. Each row is
 * what the registrations service leaves (decision 0052): the state, the folded address held while
 * the registration holds or waits for a seat, and one history event per state reached.
 */
import type { RegistrationStatus } from "../../db/types";
import { DEMO_MEMBER, MEMBERS, type MemberSeed } from "./members";
import { addDays, atTime, random } from "./util";

/** First and last names by country, for registrants of that country's companies. */
const NAMES: Record<string, [string[], string[]]> = {
  NO: [
    ["Kari", "Lars", "Marit", "Jonas", "Silje", "Håkon"],
    ["Hansen", "Johansen", "Berg", "Dahl", "Lund", "Strand"],
  ],
  GB: [
    ["James", "Emily", "Thomas", "Charlotte", "Daniel", "Sophie"],
    ["Taylor", "Harrison", "Bennett", "Clarke", "Fletcher", "Morgan"],
  ],
  IT: [
    ["Giulia", "Marco", "Francesca", "Luca", "Chiara", "Davide"],
    ["Rossi", "Esposito", "Romano", "Greco", "Marino", "Conti"],
  ],
  JP: [
    ["Kenji", "Aiko", "Takumi", "Naomi", "Daisuke", "Emi"],
    ["Suzuki", "Takahashi", "Watanabe", "Ito", "Yamamoto", "Kobayashi"],
  ],
  NL: [
    ["Sanne", "Pieter", "Femke", "Joris", "Lotte", "Bram"],
    ["de Vries", "Jansen", "Bakker", "Visser", "Smit", "Mulder"],
  ],
  KR: [
    ["Min-jun", "Seo-yeon", "Ji-ho", "Ha-eun", "Do-hyun", "Su-bin"],
    ["Kim", "Lee", "Park", "Choi", "Jung", "Kang"],
  ],
  ES: [
    ["Lucía", "Javier", "Carmen", "Diego", "Elena", "Pablo"],
    ["García", "Martínez", "López", "Sánchez", "Iglesias", "Ortega"],
  ],
  DE: [
    ["Anna", "Jonas", "Katrin", "Matthias", "Lena", "Stefan"],
    ["Müller", "Schmidt", "Becker", "Wagner", "Hoffmann", "Krüger"],
  ],
  DK: [
    ["Mette", "Rasmus", "Louise", "Mikkel", "Freja", "Anders"],
    ["Nielsen", "Jensen", "Pedersen", "Kristensen", "Møller", "Thomsen"],
  ],
  FI: [
    ["Aino", "Juha", "Elina", "Antti", "Laura", "Ville"],
    ["Korhonen", "Mäkinen", "Nieminen", "Heikkinen", "Koskinen", "Lehtonen"],
  ],
  US: [
    ["Michael", "Jennifer", "Robert", "Ashley", "Kevin", "Megan"],
    ["Johnson", "Miller", "Davis", "Anderson", "Thompson", "Garcia"],
  ],
  PT: [
    ["Inês", "João", "Beatriz", "Tiago", "Mariana", "Rui"],
    ["Silva", "Santos", "Ferreira", "Pereira", "Costa", "Almeida"],
  ],
  GR: [
    ["Dimitris", "Maria", "Nikos", "Katerina", "Giorgos", "Sofia"],
    ["Georgiou", "Nikolaidis", "Vlachos", "Karalis", "Antonopoulos", "Makris"],
  ],
  SG: [
    ["Wei Ling", "Jun Hao", "Priya", "Marcus", "Hui Min", "Daniel"],
    ["Tan", "Lim", "Ng", "Wong", "Goh", "Rajan"],
  ],
  IN: [
    ["Aarav", "Priya", "Rohan", "Ananya", "Vikram", "Neha"],
    ["Sharma", "Patel", "Iyer", "Nair", "Deshpande", "Menon"],
  ],
  AU: [
    ["Jack", "Olivia", "Lachlan", "Mia", "Harrison", "Ruby"],
    ["Smith", "Wilson", "Kelly", "Mitchell", "Ryan", "Campbell"],
  ],
  CA: [
    ["Émilie", "Ryan", "Sarah", "Mathieu", "Jessica", "Connor"],
    ["Tremblay", "MacDonald", "Roy", "Gagnon", "Fraser", "Leblanc"],
  ],
  BR: [
    ["Ana", "Lucas", "Camila", "Rafael", "Juliana", "Gustavo"],
    ["Oliveira", "Souza", "Rodrigues", "Lima", "Carvalho", "Ribeiro"],
  ],
  PL: [
    ["Agnieszka", "Piotr", "Katarzyna", "Tomasz", "Magdalena", "Paweł"],
    ["Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kamiński", "Lewandowski"],
  ],
  SE: [
    ["Elsa", "Erik", "Maja", "Oskar", "Ebba", "Johan"],
    ["Andersson", "Lindqvist", "Nilsson", "Eriksson", "Holm", "Berglund"],
  ],
  FR: [
    ["Camille", "Julien", "Claire", "Nicolas", "Manon", "Antoine"],
    ["Martin", "Bernard", "Le Gall", "Moreau", "Lefèvre", "Garnier"],
  ],
  HR: [
    ["Ivana", "Marko", "Petra", "Luka", "Ana", "Tomislav"],
    ["Horvat", "Kovačević", "Babić", "Marić", "Jurić", "Novak"],
  ],
};

/** Phone prefixes of the countries above: the demo's numbers use the 555 range. */
const PHONE: Record<string, string> = {
  NO: "+47 55 55",
  GB: "+44 20 7946",
  IT: "+39 010 555",
  JP: "+81 3 5555",
  NL: "+31 10 555",
  KR: "+82 51 555",
  ES: "+34 942 555",
  DE: "+49 40 555",
  DK: "+45 33 55",
  FI: "+358 40 555",
  US: "+1 206 555",
  PT: "+351 22 555",
  GR: "+30 210 555",
  SG: "+65 6555",
  IN: "+91 22 5555",
  AU: "+61 2 5550",
  CA: "+1 902 555",
  BR: "+55 21 5555",
  PL: "+48 58 555",
  SE: "+46 31 555",
  FR: "+33 2 98 55",
  HR: "+385 21 555",
};

/** Registrants' notes, as the form's optional field takes them (dietary needs, accessibility). */
const NOTES = [
  "Vegetarian meals, please.",
  "I use a wheelchair: step-free access to the plenary hall and the exhibition, please.",
  "Gluten-free diet.",
  "Attending the working group Navigation on the first day only.",
  "Halal meals, please.",
  "Hearing loop or a seat near the front, if possible.",
  "An accompanying person joins me for the conference dinner.",
  "Lactose intolerant.",
];

/** Why the secretariat declined a registration (mailed to the registrant). */
const DECLINE_REASONS = [
  "Your colleague has registered the company's place for this meeting already; please share the attendance with them.",
  "The conference is open to members and invited guests; we could not find an invitation for your company. Please write to the secretariat if we missed it.",
  "We received this registration twice; we have kept your other registration.",
];

export type RegistrationEventSeed = {
  event: `registration_${RegistrationStatus}`;
  at: Date;
  /** Who made the change: the registrant, the secretariat, or the site itself (null). */
  by: string | null;
  reason: string | null;
};

export type RegistrationSeed = {
  company_name: string;
  representative_name: string;
  email: string;
  phone_number: string;
  note: string | null;
  status: RegistrationStatus;
  created: Date;
  /** The signed-in sender's address (a seeded account), or null for a visitor. */
  userEmail: string | null;
  events: RegistrationEventSeed[];
};

const SECRETARIAT = "The secretariat";

const ascii = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ø/g, "o")
    .replace(/æ/g, "ae")
    .replace(/å/g, "a")
    .replace(/ł/g, "l")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** Member companies whose country has names above, in a stable order. */
const COMPANIES = MEMBERS.filter((m) => NAMES[m.country]);

/** A company that sends just one registrant: the newest registration's (its name is unique in the inbox). */
const SOLE: MemberSeed = { name: "Kotka Maritime College", country: "FI", joined: 0, domain: "kotka-maritime" };

/**
 * People for a meeting: `count` registrants from the member companies (two or three per company,
 * seeded by `seed`), none with an address in `taken`.
 */
function people(count: number, seed: number, taken: Set<string>) {
  const rnd = random(seed);
  const out: Omit<RegistrationSeed, "note" | "status" | "created" | "events" | "userEmail">[] = [];
  let guard = 0;
  while (out.length < count && guard++ < count * 50) {
    const company = COMPANIES[Math.floor(rnd() * COMPANIES.length)];
    const [firsts, lasts] = NAMES[company.country];
    const first = firsts[Math.floor(rnd() * firsts.length)];
    const last = lasts[Math.floor(rnd() * lasts.length)];
    const email = `${ascii(first)}.${ascii(last)}@${company.domain}.example`;
    if (taken.has(email)) continue;
    taken.add(email);
    const number = String(100 + Math.floor(rnd() * 900)).padStart(4, "0");
    out.push({
      company_name: company.name,
      representative_name: `${first} ${last}`,
      email,
      phone_number: `${PHONE[company.country]} ${number}`,
    });
  }
  return out;
}

/** A time of day in office hours, stable for the index. */
const arrival = (now: Date, daysAgo: number, i: number) => {
  const at = atTime(addDays(now, -daysAgo), 7 + ((i * 7) % 11), (i * 13) % 60);
  // Never in the future: a registration of today that would be arrives just before now.
  return at.getTime() < now.getTime() ? at : new Date(now.getTime() - 25 * 60_000);
};

function history(
  person: { representative_name: string },
  status: RegistrationStatus,
  created: Date,
  i: number,
  reasons: string[],
): RegistrationEventSeed[] {
  const arrived: RegistrationEventSeed = {
    event: status === "waitlisted" ? "registration_waitlisted" : "registration_pending",
    at: created,
    by: person.representative_name,
    reason: null,
  };
  const after = (days: number, hours: number) => new Date(created.getTime() + (days * 24 + hours) * 3_600_000);
  switch (status) {
    case "pending":
    case "waitlisted":
      return [arrived];
    case "confirmed":
      return [arrived, { event: "registration_confirmed", at: after(1, i % 5), by: SECRETARIAT, reason: null }];
    case "declined":
      return [
        arrived,
        { event: "registration_declined", at: after(1, 2), by: SECRETARIAT, reason: reasons[i % reasons.length] },
      ];
    case "cancelled":
      return [
        arrived,
        { event: "registration_confirmed", at: after(1, 3), by: SECRETARIAT, reason: null },
        { event: "registration_cancelled", at: after(6 + (i % 4), 5), by: person.representative_name, reason: null },
      ];
  }
}

/**
 * The conference's registrations beside the four the inbox's examples hold (JOIN_REQUESTS, all
 * pending): 56 more, 60 in all, against a capacity of 50 (CONFERENCE_CAPACITY). 38 confirmed, two
 * more pending (six pending in all), five declined, five cancelled (confirmed, then cancelled by
 * the registrant), and six on the waiting list: they joined it when the first hall was full, before
 * the venue offered the larger one (the capacity raised to 50); moving them up is the
 * secretariat's to do on the registrations screen. Six places stay free, so that the form on
 * /conference still takes a pending registration (the end-to-end tests send three). The meeting
 * is ahead: nobody has attended yet.
 */
export const CONFERENCE_CAPACITY = 50;

export function conferenceRegistrations(now: Date, exclude: string[]): RegistrationSeed[] {
  const taken = new Set(exclude.map((e) => e.toLowerCase()));
  taken.add(DEMO_MEMBER.email);
  const crowd = people(55, 3201, taken);
  const plan: { status: RegistrationStatus; daysAgo: number }[] = [
    ...Array.from({ length: 38 }, (_, i) => ({ status: "confirmed" as const, daysAgo: 80 - i * 1.4 })),
    ...Array.from({ length: 5 }, (_, i) => ({ status: "declined" as const, daysAgo: 75 - i * 9 })),
    ...Array.from({ length: 5 }, (_, i) => ({ status: "cancelled" as const, daysAgo: 78 - i * 8 })),
    ...Array.from({ length: 6 }, (_, i) => ({ status: "waitlisted" as const, daysAgo: 21 - i * 1.3 })),
    { status: "pending", daysAgo: 2 },
    { status: "pending", daysAgo: 1 },
  ];
  const rows = plan.map(({ status, daysAgo }, i): RegistrationSeed => {
    // The demo member registered for the conference while signed in (the first confirmed one).
    const person =
      i === 0
        ? {
            company_name: "Nordhavn Marine Electronics AS",
            representative_name: `${DEMO_MEMBER.first_name} ${DEMO_MEMBER.last_name}`,
            email: DEMO_MEMBER.email,
            phone_number: "+47 55 55 01 10",
          }
        : crowd[i - 1];
    const created = arrival(now, daysAgo, i);
    return {
      ...person,
      note: i % 7 === 3 ? NOTES[((i / 7) % NOTES.length) | 0] : null,
      status,
      created,
      userEmail: i === 0 ? DEMO_MEMBER.email : null,
      events: history(person, status, created, i, DECLINE_REASONS),
    };
  });
  return rows;
}

/**
 * The workshop's: full (its 80 places) with three on the waiting list, which stays on. 64
 * confirmed and 16 pending hold the places; the three waitlisted are the newest, the very newest
 * from a company with no other registrant (the inbox's end-to-end test picks the newest by its
 * company's name).
 */
export function workshopRegistrations(now: Date, capacity: number): RegistrationSeed[] {
  const taken = new Set<string>();
  const crowd = people(capacity + 2, 4107, taken);
  const confirmed = Math.round(capacity * 0.8);
  const plan: { status: RegistrationStatus; daysAgo: number }[] = [
    ...Array.from({ length: confirmed }, (_, i) => ({ status: "confirmed" as const, daysAgo: 70 - i * 0.8 })),
    ...Array.from({ length: capacity - confirmed }, (_, i) => ({ status: "pending" as const, daysAgo: 16 - i * 0.8 })),
    { status: "waitlisted", daysAgo: 2.5 },
    { status: "waitlisted", daysAgo: 1.5 },
    { status: "waitlisted", daysAgo: 0.2 },
  ];
  return plan.map(({ status, daysAgo }, i): RegistrationSeed => {
    const person =
      i === plan.length - 1
        ? {
            company_name: SOLE.name,
            representative_name: "Tuomas Salminen",
            email: `tuomas.salminen@${SOLE.domain}.example`,
            phone_number: "+358 5 555 0144",
          }
        : crowd[i];
    const created = arrival(now, daysAgo, i);
    return {
      ...person,
      note: i % 9 === 4 ? NOTES[((i / 9) % NOTES.length) | 0] : null,
      status,
      created,
      userEmail: null,
      events: history(person, status, created, i, DECLINE_REASONS),
    };
  });
}

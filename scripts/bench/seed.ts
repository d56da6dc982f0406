import fs from "node:fs";
import type { Kysely } from "kysely";
import { companySearchEntry } from "../../core/members/search-entry";
import { openDatabase } from "../../db/connect";
import { migrateToLatest } from "../../db/migrate";
import type { Database, RegistrationStatus } from "../../db/types";
import { countryName } from "../../lib/countries";
import { loadConfig } from "../../lib/env";
import { escapeHtml, excerptOf, htmlToText } from "../../lib/html";
import { hashPassword } from "../../lib/password";
import { slugify } from "../../lib/slug";
import { seedDemoContent } from "../seed/index";
import { BENCH_OPEN_MEETING_SLUG, BENCH_REGISTRATIONS_MEETING_ID } from "./targets";

export type DataContext = { db: Kysely<Database>; uploadsDir: string };

/** A step that adds data on top of the demo content. */
export type DataStep = { name: string; run: (context: DataContext) => Promise<void> };

/**
 * Volume for targets that need more than the demo content, e.g. 10 000 news
 * posts for /news. Runs in order after the demo content, before the server
 * starts; every target is measured on the resulting database.
 */
export const EXTRA_DATA: DataStep[] = [
  {
    name: "10 000 news posts",
    run: async ({ db }) => {
      const start = Date.UTC(2018, 0, 1);
      const span = Date.UTC(2026, 0, 1) - start;
      for (let batch = 0; batch < 100; batch++) {
        const rows = Array.from({ length: 100 }, (_, i) => {
          const n = batch * 100 + i;
          const at = new Date(start + Math.floor((span * n) / 10_000)).toISOString();
          const content = `<p>Archive post ${n} about radar, ECDIS and GMDSS service.</p><p>${"Lorem ipsum dolor sit amet. ".repeat(20)}</p>`;
          return {
            slug: `bench-post-${n}`,
            title: `Bench post ${n}: navigation equipment update`,
            content,
            excerpt: excerptOf(content),
            author_name: "Bench",
            published_at: at,
            announced_at: at,
            created_at: at,
            updated_at: at,
          };
        });
        await db.insertInto("news_posts").values(rows).execute();
      }
    },
  },
  {
    name: "a working group with a member and a chair who sign in",
    run: async ({ db }) => {
      const now = new Date().toISOString();
      await db
        .insertInto("working_groups")
        .values({
          id: BENCH_GROUP_ID,
          name: "Bench working group",
          slug: "bench-group",
          created_at: now,
          updated_at: now,
        } as never)
        .execute();
      // An individual member each (no company): one in the group, one who chairs it (decision 0085).
      for (const [who, last_name, is_chair] of [
        [BENCH_GROUP_MEMBER, "Member", 0],
        [BENCH_GROUP_CHAIR, "Chair", 1],
      ] as const) {
        const { id } = await db
          .insertInto("users")
          .values({
            first_name: "Bench",
            last_name,
            email: who.email,
            role: "member",
            password_hash: await hashPassword(who.password),
            is_active: 1,
            created_at: now,
            updated_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await db
          .insertInto("group_members")
          .values({ group_id: BENCH_GROUP_ID, user_id: id, is_chair, created_at: now })
          .execute();
      }
    },
  },
  {
    name: "1 000 meetings with programmes",
    run: async ({ db }) => {
      const types = ["conference", "workshop", "meeting", "webinar"];
      const zones = ["Europe/London", "Europe/Amsterdam", "America/New_York", "Asia/Singapore"];
      const start = Date.UTC(2021, 0, 4);
      const now = new Date().toISOString();
      for (let batch = 0; batch < 10; batch++) {
        const rows = Array.from({ length: 100 }, (_, i) => {
          const n = batch * 100 + i;
          // Every 3.5 days from 2021: about half past, half to come.
          const day = new Date(start + n * 3.5 * 86_400_000).toISOString().slice(0, 10);
          return {
            slug: `bench-meeting-${n}`,
            title: `Bench meeting ${n}: radio and navigation working group`,
            type: types[n % types.length],
            meeting_type: n % 4 === 3 ? "Online" : "In person",
            organization: "Masthead",
            start_date: day,
            end_date: day,
            location: n % 4 === 3 ? "Online" : "Rotterdam, Netherlands",
            content: `<p>Bench meeting ${n} on GMDSS, ECDIS and radar.</p>`,
            timezone: zones[n % zones.length],
            visibility: n % 5 === 0 || isGroupMeeting(n) ? ("members" as const) : ("public" as const),
            created_at: now,
            updated_at: now,
          };
        });
        const inserted = await db.insertInto("meetings").values(rows).returning(["id", "slug", "start_date"]).execute();
        const forGroup = inserted.filter((m) => isGroupMeeting(Number(m.slug.slice("bench-meeting-".length))));
        if (forGroup.length > 0) {
          await db
            .insertInto("meeting_groups")
            .values(forGroup.map((m) => ({ meeting_id: m.id, group_id: BENCH_GROUP_ID })))
            .execute();
        }
        await db
          .insertInto("schedules")
          .values(
            inserted.flatMap((m) =>
              ["09:00", "11:00", "14:00"].map((time, k) => ({
                event_id: m.id,
                meeting_date: m.start_date,
                is_evening: 0,
                start: time,
                finish: `${String(Number(time.slice(0, 2)) + 1).padStart(2, "0")}:30`,
                description: `Session ${k + 1}`,
              })),
            ),
          )
          .execute();
      }
    },
  },
  {
    name: "10 000 papers in a members' category, 10 000 in a public one and 10 000 in a working group's",
    run: async ({ db }) => {
      const now = new Date().toISOString();
      // Fixed ids, so that the targets can name them (the bench database is SQLite).
      for (const c of BENCH_CATEGORIES) {
        await db
          .insertInto("paper_categories")
          .values({
            id: c.id,
            slug: c.slug,
            name: c.name,
            view_type: c.view_type,
            is_public: c.is_public,
            is_active: 1,
            is_root: 1,
            position: 100 + c.id,
            created_at: now,
            updated_at: now,
          } as never)
          .execute();
        if (c.group)
          await db.insertInto("category_groups").values({ category_id: c.id, group_id: BENCH_GROUP_ID }).execute();
        const orgs = ["IEC", "ISO", "ITU", "IMO", "IALA", "IHO", "CIRM", "RTCM"];
        for (let batch = 0; batch < 100; batch++) {
          const rows = Array.from({ length: 100 }, (_, i) => {
            const n = batch * 100 + i;
            const day = new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
            return {
              papers_category_id: c.id,
              name: `Bench paper ${n}: radar and ECDIS performance`,
              number: `TP-${String(n).padStart(5, "0")}`,
              organization: orgs[n % orgs.length],
              reference: `REF/${n}`,
              description: `A bench paper about GMDSS, AIS and radar, number ${n}.`,
              date: n % 50 === 0 ? null : day,
              forecast_date: day,
              created_at: now,
              updated_at: now,
            };
          });
          const inserted = await db
            .insertInto("papers")
            .values(rows)
            .returning(["id", "name", "description"])
            .execute();
          const documents = await db
            .insertInto("search_documents")
            .values(
              inserted.map((p) => ({
                kind: "paper",
                ref_id: String(p.id),
                url: `${c.is_public ? "/library" : "/dashboard"}/${c.slug}#paper-${p.id}`,
                title: p.name,
                body: p.description ?? "",
                audience: c.is_public ? ("public" as const) : ("members" as const),
                updated_at: now,
              })),
            )
            .returning("id")
            .execute();
          if (c.group) {
            await db
              .insertInto("search_document_groups")
              .values(documents.map((d) => ({ document_id: d.id, group_id: BENCH_GROUP_ID })))
              .execute();
          }
        }
      }
    },
  },
  {
    name: "5 000 member companies with products and representatives",
    run: seedCompanies,
  },
  {
    name: "5 000 registrations for one meeting, and a meeting open to registrations",
    run: seedRegistrations,
  },
  {
    name: "100 000 audit rows and 300 pages of the association's own",
    run: seedAuditAndPages,
  },
];

/** Two years of an active secretariat's audit log (issue 34: the log and its filters at scale). */
export const BENCH_AUDIT_ROWS = 100_000;
/** Pages of the association's own beside SPEC's (the pages screen at scale). */
export const BENCH_OWN_PAGES = 300;

/**
 * Audit rows spread over two years, newest last, by a few admins, over the kinds the log knows,
 * with the fields before and after as the services write them; and pages of our own in every state.
 */
async function seedAuditAndPages({ db }: DataContext): Promise<void> {
  const actions = ["update", "create", "delete", "sign_in", "access_refused", "representative_added"];
  const entities = [
    "news",
    "page",
    "meeting",
    "category",
    "paper",
    "company",
    "user",
    "settings",
    "request",
    "session",
  ];
  const start = Date.now() - 730 * 86_400_000;
  const step = Math.floor((730 * 86_400_000) / BENCH_AUDIT_ROWS);
  for (let batch = 0; batch < BENCH_AUDIT_ROWS / 1000; batch++) {
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const n = batch * 1000 + i;
      const entity = entities[n % entities.length];
      return {
        created_at: new Date(start + n * step).toISOString(),
        actor_id: null,
        actor_name: ["Ada Admin", "Bo Secretariat", "Cy Editor"][n % 3],
        ip: `198.51.100.${n % 250}`,
        action: actions[n % actions.length],
        entity,
        entity_id: String(n % 2000),
        summary: `Bench ${entity} #${n % 2000} changed`,
        changes: JSON.stringify({ name: { before: `Old name ${n}`, after: `New name ${n}` } }),
      };
    });
    await db.insertInto("audit_log").values(rows).execute();
  }
  const now = new Date().toISOString();
  const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const rows = Array.from({ length: BENCH_OWN_PAGES }, (_, n) => ({
    url: `/bench-page-${n}`,
    title: `Bench page ${n}: working group charter`,
    content: `<p>Bench page ${n}. ${"Terms of reference of the working group. ".repeat(10)}</p>`,
    status: n % 10 === 0 ? ("draft" as const) : ("published" as const),
    published_at: n % 10 === 5 ? later : null,
    section: n % 3 === 0 ? ("about" as const) : n % 3 === 1 ? ("services" as const) : null,
    in_menu: 0,
    in_footer: 0,
    position: n,
    created_at: now,
    updated_at: now,
  }));
  await db.insertInto("pages").values(rows).execute();
}

/** The bench's big library categories: one members-only technical papers view, one public standards view. */
export const BENCH_CATEGORIES: readonly {
  id: number;
  slug: string;
  name: string;
  view_type: string;
  is_public: 0 | 1;
  /** For the bench's working group only (issue 36). */
  group?: boolean;
}[] = [
  { id: 9001, slug: "bench-papers", name: "Bench papers", view_type: "masthead-technical-papers", is_public: 0 },
  { id: 9002, slug: "bench-standards", name: "Bench standards", view_type: "upcoming-standards", is_public: 1 },
  {
    id: 9003,
    slug: "bench-group-papers",
    name: "Bench group papers",
    view_type: "masthead-technical-papers",
    is_public: 0,
    group: true,
  },
];

/** The bench's working group (issue 36), a member of it who signs in, and its share of the bench's meetings. */
export const BENCH_GROUP_ID = 9201;
export const BENCH_GROUP_MEMBER = { email: "bench-member@masthead.example", password: "bench-member-password" };
/** The bench group's chair: the meetings screens and API limited to the group's meetings (decision 0085). */
export const BENCH_GROUP_CHAIR = { email: "bench-chair@masthead.example", password: "bench-chair-password" };
/** Every tenth bench meeting is for the bench's group (and every fifth other one for all members). */
const isGroupMeeting = (n: number) => n % 10 === 5;

/** How many member companies the bench adds to the demo's (issue 31: the directory and the admin list at scale). */
export const BENCH_COMPANIES = 5000;

const COMPANY_PREFIXES = (
  "Nordic|Northern|Norfolk|Azores|Pacific|Baltic|Aegean|Adriatic|Caspian|Coral|Harbour|Coastal|" +
  "Tidewater|Seaway|Bluewater|Sirocco|Polaris|Orion|Neptune|Triton|Mariner|Compass|Anchor|Lighthouse|" +
  "Keel|Helm|Fathom|Leeward|Windward|Starboard|Halcyon|Albatross|Petrel|Kittiwake|Osprey|Cormorant|" +
  "Gannet|Puffin|Heron|Skua|Fulmar|Dolphin|Orca|Marlin|Walrus|Cape Horn|Skagerrak|Kattegat|Biscay|" +
  "Solent|Humber|Mersey|Elbe|Weser|Rhine|Danube|Tagus|Douro|Ebro|Loire|Garonne|Seine|Oder|Vistula|Neva|" +
  "Bosporus|Sunda|Java|Luzon|Hokkaido|Kyushu|Jeju|Hainan|Andaman|Malabar|Coromandel|Zanzibar|Benguela|" +
  "Agulhas|Natal|Pampas|Patagonia|Chiloé|Yucatán|Caribe|Chesapeake|Puget|Fundy|Labrador|Hudson|Timor|" +
  "Bass Strait|Torres|Coral Sea|Hansen|Larsen|Jensen|Olsen|Møller|Fischer"
).split("|");
const COMPANY_TRADES: { words: string; products: string[] }[] = [
  { words: "Marine Electronics", products: ["Radar", "AIS", "ECDIS"] },
  { words: "Navigation Systems", products: ["ECDIS", "Radar", "GNSS"] },
  { words: "Radio Services", products: ["GMDSS", "VHF radio", "NAVTEX"] },
  { words: "Radar Technologies", products: ["Radar", "ARPA"] },
  { words: "Bridge Systems", products: ["Integrated bridge", "ECDIS", "Radar", "BNWAS"] },
  { words: "Satellite Communications", products: ["Satcom", "GMDSS", "LRIT"] },
  { words: "Maritime Instruments", products: ["Gyrocompass", "Speed log", "Echo sounder"] },
  { words: "Sonar & Sensors", products: ["Sonar", "Echo sounder"] },
  { words: "Ship Electronics", products: ["Radar", "Autopilot", "AIS"] },
  { words: "Marine Radio", products: ["VHF radio", "MF/HF radio", "GMDSS"] },
  { words: "Nautical Systems", products: ["ECDIS", "Conning display"] },
  { words: "Ocean Technologies", products: ["Sonar", "Weather routing"] },
  { words: "Maritime Solutions", products: ["VDR", "BNWAS", "AIS"] },
  { words: "Navtech", products: ["GNSS", "AIS", "Radar"] },
  { words: "Marine Automation", products: ["Autopilot", "Alarm systems"] },
  { words: "Offshore Electronics", products: ["Dynamic positioning", "Radar"] },
  { words: "Survey Systems", products: ["Surveys", "Echo sounder"] },
  { words: "Maritime Networks", products: ["Networks", "Cyber security"] },
  { words: "Antenna Systems", products: ["Antennas", "Satcom"] },
  { words: "Gyro Instruments", products: ["Gyrocompass", "Autopilot"] },
  { words: "Safety Systems", products: ["EPIRB", "SART", "GMDSS"] },
  { words: "Marine Services", products: ["Type approval", "Training", "Radar"] },
  { words: "Telecom", products: ["Satcom", "VHF radio"] },
  { words: "Positioning", products: ["GNSS", "Dynamic positioning"] },
  { words: "Training Institute", products: ["Training", "ECDIS", "GMDSS"] },
];
/** Tags added to a company's trade's products, so that every tag is found across trades. */
const OTHER_PRODUCTS = (
  "Radar|ECDIS|AIS|GMDSS|VDR|GNSS|Autopilot|NAVTEX|Satcom|Echo sounder|BNWAS|Speed log|Cyber security|" +
  "Training|LRIT|SSAS|Weather routing|Antennas"
).split("|");
/** Countries on every continent with a coastline, and each one's usual company form. */
const COMPANY_COUNTRIES = (
  "NO:AS|GB:Ltd|DE:GmbH|NL:B.V.|DK:A/S|SE:AB|FI:Oy|FR:SAS|ES:S.L.|IT:S.r.l.|PT:Lda.|GR:S.A.|" +
  "PL:Sp. z o.o.|HR:d.o.o.|TR:A.Ş.|IE:Ltd|BE:NV|EE:OÜ|US:Inc.|CA:Inc.|BR:Ltda.|CL:S.A.|AR:S.A.|" +
  "MX:S.A. de C.V.|JP:K.K.|KR:Co., Ltd|CN:Co., Ltd|SG:Pte Ltd|MY:Sdn Bhd|IN:Pvt Ltd|PH:Inc.|ID:PT|" +
  "AU:Pty Ltd|NZ:Ltd|ZA:(Pty) Ltd|EG:S.A.E.|NG:Ltd|KE:Ltd|AE:LLC|MA:SARL"
)
  .split("|")
  .map((pair) => pair.split(":") as [string, string]);
const FIRST_NAMES = "Ingrid|Lars|Maria|João|Kenji|Ana|Pieter|Sofia|Ahmed|Grace|Wei|Olu".split("|");
const LAST_NAMES = "Berg|Costa|Tanaka|Müller|Okafor|Lindqvist|Rossi|Novak|Kim|Silva|Dubois".split("|");
const COMPANY_BATCH = 250;

/** The bench's company number `n` (0 … BENCH_COMPANIES − 1): its name, country and products. */
export function benchCompany(n: number) {
  const prefix = COMPANY_PREFIXES[n % COMPANY_PREFIXES.length];
  const trade = COMPANY_TRADES[Math.floor(n / COMPANY_PREFIXES.length) % COMPANY_TRADES.length];
  const group = Math.floor(n / (COMPANY_PREFIXES.length * COMPANY_TRADES.length)) === 0 ? "" : " International";
  const [country, form] = COMPANY_COUNTRIES[(n * 13 + Math.floor(n / 97)) % COMPANY_COUNTRIES.length];
  const name = `${prefix} ${trade.words}${group} ${form}`;
  const products = [...trade.products];
  for (const k of [7, 11, 5]) {
    if (products.length >= 2 + (n % 4)) break;
    const tag = OTHER_PRODUCTS[(n * k + k) % OTHER_PRODUCTS.length];
    if (!products.includes(tag)) products.push(tag);
  }
  return { name, slug: slugify(name, "company"), country, products };
}

/**
 * The companies: 5 000 after the demo's 50, on several continents, with two to five product tags;
 * a few hundred not current (about 220 left, 170 suspended, 290 lapsed past the grace period, some
 * of them both), some in the grace period, every ninth without a renewal date; every fourth with one
 * to three representatives (invited, no password yet), within its seats; two in three with one of the
 * demo's logos. Each has its site search entry, as the members service writes it.
 */
async function seedCompanies({ db }: DataContext): Promise<void> {
  const now = new Date();
  const nowIso = now.toISOString();
  const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const logos = await db
    .selectFrom("member_companies")
    .select(["logo", "logo_width", "logo_height"])
    .where("logo", "is not", null)
    .orderBy("id")
    .execute();
  for (let start = 0; start < BENCH_COMPANIES; start += COMPANY_BATCH) {
    const batch = Array.from({ length: Math.min(COMPANY_BATCH, BENCH_COMPANIES - start) }, (_, i) => {
      const n = start + i;
      const company = benchCompany(n);
      const type = /Training|Services|Survey/.test(company.name) || n % 6 === 5 ? "associate" : "full";
      const seats = n % 5 === 4 ? null : type === "full" ? 5 : 2;
      const status = n % 23 === 5 ? "left" : n % 29 === 7 ? "suspended" : "active";
      const renewsOn =
        n % 17 === 3
          ? day(-(45 + (n % 300)))
          : n % 41 === 0
            ? day(-10)
            : n % 9 === 8
              ? null
              : day(5 + ((n * 37) % 360));
      const logo = n % 3 === 2 || logos.length === 0 ? null : logos[n % logos.length];
      const where = countryName(company.country) ?? company.country;
      return {
        n,
        company,
        seats,
        row: {
          name: company.name,
          slug: company.slug,
          country: company.country,
          website: `https://www.${company.slug}.example`,
          logo: logo?.logo ?? null,
          logo_width: logo?.logo_width ?? null,
          logo_height: logo?.logo_height ?? null,
          description: `<p>${escapeHtml(company.name)} designs, installs and services ${escapeHtml(company.products.join(", "))} for merchant ships, fishing fleets and shore stations in ${escapeHtml(where)} and beyond.</p>`,
          membership_type: type as "full" | "associate",
          member_since: `${1950 + (n % 75)}-01-01`,
          renews_on: renewsOn,
          seats,
          status: status as "active" | "suspended" | "left",
          created_at: nowIso,
          updated_at: nowIso,
        },
      };
    });
    const inserted = await db
      .insertInto("member_companies")
      .values(batch.map((b) => b.row))
      .returning(["id", "slug"])
      .execute();
    const ids = new Map(inserted.map((r) => [r.slug, r.id]));
    const idOf = (slug: string) => {
      const id = ids.get(slug);
      if (id === undefined) throw new Error(`bench company ${slug} was not inserted`);
      return id;
    };
    await db
      .insertInto("member_company_products")
      .values(
        batch.flatMap(({ company }) =>
          company.products.map((name, position) => ({
            company_id: idOf(company.slug),
            position,
            name,
            tag: name.toLowerCase(),
          })),
        ),
      )
      .execute();
    await db
      .insertInto("search_documents")
      .values(
        batch.map(({ company, row }) => {
          const entry = companySearchEntry({ ...row, id: idOf(company.slug), products: company.products });
          return {
            kind: entry.kind,
            ref_id: String(entry.refId),
            url: entry.url,
            title: entry.title,
            body: htmlToText(entry.html),
            audience: "public" as const,
            updated_at: nowIso,
          };
        }),
      )
      .execute();
    const people = batch
      .filter(({ n }) => n % 4 === 0)
      .flatMap(({ n, company, seats }) =>
        Array.from({ length: Math.min(seats ?? 3, 1 + ((n / 4) % 3)) }, (_, k) => ({
          companyId: idOf(company.slug),
          primary: k === 0,
          first_name: FIRST_NAMES[(n + k) % FIRST_NAMES.length],
          last_name: LAST_NAMES[(n * 3 + k) % LAST_NAMES.length],
          email: `rep${k + 1}@${company.slug}.example`,
        })),
      );
    if (people.length === 0) continue;
    const users = await db
      .insertInto("users")
      .values(
        people.map((p) => ({
          first_name: p.first_name,
          last_name: p.last_name,
          email: p.email,
          phone_number: null,
          avatar: null,
          role: "member" as const,
          password_hash: null,
          is_active: 1,
          calendar_token_hash: null,
          created_at: nowIso,
          updated_at: nowIso,
        })),
      )
      .returning(["id", "email"])
      .execute();
    const userIds = new Map(users.map((u) => [u.email, u.id]));
    await db
      .insertInto("company_representatives")
      .values(
        people.map((p) => ({
          user_id: userIds.get(p.email) as number,
          company_id: p.companyId,
          is_primary: p.primary ? 1 : 0,
          created_at: nowIso,
        })),
      )
      .execute();
  }
}

/** The bench's meetings for registrations, with fixed ids so that the targets can name them. */
/** Its capacity is set to the seats its registrations hold (full, with a waiting list). */
export const BENCH_REGISTRATIONS_MEETING = {
  id: BENCH_REGISTRATIONS_MEETING_ID,
  slug: "bench-registrations-5000",
  capacity: null,
};
export const BENCH_OPEN_MEETING = { id: 9102, slug: BENCH_OPEN_MEETING_SLUG, capacity: 1_000_000 };
/** How many registrations the list's meeting has (issue 32: the admin's list at scale). */
export const BENCH_REGISTRATIONS = 5000;
const REGISTRATION_BATCH = 250;

/**
 * Two meetings in 2031, after the bench's thousand (so no list's first page changes): one with
 * 5 000 registrations, as the registrations service leaves them (decision 0052): full at its 4 226
 * places (3 453 confirmed, 773 pending), 258 on its waiting list, 258 declined and 258 cancelled,
 * each with the history of the states it reached; the other with room for a million, for the
 * registration row (POST /api/join). Registrants of the bench's companies, names from a small set
 * (so a search finds a few dozen), an address each.
 */
async function seedRegistrations({ db }: DataContext): Promise<void> {
  const now = new Date();
  const nowIso = now.toISOString();
  for (const [meeting, title, day] of [
    [BENCH_REGISTRATIONS_MEETING, "Bench conference with 5 000 registrations", "2031-03-10"],
    [BENCH_OPEN_MEETING, "Bench workshop open for registration", "2031-04-14"],
  ] as const) {
    await db
      .insertInto("meetings")
      .values({
        id: meeting.id,
        slug: meeting.slug,
        title,
        type: "meeting",
        meeting_type: "In person",
        organization: "Masthead",
        start_date: day,
        end_date: day,
        location: "Rotterdam, Netherlands",
        content: `<p>${escapeHtml(title)} on GMDSS, ECDIS and radar.</p>`,
        timezone: "Europe/Amsterdam",
        visibility: "public",
        capacity: meeting.capacity,
        created_at: nowIso,
        updated_at: nowIso,
      } as never)
      .execute();
  }
  const states = (n: number): RegistrationStatus => {
    // Not n % 20 alone: the companies repeat every 100, and a search would find one state only.
    const k = (n * 7 + Math.floor(n / 97)) % 20;
    return k === 0 ? "waitlisted" : k === 1 ? "declined" : k === 2 ? "cancelled" : k < 6 ? "pending" : "confirmed";
  };
  let held = 0;
  for (let start = 0; start < BENCH_REGISTRATIONS; start += REGISTRATION_BATCH) {
    const batch = Array.from({ length: Math.min(REGISTRATION_BATCH, BENCH_REGISTRATIONS - start) }, (_, i) => {
      const n = start + i;
      const company = benchCompany(n % BENCH_COMPANIES);
      const status = states(n);
      const email = `attendee${n}@${company.slug}.example`;
      // Spread over the 120 days before the seed, oldest first.
      const created = new Date(now.getTime() - (BENCH_REGISTRATIONS - n) * 2_073_600);
      return {
        n,
        status,
        created,
        row: {
          kind: "registration" as const,
          meeting_id: BENCH_REGISTRATIONS_MEETING.id,
          company_name: company.name,
          representative_name: `${FIRST_NAMES[n % FIRST_NAMES.length]} ${LAST_NAMES[(n * 7) % LAST_NAMES.length]}`,
          email,
          phone_number: `+31 10 555 ${String(n).padStart(4, "0")}`,
          page_path: `/events/${BENCH_REGISTRATIONS_MEETING.slug}`,
          ip: null,
          handled_at: null,
          created_at: created.toISOString(),
          subject: null,
          message: null,
          spam_reason: null,
          status: null,
          registration_status: status,
          registration_email: status === "declined" || status === "cancelled" ? null : email,
          note: n % 25 === 3 ? "Vegetarian meals, please." : null,
          user_id: null,
          attended_at: null,
        },
      };
    });
    const inserted = await db
      .insertInto("join_requests")
      .values(batch.map((b) => b.row))
      .returning(["id", "email"])
      .execute();
    const ids = new Map(inserted.map((r) => [r.email, r.id]));
    await db
      .insertInto("join_request_events")
      .values(
        batch.flatMap(({ row, status, created }) => {
          const id = ids.get(row.email) as number;
          const at = (hours: number) => new Date(created.getTime() + hours * 3_600_000).toISOString();
          const event = (
            name: `registration_${RegistrationStatus}`,
            when: string,
            by: string,
            reason: string | null,
          ) => ({
            join_request_id: id,
            event: name,
            user_id: null,
            user_name: by,
            company_id: null,
            company_name: null,
            reason,
            created_at: when,
          });
          const arrived = event(
            status === "waitlisted" ? "registration_waitlisted" : "registration_pending",
            row.created_at,
            row.representative_name,
            null,
          );
          if (status === "pending" || status === "waitlisted") return [arrived];
          if (status === "declined") {
            return [arrived, event("registration_declined", at(20), "The secretariat", "Registered twice.")];
          }
          const confirmed = event("registration_confirmed", at(20), "The secretariat", null);
          if (status === "confirmed") return [arrived, confirmed];
          return [arrived, confirmed, event("registration_cancelled", at(100), row.representative_name, null)];
        }),
      )
      .execute();
    held += batch.filter((b) => b.status === "pending" || b.status === "confirmed").length;
  }
  await db.updateTable("meetings").set({ capacity: held }).where("id", "=", BENCH_REGISTRATIONS_MEETING.id).execute();
}

/**
 * A fresh data directory: migrations, the demo content, then EXTRA_DATA; on
 * the SQLite file in it, or on `databaseUrl` (an empty PostgreSQL database).
 */
export async function prepareBenchData(
  dataDir: string,
  steps: DataStep[] = EXTRA_DATA,
  databaseUrl?: string,
): Promise<void> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  // Only DATA_DIR: a DATABASE_URL in the environment must not send the bench elsewhere.
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
  fs.mkdirSync(config.uploadsDir, { recursive: true });
  const database = openDatabase(config);
  try {
    await timed("migrations", () => migrateToLatest(database.db));
    await timed("demo content", async () => {
      const { seeded } = await seedDemoContent(database.db, {
        uploadsDir: config.uploadsDir,
        privateDir: config.privateDir,
      });
      if (!seeded) throw new Error("the demo content was not loaded into the fresh database");
    });
    for (const step of steps) {
      await timed(step.name, () => step.run({ db: database.db, uploadsDir: config.uploadsDir }));
    }
  } finally {
    await database.destroy();
  }
}

async function timed(label: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await run();
  console.log(`  ${label}: ${Math.round(performance.now() - started)} ms`);
}

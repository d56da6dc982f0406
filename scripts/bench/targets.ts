/**
 * What `npm run bench` measures, in report order. Add a page or an API call
 * by adding an entry; data it needs beyond the demo content goes in
 * EXTRA_DATA (scripts/bench/seed.ts).
 *
 * Requests go out without Accept-Encoding unless `headers` says otherwise, so
 * that the app and the baseline send the same bytes. A target of kind "page"
 * (an anonymous page the page cache serves) is measured twice: without
 * Accept-Encoding, and with `Accept-Encoding: br, gzip` as browsers send it,
 * where the baseline sends the same page precompressed with brotli. Each
 * target must answer 200 before it is measured.
 */
export type BenchTarget = {
  /** Label in the report. */
  name: string;
  /**
   * "page": an anonymous page served from the page cache, measured identity and br
   * (goal: half the baseline's req/s, p99 under 10 ms); "signed-in": a page for a signed-in user,
   * from its role's render in the page cache where the route allows it (decision 0032), else
   * rendered on every request (goal 2: 3× the compared build); "api-list": an API list call (goal: p99 under 20 ms);
   * "other": anything else (measured identity only, no goal).
   */
  kind: TargetKind;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path and query string, e.g. "/news?page=2". */
  path: string;
  /**
   * "bearer": send the bench admin's token as `Authorization: Bearer …`; "group-member": the token
   * of a member of the bench's working group (issue 36: what a group's member reads);
   * "group-chair": its chair's (decision 0085: the meetings they manage).
   */
  auth?: "bearer" | "group-member" | "group-chair";
  /** Measured with `Accept-Encoding: br, gzip` too (as pages always are). */
  encoded?: boolean;
  /** Extra request headers, e.g. { "Accept-Encoding": "br" } to include compression. */
  headers?: Record<string, string>;
  /** Request body, sent as is (set Content-Type in `headers`). */
  body?: string;
  /**
   * Each request's body gets a number of its own where NUMBER_MARK stands (wrk's Lua script, the
   * checks before and after a run): a registration needs an address of its own every time, or the
   * one-per-address rule refuses it.
   */
  numbered?: boolean;
  /** Connections for this target instead of --connections (see "Reading the figures"). */
  connections?: number;
  /** An API call in the `--soak` mix (pages and signed-in pages always are). */
  soak?: boolean;
};

export type TargetKind = "page" | "signed-in" | "api-list" | "other";

/** Where a `numbered` body takes its request's number. */
export const NUMBER_MARK = "{n}";

/** The bench's meetings for registrations (EXTRA_DATA): 5 000 registrations, and room for a million. */
export const BENCH_REGISTRATIONS_MEETING_ID = 9101;
export const BENCH_OPEN_MEETING_SLUG = "bench-registration-open";

/** The address of registrant 7 of the bench seed (`attendee${n}@${benchCompany(n % 5000).slug}.example`). */
const BENCH_REGISTRANT = "attendee7%40adriatic-marine-electronics-s-a.example";

/** Connections for the signed-in rows (see "Reading the figures"). */
export const RENDERED_CONNECTIONS = 10;

export const TARGETS: BenchTarget[] = [
  { name: "Home page", kind: "page", path: "/" },
  { name: "Login page", kind: "other", path: "/login" },
  { name: "Current user API, Bearer token", kind: "other", path: "/api/dashboard/user", auth: "bearer" },
  // With 10 000 posts (EXTRA_DATA): the first page, a month in the archive, and an article.
  { name: "News list, 10 000 posts", kind: "page", path: "/news" },
  { name: "News list, one archive month", kind: "page", path: "/news?month=06-2022" },
  { name: "News article", kind: "page", path: "/post/bench-post-5000" },
  // The same pages for a signed-in user: the role's render from the page cache (decision 0032);
  // the members' dashboard, which greets the person, is rendered on every request. Ten
  // connections, as when every one was rendered (and still is on a compared older build): fifty
  // saturate a render-bound process, and then Node serves sockets unevenly.
  {
    name: "News list, signed in",
    kind: "signed-in",
    path: "/news",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "News article, signed in",
    kind: "signed-in",
    path: "/post/bench-post-5000",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  // With 1 000 meetings (EXTRA_DATA): the calendar, a type, a meeting page, the featured
  // conference, the feed, the members' calendar.
  { name: "Events calendar, 1 000 meetings", kind: "page", path: "/events" },
  { name: "Events calendar, webinars", kind: "page", path: "/events?type=webinar" },
  { name: "Meeting page", kind: "page", path: "/events/bench-meeting-601" },
  { name: "Featured conference", kind: "page", path: "/conference" },
  {
    name: "Featured conference, signed in",
    kind: "signed-in",
    path: "/conference",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  { name: "Events calendar feed (ICS)", kind: "other", path: "/events.ics", encoded: true },

  {
    name: "Meetings API, from a start date",
    kind: "api-list",
    path: "/api/meetings?start_date=2025-06-01",
    soak: true,
  },
  {
    name: "Events calendar, signed in",
    kind: "signed-in",
    path: "/events",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Members' calendar, signed in",
    kind: "signed-in",
    path: "/dashboard/events",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Members' calendar, signed in as a working group's member",
    kind: "signed-in",
    // The same list as /dashboard/events (its default view), at an address of its own for the baseline.
    path: "/dashboard/events?view=list",
    auth: "group-member",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Library category for a working group, 10 000 papers, signed in as its member",
    kind: "signed-in",
    path: "/dashboard/bench-group-papers",
    auth: "group-member",
    connections: RENDERED_CONNECTIONS,
  },
  // The meetings' admin list of 1 000 meetings: the secretariat's, and a chair's (their group's 100).
  {
    name: "Meetings API (admin), first page, 1 000 meetings",
    kind: "api-list",
    path: "/api/dashboard/meeting",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Meetings API (chair), first page, their group's 100 of 1 000 meetings",
    kind: "api-list",
    path: "/api/dashboard/meeting?page=1",
    auth: "group-chair",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Events screen, their group's 100 of 1 000 meetings, signed in as its chair",
    // Rendered each time, as the secretariat's screens: no goal of its own.
    kind: "other",
    path: "/manage-events",
    auth: "group-chair",
    connections: RENDERED_CONNECTIONS,
  },
  // With 10 000 papers in each of two categories (EXTRA_DATA): the pages and every sort option of SPEC §9.
  {
    name: "Library category, 10 000 papers, signed in",
    kind: "signed-in",
    path: "/dashboard/bench-papers",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Members' dashboard, signed in",
    kind: "signed-in",
    path: "/dashboard",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Profile settings, signed in (their own page, rendered each time)",
    // Not among the pages goal 2 names; in the soak, so that its mix keeps rendering.
    kind: "other",
    soak: true,
    path: "/dashboard/user-settings",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  { name: "Public library category, 10 000 papers", kind: "page", path: "/library/bench-standards" },
  ...(["no_desc", "no_asc", "date_desc", "date_asc"] as const).map(
    (sortBy): BenchTarget => ({
      name: `Papers API, 10 000 papers, ${sortBy}`,
      kind: "api-list",
      method: "POST",
      // The sort in the query too: the baseline tells its answers apart by path, not by body.
      path: `/api/dashboard/getPapersByCategory/9001?page=1&sort=${sortBy}`,
      auth: "bearer",
      soak: sortBy === "date_desc",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sortBy }),
    }),
  ),
  ...(["organization_desc", "organization_asc"] as const).map(
    (sortBy): BenchTarget => ({
      name: `Papers API, 10 000 papers, ${sortBy}`,
      kind: "api-list",
      method: "POST",
      path: `/api/dashboard/getPapersByCategory/9002?page=1&sort=${sortBy}`,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sortBy }),
    }),
  ),
  {
    name: "Papers API, 10 000 papers, page 400",
    kind: "api-list",
    method: "POST",
    path: "/api/dashboard/getPapersByCategory/9001?page=400",
    auth: "bearer",
    headers: { "Content-Type": "application/json" },
    body: '{"sortBy":"date_desc"}',
  },
  {
    // Every bench paper matches both words: the worst case of a search joined into the list. Ten
    // connections, as for rendered pages: fifty only queue behind it.
    name: "Papers API, 10 000 papers, searched (every paper matches)",
    kind: "api-list",
    method: "POST",
    path: "/api/dashboard/getPapersByCategory/9001",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
    headers: { "Content-Type": "application/json" },
    body: '{"search":"radar ecdis","sortBy":"no_asc"}',
  },
  {
    name: "News list API",
    kind: "api-list",
    method: "POST",
    path: "/api/getPosts",
    headers: { "Content-Type": "application/json" },
    body: '{"filters":"06-2022"}',
    soak: true,
  },
  // With 5 000 member companies (EXTRA_DATA), about 650 of them not current: the directory, a
  // company's page and the API's product filter, cached as the other public pages; the
  // secretariat's list searched, its page and its API call, rendered and read each time. The
  // searched rows use ten connections, as the searched papers: fifty only queue behind them.
  // `--only "5 000 companies"` measures these alone.
  { name: "Members list, 5 000 companies", kind: "page", path: "/members-list" },
  {
    name: "Member company page, 5 000 companies",
    kind: "page",
    path: "/members-list/nordic-marine-electronics-international-ab",
  },
  {
    name: "Members API, product filter, 5 000 companies",
    kind: "api-list",
    path: "/api/members?product=radar",
  },
  {
    name: "Member companies (manager), searched, 5 000 companies, signed in as admin",
    // Rendered each time (its notices come from a cookie): no goal of its own, as profile settings.
    kind: "other",
    path: "/manager/members?search=nor",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Member companies API (admin), searched, 5 000 companies",
    kind: "api-list",
    path: "/api/dashboard/companies?search=nor",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  // The header's search box (SPEC §7: GET /search with search_query): news, meetings, pages and papers.
  { name: "Site search API", kind: "api-list", path: "/api/search?search_query=radar", soak: true },
  // With a meeting of 5 000 registrations (EXTRA_DATA, issue 32): the secretariat's list searched
  // (about fifty match 'nordic') and its first page, and its screen, with ten connections as the
  // companies' rows. Then registrations sent to another meeting with room for a million, each with
  // an address of its own, from one address with the rate limit lifted (scripts/bench.ts): last,
  // because every registration moves the content version and so empties the page cache.
  // `--only "5 000 registrations"` measures these alone.
  {
    name: "Registrations API (admin), searched, 5 000 registrations",
    kind: "api-list",
    path: `/api/dashboard/meeting/${BENCH_REGISTRATIONS_MEETING_ID}/registrations?search=nordic`,
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Registrations API (admin), first page, 5 000 registrations",
    kind: "api-list",
    path: `/api/dashboard/meeting/${BENCH_REGISTRATIONS_MEETING_ID}/registrations`,
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Registrations screen, searched, 5 000 registrations, signed in as admin",
    // Rendered each time, as the companies' screen: no goal of its own.
    kind: "other",
    path: `/manage-events/${BENCH_REGISTRATIONS_MEETING_ID}/registrations?search=nordic`,
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  // The audit log at two years' scale (EXTRA_DATA, issue 34): its API's first page and a filter, and
  // the secretariat's screens of the log and of the pages (300 of the association's own). Before the
  // registrations sent, which empty the page cache.
  {
    name: "Audit log API (admin), first page, 100 000 rows",
    kind: "api-list",
    path: "/api/dashboard/audit",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Audit log API (admin), filtered by kind and action, 100 000 rows",
    kind: "api-list",
    path: "/api/dashboard/audit?entity=company&action=update",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Audit log screen, 100 000 rows, signed in as admin",
    kind: "other",
    path: "/manager/audit",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Pages screen, 300 pages of our own, signed in as admin",
    kind: "other",
    path: "/manager/pages",
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  // A personal data request (issue 35): one registrant among the 5 000 (benchCompany(7) of the seed)
  // beside the 100 000 audit rows, as the secretariat finds it, and as the ZIP it downloads.
  {
    name: "Personal data lookup API (admin), a registrant among 5 000 and 100 000 audit rows",
    kind: "api-list",
    path: `/api/dashboard/privacy?email=${BENCH_REGISTRANT}`,
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Personal data requests screen, the same registrant, signed in as admin",
    kind: "other",
    path: `/manager/privacy?email=${BENCH_REGISTRANT}`,
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Personal data export (ZIP, streamed), the same registrant",
    kind: "other",
    path: `/api/dashboard/privacy/export?email=${BENCH_REGISTRANT}`,
    auth: "bearer",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Proof-of-work challenge (GET /api/altcha/challenge)",
    kind: "other",
    path: "/api/altcha/challenge",
    connections: RENDERED_CONNECTIONS,
  },
  {
    name: "Registration sent (POST /api/join), beside the 5 000 registrations",
    kind: "other",
    method: "POST",
    path: "/api/join",
    connections: RENDERED_CONNECTIONS,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      company_name: "Bench Marine Electronics Ltd",
      representative_name: "Bench Registrant",
      email: `bench-${NUMBER_MARK}@registrations.example`,
      phone_number: "+31 10 555 0100",
      page_path: `/events/${BENCH_OPEN_MEETING_SLUG}`,
    }),
    numbered: true,
  },
];

/** A target with everything resolved: the request both servers receive. */
export type BenchRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** See BenchTarget.numbered. */
  numbered?: boolean;
};

/** Numbers of this process's requests: unique to the process, and so never met in an earlier run on the same data. */
const RUN_TAG = `${Date.now().toString(36)}${process.pid.toString(36)}`;
let numberedSent = 0;

/** The body as sent: a numbered one with a number no other request of any run had. */
export function bodyToSend(request: Pick<BenchRequest, "body" | "numbered">): string | undefined {
  if (!request.numbered || request.body === undefined) return request.body;
  numberedSent += 1;
  return request.body.replaceAll(NUMBER_MARK, `${RUN_TAG}-${numberedSent}`);
}

/** How a row asks for its response: as is, or compressed the way browsers ask. */
export type Encoding = "identity" | "br";

/** What browsers send; the app answers it with brotli. */
export const BROWSER_ACCEPT_ENCODING = "br, gzip";

/** One row of the report: a target, in one encoding. */
export type BenchCase = { target: BenchTarget; encoding: Encoding };

/** The rows for these targets: pages twice (identity, then br), the rest once. */
export function casesOf(targets: BenchTarget[]): BenchCase[] {
  return targets.flatMap((target): BenchCase[] =>
    target.kind === "page" || target.encoded
      ? [
          { target, encoding: "identity" },
          { target, encoding: "br" },
        ]
      : [{ target, encoding: "identity" }],
  );
}

export function resolveTarget(
  target: BenchTarget,
  session: { token: string; groupMemberToken?: string; groupChairToken?: string },
  encoding: Encoding = "identity",
): BenchRequest {
  const headers: Record<string, string> = { ...target.headers };
  if (target.auth === "bearer") headers.Authorization = `Bearer ${session.token}`;
  if (target.auth === "group-member") headers.Authorization = `Bearer ${session.groupMemberToken ?? ""}`;
  if (target.auth === "group-chair") headers.Authorization = `Bearer ${session.groupChairToken ?? ""}`;
  if (encoding === "br") headers["Accept-Encoding"] = BROWSER_ACCEPT_ENCODING;
  return {
    method: target.method ?? "GET",
    path: target.path,
    headers,
    body: target.body,
    ...(target.numbered ? { numbered: true } : {}),
  };
}

export function describeTarget(target: BenchTarget): string {
  const connections = target.connections ? `, ${target.connections} connections` : "";
  return `${target.name} — \`${target.method ?? "GET"} ${target.path}\`${connections}`;
}

export function describeCase({ target, encoding }: BenchCase): string {
  return `${describeTarget(target)}${encoding === "br" ? `, \`Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}\`` : ""}`;
}

/**
 * The `--soak` mix, sent in turn: every cached page identity and br, every signed-in page,
 * and the API lists marked `soak`.
 */
export function soakCases(targets: BenchTarget[] = TARGETS): BenchCase[] {
  return casesOf(targets.filter((t) => t.kind === "page" || t.kind === "signed-in" || t.soak));
}

/** Short label for progress lines. */
export function shortLabel({ target, encoding }: BenchCase): string {
  return `${target.name}${encoding === "br" ? " (br)" : ""}`;
}

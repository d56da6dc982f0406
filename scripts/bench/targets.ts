/**
 * What `npm run bench` measures, in report order. Add a page or an API call
 * by adding an entry; data it needs beyond the demo content goes in
 * EXTRA_DATA (scripts/bench/seed.ts).
 *
 * Requests go out without Accept-Encoding unless `headers` says otherwise, so
 * that the app and the baseline send the same bytes. Each target must answer
 * 200 before it is measured.
 */
export type BenchTarget = {
  /** Label in the report. */
  name: string;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path and query string, e.g. "/news?page=2". */
  path: string;
  /** "bearer": send the bench admin's token as `Authorization: Bearer …`. */
  auth?: "bearer";
  /** Extra request headers, e.g. { "Accept-Encoding": "br" } to include compression. */
  headers?: Record<string, string>;
  /** Request body, sent as is (set Content-Type in `headers`). */
  body?: string;
  /** Connections for this target instead of --connections (see "Reading the figures"). */
  connections?: number;
};

export const TARGETS: BenchTarget[] = [
  { name: "Home page", path: "/" },
  { name: "Login page", path: "/login" },
  { name: "Current user API, Bearer token", path: "/api/dashboard/user", auth: "bearer" },
  // With 10 000 posts (EXTRA_DATA): the first page, a month in the archive, and an article.
  { name: "News list, 10 000 posts", path: "/news" },
  { name: "News list, one archive month", path: "/news?month=06-2022" },
  { name: "News article", path: "/post/bench-post-5000" },
  // The same pages for a signed-in user: never cached, so rendered on every request. Ten
  // connections: fifty saturate a render-bound process, and then Node serves sockets unevenly.
  { name: "News list, signed in (rendered each time)", path: "/news", auth: "bearer", connections: 10 },
  {
    name: "News article, signed in (rendered each time)",
    path: "/post/bench-post-5000",
    auth: "bearer",
    connections: 10,
  },
  // With 1 000 meetings (EXTRA_DATA): the calendar, a type, a meeting page, the feed, the members' calendar.
  { name: "Events calendar, 1 000 meetings", path: "/events" },
  { name: "Events calendar, webinars", path: "/events?type=webinar" },
  { name: "Meeting page", path: "/events/bench-meeting-601" },
  { name: "Events calendar feed (ICS)", path: "/events.ics" },
  { name: "Meetings API, from a start date", path: "/api/meetings?start_date=2025-06-01" },
  {
    name: "Members' calendar, signed in (rendered each time)",
    path: "/dashboard/events",
    auth: "bearer",
    connections: 10,
  },
  // With 10 000 papers in each of two categories (EXTRA_DATA): the pages and every sort option of SPEC §9.
  {
    name: "Library category, 10 000 papers, signed in (rendered each time)",
    path: "/dashboard/bench-papers",
    auth: "bearer",
    connections: 10,
  },
  { name: "Public library category, 10 000 papers", path: "/library/bench-standards" },
  ...(["no_desc", "no_asc", "date_desc", "date_asc"] as const).map(
    (sortBy): BenchTarget => ({
      name: `Papers API, 10 000 papers, ${sortBy}`,
      method: "POST",
      // The sort in the query too: the baseline tells its answers apart by path, not by body.
      path: `/api/dashboard/getPapersByCategory/9001?page=1&sort=${sortBy}`,
      auth: "bearer",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sortBy }),
    }),
  ),
  ...(["organization_desc", "organization_asc"] as const).map(
    (sortBy): BenchTarget => ({
      name: `Papers API, 10 000 papers, ${sortBy}`,
      method: "POST",
      path: `/api/dashboard/getPapersByCategory/9002?page=1&sort=${sortBy}`,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sortBy }),
    }),
  ),
  {
    name: "Papers API, 10 000 papers, page 400",
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
    method: "POST",
    path: "/api/dashboard/getPapersByCategory/9001",
    auth: "bearer",
    connections: 10,
    headers: { "Content-Type": "application/json" },
    body: '{"search":"radar ecdis","sortBy":"no_asc"}',
  },
  {
    name: "News list API",
    method: "POST",
    path: "/api/getPosts",
    headers: { "Content-Type": "application/json" },
    body: '{"filters":"06-2022"}',
  },
];

/** A target with everything resolved: the request both servers receive. */
export type BenchRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
};

export function resolveTarget(target: BenchTarget, session: { token: string }): BenchRequest {
  const headers: Record<string, string> = { ...target.headers };
  if (target.auth === "bearer") headers.Authorization = `Bearer ${session.token}`;
  return { method: target.method ?? "GET", path: target.path, headers, body: target.body };
}

export function describeTarget(target: BenchTarget): string {
  const connections = target.connections ? `, ${target.connections} connections` : "";
  return `${target.name} — \`${target.method ?? "GET"} ${target.path}\`${connections}`;
}

import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOGIN_LIMITS } from "../../core/auth/auth.service";
import { createServices } from "../../core/services";
import { openPostgres } from "../../db/connect";
import { localStorage } from "../../lib/storage";
import { startS3, type TestS3 } from "../support/s3";
import { startSmtpServer } from "../support/smtp";
import { type Answer, get, publish, signIn, startTestCluster, type TestCluster } from "./support";

/**
 * Issue 16: two processes of the built server on one PostgreSQL database,
 * behind a real nginx with its page cache (the configuration of
 * docs/deploy/nginx-masthead.conf without the TLS), as README "Deploying for
 * more traffic" describes. What must hold across processes does, and a shared
 * cache never serves one visitor's page to another (decision 0031).
 *
 * `one` and `other` are the two processes, asked directly where a test needs to
 * know which one answers; `site` is nginx, where visitors go.
 */
const ADMIN = { email: "cluster-admin@masthead.test", password: "cluster admin long password" };
/** Signs in for the page tests (the login-limit test locks the admin's account for a while). */
const MEMBER = { email: "cluster-member@masthead.test", password: "cluster member long password" };
const S_MAXAGE = 2;
const JOIN_LIMIT = 6;

let cluster: TestCluster;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
/** Where every process keeps its files, as README "Deploying for more traffic" says (decision 0030). */
let s3: TestS3;
const BUCKET = "cluster-files";
let site: string;
let one: string;
let other: string;
let admin: { cookie: string; token: string };

beforeAll(async () => {
  smtp = await startSmtpServer();
  s3 = await startS3([BUCKET]);
  cluster = await startTestCluster({
    ...s3.env(BUCKET),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SMTP_URL: smtp.url,
    PAGE_CACHE_S_MAXAGE: String(S_MAXAGE),
    PAGE_CACHE_STALE_WHILE_REVALIDATE: "30",
    JOIN_RATE_LIMIT: String(JOIN_LIMIT),
  });
  site = cluster.origin;
  [one, other] = cluster.processes.map((process) => process.origin);
  admin = await signIn(one, ADMIN, { origin: site });
  // Created as `npm run user -- add` creates one: the services on the cluster's database.
  const database = openPostgres(cluster.databaseUrl, { max: 1 });
  try {
    const storage = localStorage(cluster.dataDir);
    await createServices({
      origin: "http://localhost:3000",
      db: database.db,
      dialect: database.dialect,
      storage,
      privateStorage: storage,
      sessionTtlSeconds: 3600,
    }).accounts.createUser({ ...MEMBER, role: "member", first_name: "Cora", last_name: "Cluster" });
  } finally {
    await database.destroy();
  }
});

afterAll(async () => {
  await cluster?.cleanup();
  await smtp?.close();
  await s3?.close();
});

const upstreamOf = (answer: { headers: Headers }) => answer.headers.get("x-upstream") ?? "";
const portsOf = () => cluster.processes.map((process) => `127.0.0.1:${process.port}`);

describe("across the processes", () => {
  it("shows an admin's change made through one process on the very next request to the other", async () => {
    for (let round = 1; round <= 10; round++) {
      for (const origin of [one, other]) {
        await get(origin, "/news");
        expect((await get(origin, "/news")).headers.get("x-page-cache")).toBe("hit");
      }
      const title = `Cluster change ${round}`;
      await publish(one, admin.token, title);
      // No wait: the next request, to the process that did not make the change.
      const next = await get(other, "/news");
      expect(next.headers.get("x-page-cache")).toBe("miss");
      expect(next.text).toContain(title);
    }
    // The API's stored list answers too.
    const list = async (origin: string) =>
      (
        await fetch(`${origin}/api/getPosts`, {
          method: "POST",
          body: "{}",
          headers: { "content-type": "application/json" },
        })
      ).text();
    await list(other);
    await publish(one, admin.token, "Cluster change in the API");
    expect(await list(other)).toContain("Cluster change in the API");
  });

  it("keeps a session made through one process working through the other, and through nginx on both", async () => {
    const session = await signIn(one, ADMIN, { origin: site });
    const me = await get(other, "/api/dashboard/user", { cookie: session.cookie });
    expect(me.status).toBe(200);
    expect(me.text).toContain(ADMIN.email);
    const answeredBy = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const page = await get(site, "/manager", { cookie: session.cookie });
      expect(page.status).toBe(200);
      answeredBy.add(upstreamOf(page));
    }
    expect([...answeredBy].sort()).toEqual(portsOf().sort());
  });

  it("holds the login limit when attempts arrive at once through nginx on both processes", async () => {
    const attempts = 3 * LOGIN_LIMITS.perAccount.max;
    const answers = await Promise.all(
      Array.from({ length: attempts }, () =>
        fetch(`${site}/api/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: ADMIN.email, password: "not the password" }),
        }).then(async (response) => ({
          status: response.status,
          upstream: upstreamOf(response),
          body: await response.text(),
        })),
      ),
    );
    expect(new Set(answers.map((answer) => answer.upstream)).size).toBe(2);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_LIMITS.perAccount.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(attempts - LOGIN_LIMITS.perAccount.max);
    // Even the right password now, through either process.
    for (const origin of [one, other]) {
      const right = await fetch(`${origin}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ADMIN),
      });
      expect(right.status).toBe(429);
    }
  });

  it("holds the join limit across both processes", async () => {
    const shownAt = await formTimeFrom(one);
    const join = (i: number) =>
      fetch(`${site}/api/join`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(joinRequest(`limit-${i}`, shownAt)),
      }).then((response) => ({ status: response.status, upstream: upstreamOf(response) }));
    const answers: { status: number; upstream: string }[] = [];
    for (let i = 0; i < JOIN_LIMIT + 4; i++) answers.push(await join(i));
    expect(new Set(answers.map((answer) => answer.upstream)).size).toBe(2);
    expect(answers.slice(0, JOIN_LIMIT).every((answer) => answer.status === 200)).toBe(true);
    expect(answers.slice(JOIN_LIMIT).every((answer) => answer.status === 429)).toBe(true);
  });

  it("sends each queued mail once while both processes deliver at the same moment", async () => {
    const database = new pg.Client({ connectionString: cluster.databaseUrl });
    await database.connect();
    try {
      const now = new Date().toISOString();
      const queued = Array.from({ length: 24 }, (_, i) => `Queued for two senders ${i}`);
      for (const subject of queued) {
        await database.query(
          `insert into mail_queue (purpose, to_address, subject, body_text, status, attempts, next_attempt_at, created_at)
           values ('notification', 'office@masthead.test', $1, 'Sent once.', 'pending', 0, $2, $2)`,
          [subject, now],
        );
      }
      // A join request through each process at once: each queues its acknowledgement and sends all that is
      // due, more than one batch of the queue (20). The form's time comes from a page the first process
      // made, and holds in both: one key for all processes (decision 0039).
      const shownAt = await formTimeFrom(one);
      const sent = await Promise.all(
        [one, other].map((origin, i) =>
          fetch(`${origin}/api/join`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${10 + i}` },
            body: JSON.stringify(joinRequest(`mail-${i}`, shownAt)),
          }),
        ),
      );
      expect(sent.map((response) => response.status)).toEqual([200, 200]);
      const deadline = Date.now() + 20_000;
      for (;;) {
        const { rows } = await database.query<{ pending: number }>(
          "select count(*)::int as pending from mail_queue where status <> 'sent'",
        );
        if (rows[0].pending === 0 || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      const received = (subject: string) =>
        smtp.received.filter((mail) => /^Subject: (.*)$/m.exec(mail.raw)?.[1]?.trim() === subject);
      for (const subject of queued) expect(received(subject), subject).toHaveLength(1);
      // Each join request's acknowledgement, once.
      for (const address of ["mail-0@cluster-marine.test", "mail-1@cluster-marine.test"]) {
        expect(
          smtp.received.filter((mail) => mail.to.includes(address)),
          address,
        ).toHaveLength(1);
      }
    } finally {
      await database.end();
    }
  });

  it("serves an upload made through one process from the other", async () => {
    // Every process keeps its files in one bucket (STORAGE=s3): neither has the file on its own disk.
    const image = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#1c4a7d" } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append("image", new File([new Uint8Array(image)], "chart.jpg", { type: "image/jpeg" }));
    const uploaded = await fetch(`${one}/api/dashboard/images`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin.token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { url } = ((await uploaded.json()) as { image: { url: string } }).image;
    const fromOne = await fetch(`${one}${url}`);
    const fromOther = await fetch(`${other}${url}`);
    expect(fromOther.status).toBe(200);
    expect(fromOther.headers.get("content-type")).toBe("image/webp");
    expect(Buffer.from(await fromOther.arrayBuffer())).toEqual(Buffer.from(await fromOne.arrayBuffer()));
    const stored = await s3.keys(BUCKET);
    expect(stored).toContain(`uploads/${url.replace(/^\/uploads\//, "")}`);
  });
});

describe("what nginx's cache may keep", () => {
  it("keeps an anonymous page with the app's public Cache-Control, ETag and Vary, and revalidates it", async () => {
    await get(site, "/events");
    const hit = await get(site, "/events");
    expect(hit.headers.get("x-cache-status")).toBe("HIT");
    expect(hit.headers.get("cache-control")).toBe(`public, max-age=0, s-maxage=${S_MAXAGE}, stale-while-revalidate=30`);
    expect(hit.headers.get("vary")).toMatch(/Cookie/);
    const etag = hit.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get(site, "/events", { "if-none-match": etag })).status).toBe(304);
  });

  it("never answers a signed-in page from its cache, nor keeps one", async () => {
    const member = await signIn(site, MEMBER, { origin: site });
    await get(site, "/news");
    expect((await get(site, "/news")).headers.get("x-cache-status")).toBe("HIT");
    const mine: Answer[] = [];
    for (let i = 0; i < 3; i++) mine.push(await get(site, "/news", { cookie: member.cookie }));
    mine.push(await get(site, "/news", { authorization: `Bearer ${member.token}` }));
    for (const answer of mine) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-cache-status")).toBe("BYPASS");
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
    }
    // The members' render of the page (decision 0032), not the visitors' copy nginx keeps; /news is
    // served as islands (decision 0033), whose root facts are plain JSON.
    const membersRender = `"roleOnly":true`;
    expect(mine[0].text).toContain(membersRender);
    // The cookie among others, as browsers send it.
    const among = await get(site, "/news", { cookie: `theme=dark; ${member.cookie}; consent=1` });
    expect(among.headers.get("x-cache-status")).toBe("BYPASS");
    for (let i = 0; i < 3; i++) {
      const visitor = await get(site, "/news");
      expect(visitor.text).not.toContain(membersRender);
      expect(visitor.text).not.toContain(MEMBER.email);
    }
  });

  it("shows an admin's change to visitors within s-maxage", async () => {
    await get(site, "/news");
    expect((await get(site, "/news")).headers.get("x-cache-status")).toMatch(/HIT|UPDATING|STALE/);
    const title = `Seen through nginx within ${S_MAXAGE} s`;
    await publish(one, admin.token, title);
    const published = Date.now();
    let seenAfter: number | null = null;
    while (Date.now() - published < (S_MAXAGE + 4) * 1000) {
      if ((await get(site, "/news")).text.includes(title)) {
        seenAfter = Date.now() - published;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seenAfter).not.toBeNull();
    // s-maxage, on nginx's clock of whole seconds (up to one more), then the one stale answer that starts
    // nginx's background refresh, and the next poll.
    expect(seenAfter).toBeLessThanOrEqual((S_MAXAGE + 2) * 1000);
  });
});

function joinRequest(tag: string, shownAt: string) {
  return {
    company_name: `Cluster Marine ${tag}`,
    representative_name: "Cluster Tester",
    email: `${tag}@cluster-marine.test`,
    phone_number: "+47 22 00 00 00",
    started_at: shownAt,
    website: "",
  };
}

/**
 * The join form's shown-at time, signed by the process at `origin` into a page it made (decision
 * 0039), once it is old enough that a request sent with it is no longer "too fast".
 */
async function formTimeFrom(origin: string): Promise<string> {
  const html = await (await fetch(`${origin}/?form-time=${Date.now()}`)).text();
  const value = /name="started_at" value="([^"]+)"/.exec(html)?.[1];
  if (!value) throw new Error("no signed form time in the page");
  const age = Date.now() - Number(value.split(".")[0]);
  if (age < 3500) await new Promise((resolve) => setTimeout(resolve, 3500 - age));
  return value;
}

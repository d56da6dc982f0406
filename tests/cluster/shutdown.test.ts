import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startTestCluster, type TestCluster } from "./support";

/**
 * A rolling restart: SIGTERM to one of two processes while nginx spreads a
 * steady load over both. The process drains (decision 0012) and exits 0;
 * nginx hands whatever it refused or dropped unanswered to the other
 * (proxy_next_upstream, decision 0031); no visitor sees anything but a 2xx.
 */
const ADMIN = { email: "restart-admin@masthead.test", password: "restart admin long password" };
const WORKERS = 16;

let cluster: TestCluster;
let session: { cookie: string; token: string };

beforeAll(async () => {
  cluster = await startTestCluster({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  session = await signIn(cluster.origin, ADMIN, { origin: cluster.origin });
});

afterAll(async () => {
  await cluster?.cleanup();
});

type Outcome = { at: number; status: number; upstream: string } | { at: number; error: string };

describe("SIGTERM to one process under load", () => {
  it("loses no request: every answer through nginx is a 2xx, and the process exits 0", async () => {
    const [leaving, staying] = cluster.processes;
    // Requests that reach the processes: a signed-in page (rendered every time, never from nginx's cache),
    // the API with a token, and the readiness check.
    const requests: { path: string; headers: Record<string, string> }[] = [
      { path: "/news", headers: { cookie: session.cookie } },
      { path: "/api/dashboard/user", headers: { authorization: `Bearer ${session.token}` } },
      { path: "/readyz", headers: {} },
    ];
    const outcomes: Outcome[] = [];
    const started = Date.now();
    let running = true;
    const worker = async (w: number) => {
      for (let i = w; running; i++) {
        const { path, headers } = requests[i % requests.length];
        try {
          const response = await fetch(`${cluster.origin}${path}`, { headers });
          await response.arrayBuffer();
          outcomes.push({
            at: Date.now(),
            status: response.status,
            upstream: response.headers.get("x-upstream") ?? "",
          });
        } catch (error) {
          outcomes.push({ at: Date.now(), error: String((error as Error).cause ?? error) });
        }
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const signalled = Date.now();
    const stopped = leaving.stop();
    const exitCode = await leaving.exited;
    await stopped;
    const exitedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    running = false;
    await load;

    expect(exitCode).toBe(0);
    expect(exitedAt - signalled).toBeLessThan(10_000);
    const failures = outcomes.filter((o) => "error" in o || o.status < 200 || o.status >= 300);
    expect(failures, JSON.stringify(failures.slice(0, 5))).toEqual([]);
    const answered = outcomes as { at: number; status: number; upstream: string }[];
    const leavingAddress = `127.0.0.1:${leaving.port}`;
    const stayingAddress = `127.0.0.1:${staying.port}`;
    // Both served before the signal; the one that stayed served everything after the exit.
    expect(answered.some((o) => o.at < signalled && o.upstream.includes(leavingAddress))).toBe(true);
    const after = answered.filter((o) => o.at > exitedAt + 100);
    expect(after.length).toBeGreaterThan(10);
    expect(after.every((o) => o.upstream.endsWith(stayingAddress))).toBe(true);
    expect(answered.length).toBeGreaterThan(100);
    console.log(
      `${answered.length} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, none lost; ` +
        `the process exited 0 ${exitedAt - signalled} ms after SIGTERM`,
    );
  });
});

import { randomBytes } from "node:crypto";
import { type Cluster, createDatabase, dropDatabase, startCluster, withDatabase } from "../../scripts/cluster/start";

/**
 * A cluster for one test file: a database of its own on the PostgreSQL server
 * TEST_DATABASE_URL names (dropped afterwards), the built server's processes
 * on it behind nginx (scripts/cluster/start.ts), X-Upstream on every answer.
 */
export type TestCluster = Cluster & { cleanup: () => Promise<void> };

export async function startTestCluster(env: Record<string, string>, processes = 2): Promise<TestCluster> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl)
    throw new Error("The cluster tests run on PostgreSQL: set TEST_DATABASE_URL (npm test does when it is).");
  const name = `masthead_cluster_${process.pid}_${randomBytes(3).toString("hex")}`;
  const databaseUrl = await createDatabase(withDatabase(serverUrl, "postgres"), name);
  let cluster: Cluster;
  try {
    cluster = await startCluster({
      databaseUrl,
      processes,
      env,
      stdio: "ignore",
      upstreamHeader: true,
      log: () => {},
    });
  } catch (error) {
    await dropDatabase(withDatabase(serverUrl, "postgres"), name);
    throw error;
  }
  return Object.assign(cluster, {
    cleanup: async () => {
      await cluster.stop();
      await dropDatabase(withDatabase(serverUrl, "postgres"), name);
    },
  });
}

export type Answer = { status: number; headers: Headers; text: string };

export async function get(origin: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, { headers, redirect: "manual" });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Signs in through the JSON API at `origin`: the session cookie and the Bearer token. */
export async function signIn(
  origin: string,
  credentials: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<{ cookie: string; token: string }> {
  const response = await fetch(`${origin}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(credentials),
  });
  const body = (await response.json()) as { access_token?: string };
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0];
  if (response.status !== 200 || !body.access_token || !/^(__Host-)?auth\.session=/.test(cookie)) {
    throw new Error(`sign-in at ${origin} answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return { cookie, token: body.access_token };
}

/** Publishes a news post through `origin` as the admin whose token this is. */
export async function publish(origin: string, token: string, title: string): Promise<void> {
  const form = new FormData();
  form.append("title", title);
  form.append("content", "<p>Published through one process of the cluster.</p>");
  const response = await fetch(`${origin}/api/dashboard/news`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`publishing answered ${response.status}: ${await response.text()}`);
}

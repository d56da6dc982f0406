import autocannon, { type Instance } from "autocannon";
import { rawRequest } from "./http";
import type { ServerProcess } from "./servers";
import { type BenchRequest, bodyToSend } from "./targets";
import { ensureWrk, runWrk, stopWrk, type WrkResult, wrkVersion } from "./wrk";

/**
 * The load generator: wrk where it can be had (found, or installed with apt-get
 * as root), else autocannon, whose JavaScript event loop on the same two cores
 * caps any server near 8 000 req/s: then the baseline's figures are the load
 * generator's, not the server's.
 */
export type LoadGenerator = { kind: "wrk"; wrk: string; version: string } | { kind: "autocannon"; version: string };

export const AUTOCANNON_WARNING =
  "wrk is not available (it is installed with apt-get, which needs root on Debian): the bench falls back to " +
  "autocannon, a JavaScript load generator that caps near 8 000 req/s for a 60 KB page on this kind of machine. " +
  "The baseline's figures are then the load generator's ceiling, not the server's, and so are the app/baseline " +
  "ratios; its latencies are in whole milliseconds.";

export function chooseLoadGenerator(forceAutocannon: boolean, log: (message: string) => void): LoadGenerator {
  if (!forceAutocannon) {
    const wrk = ensureWrk(log);
    if (wrk) return { kind: "wrk", wrk, version: wrkVersion(wrk) };
  }
  return { kind: "autocannon", version: "9" };
}

export function describeGenerator(generator: LoadGenerator): string {
  return generator.kind === "wrk" ? `wrk ${generator.version}, one thread` : `autocannon ${generator.version}`;
}

export type LoadSettings = {
  connections: number;
  /** Seconds measured per row and server. */
  durationSeconds: number;
  /** Seconds of unmeasured load before the measurement. */
  warmupSeconds: number;
};

/** What one load run measured, whichever generator ran it. */
export type LoadRun = Omit<WrkResult, "bytes" | "maxMs">;

export type RunSpec = {
  origin: string;
  requests: BenchRequest[];
  connections: number;
  durationSeconds: number;
  timeoutSeconds: number;
  /** wrk's Lua script goes there. */
  scriptFile: string;
};

let stopped = false;
let currentAutocannon: Instance | null = null;

/** Stops the load run in progress and refuses further ones (on SIGINT). */
export function stopLoad(): void {
  stopped = true;
  stopWrk();
  currentAutocannon?.stop();
}

export async function runLoad(generator: LoadGenerator, spec: RunSpec): Promise<LoadRun> {
  if (stopped) throw new Error("interrupted");
  const result = generator.kind === "wrk" ? await runWrk({ ...spec, wrk: generator.wrk }) : await runAutocannon(spec);
  if (stopped) throw new Error("interrupted");
  if (generator.kind === "wrk") return { ...result, ...(await statusAfterRun(spec, result)) };
  return result;
}

/**
 * wrk counts answers of 400 and more, not a 3xx (WrkResult.non2xx): each request
 * is sent once more after the run, so a session lost mid-run (a redirect to the
 * login page) still spoils the run.
 */
async function statusAfterRun(spec: RunSpec, result: LoadRun): Promise<Pick<LoadRun, "non2xx" | "firstNon2xxStatus">> {
  for (const request of new Set(spec.requests)) {
    const { status } = await rawRequest(spec.origin, request);
    if (status < 200 || status > 299) return { non2xx: Math.max(1, result.non2xx), firstNon2xxStatus: status };
  }
  return { non2xx: result.non2xx, firstNon2xxStatus: result.firstNon2xxStatus };
}

async function runAutocannon(spec: RunSpec): Promise<LoadRun> {
  const [first, ...rest] = spec.requests;
  if (!first) throw new Error("no request to send");
  const instance = autocannon({
    url: new URL(first.path, spec.origin).href,
    method: first.method,
    headers: first.headers,
    ...(first.body === undefined ? {} : { body: first.body }),
    // A mix: each connection sends these in turn; a numbered body gets its number on each sending.
    ...(rest.length === 0 && !first.numbered
      ? {}
      : {
          requests: spec.requests.map((r) =>
            r.numbered ? { ...r, setupRequest: (sent: object) => ({ ...sent, body: bodyToSend(r) }) } : r,
          ),
        }),
    connections: spec.connections,
    duration: spec.durationSeconds,
    timeout: spec.timeoutSeconds,
  });
  currentAutocannon = instance;
  try {
    const result = await instance;
    const firstBad = Object.keys(result.statusCodeStats ?? {})
      .map(Number)
      .find((status) => status < 200 || status > 299);
    return {
      requests: result.latency.totalCount,
      durationSeconds: result.duration,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      non2xx: result.non2xx,
      firstNon2xxStatus: firstBad ?? 0,
      // autocannon counts timeouts among its errors and does not tell the other kinds apart.
      errors: { connect: 0, read: Math.max(0, result.errors - result.timeouts), write: 0, timeout: result.timeouts },
    };
  } finally {
    currentAutocannon = null;
  }
}

export type LoadFigures = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The server's CPU time (user + system) during the measured run ÷ requests; null without /proc. */
  cpuMsPerRequest: number | null;
  /** Highest RSS sampled during the measured run, in bytes (null without /proc). */
  peakRss: number | null;
  /**
   * The body's length when the request is sent once more after the measured run (null unless 2xx):
   * what the server sends once loaded, e.g. a cached page's brotli after the app has replaced its
   * first, quick encoding with the smaller one (server/middleware/compress.ts, improveLater).
   */
  sentBytes: number | null;
  requests: number;
  non2xx: number;
  firstNon2xxStatus: number;
  errors: LoadRun["errors"];
};

const RSS_SAMPLE_MS = 250;
/** A request that takes longer counts as a timeout (autocannon's default; wrk's is 2 s). */
const TIMEOUT_SECONDS = 10;

/** Warm-up, then the measured run of `connections` connections for `durationSeconds`. */
export async function measure(
  generator: LoadGenerator,
  /** What is loaded and whose CPU and memory are measured (a process, or a cluster's processes behind nginx). */
  server: Pick<ServerProcess, "origin" | "rss" | "cpuMs">,
  request: BenchRequest,
  settings: LoadSettings,
  scriptFile: string,
): Promise<LoadFigures> {
  const spec = {
    origin: server.origin,
    requests: [request],
    connections: settings.connections,
    timeoutSeconds: TIMEOUT_SECONDS,
    scriptFile,
  };
  if (settings.warmupSeconds > 0) await runLoad(generator, { ...spec, durationSeconds: settings.warmupSeconds });
  let peakRss: number | null = server.rss();
  const sample = () => {
    const rss = server.rss();
    if (rss !== null) peakRss = Math.max(peakRss ?? 0, rss);
  };
  const sampler = setInterval(sample, RSS_SAMPLE_MS);
  const cpuBefore = server.cpuMs();
  let run: LoadRun;
  try {
    run = await runLoad(generator, { ...spec, durationSeconds: settings.durationSeconds });
  } finally {
    clearInterval(sampler);
  }
  const cpuAfter = server.cpuMs();
  sample();
  const sent = await rawRequest(server.origin, request);
  return {
    requestsPerSecond: run.durationSeconds > 0 ? run.requests / run.durationSeconds : 0,
    p50Ms: run.p50Ms,
    p99Ms: run.p99Ms,
    cpuMsPerRequest:
      cpuBefore !== null && cpuAfter !== null && run.requests > 0 ? (cpuAfter - cpuBefore) / run.requests : null,
    peakRss,
    sentBytes: sent.status >= 200 && sent.status <= 299 ? sent.body.length : null,
    requests: run.requests,
    non2xx: run.non2xx,
    firstNon2xxStatus: run.firstNon2xxStatus,
    errors: run.errors,
  };
}

export function errorCount(errors: LoadRun["errors"]): number {
  return errors.connect + errors.read + errors.write + errors.timeout;
}

/** Socket errors by kind, e.g. "3 read, 1 timeout"; "" when there were none. */
export function describeErrors(errors: LoadRun["errors"]): string {
  return (["connect", "read", "write", "timeout"] as const)
    .filter((kind) => errors[kind] > 0)
    .map((kind) => `${errors[kind]} ${kind}`)
    .join(", ");
}

/** Why a run does not count, or null when every request got a 2xx. */
export function loadProblem(figures: LoadFigures): string | null {
  const problems = [
    figures.non2xx > 0
      ? `${figures.non2xx} non-2xx responses${figures.firstNon2xxStatus ? ` (e.g. ${figures.firstNon2xxStatus})` : ""}`
      : "",
    errorCount(figures.errors) > 0 ? `socket errors: ${describeErrors(figures.errors)}` : "",
    figures.requests === 0 ? "no request completed" : "",
  ].filter(Boolean);
  return problems.length > 0 ? problems.join(", ") : null;
}

import autocannon, { type Instance, type Result } from "autocannon";
import type { ServerProcess } from "./servers";
import type { BenchRequest } from "./targets";

export type LoadSettings = {
  connections: number;
  /** Seconds measured per target and server. */
  durationSeconds: number;
  /** Seconds of unmeasured load before the measurement. */
  warmupSeconds: number;
};

export type LoadFigures = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Highest RSS sampled during the measured run, in bytes (null without /proc). */
  peakRss: number | null;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
};

const RSS_SAMPLE_MS = 250;

let current: Instance | null = null;
let stopped = false;

/** Stops the load run in progress and refuses further ones (on SIGINT). */
export function stopLoad(): void {
  stopped = true;
  current?.stop();
}

/** Warm-up, then the measured run of `connections` connections for `durationSeconds`. */
export async function measure(
  server: ServerProcess,
  request: BenchRequest,
  settings: LoadSettings,
): Promise<LoadFigures> {
  if (settings.warmupSeconds > 0) await load(server, request, settings.connections, settings.warmupSeconds);
  let peakRss: number | null = server.rss();
  const sample = () => {
    const rss = server.rss();
    if (rss !== null) peakRss = Math.max(peakRss ?? 0, rss);
  };
  const sampler = setInterval(sample, RSS_SAMPLE_MS);
  let result: Result;
  try {
    result = await load(server, request, settings.connections, settings.durationSeconds);
  } finally {
    clearInterval(sampler);
  }
  sample();
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    peakRss,
    requests: result.latency.totalCount,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

async function load(
  server: ServerProcess,
  request: BenchRequest,
  connections: number,
  durationSeconds: number,
): Promise<Result> {
  if (stopped) throw new Error("interrupted");
  const instance = autocannon({
    url: new URL(request.path, server.origin).href,
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    connections,
    duration: durationSeconds,
  });
  current = instance;
  try {
    const result = await instance;
    if (stopped) throw new Error("interrupted");
    return result;
  } finally {
    current = null;
  }
}

/** Why a run does not count, or null when every request got a 2xx. */
export function loadProblem(figures: LoadFigures): string | null {
  const problems = [
    figures.non2xx > 0 ? `${figures.non2xx} non-2xx responses` : "",
    figures.errors > 0 ? `${figures.errors} errors` : "",
    figures.timeouts > 0 ? `${figures.timeouts} timeouts` : "",
    figures.requests === 0 ? "no request completed" : "",
  ].filter(Boolean);
  return problems.length > 0 ? problems.join(", ") : null;
}

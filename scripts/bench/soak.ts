import { machine, mib, ms } from "./format";
import { type LoadGenerator, type LoadRun, runLoad } from "./load";
import type { ServerProcess } from "./servers";
import { type BenchCase, type BenchRequest, describeCase } from "./targets";

/**
 * `npm run bench -- --soak`: one long run of mixed load on the app, its RSS
 * sampled every 5 s, to see whether memory levels off or keeps growing.
 */
export const SOAK_SAMPLE_MS = 5_000;
export const SOAK_DEFAULT_MINUTES = 10;
export const SOAK_DEFAULT_CONNECTIONS = 200;
/** A rendered page can wait behind many others at 200 connections; longer than this is a timeout. */
const SOAK_TIMEOUT_SECONDS = 10;
/** "Flat": the last minute's mean RSS within this of the mean of minutes 3–5. */
const FLAT_TOLERANCE = 0.05;

export type SoakSample = { atSeconds: number; rss: number };

export type SoakResult = {
  date: Date;
  commit: string | null;
  generator: string;
  command: string;
  loadBefore: number;
  minutes: number;
  connections: number;
  mix: BenchCase[];
  idleRss: number | null;
  run: LoadRun;
  cpuMs: number | null;
  samples: SoakSample[];
};

export async function runSoak(
  generator: LoadGenerator,
  app: ServerProcess,
  requests: BenchRequest[],
  options: { minutes: number; connections: number; scriptFile: string },
): Promise<{ run: LoadRun; samples: SoakSample[]; cpuMs: number | null }> {
  const started = Date.now();
  const samples: SoakSample[] = [];
  const sample = () => {
    const rss = app.rss();
    const atSeconds = (Date.now() - started) / 1000;
    if (rss !== null) samples.push({ atSeconds, rss });
    if (samples.length % 12 === 0 && rss !== null) {
      console.log(`  ${Math.round(atSeconds)} s: RSS ${mib(rss)} MiB`);
    }
  };
  sample();
  const sampler = setInterval(sample, SOAK_SAMPLE_MS);
  const cpuBefore = app.cpuMs();
  let run: LoadRun;
  try {
    run = await runLoad(generator, {
      origin: app.origin,
      requests,
      connections: options.connections,
      durationSeconds: options.minutes * 60,
      timeoutSeconds: SOAK_TIMEOUT_SECONDS,
      scriptFile: options.scriptFile,
    });
  } finally {
    clearInterval(sampler);
  }
  const cpuAfter = app.cpuMs();
  sample();
  return { run, samples, cpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null };
}

type MinuteStats = { minute: number; min: number; max: number; mean: number; count: number };

export function perMinute(samples: SoakSample[], minutes: number): MinuteStats[] {
  const stats: MinuteStats[] = [];
  for (let minute = 1; minute <= minutes; minute++) {
    // The last sample, taken as wrk ends, belongs to the last minute.
    const inMinute = samples.filter((s) => Math.min(minutes, Math.floor(s.atSeconds / 60) + 1) === minute);
    if (inMinute.length === 0) continue;
    const values = inMinute.map((s) => s.rss);
    stats.push({
      minute,
      min: Math.min(...values),
      max: Math.max(...values),
      mean: values.reduce((a, b) => a + b, 0) / values.length,
      count: values.length,
    });
  }
  return stats;
}

/** "flat", "still rising (+8 %)", "falling (−6 %)", or why it cannot be said. */
export function flatness(stats: MinuteStats[], minutes: number): string {
  if (minutes < 6) return "not judged: a soak of 6 minutes or more compares its last minute with minutes 3–5";
  const reference = stats.filter((s) => s.minute >= 3 && s.minute <= 5);
  const last = stats.find((s) => s.minute === minutes);
  if (reference.length === 0 || !last) return "not judged: RSS samples missing";
  const referenceMean =
    reference.reduce((a, s) => a + s.mean * s.count, 0) / reference.reduce((a, s) => a + s.count, 0);
  const change = (last.mean - referenceMean) / referenceMean;
  const shown = `${change >= 0 ? "+" : "−"}${Math.abs(change * 100).toFixed(1)} %`;
  if (Math.abs(change) <= FLAT_TOLERANCE) return `flat (last minute ${shown} against minutes 3–5)`;
  return `${change > 0 ? "still rising" : "falling"} (last minute ${shown} against minutes 3–5)`;
}

export function renderSoak(result: SoakResult): string {
  const { run } = result;
  const date = `${result.date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const stats = perMinute(result.samples, result.minutes);
  const peak = result.samples.length > 0 ? Math.max(...result.samples.map((s) => s.rss)) : null;
  const errors = (["connect", "read", "write", "timeout"] as const).map((k) => `${run.errors[k]} ${k}`).join(", ");
  const table = [
    "| minute | min RSS MiB | max RSS MiB | mean RSS MiB | samples |",
    "|---:|---:|---:|---:|---:|",
    ...stats.map((s) => `| ${s.minute} | ${mib(s.min)} | ${mib(s.max)} | ${mib(s.mean)} | ${s.count} |`),
  ].join("\n");
  return [
    "## Soak",
    "",
    `- **Date:** ${date}${result.commit ? ` — commit ${result.commit}` : ""}`,
    `- **Machine:** ${machine()}; 1-minute load average ${result.loadBefore.toFixed(2)} before the run`,
    `- **Load:** ${result.generator}, ${result.connections} connections for ${result.minutes} min, a mix of ${result.mix.length} requests sent in turn (listed below); the app started as \`${result.command}\``,
    `- **Requests:** ${run.requests.toLocaleString("en-US")} (${Math.round(run.requests / run.durationSeconds).toLocaleString("en-US")} req/s), p50 ${ms(run.p50Ms)} ms, p99 ${ms(run.p99Ms)} ms; ${result.cpuMs !== null && run.requests > 0 ? `${(result.cpuMs / run.requests).toFixed(2)} CPU ms per request` : "CPU time n/a"}`,
    `- **Non-2xx:** ${run.non2xx.toLocaleString("en-US")}${run.firstNon2xxStatus ? ` (e.g. ${run.firstNon2xxStatus})` : ""}; **socket errors:** ${errors}`,
    `- **RSS:** idle ${mib(result.idleRss)} MiB, peak ${mib(peak)} MiB; sampled every ${SOAK_SAMPLE_MS / 1000} s`,
    `- **At the end:** ${flatness(stats, result.minutes)}`,
    "",
    table,
    "",
    "<details><summary>The mix</summary>",
    "",
    ...result.mix.map((c) => `- ${describeCase(c).replace(/, \d+ connections/, "")}`),
    "",
    "</details>",
  ].join("\n");
}

import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { build } from "esbuild";
import type { Multipart } from "../support/multipart";

/**
 * What an upload costs the server in memory, measured from outside: the server's resident memory
 * (VmRSS) sampled while a multipart body is sent to it over a real socket. A route that spools its
 * files to disk grows by a few buffers, whatever the file's size; one that gathers the file grows
 * by the file.
 */

/** Resident memory of a process, from /proc. */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]) * 1024;
}

export type UploadMeasure = {
  status: number;
  json: unknown;
  /** RSS just before the upload. */
  baselineBytes: number;
  /** The largest RSS seen from the first byte sent to the answer. */
  peakBytes: number;
  growthBytes: number;
};

/**
 * Sends `body` (generated as it goes, with Content-Length, honouring the socket's backpressure)
 * to `url` and samples the RSS of process `pid` every `sampleMs` until the answer is in.
 */
export async function uploadMeasuringRss(options: {
  url: string;
  pid: number;
  body: Multipart;
  headers?: Record<string, string>;
  sampleMs?: number;
}): Promise<UploadMeasure> {
  const baselineBytes = rssBytes(options.pid);
  let peakBytes = baselineBytes;
  const sampler = setInterval(() => {
    peakBytes = Math.max(peakBytes, rssBytes(options.pid));
  }, options.sampleMs ?? 10);
  try {
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        options.url,
        {
          method: "POST",
          headers: {
            "content-type": options.body.contentType,
            "content-length": String(options.body.length),
            ...options.headers,
          },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            text += chunk;
          });
          response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      request.on("error", reject);
      void (async () => {
        for (const chunk of options.body.chunks()) {
          if (request.destroyed) return;
          if (!request.write(chunk)) await new Promise((drained) => request.once("drain", drained));
        }
        request.end();
      })();
    });
    peakBytes = Math.max(peakBytes, rssBytes(options.pid));
    let json: unknown = null;
    try {
      json = JSON.parse(answer.text);
    } catch {
      json = answer.text;
    }
    return { status: answer.status, json, baselineBytes, peakBytes, growthBytes: peakBytes - baselineBytes };
  } finally {
    clearInterval(sampler);
  }
}

/** How many uploads leastGrowth measures by default (five: three still flaked on Node 24 under CI's load). */
export const MEASURED_UPLOADS = 5;

/**
 * The least growth of `times` uploads, each checked by `check`: when the garbage collector runs is
 * the process's business, and one upload can end just before a collection that another sees, on a
 * busy machine by 10–20 MB (the socket's 64 KiB chunks are external memory, which V8 collects in
 * its own time; two paper uploads in a row once grew by 21 MB after the process had just given
 * memory back). A route that gathers the file grows by the file every time.
 */
export async function leastGrowth(
  upload: (attempt: number) => Promise<UploadMeasure>,
  check: (measure: UploadMeasure) => void,
  times = MEASURED_UPLOADS,
): Promise<UploadMeasure> {
  let least: UploadMeasure | null = null;
  for (let attempt = 0; attempt < times; attempt++) {
    const measure = await upload(attempt);
    check(measure);
    if (!least || measure.growthBytes < least.growthBytes) least = measure;
  }
  return least as UploadMeasure;
}

/**
 * tests/process/spool-server.ts bundled as build/server.js is (esbuild, dependencies external),
 * into tmp/ so that its imports resolve from the project's node_modules. Returns its path.
 */
export async function bundleSpoolServer(): Promise<string> {
  const outfile = path.resolve("tmp/process/spool-server.js");
  await build({
    entryPoints: ["tests/process/spool-server.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  return outfile;
}

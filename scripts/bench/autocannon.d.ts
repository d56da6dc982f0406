/**
 * The part of autocannon 9's programmatic API that `npm run bench` uses
 * (the package ships no type declarations).
 */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export type Options = {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Requests each connection sends in turn, instead of the one above. */
    requests?: {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Changes the request before each sending (autocannon's request hook). */
      setupRequest?: (request: { body?: string | Buffer }) => { body?: string | Buffer };
    }[];
    connections?: number;
    /** Seconds. */
    duration?: number;
    pipelining?: number;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    title?: string;
  };

  /** Percentiles of a histogram; latency values are milliseconds. */
  export type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  };

  export type Result = {
    title?: string;
    url: string;
    connections: number;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    mismatches: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram & { totalCount: number };
    /** Per-second samples; `average` is requests per second. */
    requests: Histogram & { sent: number };
    throughput: Histogram;
  };

  export type Instance = EventEmitter & PromiseLike<Result> & { stop: () => void };

  export default function autocannon(options: Options): Instance;
}

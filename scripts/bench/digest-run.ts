import { loadConfig } from "../../lib/env";
import { openCliServices } from "../cli-services";

/**
 * The measured part of `npm run bench -- --digest` (scripts/bench/digest.ts), in its own process:
 * this week's digest built and queued on the data directory it is given (DATA_DIR), as the
 * `digest-weekly` job does, with the time it took and the process's memory sampled meanwhile.
 * Prints one JSON line. The mails stay queued (no transport): sending them is the queue's work.
 */
const config = loadConfig();
const { database, services } = await openCliServices(config);
const rss: number[] = [];
const heap: number[] = [];
const sample = () => {
  const usage = process.memoryUsage();
  rss.push(usage.rss);
  heap.push(usage.heapUsed);
};
sample();
const timer = setInterval(sample, 50);
const started = performance.now();
const run = await services.notices.sendDigest("weekly");
const ms = performance.now() - started;
clearInterval(timer);
sample();
await database.destroy();
console.log(
  JSON.stringify({
    ms,
    mails: run.mails,
    items: run.items,
    rssStart: rss[0],
    rssPeak: Math.max(...rss),
    heapPeak: Math.max(...heap),
    maxRssKiB: process.resourceUsage().maxRSS,
  }),
);

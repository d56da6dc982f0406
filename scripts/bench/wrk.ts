import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { installDebianPackage } from "../debian-package";
import { type BenchRequest, NUMBER_MARK } from "./targets";

/**
 * wrk, the C load generator (https://github.com/wg/wrk), found on the machine or
 * installed from Debian's package like nginx and Chromium (scripts/nginx.ts).
 * One thread (`-t1`): on a 2-core machine wrk takes one core and the server the other.
 * Each run gets a Lua script that sets the request (or rotates through several),
 * counts non-2xx answers in the `response` hook and prints its figures as one
 * JSON line from `done`.
 */
const CANDIDATES = ["/usr/bin/wrk", "/usr/local/bin/wrk"];

export function findWrk(): string | null {
  const found = CANDIDATES.find((file) => fs.existsSync(file));
  if (found) return found;
  const which = spawnSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

export function ensureWrk(log: (message: string) => void = console.log): string | null {
  return findWrk() ?? (installDebianPackage("wrk", log) ? findWrk() : null);
}

export function wrkVersion(wrk: string): string {
  // `wrk -v` prints its version and usage, and exits 1.
  const answer = spawnSync(wrk, ["-v"], { encoding: "utf8" });
  const line = `${answer.stdout}${answer.stderr}`.split("\n")[0] ?? "";
  return /^wrk\s+(\S+)/.exec(line)?.[1] ?? "unknown version";
}

/** What one wrk run measured. Latencies in ms. */
export type WrkResult = {
  requests: number;
  durationSeconds: number;
  bytes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /**
   * Answers with a status of 400 or more, as wrk counts them itself. A Lua `response`
   * hook could count 3xx too, but wrk then copies every body into Lua, growing its
   * buffer 1 KiB at a time: for a 200 KB page that hook, not the server, set the
   * pace (decision 0027). A redirect mid-run is caught by the check after the run.
   */
  non2xx: number;
  /** wrk does not say which status it was: always 0. */
  firstNon2xxStatus: number;
  errors: { connect: number; read: number; write: number; timeout: number };
};

export type WrkRun = {
  wrk: string;
  origin: string;
  /** One request for a target, several for a mix (sent in turn, round robin). */
  requests: BenchRequest[];
  connections: number;
  durationSeconds: number;
  /** A request that takes longer counts as a timeout. */
  timeoutSeconds: number;
  /** Where to write the Lua script. */
  scriptFile: string;
};

const RESULT_PREFIX = "WRK_RESULT ";

let current: ChildProcess | null = null;

/** Stops the wrk run in progress (on SIGINT). */
export function stopWrk(): void {
  current?.kill("SIGINT");
}

export async function runWrk(run: WrkRun): Promise<WrkResult> {
  fs.mkdirSync(path.dirname(run.scriptFile), { recursive: true });
  fs.writeFileSync(run.scriptFile, luaScript(run.requests));
  const args = [
    "-t1",
    `-c${run.connections}`,
    `-d${run.durationSeconds}s`,
    `--timeout`,
    `${run.timeoutSeconds}s`,
    "-s",
    run.scriptFile,
    `${run.origin}${run.requests[0]?.path ?? "/"}`,
  ];
  const child = spawn(run.wrk, args, { stdio: ["ignore", "pipe", "pipe"] });
  current = child;
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (status) => resolve(status));
  }).finally(() => {
    current = null;
  });
  const line = stdout.split("\n").find((l) => l.startsWith(RESULT_PREFIX));
  if (code !== 0 || !line) {
    throw new Error(`wrk ${args.join(" ")} failed (exit code ${code}): ${(stderr || stdout).trim().slice(0, 500)}`);
  }
  const raw = JSON.parse(line.slice(RESULT_PREFIX.length)) as {
    requests: number;
    duration_us: number;
    bytes: number;
    p50_us: number;
    p99_us: number;
    max_us: number;
    non2xx: number;
    connect: number;
    read: number;
    write: number;
    timeout: number;
  };
  return {
    requests: raw.requests,
    durationSeconds: raw.duration_us / 1e6,
    bytes: raw.bytes,
    p50Ms: raw.p50_us / 1000,
    p99Ms: raw.p99_us / 1000,
    maxMs: raw.max_us / 1000,
    non2xx: raw.non2xx,
    firstNon2xxStatus: 0,
    errors: { connect: raw.connect, read: raw.read, write: raw.write, timeout: raw.timeout },
  };
}

/** A Lua string literal for any bytes: printable ASCII as is, the rest as decimal escapes. */
export function luaString(value: string): string {
  let out = '"';
  for (const byte of Buffer.from(value, "utf8")) {
    const printable = byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c;
    out += printable ? String.fromCharCode(byte) : `\\${byte.toString().padStart(3, "0")}`;
  }
  return `${out}"`;
}

/** A Lua pattern that matches `text` literally. */
function luaPattern(text: string): string {
  return text.replace(/[\^$()%.[\]*+\-?]/g, "%$&");
}

function luaTable(headers: Record<string, string>): string {
  const entries = Object.entries(headers).map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`);
  return `{ ${entries.join(", ")} }`;
}

/**
 * The script for one run. A single request is set once in `wrk.method`, `wrk.headers`
 * and `wrk.body` (wrk then sends the same prebuilt bytes every time); several are
 * prebuilt with wrk.format in `init` and handed out in turn by `request`.
 */
export function luaScript(requests: BenchRequest[]): string {
  const [first] = requests;
  if (!first) throw new Error("wrk needs at least one request");
  // A numbered body (BenchTarget.numbered) is built for each request, its mark replaced by this
  // script's tag and a count: one thread (-t1), one count; a new tag for every run.
  const numbering = requests.some((r) => r.numbered && r.body !== undefined)
    ? [
        `local tag = ${luaString(`w${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`)}`,
        "local sent = 0",
        "local function numbered(body)",
        "  sent = sent + 1",
        `  return (string.gsub(body, ${luaString(luaPattern(NUMBER_MARK))}, tag .. "-" .. sent))`,
        "end",
      ]
    : [];
  const setup =
    requests.length === 1
      ? [
          `wrk.method = ${luaString(first.method)}`,
          ...Object.entries(first.headers).map(
            ([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`,
          ),
          ...(first.body === undefined
            ? []
            : first.numbered
              ? [
                  ...numbering,
                  `local template = ${luaString(first.body)}`,
                  "function request()",
                  "  return wrk.format(nil, nil, nil, numbered(template))",
                  "end",
                ]
              : [`wrk.body = ${luaString(first.body)}`]),
        ]
      : [
          ...numbering,
          "local mix = {",
          ...requests.map(
            (r) =>
              `  { ${luaString(r.method)}, ${luaString(r.path)}, ${luaTable(r.headers)}, ${r.body === undefined ? "nil" : luaString(r.body)}, ${r.numbered && r.body !== undefined ? "true" : "false"} },`,
          ),
          "}",
          "local prebuilt = {}",
          "local turn = 0",
          "function init(args)",
          "  for i, r in ipairs(mix) do prebuilt[i] = wrk.format(r[1], r[2], r[3], r[4]) end",
          "end",
          "function request()",
          "  turn = turn % #prebuilt + 1",
          "  local r = mix[turn]",
          "  if r[5] then return wrk.format(r[1], r[2], r[3], numbered(r[4])) end",
          "  return prebuilt[turn]",
          "end",
        ];
  return `-- Written by scripts/bench/wrk.ts for one run of \`npm run bench\`.
${setup.filter(Boolean).join("\n")}

-- No response() hook: with one, wrk copies every body into Lua (see WrkResult.non2xx).
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\n${RESULT_PREFIX}{"requests":%.0f,"duration_us":%.0f,"bytes":%.0f,"p50_us":%.0f,"p99_us":%.0f,"max_us":%.0f,' ..
      '"non2xx":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99), latency.max,
    e.status, e.connect, e.read, e.write, e.timeout))
end
`;
}

import fs from "node:fs";
import path from "node:path";

/**
 * How `npm start` runs the server, read from a checkout's package.json, so
 * that the bench runs it exactly so: `[NAME=value …] node [node flags] <entry> [args]`.
 * The bench spawns the same node binary it runs on (process.execPath) with these
 * arguments and variables, in the checkout's folder.
 */
export type StartCommand = {
  /** The script as written in package.json. */
  script: string;
  /** Variables the script sets, e.g. NODE_ENV=production. */
  env: Record<string, string>;
  /** Everything after `node`: flags, the entry file, its arguments. */
  args: string[];
};

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;
/** Shell syntax this parser does not understand: quotes, escapes, expansions, operators, redirections. */
const SHELL_SYNTAX = /["'`\\$;&|<>(){}*?~]/;

export function parseStartScript(script: string): StartCommand {
  const unsupported = () =>
    new Error(
      `cannot run package.json's start script as npm would: ${JSON.stringify(script)} ` +
        "(the bench understands `[NAME=value …] node [flags] <entry>` without quotes or shell operators)",
    );
  if (SHELL_SYNTAX.test(script)) throw unsupported();
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let index = 0;
  if (words[index] === "env") index += 1;
  for (let match = ASSIGNMENT.exec(words[index] ?? ""); match; match = ASSIGNMENT.exec(words[index] ?? "")) {
    env[match[1]] = match[2];
    index += 1;
  }
  if (words[index] !== "node") throw unsupported();
  const args = words.slice(index + 1);
  if (!args.some((word) => !word.startsWith("-"))) throw unsupported();
  return { script, env, args };
}

/** The start command of the checkout at `root`. */
export function readStartCommand(root: string): StartCommand {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  const script = pkg.scripts?.start;
  if (!script) throw new Error(`${path.join(root, "package.json")} has no start script`);
  return parseStartScript(script);
}

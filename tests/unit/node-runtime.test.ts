import { spawnSync } from "node:child_process";
import fs from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { isUndiciFormDataWriteAfterCancel } from "../support/undici-form-data";

/**
 * The Node.js the tests run on (decision 0038): `npm test` runs them on Node 24
 * (scripts/node24.ts; with SQLite), which sets TEST_NODE_VERSION to the version the
 * step must run on, and on the machine's Node (with PostgreSQL; decision 0080).
 */
const wanted = process.env.TEST_NODE_VERSION;
const version = process.versions.node.split(".").map(Number);

/** The symbol a binary compiled against Node 24.19's or a later node_object_wrap.h imports (scripts/node24.ts). */
const OBJECT_WRAP_HOOK_SYMBOL = "_ZN4node28RemoveEnvironmentCleanupHook";

/** Runs a CommonJS snippet on this Node in the project's folder, the AWS SDK's opt-out of its warning removed. */
function runOnThisNode(script: string) {
  const { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: _optOut, ...env } = process.env;
  return spawnSync(process.execPath, ["-e", script], { encoding: "utf8", env });
}

describe("the Node.js the tests run on", () => {
  it("is the version the run asked for, within package.json's engines", () => {
    console.log(`Node ${process.version} (ABI ${process.versions.modules}, Node-API ${process.versions.napi})`);
    if (wanted) expect(process.version).toBe(wanted);
    const { engines } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { engines: { node: string } };
    const minimum = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(engines.node);
    if (!minimum) throw new Error(`package.json's engines.node is not \`>=x.y.z\`: ${engines.node}`);
    const [, ...parts] = minimum.map(Number);
    const index = version.findIndex((part, i) => part !== parts[i]);
    expect(index === -1 || version[index] > parts[index], `${process.version} is below ${engines.node}`).toBe(true);
  });

  it("loads a better-sqlite3 binary built for it, without node::ObjectWrap's cleanup hook", () => {
    const database = new Database(":memory:");
    expect(database.prepare("select 1 + 1 as two").get()).toEqual({ two: 2 });
    database.close();
    // The binary this process mapped: from Node 24.19's headers on it would abort when a statement is freed.
    const binary = fs
      .readFileSync("/proc/self/maps", "utf8")
      .split("\n")
      .map((line) => line.slice(line.indexOf("/")))
      .find((file) => file.endsWith("/better_sqlite3.node"));
    if (!binary) throw new Error("better_sqlite3.node is not mapped in this process");
    // The Node 24 step loads the binary kept for its ABI (scripts/node24.ts); the machine's Node may
    // still load the one `npm ci` built in place, until `npm run node24` files it under its ABI.
    if (wanted || !binary.includes("/better-sqlite3/build/Release/")) {
      expect(binary).toContain(`node-v${process.versions.modules}-`);
    }
    expect(fs.readFileSync(binary).includes(OBJECT_WRAP_HOOK_SYMBOL)).toBe(false);
  });

  it("exits cleanly after using every native module (better-sqlite3, argon2, sharp)", () => {
    // Before the fix this aborted 8 times out of 10 on Node 24 ("Assertion failed: (env) != nullptr").
    const result = runOnThisNode(`
      const Database = require("better-sqlite3");
      const database = new Database(":memory:");
      for (let i = 0; i < 1000; i += 1) database.prepare("select ? as n").get(i);
      require("@node-rs/argon2").hashSync("a password");
      require("sharp");`);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("gets no Node-version warning from the AWS SDK from Node 22 on", () => {
    const result = runOnThisNode(`
      const { S3Client } = require("@aws-sdk/client-s3");
      new S3Client({ region: "us-east-1", credentials: { accessKeyId: "a", secretAccessKey: "b" } });`);
    expect(result.status).toBe(0);
    // The SDK's releases after January 2027 need Node 22: on 20 it says so once, on 22 and 24 nothing.
    if (version[0] >= 22) expect(result.stderr).toBe("");
    else expect(result.stderr).toContain("NodeVersionSupportWarning");
  });

  it("recognises the unhandled rejection of Node 24's fetch after a cancelled FormData body, and nothing else", () => {
    const reported = runOnThisNode(`
      process.on("unhandledRejection", (error) => {
        console.log(JSON.stringify({ code: error.code, message: error.message, stack: error.stack }));
      });
      (async () => {
        const form = new FormData();
        form.append("title", "a");
        form.append("file", new Blob([new Uint8Array(1 << 20)]), "big.bin");
        form.append("after", "b");
        const reader = new Request("http://test.invalid/", { method: "POST", body: form }).body.getReader();
        await reader.read();
        await reader.cancel(); // as the app does with a form it refuses unread
        await new Promise((resolve) => setTimeout(resolve, 100));
      })();`);
    expect(reported.status).toBe(0);
    const errors = reported.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const [undiciMajor, undiciMinor] = (process.versions.undici ?? "0.0").split(".").map(Number);
    // Node 20's undici (6.x) pulls each part as it is read; 7.20 and later write them unawaited.
    if (undiciMajor > 7 || (undiciMajor === 7 && undiciMinor >= 20)) {
      expect(errors).toHaveLength(1);
      expect(isUndiciFormDataWriteAfterCancel(errors[0])).toBe(true);
    } else expect(errors).toEqual([]);
    // The same error from code of ours (a stream the app feeds) is not this one: it is reported.
    const ours = new TypeError("Invalid state: ReadableStream is already closed");
    Object.assign(ours, { code: "ERR_INVALID_STATE" });
    new ReadableStream({
      start(controller) {
        controller.close();
        try {
          controller.enqueue(new Uint8Array(1));
        } catch (error) {
          Object.assign(ours, { stack: (error as Error).stack });
        }
      },
    });
    expect(ours.stack).toContain("node:internal/webstreams/");
    expect(isUndiciFormDataWriteAfterCancel(ours)).toBe(false);
  });
});

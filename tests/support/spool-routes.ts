import { createHash } from "node:crypto";
import fs from "node:fs";
import { z } from "@hono/zod-openapi";
import { AppError } from "../../lib/errors";
import { spooledPath } from "../../lib/spool";
import { localStorage } from "../../lib/storage";
import { apiRouter, declare, success } from "../../server/api/contract";
import { access, ok } from "../../server/api/http";
import type { Runtime } from "../../server/env";

/**
 * API routes the site does not have, for the tests of spooled uploads: they opt in the way a
 * real large-upload route does (`body.spool`), and answer what they saw of the file while the
 * request ran. Mounted with `createTestContext(env, { extraApi: spoolTestRoutes })` or
 * `createApp(runtime, { extraApi: spoolTestRoutes(runtime) })`.
 */
export const SPOOL_TEST_PATH = "/test/spooled";
export const MEMORY_TEST_PATH = "/test/in-memory";
export const STORE_TEST_PATH = "/test/spooled-store";

/** A file field as the document shows it (zod-to-openapi does not know `z.instanceof`). */
const fileSchema = z.instanceof(File).openapi({ type: "string", format: "binary" });
const uploadSchema = z.object({ file: fileSchema, title: z.string().min(1).optional() });

export function spoolTestRoutes(runtime: Runtime, maxFileBytes = runtime.config.paperMaxBytes) {
  const api = apiRouter();
  const spool = { dir: runtime.config.tmpDir, maxFileBytes };
  const describeFile = async (file: File) => {
    const temporary = spooledPath(file);
    const hash = createHash("sha256");
    for await (const chunk of file.stream()) hash.update(chunk);
    return {
      name: file.name,
      type: file.type,
      size: file.size,
      sha256: hash.digest("hex"),
      head: Buffer.from(await file.slice(0, 4).arrayBuffer()).toString("hex"),
      spooledPath: temporary ?? null,
      existedDuringHandler: temporary ? fs.existsSync(temporary) : false,
    };
  };
  const answer = z.object({}).passthrough();
  for (const method of ["post", "patch"] as const) {
    declare(
      api,
      {
        method,
        path: method === "post" ? SPOOL_TEST_PATH : `${SPOOL_TEST_PATH}/:id`,
        access: access.admin,
        tag: "Test",
        summary: "A spooled upload (test only)",
        body: { schema: uploadSchema, encodings: ["multipart"], spool },
        response: { schema: answer },
      },
      async (c, { body }) => {
        if (body.title === "throw") throw new AppError("conflict", "The handler failed on purpose.");
        return ok(c, { file: await describeFile(body.file), method: c.req.method });
      },
    );
  }
  declare(
    api,
    {
      method: "post",
      path: MEMORY_TEST_PATH,
      access: access.admin,
      tag: "Test",
      summary: "An upload held in memory (test only)",
      body: { schema: uploadSchema, encodings: ["multipart"] },
      response: { schema: answer },
    },
    async (c, { body }) => ok(c, { file: await describeFile(body.file) }),
  );
  declare(
    api,
    {
      method: "post",
      path: STORE_TEST_PATH,
      access: access.admin,
      tag: "Test",
      summary: "A spooled upload moved into the private storage (test only)",
      body: { schema: uploadSchema.extend({ key: z.string() }), encodings: ["multipart"], spool },
      response: { schema: success({}) },
    },
    async (c, { body }) => {
      const temporary = spooledPath(body.file);
      if (!temporary) throw new Error("expected a spooled file");
      const inode = fs.statSync(temporary).ino;
      await localStorage(runtime.config.privateDir).putFile(body.key, temporary);
      return ok(c, { inode, existsAfterMove: fs.existsSync(temporary) });
    },
  );
  return [api];
}

/** The temporary files left in the spool directory. */
export function spooledLeft(runtime: Runtime): string[] {
  return fs.readdirSync(runtime.config.tmpDir);
}

import { createWriteStream } from "node:fs";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { AppError, asStorageFull } from "./errors";
import { removeSpooled, type SpoolOptions, spooledFile, spoolFileName } from "./spool";

export type Body = Record<string, unknown>;

/** What a POST may ask to be treated as (`_method`, X-HTTP-Method-Override). */
export const OVERRIDABLE_METHODS = new Set(["PATCH", "PUT", "DELETE"]);
export type ParsedBody = {
  /** Fields by name: repeated fields and `name[]` fields are arrays; files are File objects. */
  body: Body;
  /** The `_method` field, if the client sent one (never part of `body`). */
  method?: string;
  /**
   * Removes the temporary files of spooled file parts (parseBody's `spool` option); call it once
   * the request is done with them. Files already moved into storage are simply gone. Absent when
   * nothing was spooled.
   */
  cleanup?: () => Promise<void>;
};

export type ParseOptions = {
  /**
   * Write file parts to temporary files in `dir` instead of memory (large uploads): each is a File
   * backed by its file (lib/spool.ts, `spooledPath(file)` for storage.putFile), at most
   * `maxFileBytes` (a larger one is a 413, its partial file removed).
   */
  spool?: SpoolOptions;
};

/**
 * Limits on form bodies, beyond the byte limit every body has (limitBodies):
 * a form of 150 000 empty parts is small in bytes but costly to parse.
 * No screen or API call of SPEC §7 sends more than a few dozen fields.
 */
export const FORM_LIMITS = {
  fields: 200,
  files: 20,
  parts: 220,
  /** Bytes of a field name. */
  fieldNameSize: 100,
  /** Bytes of one text field (rich text included); files are bounded by the body's limit (limitBodies) and, spooled, by `spool.maxFileBytes`. */
  fieldSize: 2 * 1024 * 1024,
} as const;

const tooLarge = (message: string) => new AppError("payload_too_large", message);

/**
 * Reads and parses a request body once, whatever the encoding: JSON,
 * urlencoded or multipart. Forms are parsed as a stream (busboy) with the
 * limits above; malformed JSON is a 400 and another content type a 415.
 * An upload the client aborts rejects with the stream's own error, so that
 * it is logged as a client abort rather than a server error.
 */
export type Encoding = "json" | "urlencoded" | "multipart";
export const ALL_ENCODINGS: readonly Encoding[] = ["json", "urlencoded", "multipart"];
const ENCODING_NAMES: Record<Encoding, string> = {
  json: "JSON",
  urlencoded: "urlencoded",
  multipart: "multipart form data",
};

function encodingOf(type: string): Encoding | null {
  if (type.startsWith("application/json") || type.endsWith("+json")) return "json";
  if (type.startsWith("application/x-www-form-urlencoded")) return "urlencoded";
  if (type.startsWith("multipart/form-data")) return "multipart";
  return null;
}

/**
 * Whether a request comes with a body, from its headers where they say so. Asking `request.body`
 * makes @hono/node-server build the whole fetch Request (an AbortSignal, a web stream over the
 * socket): about a tenth of a cached API answer. HTTP/1.1 has a body only with Content-Length or
 * Transfer-Encoding; a Request made in-process may have one without either.
 */
export function hasBody(request: Request): boolean {
  if (request.headers.has("transfer-encoding")) return true;
  const length = request.headers.get("content-length");
  if (length !== null) return length.trim() !== "0";
  return request.body !== null;
}

/** `accepts` is what the route takes (a file upload takes multipart only); anything else is a 415, unread. */
export async function parseBody(
  request: Request,
  accepts: readonly Encoding[] = ALL_ENCODINGS,
  options: ParseOptions = {},
): Promise<ParsedBody> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!hasBody(request)) return { body: {} };
  const encoding = encodingOf(contentType.toLowerCase());
  if (encoding === null || !accepts.includes(encoding)) {
    await request.body?.cancel().catch(() => {});
    const names = accepts.map((name) => ENCODING_NAMES[name]);
    const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names[0];
    throw new AppError("unsupported_media_type", `Send the body as ${list}.`);
  }
  return encoding === "json" ? parseJson(request) : parseForm(request, contentType, options.spool);
}

async function parseJson(request: Request): Promise<ParsedBody> {
  const bytes = await readAll(request);
  if (bytes.byteLength === 0) return { body: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new AppError("bad_request", "Malformed JSON in the request body.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new AppError("bad_request", "The JSON body must be an object.");
  }
  const { _method, ...body } = parsed as Body;
  return { body, method: typeof _method === "string" ? _method : undefined };
}

async function readAll(request: Request): Promise<ArrayBuffer> {
  try {
    return await request.arrayBuffer();
  } catch (error) {
    throw unreadable(request, error);
  }
}

/**
 * Why a body could not be read, as an answer: the size limit's own 413, the
 * client's abort as it came (logged as such), anything else a 400.
 */
function unreadable(request: Request, error: unknown): unknown {
  if (error instanceof AppError || request.signal.aborted || isAbort(error)) return error;
  return new AppError("bad_request", "The request body could not be read.");
}

function isAbort(error: unknown): boolean {
  const failure = error as { code?: unknown; message?: unknown } | null;
  return failure?.code === "ECONNRESET" || failure?.message === "aborted";
}

/**
 * A multipart or urlencoded form, streamed through busboy. File parts are held in memory, or with
 * `spool` written to temporary files with backpressure (the parser waits for the disk, the socket
 * for the parser). Whatever fails (a limit, a malformed form, the client's abort, a full disk), the
 * temporary files written so far are removed before the promise rejects.
 */
function parseForm(request: Request, contentType: string, spool?: SpoolOptions): Promise<ParsedBody> {
  return new Promise<ParsedBody>((resolve, reject) => {
    const body: Body = {};
    let method: string | undefined;
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        // busboy calls a file at its fileSize limit truncated: a file of exactly maxFileBytes is allowed.
        limits: spool ? { ...FORM_LIMITS, fileSize: spool.maxFileBytes + 1 } : FORM_LIMITS,
        defParamCharset: "utf8",
      });
    } catch {
      reject(new AppError("bad_request", "Malformed form body."));
      return;
    }
    const source = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
    let settled = false;
    // Parts in the order they came; a file's value is known once its bytes are all in.
    const parts: { name: string; value: unknown }[] = [];
    const pendingFiles: Promise<void>[] = [];
    const spooled: string[] = [];
    const writing = new Set<Writable>();
    const cleanup = () => removeSpooled(spooled);
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      source.destroy();
      if (!spool) {
        reject(error);
        return;
      }
      // Stop the writes, let each close its file, then remove every file: nothing is left behind.
      // (The writer, not busboy's stream: a file stream destroyed between its last byte and its
      // 'end' counts as finished to pipeline, which would then wait for an end that never comes.)
      for (const stream of writing) stream.destroy();
      void Promise.allSettled(pendingFiles)
        .then(cleanup)
        .then(() => reject(error));
    };
    const add = (rawKey: string, value: unknown) => {
      if (rawKey === "_method") {
        if (typeof value === "string") method = value;
        return;
      }
      const isList = rawKey.endsWith("[]");
      const key = isList ? rawKey.slice(0, -2) : rawKey;
      const existing = body[key];
      if (isList) body[key] = Array.isArray(existing) ? [...existing, value] : [value];
      else if (existing === undefined) body[key] = value;
      else body[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
    };

    // busboy truncates long names only in urlencoded bodies; multipart names are checked here.
    const nameTooLong = (name: string) => Buffer.byteLength(name) > FORM_LIMITS.fieldNameSize;
    const longName = () => tooLarge(`A field name is longer than ${FORM_LIMITS.fieldNameSize} bytes.`);
    parser.on("field", (name, value, info) => {
      if (info.nameTruncated || nameTooLong(name)) return fail(longName());
      if (info.valueTruncated) return fail(tooLarge(`The field "${name}" is larger than the limit.`));
      parts.push({ name, value });
    });
    parser.on("file", (name, stream, info) => {
      // busboy may still hand over a part of the chunk that failed the form: nothing more is written.
      if (settled) {
        stream.resume();
        return;
      }
      if (nameTooLong(name)) {
        stream.resume();
        return fail(longName());
      }
      const part: { name: string; value: unknown } = { name, value: undefined };
      parts.push(part);
      // The client's file name and type are kept only as given; lib/images and lib/files sniff the content.
      const filename = info.filename ?? "";
      if (spool) {
        const file = spoolFileName(spool.dir);
        spooled.push(file);
        const writer = createWriteStream(file, { flags: "wx" });
        writing.add(writer);
        stream.on("limit", () =>
          fail(
            tooLarge(
              `The file "${filename || name}" is larger than the limit of ${spool.maxFileBytes} bytes (${Math.floor(spool.maxFileBytes / (1024 * 1024))} MB).`,
            ),
          ),
        );
        pendingFiles.push(
          pipeline(stream, writer)
            .then(async () => {
              writing.delete(writer);
              if (!settled) part.value = await spooledFile(file, filename, info.mimeType);
            })
            .catch((error: unknown) => {
              writing.delete(writer);
              // A write that failed (a full disk is a 507); a stream stopped by fail() is already answered.
              fail(asStorageFull(error));
            }),
        );
        return;
      }
      const chunks: Buffer[] = [];
      pendingFiles.push(
        new Promise<void>((done) => {
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            part.value = new File([Buffer.concat(chunks)], filename, { type: info.mimeType });
            done();
          });
          stream.on("error", () => done());
        }),
      );
    });
    parser.on("partsLimit", () => fail(tooLarge(`The form has more than ${FORM_LIMITS.parts} parts.`)));
    parser.on("fieldsLimit", () => fail(tooLarge(`The form has more than ${FORM_LIMITS.fields} fields.`)));
    parser.on("filesLimit", () => fail(tooLarge(`The form has more than ${FORM_LIMITS.files} files.`)));
    parser.on("error", () => fail(new AppError("bad_request", "Malformed form body.")));
    parser.on("close", () => {
      void Promise.all(pendingFiles).then(() => {
        if (settled) return;
        settled = true;
        for (const part of parts) if (part.value !== undefined) add(part.name, part.value);
        resolve(spool ? { body, method, cleanup } : { body, method });
      });
    });
    source.on("error", (error) => fail(unreadable(request, error)));
    source.pipe(parser);
  });
}

import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { AppError } from "./errors";

export type Body = Record<string, unknown>;

/** What a POST may ask to be treated as (`_method`, X-HTTP-Method-Override). */
export const OVERRIDABLE_METHODS = new Set(["PATCH", "PUT", "DELETE"]);
export type ParsedBody = {
  /** Fields by name: repeated fields and `name[]` fields are arrays; files are File objects. */
  body: Body;
  /** The `_method` field, if the client sent one (never part of `body`). */
  method?: string;
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
  /** Bytes of one text field (rich text included); files are bounded by UPLOAD_MAX_BYTES. */
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

/** `accepts` is what the route takes (a file upload takes multipart only); anything else is a 415, unread. */
export async function parseBody(request: Request, accepts: readonly Encoding[] = ALL_ENCODINGS): Promise<ParsedBody> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!request.body) return { body: {} };
  const encoding = encodingOf(contentType.toLowerCase());
  if (encoding === null || !accepts.includes(encoding)) {
    await request.body.cancel().catch(() => {});
    const names = accepts.map((name) => ENCODING_NAMES[name]);
    const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names[0];
    throw new AppError("unsupported_media_type", `Send the body as ${list}.`);
  }
  return encoding === "json" ? parseJson(request) : parseForm(request, contentType);
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

function parseForm(request: Request, contentType: string): Promise<ParsedBody> {
  return new Promise<ParsedBody>((resolve, reject) => {
    const body: Body = {};
    let method: string | undefined;
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        limits: FORM_LIMITS,
        defParamCharset: "utf8",
      });
    } catch {
      reject(new AppError("bad_request", "Malformed form body."));
      return;
    }
    const source = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
    let settled = false;
    const pendingFiles: Promise<void>[] = [];
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      source.destroy();
      reject(error);
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
      add(name, value);
    });
    parser.on("file", (name, stream, info) => {
      if (nameTooLong(name)) {
        stream.resume();
        return fail(longName());
      }
      const chunks: Buffer[] = [];
      pendingFiles.push(
        new Promise<void>((done) => {
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            // The client's file name and type are kept only as given; lib/images sniffs the content.
            add(name, new File([Buffer.concat(chunks)], info.filename ?? "", { type: info.mimeType }));
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
        resolve({ body, method });
      });
    });
    source.on("error", (error) => fail(unreadable(request, error)));
    source.pipe(parser);
  });
}

import { createHash } from "node:crypto";

/**
 * Multipart bodies of any size, generated as they are sent (never built whole in memory), with a
 * file content that is known without storing it: byte i of a file is a function of i and a seed.
 */
export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; type: string; size: number; seed?: number; head?: Uint8Array };

const CHUNK = 64 * 1024;
const encoder = new TextEncoder();

/** A file's content in 64 KiB chunks. */
export function* fileChunks(size: number, seed = 7): Generator<Uint8Array> {
  for (let offset = 0; offset < size; offset += CHUNK) {
    const chunk = new Uint8Array(Math.min(CHUNK, size - offset));
    for (let i = 0; i < chunk.length; i++) chunk[i] = ((offset + i) * 31 + seed * ((offset + i) >> 12)) % 251;
    yield chunk;
  }
}

/** The SHA-256 of fileChunks(size, seed), as hex. */
export function fileSha256(size: number, seed = 7): string {
  const hash = createHash("sha256");
  for (const chunk of fileChunks(size, seed)) hash.update(chunk);
  return hash.digest("hex");
}

export type Multipart = {
  contentType: string;
  /** The body's exact length, for a Content-Length header. */
  length: number;
  /** The body's bytes in order, generated lazily. */
  chunks: () => Generator<Uint8Array>;
};

export function multipart(parts: MultipartPart[], boundary = "----masthead-multipart-test"): Multipart {
  const heads = parts.map((part, index) => {
    const lead = index === 0 ? "" : "\r\n";
    return encoder.encode(
      "filename" in part
        ? `${lead}--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`
        : `${lead}--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}`,
    );
  });
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const length =
    heads.reduce((n, head) => n + head.byteLength, 0) +
    parts.reduce((n, part) => n + ("filename" in part ? part.size : 0), 0) +
    tail.byteLength;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    *chunks() {
      for (const [index, part] of parts.entries()) {
        yield heads[index] as Uint8Array;
        if ("filename" in part) {
          // A file type's magic bytes first (a ZIP's "PK\x03\x04"), the generated content after.
          if (part.head) yield part.head;
          yield* fileChunks(part.size - (part.head?.byteLength ?? 0), part.seed);
        }
      }
      yield tail;
    },
  };
}

/** The body as a web stream pulled on demand, counting the bytes the receiver pulled. */
export function streamOf(body: Multipart, options: { failAfter?: number } = {}) {
  const pulled = { bytes: 0 };
  const chunks = body.chunks();
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (options.failAfter !== undefined && pulled.bytes >= options.failAfter) {
        controller.error(new Error("aborted"));
        return;
      }
      const next = chunks.next();
      if (next.done) controller.close();
      else {
        pulled.bytes += next.value.byteLength;
        controller.enqueue(next.value);
      }
    },
  });
  return { stream, pulled };
}

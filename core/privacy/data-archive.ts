import { Readable } from "node:stream";
// archiver: a kept streaming ZIP writer (entries are compressed and sent as they come; the whole
// archive is never in memory), rather than a ZIP format of our own.
import { ZipArchive } from "archiver";

/** One file of the archive: JSON (written as it is read when a stream of rows), text, or a stored file. */
export type ArchiveEntry =
  | { name: string; json: unknown }
  | { name: string; text: string }
  | { name: string; rows: AsyncIterable<unknown> }
  | { name: string; stream: Readable };

/** A JSON array written row by row: `[`, the rows separated by commas, `]`. */
async function* jsonArray(rows: AsyncIterable<unknown>): AsyncGenerator<string> {
  let first = true;
  yield "[";
  for await (const row of rows) {
    yield `${first ? "\n  " : ",\n  "}${JSON.stringify(row)}`;
    first = false;
  }
  yield first ? "]\n" : "\n]\n";
}

/**
 * A ZIP of the entries, as a stream that is written while it is read (issue 35): the caller pipes
 * it to the response. An entry's failure (a database read) ends the stream with that error.
 */
export function dataArchive(entries: readonly ArchiveEntry[], date: Date): Readable {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  for (const entry of entries) {
    const data = { name: entry.name, date };
    if ("json" in entry) archive.append(`${JSON.stringify(entry.json, null, 2)}\n`, data);
    else if ("text" in entry) archive.append(entry.text, data);
    else if ("rows" in entry) archive.append(Readable.from(jsonArray(entry.rows)), data);
    else archive.append(entry.stream, data);
  }
  void archive.finalize().catch((error: unknown) => archive.destroy(error as Error));
  return archive;
}

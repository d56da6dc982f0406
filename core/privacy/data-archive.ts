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
 * it to the response. An entry's failure (a database read, a file that cannot be read) ends the
 * archive with that error, and so the download: archiver pipes each entry's stream without
 * listening to its errors, which then went uncaught (the end of the server process) and left the
 * download waiting for ever.
 */
export function dataArchive(entries: readonly ArchiveEntry[], date: Date): Readable {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const failsTheArchive = (source: Readable) => source.on("error", (error: Error) => archive.destroy(error));
  for (const entry of entries) {
    const data = { name: entry.name, date };
    if ("json" in entry) archive.append(`${JSON.stringify(entry.json, null, 2)}\n`, data);
    else if ("text" in entry) archive.append(entry.text, data);
    else if ("rows" in entry) archive.append(failsTheArchive(Readable.from(jsonArray(entry.rows))), data);
    else archive.append(failsTheArchive(entry.stream), data);
  }
  void archive.finalize().catch((error: unknown) => archive.destroy(error as Error));
  return archive;
}

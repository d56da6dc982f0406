import type { Readable } from "node:stream";
import { fileTypeFromBuffer } from "file-type";
import type { FileStat, ReadableFileStorage } from "../../lib/storage";
import type { LibraryRepository } from "./library.repository";
import type { PaperAccess, Viewer } from "./library.schema";

/** Bytes file-type needs to recognise every format it knows. */
const SNIFF_BYTES = 4100;

/** Content types a paper's file is served as, by what its bytes are (never by its name). */
const SERVED_TYPES = new Set([
  "application/pdf",
  "application/zip",
  "application/xml",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
]);

/**
 * Who may download a paper's file: anyone for a public category's paper,
 * signed-in users for the rest. Every category is members-only until
 * categories carry their public flag.
 */
export function canDownload(paper: PaperAccess, viewer: Viewer): boolean {
  return paper.isPublic || viewer.signedIn;
}

export type PaperDownload = {
  key: string;
  /** The name the browser saves it as: the paper's number and name, and the extension of its type. */
  fileName: string;
  contentType: string;
  stat: FileStat;
  open: (range?: { start: number; end: number }) => Readable;
};

async function readHead(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function createLibraryService(deps: { repository: LibraryRepository; files: ReadableFileStorage }) {
  const { repository, files } = deps;
  return {
    /**
     * A paper's file for this viewer, or null when the paper does not exist,
     * has no file, or the viewer may not have it: the caller answers 404 to
     * all three alike, so that nothing tells whether the id exists.
     */
    async paperDownload(id: number, viewer: Viewer): Promise<PaperDownload | null> {
      const paper = await repository.findPaperFile(id);
      if (!paper?.uploaded_file) return null;
      // The category's public flag comes with issue 14's categories; members-only until then.
      if (!canDownload({ isPublic: false }, viewer)) return null;
      const key = paper.uploaded_file;
      const stat = await files.stat(key).catch(() => null);
      if (!stat) return null;
      const head =
        stat.size > 0
          ? await readHead(files.open(key, { start: 0, end: Math.min(stat.size, SNIFF_BYTES) - 1 }))
          : new Uint8Array();
      const sniffed = await fileTypeFromBuffer(head);
      const served = sniffed && SERVED_TYPES.has(sniffed.mime);
      const contentType = served ? sniffed.mime : "application/octet-stream";
      const ext = served ? sniffed.ext : (/\.([a-z0-9]{1,5})$/.exec(key)?.[1] ?? "bin");
      const base = [paper.number, paper.name].filter(Boolean).join(" ");
      return { key, fileName: `${base}.${ext}`, contentType, stat, open: (range) => files.open(key, range) };
    },
  };
}
export type LibraryService = ReturnType<typeof createLibraryService>;

import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ArchiveEntry, dataArchive } from "../../core/privacy/data-archive";
import { zipResponse } from "../../lib/zip-response";

/**
 * The personal data archive (issue 35) when one of its parts fails: a file that cannot be read, a
 * database page that does not come. The download must end in an error the server answers (the
 * response cut short), never an exception nobody catches, which ends the server process.
 */
let uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught = [];
  process.on("uncaughtException", onUncaught);
});
afterEach(() => {
  process.off("uncaughtException", onUncaught);
});

/** A file of `bytes` that fails after `failAfter` of them, as a read of a vanished or broken file does. */
function failingFile(bytes: number, failAfter: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= failAfter) {
        this.destroy(new Error("EIO: the file could not be read"));
        return;
      }
      const chunk = randomBytes(Math.min(16_384, bytes - sent));
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

async function* failingRows() {
  yield { id: 1 };
  await new Promise((resolve) => setTimeout(resolve, 5));
  throw new Error("the database did not answer");
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe("a personal data archive with a part that fails", () => {
  const failingParts: [string, () => ArchiveEntry][] = [
    ["a file fails while it is sent", () => ({ name: "avatar.webp", stream: failingFile(1_000_000, 200_000) })],
    ["the database stops answering mid-list", () => ({ name: "audit-log.json", rows: failingRows() })],
  ];
  it.each(failingParts)("ends the download with the error when %s", async (_, part) => {
    const archive = dataArchive([{ name: "README.txt", text: "hello" }, part()], new Date());
    const response = zipResponse({ filename: "x.zip", stream: archive });
    await expect(response.arrayBuffer()).rejects.toThrow();
    await settle();
    expect(uncaught).toEqual([]);
  });

  it("keeps the error for the reader when it comes before anyone reads (a HEAD request reads nothing)", async () => {
    const archive = dataArchive([{ name: "avatar.webp", stream: failingFile(100, 0) }], new Date());
    const response = zipResponse({ filename: "x.zip", stream: archive });
    await settle();
    expect(uncaught).toEqual([]);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });
});

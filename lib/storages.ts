import { PassThrough } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Config } from "./env";
import { openS3, type S3Connection } from "./s3-storage";
import { isSafeStorageKey, localStorage, type ReadableFileStorage } from "./storage";

/**
 * The site's two storages, as configured (STORAGE, decision 0030): the public uploads, served at
 * /uploads/<key>, and the private files (paper files), served only through an access check.
 * On S3 they never share a key: `<prefix>uploads/` and `<prefix>private/`, or two buckets.
 */
export type Storages = {
  kind: "local" | "s3";
  uploads: ReadableFileStorage;
  private: ReadableFileStorage;
  /** S3_PUBLIC_URL: /uploads/<key> is redirected to `<publicUrl>/<key>` rather than streamed by the app. */
  publicUrl?: string;
  /** For the start-up log line: where the files live (no credentials). */
  describe: string;
  /** Throws a readable error when the storage cannot be reached (a bucket that does not answer). */
  check(): Promise<void>;
};

export function createStorages(config: Pick<Config, "storage" | "uploadsDir" | "privateDir">): Storages {
  const settings = config.storage;
  if (settings.kind === "local") {
    return {
      kind: "local",
      uploads: localStorage(config.uploadsDir),
      private: localStorage(config.privateDir),
      describe: `local disk: ${config.uploadsDir}, ${config.privateDir}`,
      check: async () => {},
    };
  }
  let opened: Promise<S3Connection> | undefined;
  // The SDK is loaded on first use (openS3): a process on local disk never pays for it.
  const connection = () => {
    opened ??= openS3(settings);
    return opened;
  };
  const buckets = [...new Set([settings.bucket, settings.privateBucket])];
  return {
    kind: "s3",
    uploads: deferred(async () =>
      (await connection()).storage({ bucket: settings.bucket, prefix: `${settings.prefix}uploads/` }),
    ),
    private: deferred(async () =>
      (await connection()).storage({ bucket: settings.privateBucket, prefix: `${settings.prefix}private/` }),
    ),
    publicUrl: settings.publicUrl,
    describe:
      `s3: ${settings.endpoint ?? `AWS ${settings.region}`}, s3://${settings.bucket}/${settings.prefix}uploads/, ` +
      `s3://${settings.privateBucket}/${settings.prefix}private/`,
    check: async () => {
      const s3 = await connection();
      for (const bucket of buckets) await s3.checkBucket(bucket);
    },
  };
}

/** A storage built on first use; `open` answers a stream at once, as the interface promises. */
function deferred(build: () => Promise<ReadableFileStorage>): ReadableFileStorage {
  let built: Promise<ReadableFileStorage> | undefined;
  const storage = () => {
    built ??= build();
    return built;
  };
  return {
    put: async (key, data) => (await storage()).put(key, data),
    putFile: async (key, sourcePath) => (await storage()).putFile(key, sourcePath),
    putStream: async (key, data) => (await storage()).putStream(key, data),
    remove: async (key) => (await storage()).remove(key),
    async *list() {
      yield* (await storage()).list();
    },
    stat: async (key) => (await storage()).stat(key),
    open(key, range) {
      if (!isSafeStorageKey(key)) throw new Error(`Refusing unsafe storage key: ${JSON.stringify(key)}`);
      const out = new PassThrough();
      storage()
        .then((loaded) => pipeline(loaded.open(key, range), out))
        .catch((error) => out.destroy(error));
      return out;
    },
  };
}

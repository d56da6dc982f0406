import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { getMimeType } from "hono/utils/mime";
import type { S3StorageConfig } from "./env";
import { isSafeStorageKey, type ReadableFileStorage, type StoredFile } from "./storage";

/** The AWS SDK's modules, loaded by openS3 (import() rather than import: see there). */
type Sdk = typeof import("@aws-sdk/client-s3") & Pick<typeof import("@aws-sdk/lib-storage"), "Upload">;

/** A client for one endpoint, and the storages and checks on its buckets. */
export type S3Connection = {
  client: S3Client;
  storage(options: S3StorageOptions): ReadableFileStorage;
  /**
   * Checks that a bucket answers with these credentials, so that a wrong name, endpoint or key
   * stops the process at start with a message rather than failing the first upload.
   */
  checkBucket(bucket: string): Promise<void>;
};

/**
 * Loads the AWS SDK and makes a client for the configured endpoint (AWS itself when S3_ENDPOINT
 * is unset). The SDK is imported here, on first use, so that a process on local disk never loads
 * it (about 25 MB and 300 ms; the server bundle keeps a dynamic import of an external package as it is).
 */
export async function openS3(
  settings: Pick<S3StorageConfig, "region" | "endpoint" | "forcePathStyle" | "credentials">,
): Promise<S3Connection> {
  const [clientModule, storageModule] = await Promise.all([
    import("@aws-sdk/client-s3"),
    import("@aws-sdk/lib-storage"),
  ]);
  const sdk: Sdk = { ...clientModule, Upload: storageModule.Upload };
  const client = new sdk.S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
  });
  return {
    client,
    storage: (options) => s3Storage(sdk, client, options),
    checkBucket: (bucket) => checkBucket(sdk, client, bucket),
  };
}

/** The status code and error name the SDK puts on a failed request. */
function failure(error: unknown): { status?: number; name?: string } {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return { status: e?.$metadata?.httpStatusCode, name: e?.name };
}

function isNotFound(error: unknown): boolean {
  const { status, name } = failure(error);
  return status === 404 || name === "NotFound" || name === "NoSuchKey";
}

/** The error a write to a taken key fails with, as on local disk (EEXIST). */
function taken(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`Refusing to overwrite stored file ${key}`), { code: "EEXIST" });
}

/** A conditional write (If-None-Match: *) refused because the key exists. */
function isConditionFailed(error: unknown): boolean {
  const { status, name } = failure(error);
  return status === 412 || name === "PreconditionFailed" || (status === 409 && name === "ConditionalRequestConflict");
}

export type S3StorageOptions = {
  bucket: string;
  /** Prepended to every key ("masthead/uploads/"): this storage sees and lists nothing outside it. */
  prefix: string;
  /** Keys asked for per ListObjectsV2 page (at most 1000; tests use a small one to page). */
  pageSize?: number;
  /** Part size for streamed uploads (multipart above it; at least 5 MiB, S3's minimum part). */
  partSize?: number;
};

/**
 * FileStorage on an S3-compatible bucket (decision 0030), with the semantics of lib/storage.ts:
 * - never overwrites: a HEAD first (servers that ignore conditional writes, such as s3rver, are
 *   covered by it), then the write itself with `If-None-Match: *` (AWS S3, MinIO, R2 refuse it
 *   with 412 when another writer got there between the two);
 * - whole file or nothing: an object appears only when its PUT or CompleteMultipartUpload
 *   succeeds; a stream that fails midway aborts its multipart upload;
 * - keys checked with isSafeStorageKey; `list()` pages through ListObjectsV2.
 */
function s3Storage(sdk: Sdk, client: S3Client, options: S3StorageOptions): ReadableFileStorage {
  const { bucket, prefix } = options;
  const pageSize = Math.min(options.pageSize ?? 1000, 1000);
  const objectKey = (key: string) => {
    if (!isSafeStorageKey(key)) throw new Error(`Refusing unsafe storage key: ${JSON.stringify(key)}`);
    return `${prefix}${key}`;
  };
  const contentType = (key: string) => getMimeType(key) ?? "application/octet-stream";

  async function head(key: string) {
    try {
      return await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** Refuses a taken key before writing, and turns a refused conditional write into the same EEXIST. */
  async function creating(key: string, write: () => Promise<unknown>): Promise<void> {
    if (await head(key)) throw taken(key);
    try {
      await write();
    } catch (error) {
      if (isConditionFailed(error)) throw taken(key);
      throw error;
    }
  }

  /** A stream into a new object; on any failure (a taken key too) the source is destroyed, as a pipeline would. */
  async function upload(key: string, body: Readable, length?: number): Promise<void> {
    const Key = objectKey(key);
    // A source that fails is the cause, even when aborting the multipart upload fails after it.
    let sourceError: unknown;
    body.once("error", (error) => {
      sourceError = error;
    });
    try {
      await creating(key, () =>
        new sdk.Upload({
          client,
          params: {
            Bucket: bucket,
            Key,
            Body: body,
            ContentType: contentType(key),
            ContentLength: length,
            IfNoneMatch: "*",
          },
          partSize: options.partSize,
          queueSize: 2,
          // Parts of a failed upload are deleted (AbortMultipartUpload): nothing is left behind.
          leavePartsOnError: false,
        }).done(),
      );
    } catch (error) {
      body.destroy();
      throw sourceError ?? error;
    }
  }

  async function* pages(): AsyncGenerator<StoredFile> {
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: pageSize, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(prefix.length);
        if (key && isSafeStorageKey(key)) yield { key, modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  return {
    async put(key, data) {
      const Key = objectKey(key);
      await creating(key, () =>
        client.send(
          new sdk.PutObjectCommand({
            Bucket: bucket,
            Key,
            Body: data,
            ContentLength: data.byteLength,
            ContentType: contentType(key),
            IfNoneMatch: "*",
          }),
        ),
      );
    },
    async putFile(key, sourcePath) {
      objectKey(key);
      const { size } = await fs.stat(sourcePath);
      await upload(key, createReadStream(sourcePath), size);
      await fs.rm(sourcePath, { force: true });
    },
    putStream(key, data) {
      return upload(key, data);
    },
    async remove(key) {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
    list: pages,
    async stat(key) {
      const answer = await head(key);
      if (!answer) return null;
      return { size: answer.ContentLength ?? 0, modifiedAt: answer.LastModified ?? new Date(0) };
    },
    open(key, range) {
      const Key = objectKey(key);
      const abort = new AbortController();
      async function* bytes() {
        let body: Readable;
        try {
          const answer = await client.send(
            new sdk.GetObjectCommand({
              Bucket: bucket,
              Key,
              Range: range ? `bytes=${range.start}-${range.end}` : undefined,
            }),
            { abortSignal: abort.signal },
          );
          body = answer.Body as Readable;
        } catch (error) {
          // As createReadStream on a missing file.
          if (isNotFound(error)) throw Object.assign(new Error(`No stored file ${key}`), { code: "ENOENT" });
          throw error;
        }
        try {
          for await (const chunk of body) yield chunk as Buffer;
        } finally {
          body.destroy();
        }
      }
      const stream = Readable.from(bytes(), { objectMode: false });
      // A reader that stops early (a visitor who went away) cancels a request still waiting for its answer.
      stream.once("close", () => abort.abort());
      return stream;
    },
  };
}

async function checkBucket(sdk: Sdk, client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }));
  } catch (error) {
    const { status, name } = failure(error);
    const reason =
      status === 404
        ? "no such bucket"
        : status === 403 || status === 401
          ? "access denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)"
          : status
            ? `HTTP ${status}${name ? ` ${name}` : ""}`
            : (error as Error).message;
    throw new Error(`S3 storage: bucket ${bucket} does not answer: ${reason}`);
  }
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { openS3, type S3Connection } from "../../lib/s3-storage";

/** s3rver's built-in account: it checks request signatures against these. */
const ACCESS_KEY = "S3RVER";

export type TestS3 = {
  endpoint: string;
  /** The environment that points the app at this server (STORAGE=s3 and the S3_ keys). */
  env: (bucket: string, extra?: Record<string, string>) => Record<string, string>;
  client: S3Client;
  /** The app's own S3 driver on this server (its storages, as lib/storages.ts makes them). */
  connection: S3Connection;
  /** Every key in a bucket (one page: the tests keep fewer than 1000). */
  keys: (bucket: string) => Promise<string[]>;
  close: () => Promise<void>;
};

/**
 * A real S3 protocol server (s3rver) in this process, on a free loopback port, storing into a
 * temporary directory, with the named buckets created.
 */
export async function startS3(buckets: string[]): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = {
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
  };
  const connection = await openS3(settings);
  const client = connection.client;
  return {
    endpoint,
    client,
    connection,
    env: (bucket, extra = {}) => ({
      STORAGE: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: settings.region,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      ...extra,
    }),
    keys: async (bucket) => {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (page.Contents ?? []).map((object) => object.Key ?? "").sort();
    },
    close: async () => {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

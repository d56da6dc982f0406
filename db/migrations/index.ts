import type { Migration } from "kysely";
import * as m0001 from "./0001_initial";
import * as m0002 from "./0002_content_versions";

/**
 * Append-only list of migrations, imported statically so that the bundled
 * production server carries them. Never edit one that has landed.
 */
export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_content_versions": m0002,
};

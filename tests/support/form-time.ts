import type { Kysely } from "kysely";
import { signFormTime } from "../../core/join/form-time";
import type { FormKind } from "../../core/join/join.values";
import { createSecretsRepository } from "../../core/secrets/secrets.repository";
import { createSecretsService } from "../../core/secrets/secrets.service";
import type { Database } from "../../db/types";

/**
 * The shown-at time a page of the site would have carried if it had been rendered at `at` (ms):
 * signed with the site's own key from the database, as the server signs it (decision 0039).
 */
export async function formTimeAt(db: Kysely<Database>, kind: FormKind, at: number): Promise<string> {
  const secrets = createSecretsService({ repository: createSecretsRepository(db), clock: () => new Date() });
  return signFormTime(await secrets.key("form-time"), kind, at);
}

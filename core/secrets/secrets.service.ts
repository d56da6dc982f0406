import { randomBytes } from "node:crypto";
import type { Clock } from "../../lib/clock";
import type { SecretsRepository } from "./secrets.repository";

/**
 * Keys the site makes for itself (decision 0039): 32 random bytes per purpose, made on first use
 * and kept in the database, so that every process of the site (decision 0031) and every restart
 * signs and checks with the same key, and an operator has nothing to configure. The first process
 * to store a key wins; the others read it. Each process keeps the key in memory once read.
 * Removing the row makes a new key (what was signed with the old one then no longer checks).
 */
export function createSecretsService(deps: { repository: SecretsRepository; clock: Clock }) {
  const known = new Map<string, Promise<Buffer>>();
  async function load(name: string): Promise<Buffer> {
    let value = await deps.repository.find(name);
    if (value === null) {
      await deps.repository.insertIfAbsent(name, randomBytes(32).toString("base64url"), deps.clock().toISOString());
      value = await deps.repository.find(name);
    }
    if (value === null) throw new Error(`The key ${name} could not be stored.`);
    return Buffer.from(value, "base64url");
  }
  return {
    key(name: string): Promise<Buffer> {
      let found = known.get(name);
      if (!found) {
        found = load(name);
        // A failed read (the database away for a moment) is tried again next time, not remembered.
        found.catch(() => known.delete(name));
        known.set(name, found);
      }
      return found;
    },
  };
}
export type SecretsService = ReturnType<typeof createSecretsService>;

import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";
import { createSlots } from "./slots";

// OWASP's argon2id baseline (19 MiB, 2 passes): about 30 ms here, slow enough for attackers.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id; a const enum, unusable under verbatimModuleSyntax */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * Argon2 runs on libuv's thread pool, one core for each hash. Twenty sign-ins at once took every
 * core from the event loop (up to 211 ms of stall on two cores): at most one hash fewer than there
 * are cores runs at a time (at least one), and the rest wait their turn (decision 0035).
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);
/** The hashes running and waiting (busy, waiting): for tests and measurements. */
export const passwordHashSlots = createSlots(PASSWORD_HASH_CONCURRENCY);

export function hashPassword(password: string): Promise<string> {
  return passwordHashSlots.run(() => hash(password, OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await passwordHashSlots.run(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * A real hash to verify against when the account does not exist, so that an
 * unknown e-mail costs the same time as a wrong password.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("not-a-real-password-just-for-timing");
  return dummyHash;
}

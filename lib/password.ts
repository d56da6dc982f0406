import { hash, verify } from "@node-rs/argon2";

// OWASP's argon2id baseline (19 MiB, 2 passes): about 30 ms here, slow enough for attackers.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id; a const enum, unusable under verbatimModuleSyntax */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
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

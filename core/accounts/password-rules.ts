import { createRequire } from "node:module";
import { type MatchExtended, ZxcvbnFactory } from "@zxcvbn-ts/core";
import type * as Common from "@zxcvbn-ts/language-common";
import type * as English from "@zxcvbn-ts/language-en";
import { z } from "zod";
import { PASSWORD_MIN } from "./password.schema";

/**
 * Rules for a new password (issue 6, issue 11 §8): at least 10 characters, not
 * easy to guess (zxcvbn-ts with its list of about 40 000 common passwords and
 * English words, names and keyboard patterns), not the account's e-mail, and
 * confirmed. Server-only: the dictionaries weigh megabytes (the browser reads
 * PASSWORD_MIN from password.schema.ts).
 */
export const PASSWORD_TOO_COMMON = "This password is too common. Choose another one.";
export const PASSWORD_TOO_GUESSABLE =
  "This password is too easy to guess. Make it longer, for example with a few unrelated words.";

/**
 * zxcvbn's scores: 3 means at least 10^8 guesses, out of reach of an online
 * attacker and of an offline one against our argon2id hashes for a long time.
 */
const MIN_SCORE = 3;
/** Words of this site that an attacker would try first. */
const SITE_WORDS = ["masthead"];

let estimator: ZxcvbnFactory | undefined;
/**
 * Built on first use: about 100 ms and the dictionaries' 40 MB, not paid by processes that never set
 * a password. The dictionaries are required here, synchronously (a schema's refinement calls this),
 * rather than imported at the top, which would load them in every process at start.
 */
function passwordEstimator(): ZxcvbnFactory {
  if (estimator) return estimator;
  const require = createRequire(import.meta.url);
  const common = require("@zxcvbn-ts/language-common") as typeof Common;
  const english = require("@zxcvbn-ts/language-en") as typeof English;
  estimator = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    maxLength: 200,
  });
  return estimator;
}

const fromCommonList = (match: MatchExtended) =>
  "dictionaryName" in match && String(match.dictionaryName).startsWith("passwords");

/**
 * Why a password would be easy to guess, or null: "common" when it is one of
 * (or a variant of one of) the passwords in breach lists, "guessable" otherwise.
 * `related` are words an attacker knows about the account (its e-mail).
 */
export function passwordWeakness(password: string, related: string[] = []): "common" | "guessable" | null {
  const inputs = [...SITE_WORDS, ...related.flatMap((word) => [word, ...word.toLowerCase().split(/[@.+_-]+/)])];
  const result = passwordEstimator().check(
    password,
    inputs.filter((word) => word.length >= 3),
  );
  if (result.score >= MIN_SCORE) return null;
  return result.sequence.some(fromCommonList) ? "common" : "guessable";
}

/** A new password with its confirmation; `email` is the account's, to refuse the address as password. */
export function newPasswordSchema(email: string) {
  return z
    .object({
      password: z
        .string({ error: "The new password is required." })
        .min(1, { error: "The new password is required.", abort: true })
        .min(PASSWORD_MIN, { error: `The new password must be at least ${PASSWORD_MIN} characters.`, abort: true })
        .max(200, { error: "The new password must be at most 200 characters.", abort: true })
        .refine((v) => v.trim().toLowerCase() !== email.toLowerCase(), {
          error: "The password must not be your e-mail address.",
          abort: true,
        })
        .superRefine((v, ctx) => {
          const weakness = passwordWeakness(v, [email]);
          if (weakness) {
            ctx.addIssue({
              code: "custom",
              message: weakness === "common" ? PASSWORD_TOO_COMMON : PASSWORD_TOO_GUESSABLE,
            });
          }
        }),
      password_confirmation: z.string({ error: "Confirm the new password." }),
    })
    .refine((v) => v.password === v.password_confirmation, {
      path: ["password_confirmation"],
      error: "The passwords do not match.",
    });
}

import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { verifyPassword } from "../../lib/password";
import { hashToken, newToken } from "../../lib/tokens";
import { invalidInput } from "../../lib/validation";
import type { AuditService } from "../audit/audit.service";
import type { MailService } from "../mail/mail.service";
import type { SettingsService } from "../settings/settings.service";
import { CODE_WRONG } from "./auth.values";
import type { PasskeysService } from "./passkeys.service";
import { createTwoFactorRepository } from "./two-factor.repository";

/** How many single-use recovery codes a user gets, each time. */
export const RECOVERY_CODES = 10;
const PERIOD = 30;
/** How long the second step of a sign-in waits for its code. */
export const CHALLENGE_SECONDS = 5 * 60;

export { CODE_WRONG } from "./auth.values";
export const SETUP_CODE_WRONG = "That code is not right: type the six digits the app shows now for this account.";

/** A recovery code as shown: ten letters and digits in two groups, easy to read aloud (no 0/O, 1/l). */
function recoveryCode(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
/** What a typed recovery code is compared as: lowercase, without spaces or hyphens. */
const normalRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

/**
 * Two-factor sign-in with an authenticator app (issue 34, decision 0075): TOTP by `otpauth` (RFC
 * 6238, 30 s, six digits, one step either side), its QR code drawn on our page by `uqr`, and ten
 * single-use recovery codes stored hashed. A code is accepted once: the step it belongs to is
 * recorded, and a code of that step or an earlier one is refused after.
 */
export function createTwoFactorService(deps: {
  db: Kysely<Database>;
  clock: Clock;
  settings: SettingsService;
  mail: MailService;
  audit?: AuditService;
  /** Passkeys beside the app (decision 0076): their options go with a sign-in's challenge. */
  passkeys?: PasskeysService;
}) {
  const { db, clock } = deps;
  const repository = createTwoFactorRepository(db);

  const totpOf = (secret: string, label: string, issuer: string) =>
    new TOTP({ issuer, label, algorithm: "SHA1", digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

  /** The time step a six-digit code belongs to (now, or one step either side), or null. */
  function stepOf(secret: string, code: string): number | null {
    const token = code.replace(/\s/g, "");
    if (!/^\d{6}$/.test(token)) return null;
    const now = clock().getTime();
    const delta = totpOf(secret, "", "").validate({ token, timestamp: now, window: 1 });
    return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
  }

  /** The app's otpauth:// address and its QR code as SVG, drawn here: the secret never leaves for a QR service. */
  async function drawn(secret: string, email: string) {
    const issuer = (await deps.settings.getAll())["site.name"];
    const uri = totpOf(secret, email, issuer).toString();
    return { secret, uri, qr_svg: renderSVG(uri, { border: 2 }) };
  }

  async function newRecoveryCodes(userId: number, executor: Kysely<Database>): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
    await createTwoFactorRepository(executor).replaceRecoveryCodes(
      userId,
      codes.map((code) => hashToken(normalRecovery(code))),
      clock().toISOString(),
    );
    return codes;
  }

  async function userById(id: number) {
    const row = await db
      .selectFrom("users")
      .select(["id", "email", "first_name", "password_hash"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw new AppError("not_found", "User not found.");
    return row;
  }

  const service = {
    async status(userId: number): Promise<{ enabled: boolean; recovery_codes_left: number }> {
      const row = await repository.find(userId);
      const enabled = Boolean(row?.enabled_at);
      return { enabled, recovery_codes_left: enabled ? await repository.recoveryCodesLeft(userId) : 0 };
    },

    async isEnabled(userId: number): Promise<boolean> {
      return Boolean((await repository.find(userId))?.enabled_at);
    },

    /**
     * A new secret for the app, waiting for its first code: the otpauth:// address and its QR code
     * as SVG (drawn here: the secret never leaves for a QR service). Refused while one is on.
     */
    async beginSetup(user: { id: number; email: string }): Promise<{ secret: string; uri: string; qr_svg: string }> {
      if (await service.isEnabled(user.id)) {
        throw new AppError("conflict", "Two-factor sign-in is on already: turn it off first to use another app.");
      }
      const secret = new Secret({ size: 20 }).base32;
      if (!(await repository.setPending(user.id, secret, clock().toISOString()))) {
        throw new AppError("conflict", "Two-factor sign-in is on already: turn it off first to use another app.");
      }
      return drawn(secret, user.email);
    },

    /** The set-up waiting for its first code, drawn again (after a wrong first code), or null. */
    async pendingSetup(user: {
      id: number;
      email: string;
    }): Promise<{ secret: string; uri: string; qr_svg: string } | null> {
      const row = await repository.find(user.id);
      return row && !row.enabled_at ? drawn(row.totp_secret, user.email) : null;
    },

    /** The first code confirms the app: two-factor is on, and the ten recovery codes are shown, once. */
    async confirmSetup(user: { id: number; first_name: string; last_name: string }, code: string): Promise<string[]> {
      const row = await repository.find(user.id);
      if (!row || row.enabled_at)
        throw new AppError("conflict", "Start the set-up again: no app is waiting for its first code.");
      const step = stepOf(row.totp_secret, code);
      if (step === null) throw invalidInput({ code: [SETUP_CODE_WRONG] });
      return db.transaction().execute(async (trx) => {
        if (!(await createTwoFactorRepository(trx).enable(user.id, step, clock().toISOString()))) {
          throw new AppError("conflict", "Two-factor sign-in is on already.");
        }
        const codes = await newRecoveryCodes(user.id, trx);
        await deps.audit?.record(
          {
            action: "two_factor_enabled",
            entity: "user",
            entityId: user.id,
            summary: "Turned on two-factor sign-in (authenticator app)",
          },
          trx,
        );
        return codes;
      });
    },

    /**
     * Checks a second factor: a six-digit code of the app (accepted once), or an unused recovery
     * code (spent). False when neither.
     */
    async verify(userId: number, code: string): Promise<boolean> {
      const row = await repository.find(userId);
      if (!row?.enabled_at) return false;
      const now = clock().toISOString();
      const step = stepOf(row.totp_secret, code);
      if (step !== null) return repository.takeStep(userId, step, now);
      const recovery = normalRecovery(code);
      if (!/^[a-z0-9]{10}$/.test(recovery)) return false;
      // Spent and audited together: a code is never spent without its row, nor the other way round.
      return db.transaction().execute(async (trx) => {
        const inTrx = createTwoFactorRepository(trx);
        if (!(await inTrx.spendRecoveryCode(userId, hashToken(recovery), now))) return false;
        await deps.audit?.record(
          {
            action: "two_factor_recovery_used",
            entity: "user",
            entityId: userId,
            summary: `Used a recovery code (${await inTrx.recoveryCodesLeft(userId)} left)`,
          },
          trx,
        );
        return true;
      });
    },

    /**
     * The second step of a sign-in after a right password: a token for the form or the API client,
     * five minutes, single use; for a user with passkeys, the WebAuthn options of the same step.
     */
    async challenge(
      userId: number,
      remember: boolean,
    ): Promise<{ challenge: string; expires_at: string; passkey: PasskeyRequestOptions | null }> {
      const now = clock();
      const challenge = newToken();
      const expires_at = new Date(now.getTime() + CHALLENGE_SECONDS * 1000).toISOString();
      const passkey = (await deps.passkeys?.signInOptions(userId)) ?? null;
      await repository.insertChallenge({
        token_hash: hashToken(challenge),
        user_id: userId,
        remember: remember ? 1 : 0,
        expires_at,
        passkey_challenge: passkey?.challenge ?? null,
        created_at: now.toISOString(),
      });
      return { challenge, expires_at, passkey };
    },

    /** A challenge still open (not used, not expired), or null. */
    async openChallenge(challenge: string): Promise<OpenChallenge | null> {
      if (!challenge || challenge.length > 200) return null;
      const row = await repository.findChallenge(hashToken(challenge));
      if (!row || row.used_at || row.expires_at <= clock().toISOString()) return null;
      return {
        id: row.id,
        user_id: row.user_id,
        remember: row.remember === 1,
        passkey_challenge: row.passkey_challenge,
      };
    },

    /** The passkey options of an open sign-in again (its second step shown once more), or null. */
    async passkeyOptionsFor(challenge: string): Promise<PasskeyRequestOptions | null> {
      const open = await service.openChallenge(challenge);
      if (!open?.passkey_challenge || !deps.passkeys) return null;
      return deps.passkeys.signInOptions(open.user_id, open.passkey_challenge);
    },

    /** Checks a passkey's answer for an open sign-in's second step. */
    async verifyPasskey(open: OpenChallenge, response: unknown): Promise<boolean> {
      return deps.passkeys ? deps.passkeys.verifySignIn(open.user_id, open.passkey_challenge, response) : false;
    },

    /** Spends a challenge; false when another request spent it first. */
    async spendChallenge(id: number): Promise<boolean> {
      return repository.markChallengeUsed(id, clock().toISOString());
    },

    /** New recovery codes for a user with two-factor on, after a current code: the old ones stop working. */
    async renewRecoveryCodes(userId: number, code: string): Promise<string[]> {
      if (!(await service.isEnabled(userId))) throw new AppError("conflict", "Two-factor sign-in is off.");
      if (!(await service.verify(userId, code))) throw invalidInput({ code: [CODE_WRONG] });
      return db.transaction().execute(async (trx) => {
        const codes = await newRecoveryCodes(userId, trx);
        await deps.audit?.record(
          { action: "two_factor_changed", entity: "user", entityId: userId, summary: "Made new recovery codes" },
          trx,
        );
        return codes;
      });
    },

    /** Turning it off for oneself takes the password and a current code. */
    async disable(userId: number, password: string, code: string): Promise<void> {
      const user = await userById(userId);
      const errors: Record<string, string[]> = {};
      if (!user.password_hash || !(await verifyPassword(user.password_hash, password))) {
        errors.password = ["The password is not right."];
      }
      if (!errors.password && !(await service.verify(user.id, code))) errors.code = [CODE_WRONG];
      if (Object.keys(errors).length > 0) throw invalidInput(errors);
      await db.transaction().execute(async (trx) => {
        await createTwoFactorRepository(trx).remove(user.id);
        await deps.audit?.record(
          {
            action: "two_factor_disabled",
            entity: "user",
            entityId: user.id,
            summary: "Turned off two-factor sign-in",
          },
          trx,
        );
      });
    },

    /** An admin resets another user's two-factor (a lost phone): audited, and the user is told by mail. */
    async reset(targetId: number): Promise<void> {
      const target = await userById(targetId);
      const site = await deps.settings.getAll();
      await db.transaction().execute(async (trx) => {
        if (!(await createTwoFactorRepository(trx).remove(target.id))) {
          throw new AppError("conflict", "This user has no two-factor sign-in to reset.");
        }
        await deps.audit?.record(
          {
            action: "two_factor_reset",
            entity: "user",
            entityId: target.id,
            summary: `Reset the two-factor sign-in of ${target.email}`,
          },
          trx,
        );
        const contact = site["site.email"] ? ` at ${site["site.email"]}` : "";
        await deps.mail.enqueue(
          [
            {
              join_request_id: null,
              purpose: "two_factor_reset",
              to_address: target.email,
              reply_to: site["site.email"] || null,
              subject: `Two-factor sign-in was reset on your account at ${site["site.name"]}`,
              body_text: `Dear ${target.first_name},\n\nAn administrator of ${site["site.name"]} reset the two-factor sign-in of your account on ${clock().toISOString().slice(0, 16).replace("T", " ")} UTC. You now sign in with your password alone; turn two-factor sign-in on again on your settings page.\n\nIf you did not ask for this, contact us${contact} at once.\n\nKind regards,\n${site["site.name"]}`,
            },
          ],
          trx,
        );
      });
      deps.mail.deliverSoon();
    },
  };
  return service;
}
export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
type PasskeyRequestOptions = NonNullable<Awaited<ReturnType<PasskeysService["signInOptions"]>>>;
type OpenChallenge = { id: number; user_id: number; remember: boolean; passkey_challenge: string | null };

import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError } from "../../lib/errors";
import { invalidInput } from "../../lib/validation";
import type { AuditService } from "../audit/audit.service";
import { createPasskeysRepository } from "./passkeys.repository";
import { PASSKEY_NOT_CHECKED } from "./passkeys.schema";

export const PASSKEY_TAKEN = "This passkey is added already.";

export { PASSKEY_NOT_CHECKED } from "./passkeys.schema";

/** How many passkeys a user may keep. */
export const PASSKEYS_MAX = 10;
/** How long the browser has to create a passkey: the challenge's life. */
const ADD_SECONDS = 5 * 60;

export const PASSKEYS_UNAVAILABLE =
  "Passkeys need the site on https (or on localhost): set BASE_URL to the site's https address.";
export const PASSKEY_NEEDS_APP =
  "Turn on an authenticator app first: a passkey is added beside it, and the app's recovery codes stay your way back in.";

/**
 * Who the browser's passkeys are for (the WebAuthn relying party), from the site's address. A
 * passkey needs a secure context and a domain name: https, or localhost. A loopback IP address
 * (a BASE_URL of http://127.0.0.1:3000) stands for localhost, since browsers refuse IP addresses as
 * a relying party; any other plain-http or IP address has no passkeys.
 */
export function relyingPartyOf(origin: string): { rpID: string; origin: string } | null {
  const url = new URL(origin);
  const host = url.hostname;
  const loopback = host === "localhost" || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "[::1]";
  if (loopback) {
    url.hostname = "localhost";
    return { rpID: "localhost", origin: url.origin };
  }
  const ipAddress = /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith("[");
  if (ipAddress || url.protocol !== "https:") return null;
  return { rpID: host, origin: url.origin };
}

const transportsOf = (stored: string | null): AuthenticatorTransport[] | undefined =>
  stored ? (JSON.parse(stored) as AuthenticatorTransport[]) : undefined;

/**
 * Passkeys (WebAuthn, by @simplewebauthn/server) as a second factor beside the authenticator app
 * (issue 34, decision 0076): added on the settings page once the app is on, used at the sign-in's
 * second step instead of a code. The challenge of an addition is kept on the user's two-factor
 * row and taken once; the challenge of a sign-in lives with the sign-in's own challenge, spent
 * with it.
 */
export function createPasskeysService(deps: {
  db: Kysely<Database>;
  clock: Clock;
  origin: string;
  siteName: () => Promise<string>;
  audit?: AuditService;
}) {
  const { db, clock } = deps;
  const repository = createPasskeysRepository(db);
  const party = relyingPartyOf(deps.origin);

  function requireParty() {
    if (!party) throw new AppError("conflict", PASSKEYS_UNAVAILABLE);
    return party;
  }

  const service = {
    /** Where passkeys work, or null: the settings page and the sign-in say so. */
    relyingParty: party,

    async list(userId: number) {
      const rows = await repository.list(userId);
      return rows.map(({ id, name, created_at, last_used_at }) => ({ id, name, created_at, last_used_at }));
    },

    async count(userId: number): Promise<number> {
      return party ? repository.count(userId) : 0;
    },

    /** Options for the browser to create a passkey; refused until the app is on, or with ten already. */
    async registrationOptions(user: {
      id: number;
      email: string;
      first_name: string;
      last_name: string;
    }): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const { rpID } = requireParty();
      const existing = await repository.list(user.id);
      if (existing.length >= PASSKEYS_MAX) {
        throw new AppError("conflict", `You have ${PASSKEYS_MAX} passkeys already: remove one first.`);
      }
      const options = await generateRegistrationOptions({
        rpName: await deps.siteName(),
        rpID,
        userName: user.email,
        userDisplayName: `${user.first_name} ${user.last_name}`.trim(),
        userID: new TextEncoder().encode(`user-${user.id}`),
        timeout: ADD_SECONDS * 1000,
        attestationType: "none",
        excludeCredentials: existing.map((row) => ({
          id: row.credential_id,
          transports: transportsOf(row.transports),
        })),
        authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
      });
      const expiresAt = new Date(clock().getTime() + ADD_SECONDS * 1000).toISOString();
      if (!(await repository.setAddChallenge(user.id, options.challenge, expiresAt))) {
        throw new AppError("conflict", PASSKEY_NEEDS_APP);
      }
      return options;
    },

    /** Checks the browser's new passkey against the challenge given, and keeps it. */
    async add(userId: number, input: { name?: string; response: unknown }) {
      const { rpID, origin } = requireParty();
      const pending = await repository.takeAddChallenge(userId);
      if (!pending || pending.expires_at <= clock().toISOString())
        throw invalidInput({ response: [PASSKEY_NOT_CHECKED] });
      let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verified = await verifyRegistrationResponse({
          response: input.response as RegistrationResponseJSON,
          expectedChallenge: pending.challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: false,
        });
      } catch {
        throw invalidInput({ response: [PASSKEY_NOT_CHECKED] });
      }
      if (!verified.verified) throw invalidInput({ response: [PASSKEY_NOT_CHECKED] });
      const { credential } = verified.registrationInfo;
      // A passkey is one account's: the unique index on credential_id decides, so that two requests
      // adding the same one at once get the same 409, never a 500.
      return db
        .transaction()
        .execute(async (trx) => {
          const inTrx = createPasskeysRepository(trx);
          const count = await inTrx.count(userId);
          if (count >= PASSKEYS_MAX) {
            throw new AppError("conflict", `You have ${PASSKEYS_MAX} passkeys already: remove one first.`);
          }
          const name = input.name?.trim() || `Passkey ${count + 1}`;
          const row = await inTrx.insert({
            user_id: userId,
            credential_id: credential.id,
            public_key: isoBase64URL.fromBuffer(credential.publicKey),
            counter: credential.counter,
            transports: credential.transports?.length ? JSON.stringify(credential.transports) : null,
            name,
            created_at: clock().toISOString(),
          });
          await deps.audit?.record(
            { action: "two_factor_changed", entity: "user", entityId: userId, summary: `Added the passkey "${name}"` },
            trx,
          );
          return row;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new AppError("conflict", PASSKEY_TAKEN);
          throw error;
        });
    },

    async remove(userId: number, id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const removed = await createPasskeysRepository(trx).remove(userId, id);
        if (!removed) throw new AppError("not_found", "Passkey not found.");
        await deps.audit?.record(
          {
            action: "two_factor_changed",
            entity: "user",
            entityId: userId,
            summary: `Removed the passkey "${removed.name}"`,
          },
          trx,
        );
      });
    },

    /**
     * The options of a sign-in's passkey step, for a user with passkeys (else null). Given the
     * challenge kept with the sign-in, the same options again (the form shown once more after a
     * wrong code).
     */
    async signInOptions(userId: number, challenge?: string): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
      if (!party) return null;
      const rows = await repository.list(userId);
      if (rows.length === 0) return null;
      return generateAuthenticationOptions({
        rpID: party.rpID,
        // The kept challenge is the base64url the options gave; a string would be taken as text.
        challenge: challenge ? isoBase64URL.toBuffer(challenge) : undefined,
        timeout: ADD_SECONDS * 1000,
        userVerification: "preferred",
        allowCredentials: rows.map((row) => ({ id: row.credential_id, transports: transportsOf(row.transports) })),
      });
    },

    /** Checks a sign-in's passkey answer against the challenge of that sign-in: true when it is this user's and signed it. */
    async verifySignIn(userId: number, expectedChallenge: string | null, response: unknown): Promise<boolean> {
      if (!party || !expectedChallenge) return false;
      const answer = response as AuthenticationResponseJSON;
      const row = await repository.find(userId, answer.id);
      if (!row) return false;
      try {
        const result = await verifyAuthenticationResponse({
          response: answer,
          expectedChallenge,
          expectedOrigin: party.origin,
          expectedRPID: party.rpID,
          requireUserVerification: false,
          credential: {
            id: row.credential_id,
            publicKey: isoBase64URL.toBuffer(row.public_key),
            counter: Number(row.counter),
            transports: transportsOf(row.transports),
          },
        });
        if (!result.verified) return false;
        await repository.used(row.id, result.authenticationInfo.newCounter, clock().toISOString());
        return true;
      } catch {
        // A counter gone backwards (a cloned key), another challenge, origin or signature.
        return false;
      }
    },
  };
  return service;
}
export type PasskeysService = ReturnType<typeof createPasskeysService>;

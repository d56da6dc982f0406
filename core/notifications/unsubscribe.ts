import { createHmac, timingSafeEqual } from "node:crypto";

/** The kinds of mail a member can stop in one click (issue 33): each is its own token. */
export const UNSUBSCRIBE_KINDS = ["notices", "digest", "announcements"] as const;
export type UnsubscribeKind = (typeof UNSUBSCRIBE_KINDS)[number];

/** The key's name in app_secrets (core/secrets): made on first use, the same in every process. */
export const UNSUBSCRIBE_KEY = "unsubscribe";

const signature = (key: Buffer, userId: number, kind: UnsubscribeKind) =>
  createHmac("sha256", key).update(`unsubscribe:${userId}.${kind}`).digest("base64url");

/**
 * The token of a one-click unsubscribe address (RFC 8058, decision 0065): the member's id, the kind
 * of mail and an HMAC of both. It names one member and one kind and can do nothing else: it stops
 * that kind of mail for that member, which is also what a forwarded mail's reader could do. It does
 * not expire (a mail read a year later must still unsubscribe); a new key ends every token.
 */
export function unsubscribeToken(key: Buffer, userId: number, kind: UnsubscribeKind): string {
  return `${userId}.${kind}.${signature(key, userId, kind)}`;
}

/** The member and kind a token names, or null when it was not made with this key. */
export function readUnsubscribeToken(key: Buffer, token: string): { userId: number; kind: UnsubscribeKind } | null {
  const match = /^([1-9]\d{0,15})\.([a-z]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const kind = match[2] as UnsubscribeKind;
  if (!Number.isSafeInteger(userId) || !UNSUBSCRIBE_KINDS.includes(kind)) return null;
  const expected = Buffer.from(signature(key, userId, kind));
  const given = Buffer.from(match[3]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { userId, kind } : null;
}

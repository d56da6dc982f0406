import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A token that carries its own facts, signed with one of the site's keys (core/secrets):
 * `<id>.<expiry in seconds since the epoch>.<HMAC-SHA256 of purpose, id and expiry>`. Nothing is
 * stored: anyone holding it may do what its purpose allows until it expires, and a new key ends
 * every token of that key. The purpose is signed too, so a token made for one use opens nothing else.
 */
const SHAPE = /^([1-9]\d{0,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const signature = (key: Buffer, purpose: string, id: number, expires: number) =>
  createHmac("sha256", key).update(`${purpose}:${id}:${expires}`).digest("base64url");

export function signToken(key: Buffer, purpose: string, id: number, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${id}.${expires}.${signature(key, purpose, id, expires)}`;
}

/** The id a token names and when it expires, or null: malformed, of another purpose or key, forged, or expired at `now`. */
export function readSignedToken(
  key: Buffer,
  purpose: string,
  token: string,
  now: Date,
): { id: number; expiresAt: Date } | null {
  const match = SHAPE.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  const expires = Number(match[2]);
  if (!Number.isSafeInteger(id)) return null;
  const expected = Buffer.from(signature(key, purpose, id, expires));
  const given = Buffer.from(match[3]);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return expires * 1000 > now.getTime() ? { id, expiresAt: new Date(expires * 1000) } : null;
}

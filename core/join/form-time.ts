import { createHmac, timingSafeEqual } from "node:crypto";
import type { FormKind } from "./join.values";

/**
 * The time a public form was shown, as the server issues it when it renders the form (decision
 * 0039): `<milliseconds since the epoch>.<HMAC-SHA256 of the form kind and that time>`, keyed with
 * the site's own key (core/secrets). The form sends it back as `started_at`; only a value this site
 * signed for this form says when the form was shown, so "too fast" is judged on the server's clock
 * alone, never on one a script sets or a skewed one.
 */
const SHAPE = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/;

function signature(key: Buffer, kind: FormKind, shownAt: number): string {
  return createHmac("sha256", key).update(`form-shown:${kind}:${shownAt}`).digest("base64url");
}

export function signFormTime(key: Buffer, kind: FormKind, shownAt: number): string {
  return `${shownAt}.${signature(key, kind, shownAt)}`;
}

/** When the form was shown, or null when the value is missing, unsigned, of another form or forged. */
export function readFormTime(key: Buffer, kind: FormKind, value: string | undefined): number | null {
  const match = value ? SHAPE.exec(value) : null;
  if (!match) return null;
  const shownAt = Number(match[1]);
  const expected = Buffer.from(signature(key, kind, shownAt));
  const given = Buffer.from(match[2]);
  return given.length === expected.length && timingSafeEqual(given, expected) ? shownAt : null;
}

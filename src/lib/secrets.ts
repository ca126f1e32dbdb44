/**
 * Checking a presented secret (the admin token, the metrics token) without letting the
 * time a comparison takes tell a caller how much of the secret they guessed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The token of an `authorization: Bearer <token>` header, trimmed; undefined for any other header or none. */
export function bearer(header: string | null): string | undefined {
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}

/**
 * Constant-time comparison of the presented token with the configured one. Both are hashed
 * first, so the comparison neither depends on nor reveals the secret's length. False when
 * either is missing or empty: an unset secret admits nobody.
 */
export function sameSecret(presented: string | undefined, expected: string | undefined): boolean {
  if (!presented || !expected) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** Longest API key accepted from a caller, characters. */
export const MAX_API_KEY_LENGTH = 256;
/**
 * An API key: base64, base64url, hex, UUID or dotted-token characters. No space, comma
 * (two headers joined), quote, colon, `|` or control character, so a key can neither
 * break a header nor a cache key.
 */
const API_KEY = /^[A-Za-z0-9._~+/=-]+$/;

/** True for a string that may be sent as an API key (a caller's, or the server's). */
export function isApiKey(key: string): boolean {
  return key.length >= 1 && key.length <= MAX_API_KEY_LENGTH && API_KEY.test(key);
}

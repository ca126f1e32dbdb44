/**
 * Two things every cache of the gateway does with a text: count what it costs the heap,
 * and key it by a digest that never holds the text itself.
 */
import { createHash } from 'node:crypto';

/**
 * Bytes V8 spends on a string's characters: one per character when every one fits
 * Latin-1, two otherwise (its header is left to the caller's per-entry overhead).
 */
export function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u00ff]/.test(text) ? text.length * 2 : text.length;
}

let lastText: string | undefined;
let lastDigest = '';

/**
 * The SHA-256 of a text, base64url. The last one is remembered: a request's query text
 * is keyed by the whole-response cache and then by the parse cache, hashed once.
 */
export function textDigest(text: string): string {
  if (text !== lastText) {
    lastDigest = createHash('sha256').update(text).digest('base64url');
    lastText = text;
  }
  return lastDigest;
}

/**
 * The SHA-256 of a text or bytes, base64url, cut to its first `length` characters (6 bits
 * each; at most 43). What names a thing in a key, a cursor or a URL without holding it:
 * the length is part of what readers already keep, so each caller states its own.
 */
export function shortDigest(data: string | Uint8Array, length: number): string {
  return createHash('sha256').update(data).digest('base64url').slice(0, length);
}

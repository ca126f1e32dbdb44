/**
 * Base58 (the Bitcoin alphabet, by @scure/base) and cb58, the node's text form of ids: base58 of
 * the bytes followed by the last 4 bytes of their sha256. @scure/base's own base58check takes the
 * first 4 bytes of a double sha256 (Bitcoin's), so the cb58 checksum is computed here.
 */
import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';

export const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const DIGITS: ReadonlySet<string> = new Set(BASE58_ALPHABET);

/** True for a character of the base58 alphabet. */
export function isBase58Char(c: string): boolean {
  return DIGITS.has(c);
}

/** True for a non-empty string of base58 characters (any length; no checksum implied). */
export function isBase58(text: string): boolean {
  if (text.length === 0) return false;
  for (const c of text) if (!DIGITS.has(c)) return false;
  return true;
}

/** Base58 of `bytes`, a leading `1` per leading zero byte. */
export function encodeBase58(bytes: Uint8Array): string {
  return base58.encode(bytes);
}

/**
 * The bytes of a base58 string, or undefined when a character is outside the
 * alphabet. Quadratic in the length: callers bound the length first.
 */
export function decodeBase58(text: string): Buffer | undefined {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(text);
  } catch {
    // @scure/base throws on a character outside the alphabet.
    return undefined;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The cb58 checksum of `payload`: the last 4 bytes of its sha256. */
export function cb58Checksum(payload: Uint8Array): Buffer {
  return createHash('sha256').update(payload).digest().subarray(-4);
}

/** cb58 of `payload`: base58(payload ‖ last 4 bytes of sha256(payload)), as the node encodes ids. */
export function encodeCb58(payload: Uint8Array): string {
  const full = new Uint8Array(payload.length + 4);
  full.set(payload);
  full.set(cb58Checksum(payload), payload.length);
  return encodeBase58(full);
}

/**
 * The payload of a cb58 string of exactly `size` bytes, or undefined when it is not
 * one (bad character, wrong length, wrong checksum). The length is bounded before
 * decoding: base58 of n bytes takes fewer than 2n characters, and decoding is
 * quadratic, so a megabyte of base58 characters is refused at once.
 */
export function decodeCb58(text: string, size: number): Buffer | undefined {
  if (text.length === 0 || text.length > 2 * (size + 4)) return undefined;
  const bytes = decodeBase58(text);
  if (!bytes || bytes.length !== size + 4) return undefined;
  const payload = bytes.subarray(0, size);
  return cb58Checksum(payload).equals(bytes.subarray(size)) ? payload : undefined;
}

/** True for cb58 of exactly `size` bytes, checksum included. */
export function isCb58(text: string, size: number): boolean {
  return decodeCb58(text, size) !== undefined;
}

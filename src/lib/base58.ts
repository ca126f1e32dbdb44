/**
 * Base58 (the Bitcoin alphabet) and cb58, the node's text form of ids: base58 of the
 * bytes followed by the last 4 bytes of their sha256.
 */
import { createHash } from 'node:crypto';

export const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const DIGITS: ReadonlySet<string> = new Set(BASE58_ALPHABET);

/** Five base-58 digits: one limb of {@link encodeBase58}. */
const RADIX = 58 ** 5;

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

/**
 * Base58 by repeated division, in limbs of five base-58 digits fed two bytes at a
 * time (products stay below 2^53): several times faster than digit by digit or BigInt,
 * which matters to the devnet that encodes every id it derives.
 */
export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const limbs: number[] = [];
  let i = zeros;
  // An odd count starts with one byte so the rest go in pairs.
  if ((bytes.length - zeros) % 2 === 1) limbs.push(bytes[i++] as number);
  for (; i < bytes.length; i += 2) {
    let carry = (bytes[i] as number) * 256 + (bytes[i + 1] as number);
    for (let j = 0; j < limbs.length; j++) {
      carry += (limbs[j] as number) * 65536;
      const q = Math.floor(carry / RADIX);
      limbs[j] = carry - q * RADIX;
      carry = q;
    }
    while (carry > 0) {
      const q = Math.floor(carry / RADIX);
      limbs.push(carry - q * RADIX);
      carry = q;
    }
  }
  let out = '';
  for (let j = 0; j < limbs.length; j++) {
    let limb = limbs[j] as number;
    const last = j === limbs.length - 1;
    for (let k = 0; k < 5 && (!last || limb > 0); k++) {
      out = BASE58_ALPHABET[limb % 58] + out;
      limb = Math.floor(limb / 58);
    }
  }
  return '1'.repeat(zeros) + out;
}

/** Digit of each character code of the alphabet, -1 for every other code below 128. */
const DIGIT_OF = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < BASE58_ALPHABET.length; i++) table[BASE58_ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/**
 * The bytes of a base58 string, or undefined when a character is outside the
 * alphabet. Quadratic in the length: callers bound the length first. Multiplies a
 * little-endian array of base-2^24 limbs by 58 per character (no BigInt, no hex round trip).
 */
export function decodeBase58(text: string): Buffer | undefined {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* '1' */) zeros++;
  const limbs: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const digit = code < 128 ? (DIGIT_OF[code] as number) : -1;
    if (digit < 0) return undefined;
    let carry = digit;
    for (let j = 0; j < limbs.length; j++) {
      carry += (limbs[j] as number) * 58;
      limbs[j] = carry % 0x1000000;
      carry = Math.floor(carry / 0x1000000);
    }
    while (carry > 0) {
      limbs.push(carry % 0x1000000);
      carry = Math.floor(carry / 0x1000000);
    }
  }
  // Three bytes per limb, most significant first; the top limb without its leading zero bytes.
  const top = limbs[limbs.length - 1] ?? 0;
  const topBytes = top >= 0x10000 ? 3 : top >= 0x100 ? 2 : top > 0 ? 1 : 0;
  const length = limbs.length === 0 ? 0 : (limbs.length - 1) * 3 + topBytes;
  const out = Buffer.alloc(zeros + length);
  let at = out.length;
  for (let j = 0; j < limbs.length; j++) {
    const limb = limbs[j] as number;
    out[--at] = limb & 0xff;
    if (at > zeros) out[--at] = (limb >>> 8) & 0xff;
    if (at > zeros) out[--at] = limb >>> 16;
  }
  return out;
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

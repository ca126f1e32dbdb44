/**
 * Deterministic ids and hashes: every id of the primary dataset (tx hashes,
 * node ids, utxo ids, BLS keys ...) is a hash of a label, so it can be derived
 * lazily, on request, and still be the same each time and for each seed.
 */

import { createHash } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function sha(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

const RADIX = 58 ** 5;

/**
 * Base58 by repeated division, in limbs of five base-58 digits fed two bytes at a
 * time (products stay below 2^53): several times faster than digit-by-digit or BigInt.
 */
function base58(bytes: Uint8Array): string {
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
      out = BASE58[limb % 58] + out;
      limb = Math.floor(limb / 58);
    }
  }
  return '1'.repeat(zeros) + out;
}

/** cb58 as the node encodes ids: base58(bytes ‖ last 4 bytes of sha256(bytes)). */
export function cb58(bytes: Uint8Array): string {
  const checksum = createHash('sha256').update(bytes).digest();
  const full = new Uint8Array(bytes.length + 4);
  full.set(bytes);
  full.set(checksum.subarray(28), bytes.length);
  return base58(full);
}

/** A 32-byte cb58 id derived from a label (tx hashes, blockchain ids, utxo ids). */
export function id32(label: string): string {
  return cb58(sha(label));
}

export function nodeIdOf(label: string): string {
  return `NodeID-${cb58(sha(label).subarray(0, 20))}`;
}

/** `bytes` bytes of deterministic hex (no prefix). */
export function hexOf(label: string, bytes: number): string {
  let out = '';
  for (let k = 0; out.length < bytes * 2; k++) out += sha(`${label}:${k}`).toString('hex');
  return out.slice(0, bytes * 2);
}

/** A deterministic draw in [0, 1) from a label: for lazily derived data. */
export function unit(label: string): number {
  return sha(label).readUInt32BE(0) / 4294967296;
}

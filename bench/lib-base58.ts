/**
 * Base58 and cb58: the hand-written codec that src/lib/base58.ts had (copied here unchanged)
 * against @scure/base's `base58`, on the inputs the gateway and the devnet encode: cb58 ids of
 * 32 bytes (tx, blockchain, subnet ids) and 20 bytes (node ids), plus 4 checksum bytes.
 * Run with `npx tsx bench/lib-base58.ts`; prints the median of several rounds in µs/op.
 */
import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import { measurePair } from './pairs.ts';

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Five base-58 digits: one limb of {@link encodeBase58}. */
const RADIX = 58 ** 5;

/**
 * Base58 by repeated division, in limbs of five base-58 digits fed two bytes at a
 * time (products stay below 2^53): several times faster than digit by digit or BigInt,
 * which matters to the devnet that encodes every id it derives.
 */
function oldEncodeBase58(bytes: Uint8Array): string {
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
function oldDecodeBase58(text: string): Buffer | undefined {
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


function cb58Checksum(payload: Uint8Array): Buffer {
  return createHash('sha256').update(payload).digest().subarray(-4);
}

function withChecksum(payload: Uint8Array): Uint8Array {
  const full = new Uint8Array(payload.length + 4);
  full.set(payload);
  full.set(cb58Checksum(payload), payload.length);
  return full;
}


const N = 20_000;
const inputs = (size: number) => Array.from({ length: 256 }, (_, i) => withChecksum(createHash('sha256').update(`id-${size}-${i}`).digest().subarray(0, size)));

for (const size of [20, 32]) {
  const bytes = inputs(size);
  const texts = bytes.map((b) => oldEncodeBase58(b));
  for (let i = 0; i < bytes.length; i++) {
    if (base58.encode(bytes[i] as Uint8Array) !== texts[i]) throw new Error(`encode differs at ${i}`);
    if (!Buffer.from(base58.decode(texts[i] as string)).equals(oldDecodeBase58(texts[i] as string) as Buffer)) throw new Error(`decode differs at ${i}`);
  }
  const row = (name: string, oldFn: (i: number) => unknown, newFn: (i: number) => unknown) => {
    const [o, s] = measurePair(oldFn, newFn, N);
    console.log(`${name.padEnd(22)} old ${o.toFixed(2).padStart(6)} µs/op   @scure/base ${s.toFixed(2).padStart(6)} µs/op   x${(s / o).toFixed(2)}`);
  };
  row(`encode ${size}+4 bytes`, (i) => oldEncodeBase58(bytes[i & 255] as Uint8Array), (i) => base58.encode(bytes[i & 255] as Uint8Array));
  row(`decode ${size}+4 bytes`, (i) => oldDecodeBase58(texts[i & 255] as string), (i) => base58.decode(texts[i & 255] as string));
  row(`cb58 encode ${size}`, (i) => oldEncodeBase58(withChecksum((bytes[i & 255] as Uint8Array).subarray(0, size))), (i) => base58.encode(withChecksum((bytes[i & 255] as Uint8Array).subarray(0, size))));
}

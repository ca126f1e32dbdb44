import { createHash } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_INDEX = new Map([...BASE58].map((c, i) => [c, BigInt(i)]));

/** Bytes of a base58 string, or undefined when it has a character outside the alphabet. */
function base58Decode(text: string): Buffer | undefined {
  let n = 0n;
  for (const c of text) {
    const digit = BASE58_INDEX.get(c);
    if (digit === undefined) return undefined;
    n = n * 58n + digit;
  }
  let hex = n === 0n ? '' : n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let zeros = 0;
  while (text[zeros] === '1') zeros++;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex, 'hex')]);
}

/**
 * True for cb58 of exactly `size` bytes: base58 of the bytes and the last 4 bytes of their sha256.
 * The length is bounded before decoding: base58 of n bytes takes fewer than 2n characters, and
 * decoding is quadratic in the length, so a megabyte of base58 characters is refused at once.
 */
export function isCb58(text: string, size: number): boolean {
  if (text.length === 0 || text.length > 2 * (size + 4)) return false;
  const bytes = base58Decode(text);
  if (!bytes || bytes.length !== size + 4) return false;
  const payload = bytes.subarray(0, size);
  return createHash('sha256').update(payload).digest().subarray(-4).equals(bytes.subarray(size));
}

/** True for a 32-byte id in cb58 (blockchain, subnet, asset and P/X-chain transaction ids). */
export function isCb58Id(text: string): boolean {
  return isCb58(text, 32);
}

/**
 * True for a well-formed node id (`NodeID-` + cb58 of 20 bytes, checksum included),
 * as the node itself checks it. Loaders send only such ids upstream: one malformed
 * id would make a node reject a whole batched `info.peers` call, and a short one
 * would match every validator in the Data API's substring filter.
 */
export function isNodeId(id: string): boolean {
  return id.startsWith('NodeID-') && id.length <= 60 && isCb58(id.slice(7), 20);
}

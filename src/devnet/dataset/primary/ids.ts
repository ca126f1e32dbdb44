/**
 * Deterministic ids and hashes: every id of the primary dataset (tx hashes,
 * node ids, utxo ids, BLS keys ...) is a hash of a label, so it can be derived
 * lazily, on request, and still be the same each time and for each seed.
 */

import { createHash } from 'node:crypto';
import { formatCb58Id, formatNodeId } from '../../../lib/ids.ts';

export function sha(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A 32-byte cb58 id derived from a label (tx hashes, blockchain ids, utxo ids). */
export function id32(label: string): string {
  return formatCb58Id(sha(label));
}

export function nodeIdOf(label: string): string {
  return formatNodeId(sha(label).subarray(0, 20));
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

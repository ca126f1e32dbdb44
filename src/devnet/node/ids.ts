// The node's ids and byte strings: VM and Fx ids derived from names, and the
// parsing of cb58 ids, node ids and hex as ids/*.go, utils/cb58 and
// encoding/hex do it. Parsing throws the node's own messages, so a bad argument
// fails on the wire exactly as on the real node.
import { createHash } from 'node:crypto';
import { cb58 } from '../rng.ts';
import { goQuoteRune } from './go.ts';
import { RpcError } from './rpc.ts';

/** VM and Fx ids are cb58 of the zero-padded ASCII name (`utils/constants/vm_ids.go`). */
export function idFromName(name: string): string {
  const bytes = Buffer.alloc(32);
  bytes.write(name, 'ascii');
  return cb58(bytes);
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58Decode(s: string): Buffer {
  if (s.length === 0) throw new Error('zero length string');
  let n = 0n;
  for (const ch of s) {
    const digit = BASE58_ALPHABET.indexOf(ch);
    if (digit < 0) throw new Error(`invalid base58 digit (${goQuoteRune(ch)})`);
    n = n * 58n + BigInt(digit);
  }
  let zeros = 0;
  while (s[zeros] === '1') zeros += 1;
  let hex = n === 0n ? '' : n.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex, 'hex')]);
}

function cb58Decode(s: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = base58Decode(s);
  } catch (error) {
    throw new RpcError(`base58 decoding error: ${(error as Error).message}`);
  }
  if (bytes.length < 4) throw new RpcError('input string is smaller than the checksum size');
  const raw = bytes.subarray(0, -4);
  const checksum = createHash('sha256').update(raw).digest().subarray(-4);
  if (!checksum.equals(bytes.subarray(-4))) throw new RpcError('invalid input checksum');
  return raw;
}

/** Validates a cb58 32-byte id (`ids.FromString`); throws the node's error message. */
export function idFromString(s: string): string {
  const raw = cb58Decode(s);
  if (raw.length !== 32) throw new RpcError(`invalid hash length: expected 32 bytes but got ${raw.length}`);
  return s;
}

export function nodeIdFromString(s: string): string {
  if (!s.startsWith('NodeID-')) throw new RpcError('missing the prefix: NodeID-');
  const raw = cb58Decode(s.slice('NodeID-'.length));
  if (raw.length !== 20) throw new RpcError(`expected 20 bytes but got ${raw.length}`);
  return s;
}

export function decodeHex(s: string): Buffer {
  if (!s.startsWith('0x')) throw new RpcError('missing 0x prefix to hex encoding');
  const body = s.slice(2);
  const bad = /[^0-9a-fA-F]/.exec(body);
  if (bad) {
    const cp = bad[0].codePointAt(0) ?? 0;
    throw new RpcError(`encoding/hex: invalid byte: U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${goQuoteRune(bad[0])}`);
  }
  if (body.length % 2 === 1) throw new RpcError('encoding/hex: odd length hex string');
  return Buffer.from(body, 'hex');
}

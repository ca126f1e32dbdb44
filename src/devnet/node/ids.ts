// The node's ids and byte strings: VM and Fx ids derived from names, and the
// parsing of cb58 ids, node ids and hex as ids/*.go, utils/cb58 and
// encoding/hex do it. Parsing throws the node's own messages, so a bad argument
// fails on the wire exactly as on the real node.
import { cb58Checksum, decodeBase58, encodeCb58, isBase58Char } from '../../lib/base58.ts';
import { goQuoteRune } from './go.ts';
import { RpcError } from './rpc.ts';

/** VM and Fx ids are cb58 of the zero-padded ASCII name (`utils/constants/vm_ids.go`). */
export function idFromName(name: string): string {
  const bytes = Buffer.alloc(32);
  bytes.write(name, 'ascii');
  return encodeCb58(bytes);
}

/** `utils/cb58.Decode`: the payload, or the node's error for a bad digit, a short input or a bad checksum. */
function cb58Decode(s: string): Buffer {
  if (s.length === 0) throw new RpcError('base58 decoding error: zero length string');
  const bytes = decodeBase58(s);
  if (!bytes) {
    const bad = [...s].find((ch) => !isBase58Char(ch)) ?? '';
    throw new RpcError(`base58 decoding error: invalid base58 digit (${goQuoteRune(bad)})`);
  }
  if (bytes.length < 4) throw new RpcError('input string is smaller than the checksum size');
  const raw = bytes.subarray(0, -4);
  if (!cb58Checksum(raw).equals(bytes.subarray(-4))) throw new RpcError('invalid input checksum');
  return raw;
}

/** Validates a cb58 32-byte id (`ids.FromString`); throws the node's error message. */
export function idFromString(s: string): string {
  const raw = cb58Decode(s);
  if (raw.length !== 32) throw new RpcError(`invalid hash length: expected 32 bytes but got ${raw.length}`);
  return s;
}

/**
 * Node ids already found valid: callers (`info.peers` with `nodeIDs`) ask about the
 * same validators over and over, and a check costs a base58 decode and a sha256.
 * Bounded: emptied when full (4096 ids, about 300 KB).
 */
const validNodeIds = new Set<string>();
const VALID_NODE_IDS_MAX = 4096;

/** Validates a node id (`ids.NodeIDFromString`); throws the node's error message. */
export function nodeIdFromString(s: string): string {
  if (validNodeIds.has(s)) return s;
  if (!s.startsWith('NodeID-')) throw new RpcError('missing the prefix: NodeID-');
  const raw = cb58Decode(s.slice('NodeID-'.length));
  if (raw.length !== 20) throw new RpcError(`expected 20 bytes but got ${raw.length}`);
  if (validNodeIds.size >= VALID_NODE_IDS_MAX) validNodeIds.clear();
  validNodeIds.add(s);
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

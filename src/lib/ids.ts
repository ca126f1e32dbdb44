/**
 * The id grammars of both upstreams, checked before an id becomes part of a URL,
 * a batch or a cache key; and the formatting the devnet's id generators share.
 */
import { encodeCb58, isCb58 } from './base58.ts';

export { isCb58 };

export const NODE_ID_PREFIX = 'NodeID-';

/** True for a 32-byte id in cb58 (blockchain, subnet, asset and P/X-chain transaction ids). */
export function isCb58Id(text: string): boolean {
  return isCb58(text, 32);
}

/**
 * True for a chain id as the Data API issues them: an EVM chain id (decimal, at most 20
 * digits) or a blockchain id (cb58 of 32 bytes). Callers' chain ids are checked against
 * this grammar or a stricter one (no leading zero) before they reach a loader.
 */
export function isChainId(text: string): boolean {
  return (text.length <= 20 && /^[0-9]+$/.test(text)) || isCb58Id(text);
}

/** An EVM address: 0x and 40 hex digits, either case (a checksum's case is neither required nor verified). */
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A 32-byte EVM hash (transaction, block, message): 0x and 64 hex digits, either case. */
export const EVM_HASH = /^0x[0-9a-fA-F]{64}$/;
/** 32 bytes in hex with the 0x optional, as subnet ids and ICM message ids are written beside their cb58 or 0x forms. */
export const HEX_32_BYTES = /^(0x)?[0-9a-fA-F]{64}$/;

/** True for an EVM address ({@link EVM_ADDRESS}). */
export const isEvmAddress = (value: string): boolean => EVM_ADDRESS.test(value);
/** True for a 32-byte EVM hash ({@link EVM_HASH}). */
export const isEvmHash = (value: string): boolean => EVM_HASH.test(value);

/** The primary network's chains by alias, as the Data API's blockchain paths take them beside their ids. */
export const PRIMARY_CHAIN_ALIASES: ReadonlySet<string> = new Set(['p-chain', 'x-chain', 'c-chain']);

/**
 * True for a well-formed node id (`NodeID-` + cb58 of 20 bytes, checksum included),
 * as the node itself checks it. Loaders send only such ids upstream: one malformed
 * id would make a node reject a whole batched `info.peers` call, and a short one
 * would match every validator in the Data API's substring filter.
 */
export function isNodeId(id: string): boolean {
  if (KNOWN_NODE_IDS.has(id)) return true;
  const valid = id.startsWith(NODE_ID_PREFIX) && id.length <= 60 && isCb58(id.slice(NODE_ID_PREFIX.length), 20);
  if (valid) {
    // Bounded: starts over when full (a network has a few thousand validators).
    if (KNOWN_NODE_IDS.size >= MAX_KNOWN_NODE_IDS) KNOWN_NODE_IDS.clear();
    KNOWN_NODE_IDS.add(id);
  }
  return valid;
}

/**
 * Node ids already found well-formed, so the ids of every validator and peer in a
 * request are not decoded and checksummed (sha256) again in every request. Only
 * valid ids are kept: what a caller makes up costs a decode each time, as before.
 */
const KNOWN_NODE_IDS = new Set<string>();
/** Entries of {@link KNOWN_NODE_IDS} at most (about 0.4 MB). */
export const MAX_KNOWN_NODE_IDS = 4096;

/** A 32-byte id in its cb58 text form. */
export function formatCb58Id(bytes: Uint8Array): string {
  if (bytes.length !== 32) throw new RangeError(`a cb58 id takes 32 bytes, not ${bytes.length}`);
  return encodeCb58(bytes);
}

/** A node id from its 20 bytes: `NodeID-` + cb58. */
export function formatNodeId(bytes: Uint8Array): string {
  if (bytes.length !== 20) throw new RangeError(`a node id takes 20 bytes, not ${bytes.length}`);
  return `${NODE_ID_PREFIX}${encodeCb58(bytes)}`;
}

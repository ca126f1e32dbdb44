// Self-describing EVM block hashes: getBlock takes a block number or a block
// hash, so a hash must lead back to its number without an index of every block.
import { EVM_HASH } from '../../../lib/ids.ts';
import { sha256 } from './helpers.ts';

const PREFIX_BYTES = 24;

function prefixOf(secret: string, evmChainId: string, block: number): Buffer {
  return sha256(`${secret}:block:${evmChainId}:${block}`).subarray(0, PREFIX_BYTES);
}

function maskOf(secret: string, evmChainId: string, prefix: Buffer): bigint {
  return sha256(`${secret}:block-mask:${evmChainId}:${prefix.toString('hex')}`).readBigUInt64BE(0);
}

/**
 * `prefix(24) ‖ (number(8) XOR mask)`: prefix = sha256(seed, network, chain, number),
 * mask = sha256(seed, network, chain, prefix). Random-looking, decodable, and a
 * random 32-byte hash is refused with probability 1 - 2^-192.
 */
export function encodeBlockHash(secret: string, evmChainId: string, block: number): string {
  const prefix = prefixOf(secret, evmChainId, block);
  const tail = Buffer.alloc(8);
  tail.writeBigUInt64BE(BigInt(block) ^ maskOf(secret, evmChainId, prefix));
  return `0x${prefix.toString('hex')}${tail.toString('hex')}`;
}

/** The block number a hash of {@link encodeBlockHash} stands for; undefined for any other hash. */
export function decodeBlockHash(secret: string, evmChainId: string, hash: string): number | undefined {
  if (!EVM_HASH.test(hash)) return undefined;
  const raw = Buffer.from(hash.slice(2).toLowerCase(), 'hex');
  const prefix = raw.subarray(0, PREFIX_BYTES);
  const value = raw.readBigUInt64BE(PREFIX_BYTES) ^ maskOf(secret, evmChainId, prefix);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  const block = Number(value);
  return prefixOf(secret, evmChainId, block).equals(prefix) ? block : undefined;
}

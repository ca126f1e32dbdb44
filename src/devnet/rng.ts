import { createHash } from 'node:crypto';
import { formatCb58Id, formatNodeId } from '../lib/ids.ts';

/**
 * A small seeded pseudo-random generator (mulberry32) with the helpers the
 * dataset generators need. Same seed, same dataset: tests and benchmarks rely on it.
 */
export class Rng {
  private state: number;

  constructor(seed: number | string) {
    this.state = typeof seed === 'number' ? seed >>> 0 : hashToUint32(seed);
  }

  /** A new generator whose stream depends only on this seed and `label` (order independent). */
  fork(label: string): Rng {
    return new Rng(hashToUint32(`${this.state}:${label}`));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** BigInt in [min, max] inclusive. */
  bigint(min: bigint, max: bigint): bigint {
    const span = max - min + 1n;
    const r = BigInt(Math.floor(this.next() * 2 ** 52)) * BigInt(Math.floor(this.next() * 2 ** 52));
    return min + (r % span);
  }

  bool(pTrue = 0.5): boolean {
    return this.next() < pTrue;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Lowercase hex of `bytes` random bytes, without prefix. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i++) out += this.int(0, 255).toString(16).padStart(2, '0');
    return out;
  }

  /** A 32-byte id in cb58 form (like a P-chain tx hash or blockchain id). */
  cb58Id(): string {
    return formatCb58Id(Buffer.from(this.hex(32), 'hex'));
  }

  /** `NodeID-` + cb58 of 20 bytes. */
  nodeId(): string {
    return formatNodeId(Buffer.from(this.hex(20), 'hex'));
  }

  /** A 20-byte EVM address, lowercase hex with `0x`. */
  evmAddress(): string {
    return `0x${this.hex(20)}`;
  }

  /** A 32-byte EVM hash with `0x`. */
  evmHash(): string {
    return `0x${this.hex(32)}`;
  }

  /** A bech32-looking primary-network address body, e.g. `avax1...` / `fuji1...`. */
  bech32Address(hrp: 'avax' | 'fuji'): string {
    const alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
    let out = `${hrp}1`;
    for (let i = 0; i < 38; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }
}

export function hashToUint32(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

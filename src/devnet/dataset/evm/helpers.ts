// Small helpers of the EVM data: hashing, units and prices, an LRU, and the
// codec of self-describing transaction hashes.
import { createHash } from 'node:crypto';
import { EVM_HASH } from '../../../lib/ids.ts';
import type { CurrencyCode, Price } from '../../../shapes/index.ts';
import { DAY, USD_RATES } from './model.ts';

// ---------------------------------------------------------------- small helpers

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export function hashHex(text: string, bytes = 32): string {
  return sha256(text).subarray(0, bytes).toString('hex');
}

export function derivedAddress(label: string): string {
  return `0x${hashHex(label, 20)}`;
}

export function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** Decimal string with at most 6 fraction digits and no exponent. */
export function formatDecimal(value: number): string {
  const fixed = value.toFixed(6);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

export function price(usd: number, currency: CurrencyCode): Price {
  return { currencyCode: currency, value: formatDecimal(usd * USD_RATES[currency]) };
}

/** A deterministic day-to-day drift of a price, within ±15 %. */
export function historicalUsd(usd: number, timestamp: number): number {
  const day = Math.floor(timestamp / DAY);
  return usd * (1 + 0.15 * Math.sin(day / 9));
}

/** Amount in base units -> decimal number of whole tokens (precision is enough for prices). */
export function toUnits(amount: bigint, decimals: number): number {
  if (decimals <= 6) return Number(amount) / 10 ** decimals;
  return Number(amount / pow10(decimals - 6)) / 1e6;
}

export function pad32(hex: string): string {
  return hex.replace(/^0x/, '').padStart(64, '0');
}

export function uuidFrom(bytes: Buffer): string {
  const h = Buffer.from(bytes.subarray(0, 16));
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x40;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  const x = h.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export function isoDate(timestampSec: number): string {
  return new Date(timestampSec * 1000).toISOString().slice(0, 10);
}

/** A Map kept to `max` entries, least recently used evicted first. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  getOrCreate(key: K, make: () => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = make();
    this.map.set(key, value);
    if (this.map.size > this.max) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
    return value;
  }
}

export function symbolOf(name: string): string {
  const letters = name.replace(/[^A-Za-z]/g, '').toUpperCase();
  return (letters.slice(0, 4) || 'TOK').padEnd(3, 'X');
}

export function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'chain';
}

// ---------------------------------------------------------------- tx hash codec

/**
 * What a transaction hash points at: an address's history entry (0), an ICM message's
 * source/destination tx (1, 2), or a block's filler transaction (3: `address` holds the
 * block number, see blocks.ts).
 */
export interface HashTarget {
  kind: 0 | 1 | 2 | 3;
  chainIdx: number;
  address: string;
  index: number;
}

/**
 * `tag(5) ‖ (plain(27) XOR mask)`, plain = kind ‖ chain ‖ address ‖ index(2) ‖ 000000,
 * tag = sha256(seed, network, plain). Random-looking, decodable, and a random
 * 32-byte hash is rejected with probability 1 - 2^-64.
 */
export function encodeTxHash(secret: string, t: HashTarget): string {
  const plain = Buffer.alloc(27);
  plain[0] = t.kind;
  plain[1] = t.chainIdx;
  Buffer.from(t.address.slice(2), 'hex').copy(plain, 2);
  plain.writeUInt16BE(t.index, 22);
  const tag = sha256(`${secret}:tx:${plain.toString('hex')}`).subarray(0, 5);
  const mask = sha256(`${secret}:mask:${tag.toString('hex')}`);
  const body = Buffer.alloc(27);
  for (let i = 0; i < 27; i++) body[i] = (plain[i] ?? 0) ^ (mask[i] ?? 0);
  return `0x${tag.toString('hex')}${body.toString('hex')}`;
}

export function decodeTxHash(secret: string, txHash: string): HashTarget | undefined {
  if (!EVM_HASH.test(txHash)) return undefined;
  const raw = Buffer.from(txHash.slice(2).toLowerCase(), 'hex');
  const tag = raw.subarray(0, 5);
  const mask = sha256(`${secret}:mask:${tag.toString('hex')}`);
  const plain = Buffer.alloc(27);
  for (let i = 0; i < 27; i++) plain[i] = (raw[5 + i] ?? 0) ^ (mask[i] ?? 0);
  if (!sha256(`${secret}:tx:${plain.toString('hex')}`).subarray(0, 5).equals(tag)) return undefined;
  const kind = plain[0];
  if (kind !== 0 && kind !== 1 && kind !== 2 && kind !== 3) return undefined;
  return {
    kind,
    chainIdx: plain[1] ?? 0,
    address: `0x${plain.subarray(2, 22).toString('hex')}`,
    index: plain.readUInt16BE(22),
  };
}

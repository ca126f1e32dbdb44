import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE58_ALPHABET, decodeBase58, decodeCb58, encodeBase58, encodeCb58, isBase58, isCb58 } from '../../src/lib/base58.ts';
import { formatCb58Id, formatNodeId, isCb58Id, isNodeId, MAX_KNOWN_NODE_IDS } from '../../src/lib/ids.ts';

/** Base58 the slow, obvious way (one BigInt, digit by digit): what the fast encoder must agree with. */
function referenceBase58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE58_ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  return '1'.repeat(zeros) + out;
}

describe('base58', () => {
  it('agrees with the digit-by-digit encoding and decodes back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = encodeBase58(bytes);
        expect(text).toBe(referenceBase58(bytes));
        expect(decodeBase58(text)?.equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps leading zero bytes as 1s and refuses characters outside the alphabet', () => {
    expect(encodeBase58(new Uint8Array([0, 0, 1]))).toBe('112');
    expect(encodeBase58(new Uint8Array())).toBe('');
    expect(decodeBase58('0OIl')).toBeUndefined();
    expect(decodeBase58('')?.length).toBe(0);
    expect([...(decodeBase58('11') ?? [])]).toEqual([0, 0]);
    expect([...(decodeBase58('1z') ?? [])]).toEqual([0, 57]);
    expect(decodeBase58('2é')).toBeUndefined();
    expect(isBase58('2NEpo7')).toBe(true);
    expect(isBase58('')).toBe(false);
    expect(isBase58('ab0')).toBe(false);
  });
});

describe('cb58', () => {
  it('is base58 of the payload and the last 4 bytes of its sha256', () => {
    const payload = createHash('sha256').update('x').digest();
    const checksum = createHash('sha256').update(payload).digest().subarray(-4);
    expect(encodeCb58(payload)).toBe(referenceBase58(Buffer.concat([payload, checksum])));
    expect(decodeCb58(encodeCb58(payload), 32)?.equals(payload)).toBe(true);
  });

  it('refuses a wrong checksum, a wrong size and an over-long text', () => {
    const id = encodeCb58(Buffer.alloc(32, 7));
    const flipped = id.slice(0, -1) + (id.endsWith('2') ? '3' : '2');
    expect(isCb58(flipped, 32)).toBe(false);
    expect(isCb58(id, 20)).toBe(false);
    expect(isCb58('2'.repeat(1_000_000), 32)).toBe(false);
  });

  it('knows the primary network id (32 zero bytes)', () => {
    expect(encodeCb58(Buffer.alloc(32))).toBe('11111111111111111111111111111111LpoYY');
  });
});

describe('ids', () => {
  it('formats and recognises node ids and 32-byte ids', () => {
    const nodeId = formatNodeId(Buffer.alloc(20, 1));
    expect(nodeId.startsWith('NodeID-')).toBe(true);
    expect(isNodeId(nodeId)).toBe(true);
    expect(isNodeId(nodeId.slice(7))).toBe(false);
    expect(isCb58Id(formatCb58Id(Buffer.alloc(32, 9)))).toBe(true);
    expect(() => formatNodeId(Buffer.alloc(32))).toThrow(RangeError);
  });

  it('remembers valid node ids within its bound, never invalid ones', () => {
    const ids = Array.from({ length: MAX_KNOWN_NODE_IDS + 10 }, (_, i) => formatNodeId(Buffer.alloc(20, i % 256).fill(i >> 8, 0, 1)));
    for (const id of ids) expect(isNodeId(id)).toBe(true);
    for (const id of ids) expect(isNodeId(id)).toBe(true);
    const valid = ids[0] as string;
    const flipped = valid.slice(0, -1) + (valid.endsWith('2') ? '3' : '2');
    expect(isNodeId(flipped)).toBe(false);
    expect(isNodeId(flipped)).toBe(false);
  });
});

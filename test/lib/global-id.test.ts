import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompactIdError, decodeCompactId, encodeCompactId, isCompactIdText, MAX_FAMILY_CODE } from '../../src/lib/global-id.ts';
import { encodeCb58 } from '../../src/lib/base58.ts';
import { formatNodeId } from '../../src/lib/ids.ts';

const cb58Id = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => encodeCb58(bytes));
const nodeId = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => formatNodeId(bytes));
const hex = fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`);
/** Every kind of part, and near-misses of each (upper-case hex, leading zeros, bad checksums, any text). */
const part = fc.oneof(
  cb58Id,
  nodeId,
  hex,
  hex.map((h) => h.toUpperCase()),
  cb58Id.map((id) => `${id.slice(0, -1)}1`),
  fc.constant(encodeCb58(new Uint8Array(32))),
  fc.constantFrom('mainnet', 'fuji', 'p-chain', '0', '00', '01', '9007199254740991', '9007199254740992', '0x', 'NodeID-', ''),
  fc.bigInt({ min: 0n, max: 1n << 70n }).map(String),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

describe('compact global ids', () => {
  it('property: decoding gives back the parts, for every kind of part and any text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_FAMILY_CODE }), fc.array(part, { maxLength: 6 }), (code, parts) => {
        const id = encodeCompactId(code, parts);
        expect(isCompactIdText(id)).toBe(true);
        expect(decodeCompactId(id)).toEqual({ code, parts });
      }),
      { numRuns: 2000 },
    );
  });

  it('property: any other text is refused, never decoded to something else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 100 }), (bytes) => {
        const id = Buffer.from(bytes).toString('base64url');
        let decoded: { code: number; parts: string[] } | undefined;
        try {
          decoded = decodeCompactId(id);
        } catch (error) {
          expect(error).toBeInstanceOf(CompactIdError);
          return;
        }
        expect(encodeCompactId(decoded.code, decoded.parts)).toBe(id);
      }),
      { numRuns: 5000 },
    );
  });

  it('writes a primary-network validator id in 76 characters (over 200 as base64url JSON)', () => {
    const parts = ['mainnet', formatNodeId(new Uint8Array(20).fill(7)), encodeCb58(new Uint8Array(32)), encodeCb58(new Uint8Array(32).fill(9))];
    const legacy = Buffer.from(JSON.stringify(['Validator', ...parts])).toString('base64url');
    const id = encodeCompactId(2, parts);
    expect(id.length).toBe(76);
    expect(legacy.length).toBeGreaterThan(200);
    expect(decodeCompactId(id)).toEqual({ code: 2, parts });
    expect(isCompactIdText(legacy)).toBe(false);
  });

  it('refuses family codes outside 1..63 when encoding', () => {
    expect(() => encodeCompactId(0, [])).toThrow(RangeError);
    expect(() => encodeCompactId(MAX_FAMILY_CODE + 1, [])).toThrow(RangeError);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CompactIdError, decodeCompactId, digestPart, DigestPart, encodeCompactId, isCompactIdText, MAX_FAMILY_CODE, MAX_INLINE_PART_BYTES, maxCompactIdLength,
} from '../../src/lib/global-id.ts';
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
  // UTF-16 code units, lone surrogates included (JSON can carry them: "\ud800").
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 80 }),
  fc.string({ minLength: 100, maxLength: 400 }),
);

/** What decoding gives back for a part: itself, or its digest when it is too long to carry. */
function decodedAs(part: string): string | DigestPart {
  const bytes = /[\uD800-\uDFFF]/u.test(part) ? part.length * 2 : Buffer.byteLength(part, 'utf8');
  return bytes > MAX_INLINE_PART_BYTES ? digestPart(part) : part;
}

describe('compact global ids', () => {
  it('property: decoding gives back the parts (a digest for a long one), for every kind of part and any text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_FAMILY_CODE }), fc.array(part, { maxLength: 6 }), (code, parts) => {
        const id = encodeCompactId(code, parts);
        expect(isCompactIdText(id)).toBe(true);
        expect(id.length).toBeLessThanOrEqual(maxCompactIdLength(parts.length));
        expect(decodeCompactId(id)).toEqual({ code, parts: parts.map(decodedAs) });
      }),
      { numRuns: 2000 },
    );
  });

  it('property: any other text is refused, never decoded to something else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 100 }), (bytes) => {
        const id = Buffer.from(bytes).toString('base64url');
        let decoded: ReturnType<typeof decodeCompactId>;
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

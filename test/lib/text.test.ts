import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringBytes, textDigest } from '../../src/lib/text.ts';

describe('textDigest', () => {
  it('property: is the SHA-256 of the text in base64url, whatever texts came before', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { minLength: 1, maxLength: 8 }), (texts) => {
        for (const text of [...texts, ...texts.reverse()]) {
          expect(textDigest(text)).toBe(createHash('sha256').update(text).digest('base64url'));
        }
      }),
    );
  });
});

describe('stringBytes', () => {
  it('counts one byte per Latin-1 character, two otherwise', () => {
    expect(stringBytes('abc')).toBe(3);
    expect(stringBytes('äbc')).toBe(3);
    expect(stringBytes('Ωbc')).toBe(6);
    expect(stringBytes('😀')).toBe(4);
  });
});

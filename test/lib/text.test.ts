import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shortDigest, stringBytes, textDigest } from '../../src/lib/text.ts';

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

describe('shortDigest', () => {
  it('is the base64url SHA-256 cut to the length asked, the same for a text and its UTF-8 bytes', () => {
    const full = createHash('sha256').update('scope é').digest('base64url');
    expect(shortDigest('scope é', 12)).toBe(full.slice(0, 12));
    expect(shortDigest(new Uint8Array(Buffer.from('scope é', 'utf8')), 16)).toBe(full.slice(0, 16));
    expect(shortDigest('scope é', 43)).toBe(full);
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

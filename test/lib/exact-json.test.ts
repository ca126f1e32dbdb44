import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUnsafeIntegerText, parseExactJson, quoteUnsafeIntegers } from '../../src/lib/exact-json.ts';

/** An integer literal as JSON writes it: `0`, or digits without a leading zero, maybe negative; any length. */
const integerLiteral = fc
  .tuple(fc.boolean(), fc.stringMatching(/^[1-9][0-9]{0,120}$/), fc.boolean())
  .map(([negative, digits, zero]) => (zero ? '0' : `${negative ? '-' : ''}${digits}`));

/** What an exact parse must give for the literal: the number when it is safe, else its text. */
const exactly = (literal: string): number | string => (Number.isSafeInteger(Number(literal)) ? Number(literal) : literal);

describe('parseExactJson', () => {
  it('keeps every digit of an integer beyond 2^53, as a string; safe integers stay numbers', () => {
    expect(parseExactJson('{"a":9007199254740993,"b":9007199254740991,"c":-9007199254740993}')).toEqual({
      a: '9007199254740993',
      b: 9007199254740991,
      c: '-9007199254740993',
    });
    // 2^53 itself is past the safe range: other literals round to it.
    expect(parseExactJson('[9007199254740992, 18446744073709551615, 123456789012345678901234567890]')).toEqual([
      '9007199254740992',
      '18446744073709551615',
      '123456789012345678901234567890',
    ]);
    expect(parseExactJson('  12345678901234567890  ')).toBe('12345678901234567890');
  });

  it('never touches strings, fractions or exponents, and refuses what JSON.parse refuses', () => {
    const text = '{"id":"12345678901234567890","note":"a: 12345678901234567890, [12345678901234567890","f":1.12345678901234567890,"e":1e12345678901234567,"g":12345678901234567890.5,"h":2E+12345678901234567}';
    expect(quoteUnsafeIntegers(text)).toBe(text);
    expect(parseExactJson(text)).toEqual(JSON.parse(text));
    expect(parseExactJson('{"escaped":"\\"12345678901234567890","n":12345678901234567890}')).toEqual({ escaped: '"12345678901234567890', n: '12345678901234567890' });
    expect(() => parseExactJson('[01234567890123456789]')).toThrow(SyntaxError);
    expect(() => parseExactJson('{"a":12345678901234567890')).toThrow(SyntaxError);
    expect(() => parseExactJson('not json')).toThrow(SyntaxError);
  });

  it('is JSON.parse when no integer literal has 16 digits or more', () => {
    const text = JSON.stringify({ amounts: ['2000000000000000000000'], count: 123456789012345, price: 1.5, hash: '0x1234567890123456789012345678901234567890' });
    expect(quoteUnsafeIntegers(text)).toBe(text);
    expect(parseExactJson(text)).toEqual(JSON.parse(text));
  });

  it('tells the safe range by its digits', () => {
    expect(isUnsafeIntegerText('9007199254740991')).toBe(false);
    expect(isUnsafeIntegerText('-9007199254740991')).toBe(false);
    expect(isUnsafeIntegerText('9007199254740992')).toBe(true);
    expect(isUnsafeIntegerText('1000000000000000')).toBe(false);
    expect(isUnsafeIntegerText('10000000000000000')).toBe(true);
  });

  it('property: any integer literal, anywhere in any JSON, parses to its exact value; the rest is as JSON.parse reads it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), integerLiteral, fc.boolean(), (value, literal, pretty) => {
        // The literal placed in an object beside any JSON value, and in a list: the text JSON.parse would read.
        const around = JSON.stringify({ value, list: [value, 0] }, null, pretty ? 2 : undefined);
        const text = around.replace('"list": [', `"list": [${literal}, `).replace('"list":[', `"list":[${literal},`);
        const parsed = parseExactJson(text) as { value: unknown; list: unknown[] };
        expect(parsed.list[0]).toEqual(exactly(literal));
        expect(parsed.value).toEqual(parseExactJson(JSON.stringify(value)));
        expect(parsed.list.slice(1)).toEqual([parseExactJson(JSON.stringify(value)), 0]);
      }),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeJson } from '../../src/lib/chunked-json.ts';

const never = () => undefined;
const bytesOf = async (value: unknown, pause: () => Promise<void> | undefined = never): Promise<Buffer> => Buffer.from(await serializeJson(value, pause));
const expected = (value: unknown): Buffer => Buffer.from(JSON.stringify(value) as string, 'utf8');

/** Values of every kind JSON.stringify treats apart: undefined, functions, symbols, toJSON, boxed values, null prototypes, holes, lone surrogates. */
const anything = fc.anything({
  withBigInt: false,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

/** A container large enough to be walked in pieces (well over the piece size), holding the generated items again and again. */
const large = (items: unknown[]) => ({
  data: { list: Array.from({ length: 6000 }, (_, i) => (items.length ? items[i % items.length] : i)), items, nested: { deeper: Array.from({ length: 300 }, () => ({ items })) } },
  extensions: { n: items.length },
});

describe('serializeJson writes exactly the bytes of JSON.stringify', () => {
  it('for any value JSON.stringify accepts, small or large', async () => {
    await fc.assert(
      fc.asyncProperty(anything, async (value) => {
        fc.pre(JSON.stringify(value) !== undefined);
        expect((await bytesOf(value)).equals(expected(value))).toBe(true);
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(anything, { maxLength: 8 }), async (items) => {
        const value = large(items);
        expect((await bytesOf(value)).equals(expected(value))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('calls toJSON with the key it is found under, as JSON.stringify does', async () => {
    const keyed = { toJSON: (key: string) => `at ${key}` };
    const value = { list: Array.from({ length: 5000 }, () => keyed), named: keyed, gone: { toJSON: () => undefined }, also: [{ toJSON: () => undefined }] };
    expect((await bytesOf(value)).toString()).toBe(JSON.stringify(value));
  });

  it('keeps astral characters whole and escapes lone surrogates, across pieces', async () => {
    const value = { list: Array.from({ length: 5000 }, (_, i) => ({ s: i % 2 ? '\u{1F600}é' : '\uD800x\uDFFF' })) };
    expect((await bytesOf(value)).equals(expected(value))).toBe(true);
  });
});

describe('serializeJson pauses between the pieces of a large value', () => {
  it('asks for a pause many times for a large value, never for a small one, and waits when told to', async () => {
    let asked = 0;
    let waited = 0;
    const pause = () => {
      asked += 1;
      if (asked % 7 !== 0) return undefined;
      waited += 1;
      return new Promise<void>((resolve) => setImmediate(resolve));
    };
    const value = large([{ a: 1, b: 'two', c: [3, 4, { d: null }] }]);
    expect((await bytesOf(value, pause)).equals(expected(value))).toBe(true);
    expect(asked).toBeGreaterThan(20);
    expect(waited).toBeGreaterThan(2);

    asked = 0;
    expect(serializeJson({ small: [1, 2, 3] }, pause)).toBeInstanceOf(Buffer);
    expect(asked).toBe(0);
  });
});

describe('serializeJson fails as JSON.stringify fails', () => {
  it('on a cycle through a large container, and on a BigInt', async () => {
    const cyclic: { list: unknown[]; self?: unknown } = { list: Array.from({ length: 5000 }, (_, i) => i) };
    cyclic.list.push(cyclic);
    await expect(async () => serializeJson(cyclic, never)).rejects.toThrow(TypeError);
    await expect(async () => serializeJson({ list: Array.from({ length: 5000 }, () => 1n) }, never)).rejects.toThrow(TypeError);
  });
});

import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../../src/lib/exact-json.ts';
import { DateTimeScalar, UInt256Scalar, UInt64Scalar } from '../../src/schema/scalars.ts';
import { fastReader, MISS } from '../../src/shapes/fast-read.ts';
import { READ, readShape, violationsOf, type Leaf, type Violation } from '../../src/shapes/index.ts';

/**
 * The value contract at the read boundary (src/shapes/kit.ts, READ): every kit leaf that feeds a typed
 * GraphQL scalar holds only what that scalar can serve. Values the real spec allows but the scalar cannot
 * show (a word where the spec says `string`, a negative or fractional `number`) are broken fields, on the
 * compiled fast path and on valibot's alike, and the broken field is named.
 *
 * The expectations are written here from the scalars' definitions (BigInt arithmetic, the Int range),
 * not from kit.ts, and every value the reader accepts is checked against the real scalar's serializer.
 */

const MAX_U64 = (1n << 64n) - 1n;
const MAX_U256 = (1n << 256n) - 1n;
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/** What the scalar can serve of a raw value, as the reader should hand it on; `refused` when nothing. */
type Expected = { out: unknown } | 'refused';

interface LeafCase {
  leaf: string;
  schema: Leaf<unknown>;
  expected: (raw: unknown) => Expected;
  /** The served form of an accepted value passes through the real scalar unchanged. */
  serves?: (out: unknown) => unknown;
  /** Spec-valid values the scalar cannot serve. */
  odd: unknown[];
}

/** A non-negative integer up to `max`, as digits (any leading zeros) or a safe JSON integer: its canonical digits. */
const uintDigits = (max: bigint) => (raw: unknown): Expected => {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw >= 0 ? { out: String(raw === 0 ? 0 : raw) } : 'refused';
  if (typeof raw !== 'string' || !/^[0-9]+$/.test(raw)) return 'refused';
  const value = BigInt(raw);
  return value <= max ? { out: value.toString() } : 'refused';
};

/** The same as a wide integer: the safe JSON integer itself, or canonical digits. */
const uintWide = (max: bigint) => (raw: unknown): Expected => {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw >= 0 ? { out: raw } : 'refused';
  return uintDigits(max)(raw);
};

/** An integer within ±2^31, sent as a number or as integer text (`"38"`, where the spec types it a string). */
const int32 = (raw: unknown): Expected => {
  const value = typeof raw === 'string' && /^-?\d{1,10}$/.test(raw) ? Number(raw) : raw;
  return typeof value === 'number' && Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX ? { out: value } : 'refused';
};

/** A date-time: it starts with a date and `Date` reads it (what `DateTime` serves). */
const dateTime = (raw: unknown): Expected =>
  typeof raw === 'string' && /^[+-]?\d{4,6}-\d{2}-\d{2}/.test(raw) && !Number.isNaN(Date.parse(raw)) ? { out: raw } : 'refused';

/** The node's numbers come as decimal strings too. */
const nodeNumber = (raw: unknown): number | undefined => {
  if (typeof raw === 'number') return raw;
  return typeof raw === 'string' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw) ? Number(raw) : undefined;
};

/** A finite number, sent as a number or as numeric text (`"1.5"`). */
const finite = (raw: unknown): Expected => {
  const value = nodeNumber(raw);
  return value !== undefined && Number.isFinite(value) ? { out: value } : 'refused';
};

const WORDS = ['string', '', ' ', 'NaN', 'Infinity', 'null', 'true', '0x1f', '1e3', '1.5', '-1', '+1', ' 12', '12 ', '١٢'];

const CASES: LeafCase[] = [
  {
    leaf: 'decimal',
    schema: READ.decimal,
    expected: uintDigits(MAX_U256),
    serves: (out) => UInt256Scalar.serialize(out),
    odd: [...WORDS, -1, -0.5, 1.5, 2 ** 53 + 2, (MAX_U256 + 1n).toString(), '9'.repeat(79), true, null, {}, []],
  },
  {
    leaf: 'decimal64',
    schema: READ.decimal64,
    expected: uintDigits(MAX_U64),
    serves: (out) => UInt64Scalar.serialize(out),
    odd: [...WORDS, -1, 1.5, (MAX_U64 + 1n).toString(), '9'.repeat(21), false],
  },
  {
    leaf: 'wideInteger',
    schema: READ.wideInteger,
    expected: uintWide(MAX_U64),
    serves: (out) => UInt64Scalar.serialize(out),
    odd: [...WORDS, -3.5, -1, 0.5, 1e300, (MAX_U64 + 1n).toString(), Infinity, -Infinity, null],
  },
  {
    leaf: 'wideInteger256',
    schema: READ.wideInteger256,
    expected: uintWide(MAX_U256),
    serves: (out) => UInt256Scalar.serialize(out),
    odd: [...WORDS, -2, 2.25, (MAX_U256 + 1n).toString(), Infinity],
  },
  { leaf: 'int32', schema: READ.int32, expected: int32, odd: [1.5, -0.25, 2 ** 31, -(2 ** 31) - 1, 1e20, Infinity, '1.5', '2147483648', '12345678901', 'string'] },
  { leaf: 'number', schema: READ.number, expected: finite, odd: [Infinity, -Infinity, '1e400', 'string', null, true] },
  {
    leaf: 'isoTime',
    schema: READ.isoTime,
    expected: dateTime,
    serves: (out) => DateTimeScalar.serialize(new Date(out as string)),
    odd: ['string', '', '1', 'March 7', '2024-13-45T00:00:00Z', '2024-01-01Tgarbage', 1_700_000_000, null],
  },
  {
    leaf: 'nodeInteger',
    schema: READ.nodeInteger,
    expected: (raw) => {
      const n = nodeNumber(raw);
      return n !== undefined && Number.isInteger(n) && n >= INT_MIN && n <= INT_MAX ? { out: n } : 'refused';
    },
    odd: ['4294967295', '1.5', 'string', '', -(2 ** 31) - 1, 2.5],
  },
  {
    leaf: 'nodeFloat',
    schema: READ.nodeFloat,
    expected: (raw) => {
      const n = nodeNumber(raw);
      return n !== undefined && Number.isFinite(n) ? { out: n } : 'refused';
    },
    odd: ['string', '', '1e400', Infinity, '1.5.5', null],
  },
];

/** The error a broken field throws here: it carries the violation, so the test can see which field it names. */
class Broken extends Error {
  constructor(readonly violation: Violation) {
    super(`broken ${violation.path}`);
  }
}
const toError = (violation: Violation): Error => new Broken(violation);

/** A page of three items whose middle one holds `value`: the violation must name `items[1].value`. */
const pageOf = (schema: Leaf<unknown>) => v.object({ items: v.array(v.object({ id: v.string(), value: schema })) });
const page = (good: unknown, value: unknown): unknown => ({
  items: [{ id: 'a', value: good }, { id: 'b', value }, { id: 'c', value: good }],
});

/** A value each leaf accepts, for the siblings. */
const GOOD: Record<string, unknown> = {
  decimal: '12', decimal64: '12', wideInteger: 12, wideInteger256: 12, int32: 12, number: 1.5, isoTime: '2024-05-01T12:00:00Z', nodeInteger: '12', nodeFloat: '1.5',
};

/** What the fast path and valibot each make of `raw` (read twice, from copies: the fast path updates lists in place). */
function bothPaths(schema: Leaf<unknown>, raw: unknown): { fast: unknown; slow: v.SafeParseResult<Leaf<unknown>> } {
  const copy = (): unknown => (raw === undefined ? undefined : structuredClone(raw));
  return { fast: fastReader(schema)(copy()), slow: v.safeParse(schema, copy()) };
}

/** Raw values of every kind a JSON answer can hold where a spec says `string` or `number`. */
const rawValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.stringMatching(/^[0-9]{1,82}$/),
  fc.bigInt({ min: -(1n << 300n), max: 1n << 300n }).map(String),
  fc.integer({ min: INT_MIN * 4, max: INT_MAX * 4 }),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 12 }),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(null, true, false, {}, [], '1.0', '00', '007', '-0', 0, -0, 2 ** 53, 2 ** 64, 2 ** 64 - 1),
);

describe('the value contract of the READ kit', () => {
  for (const c of CASES) {
    describe(`${c.leaf}`, () => {
      it('refuses the spec-valid values its scalar cannot serve, on both paths, naming the field', () => {
        const schema = pageOf(c.schema);
        for (const value of c.odd) {
          const label = `${c.leaf} ${JSON.stringify(value) ?? String(value)}`;
          const { fast, slow } = bothPaths(schema, page(GOOD[c.leaf], value));
          expect(fast, label).toBe(MISS);
          expect(slow.success, label).toBe(false);
          // The reader: the page and its other items read, the one value is a broken field that names itself.
          const read = readShape(schema, page(GOOD[c.leaf], value), toError) as { items: { id: string; value: unknown }[] };
          expect(read.items.map((item) => item.id), label).toEqual(['a', 'b', 'c']);
          expect(() => read.items[1]?.value, label).toThrow(Broken);
          try {
            void read.items[1]?.value;
          } catch (error) {
            expect((error as Broken).violation.path, label).toBe('items[1].value');
          }
          expect(violationsOf(read)?.map((violation) => violation.keys.join('.')), label).toEqual(['items.1.value']);
          expect(read.items[0]?.value, label).toBe(bothPaths(c.schema, GOOD[c.leaf]).slow.output);
        }
      });

      it('property: accepts exactly what its scalar can serve, the same on the fast path and valibot', () => {
        fc.assert(
          fc.property(rawValue, (raw) => {
            const expected = c.expected(raw);
            const { fast, slow } = bothPaths(c.schema, raw);
            if (expected === 'refused') {
              expect(slow.success).toBe(false);
              expect(fast).toBe(MISS);
              return;
            }
            expect(slow.success).toBe(true);
            expect(slow.output).toStrictEqual(expected.out);
            expect(fast).toStrictEqual(expected.out);
            if (c.serves) expect(() => c.serves?.(expected.out)).not.toThrow();
            if (c.serves && c.leaf !== 'isoTime') expect(String(c.serves(expected.out))).toBe(String(expected.out));
          }),
          { numRuns: 600 },
        );
      });
    });
  }

  it('reads integers beyond 2^53 exactly from the exact parse, and refuses those beyond the scalar', () => {
    const schema = v.object({ amount: READ.decimal, height: READ.wideInteger, fee: READ.wideInteger256 });
    const read = (text: string) => readShape(schema, JSON.parse(text), toError, { exact: () => parseExactJson(text) });
    const exact = read(`{"amount": 123456789012345678901234567890, "height": ${MAX_U64}, "fee": ${MAX_U256}}`);
    expect(exact).toEqual({ amount: '123456789012345678901234567890', height: MAX_U64.toString(), fee: MAX_U256.toString() });
    const beyond = read(`{"amount": -12345678901234567890, "height": ${MAX_U64 + 1n}, "fee": 1}`);
    expect(beyond.fee).toBe(1);
    expect(() => beyond.amount).toThrow(Broken);
    expect(() => beyond.height).toThrow(Broken);
  });

  it('coerces only the unambiguous forms: 5.0 (JSON.parse makes it 5) and leading zeros', () => {
    const schema = v.object({ a: READ.decimal, b: READ.wideInteger, c: READ.int32, d: READ.decimal64 });
    const read = readShape(schema, JSON.parse('{"a": 5.0, "b": 7.0, "c": 3.0, "d": "0042"}'), toError);
    expect(read).toEqual({ a: '5', b: 7, c: 3, d: '42' });
    expect(violationsOf(read)).toBeUndefined();
  });
});

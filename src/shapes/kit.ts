/**
 * The two ways one description of the upstream data is built.
 *
 * Every response is described once (staking.ts, subnets.ts, ...), as a function of
 * a {@link Kit}: the leaves that carry a wire format (a decimal string, a hex string,
 * an ISO time, an enum) and the few places where the public spec and the node send
 * another form than the seed. The same description is then built twice:
 *
 * - {@link READ}, for the clients: tolerant of form, strict on value. Text formats are
 *   not checked (a hex string or an address is a string: its scalar passes it through),
 *   enums are open (an unknown value is kept raw), the spec's variant forms are accepted
 *   and mapped onto the seed's (a price `value` sent as a number, the X/C-chain UTXO, the
 *   node's stringly numbers), and the fields the spec leaves out for some statuses are
 *   optional. But every leaf served through a typed GraphQL scalar holds only what that
 *   scalar can serve (the value contract): a `decimal` is a uint256, a `wideInteger` a
 *   uint64, an `int32` an Int, a `number` a finite Float, an `isoTime` a date-time. A value
 *   the spec allows but the scalar cannot show (`"amountStaked": "string"`, a negative or
 *   fractional timestamp) is a broken field, so the GraphQL field reading it fails alone
 *   with UPSTREAM_PROTOCOL_ERROR naming the upstream field, never in the serializer.
 * - {@link STRICT}, for the devnet's conformance tests: the seed's form exactly, but for a
 *   price `value`, which the devnet writes as the spec's JSON number (src/devnet/spec-form.ts).
 *   Formats and enums are checked, no variant is accepted, and the status-dependent fields
 *   are required where the seed and the spec say so.
 *
 * Both builds have the same output types (the types of `index.ts` are inferred from
 * the read build), so a description cannot drift between them.
 */
import * as v from 'valibot';

/** A schema of one field, whatever its input: the kit's unit. */
export type Leaf<T> = v.GenericSchema<unknown, T>;
/** A schema of a record's keys. */
export type KeySchema = v.GenericSchema<string, string>;

/** Fields a strict build requires beyond the read build's: always, or by the value of a tag field. */
export type RequiredFields = readonly string[] | { readonly tag: string; readonly byValue: Readonly<Record<string, readonly string[]>> };

export interface Kit {
  readonly mode: 'read' | 'strict';
  readonly string: Leaf<string>;
  /**
   * A string of decimal digits served as `UInt256`: amounts, balances, gas, nonces, block numbers, the node's
   * 64-bit weights and fees. Read: a non-negative integer below 2^256, as its canonical decimal string (leading
   * zeros dropped); a JSON integer sent instead is read as its decimal string, exact beyond 2^53 too. Anything
   * else (a sign, a fraction, blanks, hex, words, an empty string) is a broken field.
   */
  readonly decimal: Leaf<string>;
  /** {@link decimal} served as `UInt64` (EVM block numbers, transaction counts): read up to 2^64 - 1. */
  readonly decimal64: Leaf<string>;
  /** `0x` followed by hex digits (possibly none). */
  readonly hex: Leaf<string>;
  /**
   * An ISO 8601 / RFC 3339 date-time. Read: a string that starts with a date and that `Date` can parse, so
   * what is served as a `DateTime` is one; anything else is a broken field.
   */
  readonly isoTime: Leaf<string>;
  /**
   * An integral JSON number the gateway computes with (a JSON-RPC id, an error body's status, a duration).
   * Read: one beyond 2^53 (which `JSON.parse` rounds) is broken, so what reads it fails with
   * UPSTREAM_PROTOCOL_ERROR rather than use a rounded value.
   */
  readonly integer: Leaf<number>;
  /**
   * An integer served as a GraphQL `Int` (32-bit signed): counts, indexes, decimals, transaction types.
   * Read: a number, or integer text (`"38"`, where the spec types the field as a string), that is an integer
   * within ±2^31; anything else is broken, so its field fails with UPSTREAM_PROTOCOL_ERROR (naming the
   * upstream field) instead of reaching the Int serializer.
   */
  readonly int32: Leaf<number>;
  /**
   * An integral JSON number served as `UInt64`, which may pass 2^53: unix times, heights, lock times,
   * thresholds. Read: a non-negative integer up to 2^64 - 1, as the number, or beyond 2^53 its exact decimal
   * text (the answer is read again from an exact parse, see {@link INEXACT_INTEGER}); negative or fractional
   * numbers are broken. Code that only compares such values uses {@link approximately}.
   */
  readonly wideInteger: Leaf<WideInteger>;
  /** {@link wideInteger} served as `UInt256` (the wei and gas quantities of a genesis, fees accrued, chain ids): read up to 2^256 - 1. */
  readonly wideInteger256: Leaf<WideInteger>;
  /**
   * A JSON number served as a `Float`. Read: finite (`JSON.parse` makes `1e400` Infinity, which no Float can show);
   * numeric text (`"99.5"`) is read as its number.
   */
  readonly number: Leaf<number>;
  readonly boolean: Leaf<boolean>;
  /** Anything, null included. */
  readonly unknown: Leaf<unknown>;
  /** A Price `value`: a non-negative decimal string; the public spec sends a JSON number, read as its decimal string. */
  readonly priceValue: Leaf<string>;
  /**
   * A node integer serialized as a decimal string (`json.Uint32`, `json.Uint64` counts): read as a number.
   * Read: an integer within ±2^31, what the `Int` (or `Float`) serving it can hold.
   */
  readonly nodeInteger: Leaf<number>;
  /** A node float serialized as a decimal string (`json.Float64`): read as a finite number. */
  readonly nodeFloat: Leaf<number>;
  /** A string matching `re` (`label` names it in strict messages). Read: any string. */
  pattern(re: RegExp, label: string): Leaf<string>;
  /** A record key matching `re`. Read: any key. */
  key(re: RegExp, label: string): KeySchema;
  /** One of `values`. Read: any string, kept raw (the type keeps the known values for completion). */
  openEnum<const T extends readonly string[]>(values: T): Leaf<T[number] | (string & {})>;
  /** Strict: `schema`. Read: `schema` or `also` (a form the spec or a real node sends besides the seed's). */
  readAlso<A, B>(schema: Leaf<A>, also: Leaf<B>): Leaf<A | B>;
  /** Read: `map` turns a variant form of the raw value into the seed's before it is read. Strict: the seed's form only. */
  variant<T>(map: (raw: unknown) => unknown, schema: Leaf<T>): Leaf<T>;
  /** Strict: the object must also carry `fields` (optional in the type, required by the seed). Read: no more than `schema`. */
  requires<T>(schema: Leaf<T>, fields: RequiredFields): Leaf<T>;
  /**
   * A field the seed lists (strict: required) that an answer may still leave out
   * (read: optional, so a missing value is served as null rather than failing the
   * field). For the open enums, whose raw value the schema serves beside the mapped one.
   */
  mayBeAbsent<T>(schema: Leaf<T>): Leaf<T | undefined>;
}

const DECIMAL = /^\d+$/;
const DECIMAL_NUMBER = /^\d+(\.\d+)?$/;
/** What a date-time served as `DateTime` starts with (`Date.parse` alone takes "1" or "March"). */
const DATE_TIME_START = /^[+-]?\d{4,6}-\d{2}-\d{2}/;
const HEX = /^0x[0-9a-fA-F]*$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
// What the node may send for a number: digits, an optional fraction and exponent, no blanks.
const NUMERIC = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
/** Integer text a 32-bit `Int` may hold: an optional minus sign and at most ten digits (longer is out of range anyway). */
const INTEGER_TEXT = /^-?\d{1,10}$/;

/**
 * The message of a number in an integer field that is not a safe integer: `JSON.parse` may have
 * rounded it (`9007199254740993` reads as `9007199254740992`), so the reader reads the whole
 * answer again from an exact parse (`ReadOptions.exact` in `read.ts`, `src/lib/exact-json.ts`),
 * where such a literal is a string of its digits. Only the read build uses it.
 */
export const INEXACT_INTEGER = 'an integer that JSON.parse may have rounded';

/** What a GraphQL `Int` can hold: an integer from -2^31 to 2^31 - 1. */
const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
/** The largest `UInt64` and `UInt256`. */
const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_UINT256 = (1n << 256n) - 1n;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A decimal string for a JSON number, without the exponent form `String()` uses
 * for very large or very small values.
 */
export function decimalString(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const plain = String(value);
  if (!/e/i.test(plain)) return plain;
  if (Number.isInteger(value)) return BigInt(value).toString();
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

const nodeNumber: Leaf<number> = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(NUMERIC))]),
  v.transform((value) => (typeof value === 'number' ? value : Number(value))),
  v.finite(),
);

/** Decimal digits without their leading zeros (`"0"` for zero): the one form the uint scalars serve. */
function canonicalDigits(digits: string): string {
  const trimmed = digits.replace(/^0+/, '');
  return trimmed === '' ? '0' : trimmed;
}

/** True when canonical `digits` are at most `max`: by length first, so a long string is never parsed. */
function fitsUnder(max: bigint): (digits: string) => boolean {
  const length = max.toString().length;
  return (digits) => digits.length < length || (digits.length === length && BigInt(digits) <= max);
}

/**
 * A non-negative integer up to `max` as its canonical decimal string. The first option is the
 * common case, checked inline by the fast path: canonical digits shorter than `max`'s, which are
 * below it whatever they are. The others take leading zeros and the longest values, and a JSON
 * integer (exact beyond 2^53 from the exact parse, where it is the string of its digits).
 */
function readDecimal(max: bigint): Leaf<string> {
  const below = new RegExp(`^(?:0|[1-9]\\d{0,${max.toString().length - 2}})$`);
  const bound = `a non-negative integer up to ${max}`;
  return v.union([
    v.pipe(v.string(), v.regex(below)),
    v.pipe(v.string(), v.regex(DECIMAL, `expected ${bound}`), v.transform(canonicalDigits), v.check(fitsUnder(max), `expected ${bound}`)),
    v.pipe(v.number(), v.safeInteger(INEXACT_INTEGER), v.minValue(0, `expected ${bound}`), v.transform(String)),
  ]);
}

/**
 * A non-negative integral JSON number up to `max`: the number while it is safe; beyond 2^53, the exact
 * parse's digits (or digits an upstream sent as a string), canonical.
 */
function readWideInteger(max: bigint): Leaf<WideInteger> {
  const bound = `a non-negative integer up to ${max}`;
  return v.union([
    v.pipe(v.number(), v.safeInteger(INEXACT_INTEGER), v.minValue(0, `expected ${bound}`)),
    v.pipe(v.string(), v.regex(DECIMAL, `expected ${bound}`), v.transform(canonicalDigits), v.check(fitsUnder(max), `expected ${bound}`)),
  ]);
}

/** What a {@link Kit.wideInteger} field holds: the JSON number, or beyond 2^53 its exact decimal text. */
export type WideInteger = number | string;

/**
 * The nearest double to a wide integer, for code that only compares or spans such values (paging
 * windows, sort order, the devnet's own arithmetic). What is served takes the exact value instead.
 */
export function approximately(value: WideInteger): number {
  return typeof value === 'number' ? value : Number(value);
}

/** The tolerant build, for the clients. */
export const READ: Kit = {
  mode: 'read',
  string: v.string(),
  // An amount sent as a JSON integer is read as its decimal string; beyond 2^53, from the exact parse.
  decimal: readDecimal(MAX_UINT256),
  decimal64: readDecimal(MAX_UINT64),
  hex: v.string(),
  isoTime: v.pipe(
    v.string(),
    v.regex(DATE_TIME_START, 'expected an ISO 8601 date-time'),
    v.check((text) => !Number.isNaN(Date.parse(text)), 'expected an ISO 8601 date-time'),
  ),
  // Broken beyond 2^53 whatever its exact digits: no exact parse is needed to refuse it.
  integer: v.pipe(v.number(), v.safeInteger('expected an integer within ±2^53')),
  // Any rounded value is beyond 32 bits anyway: no exact parse is needed to refuse it. The spec types some
  // of these as strings (a UTXO's `outputIndex`, example "38"): integer text is read as its number, losslessly.
  int32: v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.regex(INTEGER_TEXT, 'expected an integer within ±2^31'), v.transform(Number))]),
    v.integer('expected an integer within ±2^31'),
    v.minValue(INT32_MIN, 'expected an integer within ±2^31'),
    v.maxValue(INT32_MAX, 'expected an integer within ±2^31'),
  ),
  wideInteger: readWideInteger(MAX_UINT64),
  wideInteger256: readWideInteger(MAX_UINT256),
  // A number sent as numeric text (`"99.5"`) is the same number: read as it, as the node's are.
  number: v.pipe(nodeNumber, v.finite()),
  boolean: v.boolean(),
  unknown: v.unknown(),
  priceValue: v.pipe(
    // A price is a decimal number: sent as a JSON number it is a double by nature, read as the double's decimal.
    v.union([v.string(), v.pipe(v.number(), v.finite())]),
    v.transform((value) => (typeof value === 'number' ? decimalString(value) : value)),
  ),
  nodeInteger: v.pipe(nodeNumber, v.integer(), v.minValue(INT32_MIN), v.maxValue(INT32_MAX)),
  nodeFloat: nodeNumber,
  pattern: () => v.string(),
  key: () => v.string(),
  openEnum: () => v.string(),
  readAlso: (schema, also) => v.union([schema, also]),
  variant: (map, schema) => v.pipe(v.unknown(), v.transform(map), schema),
  requires: (schema) => schema,
  mayBeAbsent: (schema) => v.optional(schema),
};

const formatted = (re: RegExp, label: string): v.GenericSchema<string, string> =>
  v.pipe(v.string(`expected ${label}`), v.regex(re, `expected ${label}`));

/** The seed's form exactly, for the conformance tests. */
export const STRICT: Kit = {
  mode: 'strict',
  string: v.string(),
  decimal: formatted(DECIMAL, 'a string of decimal digits'),
  decimal64: formatted(DECIMAL, 'a string of decimal digits'),
  hex: formatted(HEX, 'a 0x-hex string'),
  isoTime: v.pipe(formatted(ISO_TIME, 'an ISO 8601 date-time'), v.check((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 date-time')),
  integer: v.pipe(v.number(), v.integer('expected an integer')),
  int32: v.pipe(v.number(), v.integer('expected an integer'), v.minValue(INT32_MIN, 'expected a 32-bit integer'), v.maxValue(INT32_MAX, 'expected a 32-bit integer')),
  wideInteger: v.pipe(v.number(), v.integer('expected an integer')),
  wideInteger256: v.pipe(v.number(), v.integer('expected an integer')),
  number: v.pipe(v.number(), v.finite()),
  boolean: v.boolean(),
  unknown: v.unknown(),
  // The devnet writes Money as the spec does, a JSON number (src/devnet/spec-form.ts); the seed's decimal string is the read form.
  priceValue: v.pipe(v.number('expected a number (the spec types Money.value as one)'), v.finite(), v.minValue(0), v.transform(decimalString)),
  nodeInteger: v.pipe(formatted(DECIMAL, 'a decimal string (the node sends integers as strings)'), v.transform(Number)),
  nodeFloat: v.pipe(formatted(DECIMAL_NUMBER, 'a decimal number string (the node sends floats as strings)'), v.transform(Number)),
  pattern: (re, label) => formatted(re, label),
  key: (re, label) => formatted(re, label),
  openEnum: (values) => v.picklist(values, `expected one of ${values.map((value) => JSON.stringify(value)).join(' | ')}`),
  readAlso: (schema) => schema,
  variant: (_map, schema) => schema,
  requires: (schema, fields) =>
    v.pipe(
      schema,
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed || !isObject(dataset.value)) return;
        const value = dataset.value;
        const wanted = requiredOf(value, fields);
        for (const key of wanted.keys) {
          if (value[key] !== undefined) continue;
          addIssue({
            message: `missing (required${wanted.because})`,
            path: [{ type: 'object', origin: 'value', input: value, key, value: undefined }],
          });
        }
      }),
    ),
  mayBeAbsent: (schema) => schema,
};

function requiredOf(value: Record<string, unknown>, fields: RequiredFields): { keys: readonly string[]; because: string } {
  if (Array.isArray(fields)) return { keys: fields, because: '' };
  const rule = fields as Exclude<RequiredFields, readonly string[]>;
  const tag = value[rule.tag];
  const keys = typeof tag === 'string' ? rule.byValue[tag] : undefined;
  return { keys: keys ?? [], because: ` when ${rule.tag} is ${JSON.stringify(tag)}` };
}

/** Builds a description once per kit, so every module that needs it shares the same schemas. */
export function perKit<T>(describe: (k: Kit) => T): (k: Kit) => T {
  const built = new Map<Kit, T>();
  return (k) => {
    let shapes = built.get(k);
    if (shapes === undefined) {
      shapes = describe(k);
      built.set(k, shapes);
    }
    return shapes;
  };
}

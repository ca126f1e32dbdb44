import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { DateTimeResolver, IPResolver, URLResolver } from 'graphql-scalars';
import { ErrorCode, unservableMessage } from '../errors/graphql.ts';
import { EVM_ADDRESS, EVM_HASH, isEvmAddress, isEvmHash } from '../lib/ids.ts';

/**
 * The schema's exact scalars. Two rules hold for all of them:
 *
 * - Output is tolerant: format scalars (`EvmAddress`, `Hash`, `Hex`, `URL`, `IP`) pass the
 *   upstream's string through unchanged (checksum case, upper-case hex and a malformed value
 *   alike); times that cannot be shown are `null` (see {@link unixSecondsToDate}). The
 *   numbers are checked when the answer is read (the shapes' value contract), so a value
 *   reaching a serializer fits it; one that still does not (the backstop) is refused with
 *   {@link unservableValue}: coded UPSTREAM_PROTOCOL_ERROR, its message never quoting the value.
 * - Input is strict: a value that is not of the scalar's form is refused with BAD_USER_INPUT
 *   while the document or its variables are validated, before any upstream call.
 *
 * Every scalar carries `codegenScalarType`, so GraphQL Code Generator types it (`string`).
 */

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const MAX_UINT256 = (1n << 256n) - 1n;
/** Decimal digits of 2^256 - 1. */
const UINT256_DIGITS = MAX_UINT256.toString().length;
const MAX_UINT64 = (1n << 64n) - 1n;
/** 2^64 as a double: what JSON.parse makes of any uint64 from 2^64 - 1024 up (a JSON number holds 53 bits). */
const TWO_TO_64 = 2 ** 64;

/** A value as it may appear in an error message: cut so a huge input is not echoed back. */
function shown(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(typeof value === 'string' && value.length > 48 ? `${value.slice(0, 48)}…` : value) ?? String(value);
}

/**
 * What an output scalar throws for a value it cannot represent: UPSTREAM_PROTOCOL_ERROR (every output is
 * upstream data), in words that name the type and never the value. Its code survives graphql-js's own
 * executor; yoga's and graphql-jit keep only the message, which `useUnservableValues` codes again, so the
 * answer is the same on the interpreter and on the compiled path.
 */
export function unservableValue(type: string): GraphQLError {
  return new GraphQLError(unservableMessage(type), { extensions: { code: ErrorCode.UPSTREAM_PROTOCOL_ERROR, type } });
}

/** A serializer that refuses with {@link unservableValue} whatever `serialize` throws. */
function servedAs<T>(type: string, serialize: (value: unknown) => T): (value: unknown) => T {
  return (value) => {
    try {
      return serialize(value);
    } catch {
      throw unservableValue(type);
    }
  };
}

/** A caller's value that is not of the scalar's form: BAD_USER_INPUT, located at the literal when there is one. */
function badScalarInput(message: string, node?: ValueNode): GraphQLError {
  return new GraphQLError(message, { ...(node ? { nodes: node } : {}), extensions: { code: ErrorCode.BAD_USER_INPUT } });
}

/** A scalar's parseLiteral from its parseValue: strings and integers are parsed as the same value would be in a variable. */
function literalOf<T>(name: string, parse: (value: unknown) => T, kinds: readonly Kind[]): (ast: ValueNode) => T {
  return (ast) => {
    if (!kinds.includes(ast.kind) || !('value' in ast) || typeof ast.value !== 'string') {
      throw badScalarInput(`${name} cannot represent a ${ast.kind.toLowerCase().replace('value', '')} literal`, ast);
    }
    // An Int literal's text is its decimal form, so `startTimestamp: 18446744073709551615` keeps every digit.
    try {
      return parse(ast.value);
    } catch (error) {
      throw badScalarInput((error as Error).message, ast);
    }
  };
}

// ---------------------------------------------------------------- UInt256

function toDecimal(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  // 2^256 has 78 decimal digits (64 hex): anything longer is refused before BigInt parses it,
  // which takes time quadratic in the length (a 1 MB string blocks the event loop for ~200 ms).
  if (typeof value === 'string' && value.length <= 100) {
    // The common case, a plain decimal: below 78 digits it is below 2^256 without parsing it.
    if (value.length < UINT256_DIGITS && DECIMAL.test(value)) return value;
    const trimmed = value.trim();
    if (DECIMAL.test(trimmed) && BigInt(trimmed) <= MAX_UINT256) return trimmed;
    // Some upstreams send hex quantities (0x...): accept them too.
    if (/^0x[0-9a-fA-F]+$/.test(trimmed) && BigInt(trimmed) <= MAX_UINT256) return BigInt(trimmed).toString();
  }
  throw new GraphQLError(`UInt256 cannot represent ${shown(value)}: expected a non-negative integer below 2^256`);
}

/**
 * Amounts, balances, gas values, nonces and block numbers: unsigned integers up
 * to 256 bits, always serialized as decimal strings so no client loses precision.
 */
export const UInt256Scalar = new GraphQLScalarType<string, string>({
  name: 'UInt256',
  description:
    'An unsigned integer of up to 256 bits (amounts in the smallest unit, gas, nonces, block numbers), serialized as a decimal string, e.g. "2000000000000". Input accepts a decimal string or a safe integer.',
  serialize: servedAs('UInt256', toDecimal),
  parseValue: toDecimal,
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT) {
      try {
        return toDecimal(ast.value);
      } catch (error) {
        throw new GraphQLError((error as Error).message, { nodes: ast });
      }
    }
    throw new GraphQLError('UInt256 must be a decimal string or an integer literal', { nodes: ast });
  },
  extensions: { codegenScalarType: 'string' },
});

// ---------------------------------------------------------------- UInt64

/**
 * Output: a uint64 as the upstream sends it (a JSON number, a decimal string, a bigint or a
 * 0x quantity) as its decimal string. The clients read an integer literal above 2^53 as its exact
 * decimal text (`src/lib/exact-json.ts`, the shapes' `wideInteger`); a double above 2^53 that still
 * gets here is written as the integer it holds, and 2^64 itself (the double nearest to every uint64
 * from 2^64 - 1024 up) as 2^64 - 1, the largest uint64.
 */
function uint64Out(value: unknown): string {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= 0) return String(value);
    if (Number.isInteger(value) && value >= 0 && value <= TWO_TO_64) return (value === TWO_TO_64 ? MAX_UINT64 : BigInt(value)).toString();
  } else if (typeof value === 'bigint') {
    if (value >= 0n && value <= MAX_UINT64) return value.toString();
  } else if (typeof value === 'string' && value.length <= 40) {
    const trimmed = value.trim();
    if (DECIMAL.test(trimmed) && (trimmed.length < 20 || BigInt(trimmed) <= MAX_UINT64)) return trimmed;
    if (/^0x[0-9a-fA-F]{1,16}$/.test(trimmed)) return BigInt(trimmed).toString();
  }
  throw new GraphQLError(`UInt64 cannot represent ${shown(value)}: expected a non-negative integer below 2^64`);
}

/**
 * Input: a safe integer (a JSON number above 2^53 may already have been rounded, so larger
 * values must be written as decimal strings) or a decimal string without sign, blanks, leading
 * zeros or hex, at most 2^64 - 1. Parsed to its decimal string.
 */
function uint64In(value: unknown): string {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= 0) return String(value);
    throw new Error(`UInt64 cannot represent ${shown(value)}: expected a non-negative integer (above 2^53, write it as a decimal string)`);
  }
  if (typeof value === 'string' && value.length <= 20 && DECIMAL.test(value) && BigInt(value) <= MAX_UINT64) return value;
  throw new Error(`UInt64 cannot represent ${shown(value)}: expected a decimal string (digits only) or an integer from 0 to 18446744073709551615`);
}

/** Unsigned 64-bit values (the seeds' uint64: unix-second timestamps, lock times, thresholds, heights, nano-unit amounts). */
export const UInt64Scalar = new GraphQLScalarType<string, string>({
  name: 'UInt64',
  description:
    'An unsigned 64-bit integer (0 to 18446744073709551615): unix-second timestamps, lock times, heights, thresholds, nano-unit amounts. Serialized as a decimal string so no client loses precision, e.g. "1700000000". Input accepts a decimal string or a non-negative integer up to 2^53; negatives, fractions, hex, blanks and values from 2^64 up are refused (BAD_USER_INPUT).',
  serialize: servedAs('UInt64', uint64Out),
  parseValue(value) {
    try {
      return uint64In(value);
    } catch (error) {
      throw badScalarInput((error as Error).message);
    }
  },
  parseLiteral: literalOf('UInt64', uint64In, [Kind.STRING, Kind.INT]),
  extensions: { codegenScalarType: 'string' },
});

// ---------------------------------------------------------------- DateTime

/** 9999-12-31T23:59:59Z: the last second an ISO 8601 date-time with a four-digit year can show. */
export const MAX_DATE_TIME_SECONDS = 253_402_300_799;

/**
 * The `DateTime` beside a raw unix-seconds field: `null` when the value is missing, not a
 * non-negative number (or decimal string), or beyond 9999-12-31T23:59:59Z. The seeds give
 * their timestamps as unix seconds; a value sent in milliseconds is past year 9999 as seconds,
 * so it reads as `null` too, never as a wrong date, and the raw field still shows it.
 */
export function unixSecondsToDate(value: number | string | bigint | null | undefined): Date | null {
  if (value == null) return null;
  const seconds = typeof value === 'number' ? value : typeof value === 'bigint' || DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_DATE_TIME_SECONDS) return null;
  return new Date(seconds * 1000);
}

/**
 * graphql-scalars' `DateTime` (RFC 3339, written in UTC with milliseconds,
 * e.g. "2024-05-01T12:00:00.000Z"), serialized to that string and typed `string` for codegen. Resolvers hand it a `Date`
 * (see {@link unixSecondsToDate}).
 */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  ...DateTimeResolver.toConfig(),
  // graphql-scalars hands the Date on for the JSON writer; the wire form is its ISO string, so say so here.
  serialize: servedAs('DateTime', (value) => {
    const date = DateTimeResolver.serialize(value);
    return date instanceof Date ? date.toISOString() : String(date);
  }),
  description:
    'A point in time, RFC 3339 / ISO 8601 in UTC, e.g. "2024-05-01T12:00:00.000Z". Beside each raw unix-seconds field (`…Timestamp: UInt64`) is its DateTime (`…Time`); it is null when the raw value is not a time from 1970 to 9999 (for example a value sent in milliseconds).',
  extensions: { ...DateTimeResolver.extensions, codegenScalarType: 'string' },
});

// ---------------------------------------------------------------- formats: addresses, hashes, hex, URLs, IPs

interface FormatScalarOptions {
  name: string;
  description: string;
  /** True for a valid input value. */
  test: (value: string) => boolean;
  /** What a valid value looks like, for the input error. */
  expected: string;
  specifiedByURL?: string | null;
  jsonSchema?: unknown;
}

/**
 * A string scalar of a known format: output passes the upstream's value through unchanged
 * (never refused: a format upstream is not ours to police, and refusing would null the parent),
 * input must be of the format (BAD_USER_INPUT otherwise) and is kept as written.
 */
function formatScalar({ name, description, test, expected, specifiedByURL, jsonSchema }: FormatScalarOptions): GraphQLScalarType<string, string> {
  const parse = (value: unknown): string => {
    if (typeof value === 'string' && value.length <= 4096 && test(value)) return value;
    throw new Error(`${name} cannot represent ${shown(value)}: expected ${expected}`);
  };
  return new GraphQLScalarType<string, string>({
    name,
    description,
    ...(specifiedByURL ? { specifiedByURL } : {}),
    serialize(value) {
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'bigint') return String(value);
      throw unservableValue(name);
    },
    parseValue(value) {
      try {
        return parse(value);
      } catch (error) {
        throw badScalarInput((error as Error).message);
      }
    },
    parseLiteral: literalOf(name, parse, [Kind.STRING]),
    extensions: { codegenScalarType: 'string', ...(jsonSchema ? { jsonSchema } : {}) },
  });
}

const HEX = /^0x[0-9a-fA-F]*$/;

export const EvmAddressScalar = formatScalar({
  name: 'EvmAddress',
  description:
    'An EVM address: 0x and 40 hex digits, e.g. "0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7". Output is the address as the upstream sends it (checksum case kept); input takes either case (the checksum is not verified).',
  test: isEvmAddress,
  expected: '0x followed by 40 hex digits',
  jsonSchema: { type: 'string', pattern: EVM_ADDRESS.source },
});

export const HashScalar = formatScalar({
  name: 'Hash',
  description:
    'A 32-byte hash as 0x and 64 hex digits (EVM transaction and block hashes, message ids), e.g. "0x5f3b1c0e9a8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b". Output is the hash as the upstream sends it; input takes either case.',
  test: isEvmHash,
  expected: '0x followed by 64 hex digits',
  jsonSchema: { type: 'string', pattern: EVM_HASH.source },
});

export const HexScalar = formatScalar({
  name: 'Hex',
  description:
    'Bytes or a quantity as 0x-prefixed hex, e.g. "0x1a2b" (signed messages, keys, calldata, genesis fields). Output is the value as the upstream sends it; input must be 0x followed by hex digits.',
  test: (value) => HEX.test(value),
  expected: '0x followed by hex digits',
  jsonSchema: { type: 'string', pattern: '^0x[0-9a-fA-F]*$' },
});

export const URLScalar = formatScalar({
  name: 'URL',
  description:
    'A URL (RFC 3986; graphql-scalars\' URL), e.g. "https://api.avax.network/ext/bc/C/rpc". Output is the URL as the upstream sends it, unnormalized (ipfs:// and ws:// included); input must parse as an absolute URL.',
  test: (value) => {
    try {
      URLResolver.parseValue(value);
      return true;
    } catch {
      return false;
    }
  },
  expected: 'an absolute URL',
  specifiedByURL: URLResolver.specifiedByURL ?? null,
  jsonSchema: { type: 'string', format: 'uri' },
});

export const IPScalar = formatScalar({
  name: 'IP',
  description:
    'An IPv4 or IPv6 address without a port (graphql-scalars\' IP), e.g. "203.0.113.7" or "2001:db8::1". Output is the address as the upstream sends it.',
  test: (value) => {
    try {
      IPResolver.parseValue(value);
      return true;
    } catch {
      return false;
    }
  },
  expected: 'an IPv4 or IPv6 address',
  jsonSchema: IPResolver.extensions['jsonSchema'],
});

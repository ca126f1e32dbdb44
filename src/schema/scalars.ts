import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const MAX_UINT256 = (1n << 256n) - 1n;
/** Decimal digits of 2^256 - 1. */
const UINT256_DIGITS = MAX_UINT256.toString().length;

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
  const shown = typeof value === 'string' && value.length > 48 ? `${value.slice(0, 48)}…` : value;
  throw new GraphQLError(`UInt256 cannot represent ${JSON.stringify(shown)}: expected a non-negative integer below 2^256`);
}

/**
 * Amounts, balances, gas values, nonces and block numbers: unsigned integers up
 * to 256 bits, always serialized as decimal strings so no client loses precision.
 */
export const UInt256Scalar = new GraphQLScalarType<string, string>({
  name: 'UInt256',
  description:
    'An unsigned integer of up to 256 bits (amounts in the smallest unit, gas, nonces, block numbers), serialized as a decimal string, e.g. "2000000000000". Input accepts a decimal string or a safe integer.',
  serialize: toDecimal,
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

/**
 * The GraphQL forms of the seed's numbers, for tests that compare a response with the
 * upstream's answer: `UInt64` is a decimal string, and the `DateTime` beside a unix-seconds
 * field is its ISO 8601 form in UTC (null when the raw value is missing).
 */
import { decimalString } from '../../src/shapes/kit.ts';

/** A uint64 as `UInt64` serializes it; null stays null. */
export const u64 = (value: number | string | bigint | null | undefined): string | null => (value == null ? null : BigInt(value).toString());

/** Unix seconds (a number, or a wide integer's decimal text) as `DateTime` serializes them; null stays null. */
export const isoOf = (seconds: number | string | null | undefined): string | null => (seconds == null ? null : new Date(Number(seconds) * 1000).toISOString());

/**
 * A wire `Price` as `Price { currencyCode currencyCodeRaw value }` serves it: the code as the `CurrencyCode` enum, the raw code beside it,
 * the value as its decimal text (the devnet sends the spec's JSON number, the seed a string).
 */
export const priceOf = (price: { currencyCode: string; value: string | number } | null | undefined) =>
  price == null
    ? null
    : { currencyCode: price.currencyCode.toUpperCase(), currencyCodeRaw: price.currencyCode, value: typeof price.value === 'number' ? decimalString(price.value) : price.value };

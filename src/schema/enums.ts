import type { EnumRef } from '@pothos/core';
import { builder, type BuilderTypes } from '../builder.ts';
import { badInput } from '../errors.ts';
import type { Bound } from './bounds.ts';

/** Internal value of the `UNKNOWN` member every upstream-backed enum carries. */
export const UNKNOWN_ENUM_VALUE = '__unknown__';

export interface UpstreamEnum<V extends string> {
  ref: EnumRef<BuilderTypes, V | typeof UNKNOWN_ENUM_VALUE>;
  /** Upstream value for output: unknown upstream values become `UNKNOWN` instead of failing the field. */
  out(value: string | undefined | null): V | typeof UNKNOWN_ENUM_VALUE | null;
  /** Throws BAD_USER_INPUT when a caller passes `UNKNOWN` as input. */
  checkInput(argument: string, value: unknown): void;
  /** The same check as an argument's `bound` (it adds nothing to the description). */
  bound: Bound;
}

/**
 * A GraphQL enum over an upstream value set: members are UPPER_SNAKE, their
 * internal values the upstream strings, so mapping is done by graphql-js both ways.
 * `UNKNOWN` stands for a value the upstream added after this gateway was built:
 * the field still resolves and the raw value is available where the type offers it.
 */
export function upstreamEnum<const V extends string>(
  name: string,
  description: string,
  values: Record<string, { value: V; description: string }>,
): UpstreamEnum<V> {
  const known = new Set<string>(Object.values(values).map((v) => v.value));
  const ref = builder.enumType(name, {
    description,
    values: {
      ...values,
      UNKNOWN: { value: UNKNOWN_ENUM_VALUE, description: 'A value this version of chaingraph does not know yet (output only).' },
    },
  });
  const checkInput = (argument: string, value: unknown): void => {
    if (value === UNKNOWN_ENUM_VALUE || (Array.isArray(value) && value.includes(UNKNOWN_ENUM_VALUE))) {
      throw badInput(argument, 'UNKNOWN is an output-only value');
    }
  };
  return {
    ref: ref as EnumRef<BuilderTypes, V | typeof UNKNOWN_ENUM_VALUE>,
    out: (value) => (value == null ? null : known.has(value) ? (value as V) : UNKNOWN_ENUM_VALUE),
    checkInput,
    bound: { describe: '', check: (value, path) => checkInput(path, value) },
  };
}

export const SortOrderEnum = builder.enumType('SortOrder', {
  description: 'Sort direction.',
  values: {
    ASC: { value: 'asc', description: 'Ascending.' },
    DESC: { value: 'desc', description: 'Descending.' },
  } as const,
});

export const CurrencyCodeEnum = builder.enumType('CurrencyCode', {
  description: 'Currency in which prices are given.',
  values: Object.fromEntries(
    (['usd', 'eur', 'aud', 'cad', 'chf', 'clp', 'cny', 'czk', 'dkk', 'gbp', 'hkd', 'huf', 'jpy', 'nzd'] as const).map((c) => [
      c.toUpperCase(),
      { value: c, description: c.toUpperCase() },
    ]),
  ) as Record<string, { value: string; description: string }>,
});

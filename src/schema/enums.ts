import type { EnumRef, FieldRef } from '@pothos/core';
import { builder, type BuilderTypes } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import type { Bound } from './bounds.ts';
import { CURRENCY_CODES, type CurrencyCode } from '../shapes/index.ts';

/** Internal value of the `UNKNOWN` member every upstream-backed enum carries. */
export const UNKNOWN_ENUM_VALUE = '__unknown__';

export interface UpstreamEnum<V extends string> {
  ref: EnumRef<BuilderTypes, V | typeof UNKNOWN_ENUM_VALUE>;
  /** Upstream value for output: unknown upstream values become `UNKNOWN` instead of failing the field; none stays null. */
  out(value: string | undefined | null): V | typeof UNKNOWN_ENUM_VALUE | null;
  /** The same for a value that is there. */
  map(value: string): V | typeof UNKNOWN_ENUM_VALUE;
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
  const map = (value: string): V | typeof UNKNOWN_ENUM_VALUE => (known.has(value) ? (value as V) : UNKNOWN_ENUM_VALUE);
  return {
    ref: ref as EnumRef<BuilderTypes, V | typeof UNKNOWN_ENUM_VALUE>,
    out: (value) => (value == null ? null : map(value)),
    map,
    checkInput,
    bound: { describe: '', check: (value, path) => checkInput(path, value) },
  };
}

/** Options of {@link openEnumField} and {@link openEnumListField}. */
export interface OpenEnumFieldOptions<P, R> {
  /** What the mapped field is (the helper adds how UNKNOWN and null read). */
  description: string;
  /** The upstream value of the parent, as sent (undefined or null when it sent none). */
  value: (parent: P) => R | null | undefined;
  /** How a value is compared with the known ones (e.g. upper-cased); the raw field keeps it as sent. */
  normalize?: (raw: string) => string;
}

/** The two fields an open enum defines: `<name>` (mapped) and `<name>Raw` (as sent). */
export type OpenEnumFields<N extends string> = Record<N | `${N}Raw`, FieldRef<BuilderTypes, unknown, 'Object'>>;

type ObjectBuilder<P> = PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, P>;
type InterfaceBuilder<P> = PothosSchemaTypes.InterfaceFieldBuilder<BuilderTypes, P>;

/**
 * An interface's field builder used as an object's: both take the same field options
 * (a generic field kind, or a union of the two builders, is too deep for the compiler).
 */
const asObjectBuilder = <P>(t: InterfaceBuilder<P>): ObjectBuilder<P> => t as object as ObjectBuilder<P>;

const rawNote = (name: string): string =>
  ` Null when the upstream sent none; UNKNOWN when it sent a value this version of chaingraph does not know (\`${name}Raw\` has it).`;

/**
 * The one way an upstream enum is served on an output type: `<name>`, the mapped
 * value (nullable: UNKNOWN for a value not in the enum, null when none was sent,
 * never a default), and beside it `<name>Raw: String`, the value exactly as the
 * upstream sent it. Spread into a `fields` map: `...openEnumField(t, 'callType', CallType, { ... })`;
 * {@link openEnumInterfaceField} on an interface.
 */
export function openEnumField<P, const N extends string, V extends string>(
  t: ObjectBuilder<P>,
  name: N,
  e: UpstreamEnum<V>,
  options: OpenEnumFieldOptions<P, string>,
): OpenEnumFields<N> {
  const normalize = options.normalize ?? ((raw: string) => raw);
  const fields = {
    [name]: t.field({
      type: e.ref as EnumRef<BuilderTypes, string>,
      nullable: true,
      description: `${options.description}${rawNote(name)}`,
      resolve: (parent): string | null => {
        const raw = options.value(parent);
        return raw == null ? null : e.map(normalize(raw));
      },
    }),
    [`${name}Raw`]: t.string({
      nullable: true,
      description: `\`${name}\` exactly as the upstream sent it; null when it sent none.`,
      resolve: (parent) => options.value(parent) ?? null,
    }),
  };
  return fields as OpenEnumFields<N>;
}

/** {@link openEnumField} on an interface type. */
export function openEnumInterfaceField<P, const N extends string, V extends string>(
  t: InterfaceBuilder<P>,
  name: N,
  e: UpstreamEnum<V>,
  options: OpenEnumFieldOptions<P, string>,
): OpenEnumFields<N> {
  return openEnumField(asObjectBuilder(t), name, e, options);
}

/** {@link openEnumField} for a list: `<name>: [Enum!]` and `<name>Raw: [String!]`, both null when the upstream sent no list. */
export function openEnumListField<P, const N extends string, V extends string>(
  t: ObjectBuilder<P>,
  name: N,
  e: UpstreamEnum<V>,
  options: OpenEnumFieldOptions<P, readonly string[]>,
): OpenEnumFields<N> {
  const normalize = options.normalize ?? ((raw: string) => raw);
  const fields = {
    [name]: t.field({
      type: [e.ref as EnumRef<BuilderTypes, string>],
      nullable: true,
      description: `${options.description} Null when the upstream sent no list; UNKNOWN for a value this version of chaingraph does not know (\`${name}Raw\` has them all as sent).`,
      resolve: (parent): string[] | null => options.value(parent)?.map((raw) => e.map(normalize(raw))) ?? null,
    }),
    [`${name}Raw`]: t.stringList({
      nullable: true,
      description: `\`${name}\` exactly as the upstream sent it; null when it sent no list.`,
      resolve: (parent) => {
        const list = options.value(parent);
        return list == null ? null : [...list];
      },
    }),
  };
  return fields as OpenEnumFields<N>;
}

export const SortOrderEnum = builder.enumType('SortOrder', {
  description: 'Sort direction.',
  values: {
    ASC: { value: 'asc', description: 'Ascending.' },
    DESC: { value: 'desc', description: 'Descending.' },
  } as const,
});

/**
 * The currency of an argument and of `Price.currencyCode` alike, so a caller gets back the
 * value it passed (`EUR`, not `eur`); an argument refuses `UNKNOWN` with `CurrencyCodeEnum.bound`.
 */
export const CurrencyCodeEnum = upstreamEnum(
  'CurrencyCode',
  'Currency in which prices are given.',
  Object.fromEntries(CURRENCY_CODES.map((c) => [c.toUpperCase(), { value: c, description: c.toUpperCase() }])) as Record<
    string,
    { value: CurrencyCode; description: string }
  >,
);

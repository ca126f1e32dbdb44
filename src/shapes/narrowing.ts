/**
 * Where the read build narrows an upstream value: the kit leaves whose GraphQL scalar holds less than
 * the JSON the spec allows (a `number` the spec allows that an `Int` cannot show, a `string` the spec
 * leaves free that a `UInt256` must read as digits), each with what it accepts, what it refuses and why.
 *
 * A refused value is a user's missing value (its field answers null with UPSTREAM_PROTOCOL_ERROR), so
 * each rule here is a documented choice: `scripts/refusals.ts` lists, from this table and the read
 * build itself, every upstream field each rule applies to, beside what the public spec says of that
 * property (docs/refusals.md, checked by test/shapes/refusals.test.ts), and the same test reads every
 * `example` of the spec for those properties through the leaf that narrows it.
 */
import type * as v from 'valibot';
import { READ, type Kit, type Leaf } from './kit.ts';
import type { Node } from './fast-read.ts';

/** The kit leaves that narrow a value to what a GraphQL scalar (or the gateway's arithmetic) can hold. */
export type NarrowingLeaf = 'decimal' | 'decimal64' | 'wideInteger' | 'wideInteger256' | 'int32' | 'integer' | 'number' | 'isoTime' | 'priceValue' | 'nodeInteger' | 'nodeFloat';

export interface NarrowingRule {
  /** The kit's leaf (`k.decimal`...). */
  readonly leaf: NarrowingLeaf;
  /** What serves it: a GraphQL scalar, or the gateway's own use of it. */
  readonly servedAs: string;
  /** What the reader accepts, as JSON. */
  readonly accepts: string;
  /** What it refuses (the field answers null with UPSTREAM_PROTOCOL_ERROR). */
  readonly refuses: string;
  /** Why the refusal stays: what could not be served without losing or inventing something. */
  readonly why: string;
  /**
   * The choice made for each form the public spec gives a property this rule reads (its `type`, with
   * `format`, as docs/refusals.md shows it; `(not in the spec)` for a field the spec does not list).
   * test/shapes/refusals.test.ts fails on a form without one: a new field's narrowing is decided, not inherited.
   */
  readonly decisions: Readonly<Record<string, string>>;
}

/** The decision for a field the public spec does not list (a seed field, a variant form mapped onto the seed's). */
const SEED_FIELD = 'not in the public spec (a seed field, or a variant form mapped onto the seed\'s): read in the seed\'s form';

/** Every narrowing the read build makes, in the order the docs list them. */
export const NARROWING_RULES: readonly NarrowingRule[] = [
  {
    leaf: 'decimal',
    servedAs: '`UInt256`',
    accepts: 'a string of decimal digits (leading zeros dropped) or a JSON integer (exact beyond 2^53), 0 to 2^256 - 1',
    refuses: 'words, blanks, signs, fractions, exponents, hex, the empty string, values past 2^256 - 1',
    why: 'an amount in the smallest unit is an integer: reading `1.5` or `1e18` as one would invent or drop digits, and a word has no amount in it',
    decisions: {
      string: 'the spec\'s `string` has no pattern, but its examples and the real answers are decimal digits: digits (and a JSON integer) are read, a word or a fraction is refused',
      '(not in the spec)': SEED_FIELD,
    },
  },
  {
    leaf: 'decimal64',
    servedAs: '`UInt64`',
    accepts: 'as `decimal`, 0 to 2^64 - 1',
    refuses: 'as `decimal`, and values past 2^64 - 1',
    why: 'a block number or a count is an unsigned 64-bit integer; anything else is not a height',
    decisions: {
      string: 'the spec\'s `string` has no pattern; its examples and the real answers are decimal digits: read as `decimal`, up to 2^64 - 1',
    },
  },
  {
    leaf: 'wideInteger',
    servedAs: '`UInt64`',
    accepts: 'a non-negative integral JSON number (an integer-valued float such as `1700000000.0` included; exact beyond 2^53) or a string of decimal digits, 0 to 2^64 - 1',
    refuses: 'negative numbers, fractions (`1.5`), numeric text with a sign, a fraction or an exponent, words, values past 2^64 - 1',
    why: 'unix seconds, heights and lock times are whole and unsigned; truncating `1.5` would serve a time the upstream did not send',
    decisions: {
      number: 'the spec\'s `number` also allows fractions and negatives, which no unix time, height or lock time is and no `UInt64` holds: integral values are read (an integer-valued float, digit text, exact beyond 2^53), a fraction or a negative is refused, never truncated; a time sent in milliseconds is still read (the `DateTime` beside it is null past year 9999)',
      '(not in the spec)': SEED_FIELD,
    },
  },
  {
    leaf: 'wideInteger256',
    servedAs: '`UInt256`',
    accepts: 'as `wideInteger`, 0 to 2^256 - 1',
    refuses: 'as `wideInteger`, and values past 2^256 - 1',
    why: 'wei and gas quantities, chain ids and fees are whole and unsigned',
    decisions: {
      number: 'the spec\'s `number` also allows fractions and negatives, which no chain id, block number or wei amount is: integral values are read, exact beyond 2^53',
      'number or null': 'as `number`; `null` is served as null, without an error',
    },
  },
  {
    leaf: 'int32',
    servedAs: '`Int`',
    accepts: 'an integral JSON number (an integer-valued float included) or a string of decimal digits with an optional minus sign, within -2^31 to 2^31 - 1',
    refuses: 'fractions, words, values outside ±2^31 (a count past 2 147 483 647)',
    why: 'GraphQL `Int` is 32-bit signed: a larger count cannot be served in the field\'s type, and the schema contract keeps the type',
    decisions: {
      number: 'the spec\'s `number` also allows fractions and values past 2^31; counts, indexes, decimals and types are whole, and `Int` is the field\'s type in the schema contract: integer-valued numbers are read, a fraction or a value past ±2^31 is refused',
      string: 'the spec types it a string (a UTXO\'s `outputIndex`, example `"38"`): integer text is read as its number',
      '(not in the spec)': SEED_FIELD,
    },
  },
  {
    leaf: 'integer',
    servedAs: 'the gateway\'s own arithmetic (an id, a status, a duration)',
    accepts: 'a safe integer (within ±2^53)',
    refuses: 'fractions, non-numbers, integers past 2^53 (which `JSON.parse` rounds)',
    why: 'the gateway computes with it: a rounded value would be a wrong one',
    decisions: {},
  },
  {
    leaf: 'number',
    servedAs: '`Float`',
    accepts: 'a finite JSON number, or a numeric string (`"99.5"`, `"1e-3"`)',
    refuses: 'words, blanks, `1e400` (which `JSON.parse` makes Infinity)',
    why: 'a GraphQL `Float` is a finite double',
    decisions: {
      number: 'any finite number is read; numeric text too',
      string: 'only where the spec says `string` or `number` (a usage bucket\'s `groupValue`: a path, a method, a status code), read by a union whose first option takes any string as text: only a number reaches this rule',
    },
  },
  {
    leaf: 'isoTime',
    servedAs: '`DateTime`',
    accepts: 'a string that starts with a date (`YYYY-MM-DD`) and that `Date` parses: RFC 3339 in either case, a space for the `T`, any fraction of a second',
    refuses: 'unix numbers, words, dates `Date` cannot parse',
    why: 'a `DateTime` is served only when it is one; a number here has no stated unit (seconds or milliseconds)',
    decisions: {
      'string (format date-time)': 'RFC 3339 text, which `Date` parses in every form (either case, any fraction of a second): read as sent',
    },
  },
  {
    leaf: 'priceValue',
    servedAs: '`String` (a decimal)',
    accepts: 'any string, or a finite JSON number read as its decimal text',
    refuses: 'non-finite numbers, other JSON types',
    why: 'a price is a decimal; only what has no decimal text is refused',
    decisions: {
      number: 'the spec sends a JSON number: read as its decimal text',
    },
  },
  {
    leaf: 'nodeInteger',
    servedAs: '`Int` (node answers)',
    accepts: 'a number or numeric string that is an integer within ±2^31',
    refuses: 'fractions, words, values outside ±2^31',
    why: 'GraphQL `Int` is 32-bit signed',
    decisions: {},
  },
  {
    leaf: 'nodeFloat',
    servedAs: '`Float` (node answers)',
    accepts: 'a finite number or numeric string',
    refuses: 'words, non-finite numbers',
    why: 'a GraphQL `Float` is a finite double',
    decisions: {},
  },
];

/** The rule of a read-build leaf, found by identity (every description uses the kit's own leaf objects). */
const RULE_OF_LEAF: ReadonlyMap<unknown, NarrowingRule> = new Map(NARROWING_RULES.map((rule) => [READ[rule.leaf as keyof Kit], rule]));

/** The leaf of the read kit a rule names. */
export function readLeafOf(rule: NarrowingRule): Leaf<unknown> {
  return READ[rule.leaf] as Leaf<unknown>;
}

/** One narrowed field of a description: its path (`[]` for a list item, `{}` for a record value) and its rule. */
export interface NarrowedField {
  /** Property keys from the answer's root; `[]` stands for any list item, `{}` for any record value. */
  readonly keys: readonly string[];
  readonly rule: NarrowingRule;
  /** The description takes `null` for the field (served as null, no error): the leaf only reads the other values. */
  readonly nullable: boolean;
}


/**
 * Every narrowed field of a read-build description, each path once (a union's options may list the
 * same path with the same rule). The walk stops at a narrowing leaf: what it holds is the leaf's.
 */
export function narrowedFields(schema: v.GenericSchema): NarrowedField[] {
  const found = new Map<string, NarrowedField>();
  const visit = (node: Node, keys: readonly string[], depth: number, nullable: boolean): void => {
    if (depth > 40) return;
    const rule = RULE_OF_LEAF.get(node);
    if (rule) {
      const id = `${keys.join('.')} ${rule.leaf}`;
      if (!found.has(id)) found.set(id, { keys, rule, nullable });
      return;
    }
    // A piped schema: its head's own structure, and any schema among its actions (`k.variant`'s).
    for (const part of node.pipe?.slice(1) ?? []) if (part.kind === 'schema') visit(part, keys, depth + 1, nullable);
    switch (node.type) {
      case 'optional':
      case 'exact_optional':
        if (node.wrapped) visit(node.wrapped, keys, depth + 1, nullable);
        return;
      case 'nullable':
      case 'nullish':
        if (node.wrapped) visit(node.wrapped, keys, depth + 1, true);
        return;
      case 'array':
        if (node.item) visit(node.item, [...keys, '[]'], depth + 1, false);
        return;
      case 'record':
        if (node.value) visit(node.value, [...keys, '{}'], depth + 1, false);
        return;
      case 'union':
      case 'variant':
        for (const option of node.options ?? []) if (typeof option === 'object' && option !== null) visit(option as Node, keys, depth + 1, nullable);
        return;
      case 'object':
      case 'loose_object':
      case 'strict_object':
        for (const [key, entry] of Object.entries(node.entries ?? {})) visit(entry, [...keys, key], depth + 1, false);
        return;
      default:
        return;
    }
  };
  visit(schema as Node, [], 0, false);
  return [...found.values()];
}

/**
 * The rule that reads an answer's field, from a violation's path (`validators[3].amountStaked`): list
 * indexes stand for any item. Undefined when no narrowing leaf reads it (a missing object, a string
 * field that got a number).
 */
export function ruleAt(schema: v.GenericSchema, path: string): NarrowingRule | undefined {
  const keys = path.replace(/\[\d+\]/g, '.[]').split('.').filter((key) => key !== '');
  const matches = (field: NarrowedField): boolean =>
    field.keys.length === keys.length && field.keys.every((key, i) => key === keys[i] || (key === '{}' && keys[i] !== '[]'));
  return narrowedFields(schema).find(matches)?.rule;
}

import { badInput } from '../errors/graphql.ts';

/**
 * An argument's bound as data: declared beside the argument (`t.arg.int({ bound })`,
 * see `checks-plugin.ts`), applied before execution to the coerced value by
 * `useInputValidation`, and appended to the argument's description. `check` throws
 * BAD_USER_INPUT naming the argument (`path`, e.g. `filter.minTimeRemaining`) and, for
 * an entry of a list, its index. It is called only for non-null values.
 */
export interface Bound {
  /** The bound in words, a sentence ending with a period: appended to the description. */
  readonly describe: string;
  check(value: unknown, path: string, index?: number): void;
}

/** A value as it may appear in an error message: quoted, and cut so a huge argument is not echoed back. */
export function quoteValue(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return JSON.stringify(text.length > 48 ? `${text.slice(0, 48)}…` : text);
}

const entry = (index: number | undefined): string => (index === undefined ? '' : ` (entry ${index})`);

/** A number (Int or Float) from `min` to `max`, both included. */
export function between(min: number, max: number): Bound {
  return {
    describe: `From ${min} to ${max}.`,
    check(value, path, index) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
        throw badInput(path, `must be between ${min} and ${max}${entry(index)}`);
      }
      // Sent upstream as written by String(): an exponent form would not be read back as the number.
      if (/e/i.test(String(value))) throw badInput(path, `must be a plain decimal between ${min} and ${max} (0, or at least 0.000001 in magnitude)`);
    },
  };
}

/** A decimal string (`UInt256`) from `min` to `max`, both included. */
export function bigBetween(min: bigint, max: bigint): Bound {
  return {
    describe: `From ${min} to ${max}.`,
    check(value, path, index) {
      let n: bigint;
      try {
        n = BigInt(String(value));
      } catch {
        throw badInput(path, `must be a decimal integer${entry(index)}`);
      }
      if (n < min || n > max) throw badInput(path, `must be between ${min} and ${max}${entry(index)}`);
    },
  };
}

/** A string matching a grammar; `what` names it in the error ("a node id: NodeID- followed by ..."). */
export function grammar(describe: string, what: string, test: (value: string) => boolean): Bound {
  return {
    describe,
    check(value, path, index) {
      if (typeof value !== 'string' || !test(value)) throw badInput(path, `${quoteValue(value)}${entry(index)} is not ${what}`);
    },
  };
}

/** A bound from a check written as `(argument, value, index?) => void` (the grammars of `input-checks.ts`). */
export function fromCheck(describe: string, check: (argument: string, value: unknown, index?: number) => void): Bound {
  return { describe, check: (value, path, index) => check(path, value, index) };
}

/** Options of {@link listOf}. */
export interface ListBound {
  /** Most entries. */
  max: number;
  /** The bound of each entry. */
  item?: Bound;
  /** Refuse an empty list. */
  nonEmpty?: boolean;
}

/** A list of at most `max` entries, each within `item`. */
export function listOf({ max, item, nonEmpty = false }: ListBound): Bound {
  const size = nonEmpty ? `1 to ${max} values` : `At most ${max} values`;
  return {
    describe: item ? `${size}; each: ${lowerFirst(item.describe)}` : `${size}.`,
    check(value, path) {
      if (!Array.isArray(value)) throw badInput(path, 'must be a list');
      if (nonEmpty && value.length === 0) throw badInput(path, 'give at least one value');
      if (value.length > max) throw badInput(path, `at most ${max} values (got ${value.length})`);
      if (item) value.forEach((v, i) => item.check(v, path, i));
    },
  };
}

/** Two bounds, both applied (e.g. a grammar and a length). */
export function both(first: Bound, second: Bound): Bound {
  return {
    describe: `${first.describe} ${second.describe}`,
    check(value, path, index) {
      first.check(value, path, index);
      second.check(value, path, index);
    },
  };
}

const lowerFirst = (text: string): string => (text ? text[0]!.toLowerCase() + text.slice(1) : text);

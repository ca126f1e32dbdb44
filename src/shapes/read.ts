/**
 * The tolerant reader: what the clients pass every upstream answer through.
 *
 * An answer is read against its description (built with the `READ` kit: unknown
 * fields ignored, unknown enum values kept raw, the spec's variant forms mapped
 * onto the seed's). Valid answers, nearly all of them, take the compiled fast path
 * (`fast-read.ts`); the others are parsed by valibot, which reports each broken field.
 * The read build's transforms must be idempotent: the fast path may have applied some
 * of them in place before it gives up.
 *
 * A field that is missing or of the wrong type does not fail the answer: the read
 * object gets, for that property, an enumerable getter that throws the error made
 * by `toError` (the upstream layer's protocol error), so only the code that reads
 * the field fails, and a GraphQL field that resolves it errors while its siblings
 * are data. Enumerable, so a copy made by spreading the object fails loudly with
 * the same error instead of silently losing the field; `JSON.stringify` leaves the
 * field out (each such object gets a `toJSON`), and {@link violationsOf} lists the
 * broken fields so a cache can put them back on a copy ({@link withViolations}).
 * Code that adds fields to an item should copy it with {@link withFields}, which
 * keeps the getters, rather than spread it.
 *
 * An answer that is not even the right container fails as a whole: not an object,
 * or one of the `containers` fields (the item list of a page) missing or not a list.
 * An item of a list that is not an object breaks the list it is in.
 */
import * as v from 'valibot';
import { fastReader, MISS, type OmittedPaths } from './fast-read.ts';
import { INEXACT_INTEGER } from './kit.ts';

export type PathKey = string | number;

/** One field of an answer that does not match its description. */
export interface Violation {
  /** Where, as property keys from the answer's root (empty: the answer itself). */
  readonly keys: readonly PathKey[];
  /** Where, as text: `validators[3].nodeId`; `(answer)` for the answer itself. */
  readonly path: string;
  /** What is wrong: `missing`, or `expected string, received 12`. */
  readonly reason: string;
  /** True when the answer as a whole cannot be used (see {@link ReadOptions.containers}). */
  readonly whole: boolean;
}

/** Makes the error a broken field throws (or, for a {@link Violation.whole} one, the read). */
export type ViolationError = (violation: Violation) => Error;

export interface ReadOptions {
  /**
   * Top-level fields without which the answer is useless, such as the item list of
   * a page: a violation of one of them fails the whole read. Default none.
   */
  readonly containers?: readonly string[];
  /**
   * The same answer parsed with exact integers (`parseExactJson`, `src/lib/exact-json.ts`). `JSON.parse`
   * rounds an integer beyond 2^53; when an integer field holds one (`INEXACT_INTEGER`), the answer is
   * read again from this parse, where such a literal is the string of its digits: a wide integer or an
   * amount keeps every digit, a count that cannot hold it is broken. Asked for only then, so the
   * common answer costs one `JSON.parse`. Without it, such a field is broken.
   */
  readonly exact?: () => unknown;
  /**
   * Parts of the answer to leave out (`src/schema/projection.ts`): not checked, not copied, absent
   * from what is read. Only for an answer read for one request alone; never for one a cache shares.
   */
  readonly omit?: OmittedPaths;
}

/** A broken field of a read answer, and the error reading it throws. */
export interface RecordedViolation {
  readonly keys: readonly PathKey[];
  readonly error: Error;
}

const recorded = new WeakMap<object, readonly RecordedViolation[]>();
/** Objects that hold a broken field themselves (not only deeper down). */
const holders = new WeakSet<object>();

/**
 * Reads `raw` (a freshly parsed JSON object, which it may update in place) against `schema`.
 * Throws `toError(violation)` when the answer as a whole is unusable.
 */
export function readShape<T>(schema: v.GenericSchema<unknown, T>, raw: unknown, toError: ViolationError, options: ReadOptions = {}): T {
  // Every answer of both APIs is a JSON object (valibot's objects would take an array).
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const kind = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    throw toError(wholeViolation(`expected an object, received ${kind}`));
  }
  // Nearly every answer matches: checked and transformed in place by the compiled fast path.
  const fast = fastReader(schema, options.omit)(raw);
  if (fast !== MISS) return fast as T;
  // valibot reads what is left once the omitted parts are gone, so none of them is checked or kept.
  if (options.omit) for (const path of options.omit) dropPath(raw, path.split('.'));
  const result = v.safeParse(schema, raw);
  if (result.success) return result.output;
  // Read once more from the exact parse; there a number beyond 2^53 in an integer field is broken like any other.
  if (options.exact && result.issues.some(isInexact)) return readShape(schema, options.exact(), toError, { ...options, exact: undefined });
  const containers = options.containers ?? [];
  const broken = new Map<string, Violation>();
  for (const issue of result.issues) {
    const violation = violationOf(issue, containers);
    if (violation.whole) throw toError(violation);
    if (!broken.has(violation.path)) broken.set(violation.path, violation);
  }
  const output: unknown = result.output;
  if (typeof output !== 'object' || output === null) throw toError(wholeViolation('not an object'));
  const violations: RecordedViolation[] = [];
  // Shallow slots first: a broken field inside a field that is itself broken is not reached.
  for (const violation of [...broken.values()].sort((a, b) => a.keys.length - b.keys.length)) {
    if (violations.some((done) => isPrefix(done.keys, violation.keys))) continue;
    const error = toError(violation);
    if (!installGetter(output, violation.keys, error)) throw toError({ ...violation, whole: true });
    violations.push({ keys: violation.keys, error });
  }
  recorded.set(output, violations);
  // Every property is of its described type, except the broken ones, whose getters throw.
  return output as T;
}

/** The broken fields of an answer read by {@link readShape}; undefined when it matched its description. */
export function violationsOf(value: unknown): readonly RecordedViolation[] | undefined {
  return typeof value === 'object' && value !== null ? recorded.get(value) : undefined;
}

/**
 * Puts the broken fields of an answer back on a copy of it (a cache hands out
 * `JSON.parse` copies, which lose them): each throws its error again when read.
 */
export function withViolations<T>(copy: T, violations: readonly RecordedViolation[]): T {
  if (typeof copy !== 'object' || copy === null) return copy;
  for (const violation of violations) installGetter(copy, violation.keys, violation.error);
  recorded.set(copy, violations);
  return copy;
}

/**
 * `{ ...item, ...fields }` that keeps the broken fields of a read answer. A spread
 * reads every property, so it throws at the first broken one and the whole item
 * fails; this copies them as getters, so only the code that reads one fails. For an
 * item without broken fields it is the spread.
 */
export function withFields<T extends object, F extends object>(item: T, fields: F): T & F {
  if (!holders.has(item)) return { ...item, ...fields };
  const copy: object = Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(item), ...Object.getOwnPropertyDescriptors(fields) });
  holders.add(copy);
  // The copy has every property of `item` (the broken ones as their throwing getters) and of `fields`.
  return copy as T & F;
}

/**
 * {@link withFields} for items of shared, frozen answers (the upstream cache hands every
 * request the same deep-frozen value): the copy is made once per item and these field
 * values, frozen, and handed out again while the item lives (`memo` is a WeakMap keyed by
 * the item, so it holds nothing the cache has let go; at most one copy per item, of its
 * top-level slots: the values inside are the item's own). An item that is not frozen was read
 * for this request alone: the fields go on the item itself, which keeps its broken fields'
 * getters and costs no copy of every field (a walk tags some 500 items so). `fields` holds
 * primitives only, the same for an item wherever it is tagged (its network, its node).
 */
export function withSharedFields<T extends object, F extends Record<string, string | number | boolean>>(
  item: T,
  fields: F,
  memo: WeakMap<object, T & F>,
): T & F {
  if (!Object.isFrozen(item)) return Object.isExtensible(item) ? Object.assign(item, fields) : withFields(item, fields);
  const known = memo.get(item);
  if (known && sameFields(known, fields)) return known;
  const copy = Object.freeze(withFields(item, fields));
  memo.set(item, copy);
  return copy;
}

function sameFields(copy: object, fields: Record<string, unknown>): boolean {
  for (const key in fields) if ((copy as Record<string, unknown>)[key] !== fields[key]) return false;
  return true;
}

/** Deletes the part at `segments` (an {@link OmittedPaths} path, split at `.`) wherever it is in `value`. */
function dropPath(value: unknown, segments: readonly string[]): void {
  const [segment, ...rest] = segments;
  if (segment === undefined || typeof value !== 'object' || value === null) return;
  const name = /^[^[{]*/.exec(segment)?.[0] ?? segment;
  const spreads = segment.slice(name.length).match(/\[\]|\{\}/g) ?? [];
  const record = value as Record<string, unknown>;
  if (spreads.length === 0 && rest.length === 0) {
    delete record[name];
    return;
  }
  // Each `[]` or `{}` steps into every item of a list or value of a record.
  let level: unknown[] = [record[name]];
  for (const spread of spreads) {
    level = level.flatMap((item) => (spread === '[]' ? (Array.isArray(item) ? item : []) : typeof item === 'object' && item !== null ? Object.values(item) : []));
  }
  for (const item of level) dropPath(item, rest);
}

/** An integer field holding a number `JSON.parse` may have rounded (inside a union's issues too). */
function isInexact(issue: v.BaseIssue<unknown>): boolean {
  return issue.message === INEXACT_INTEGER || (issue.issues?.some(isInexact) ?? false);
}

function wholeViolation(reason: string): Violation {
  return { keys: [], path: '(answer)', reason, whole: true };
}

function violationOf(issue: v.BaseIssue<unknown>, containers: readonly string[]): Violation {
  const keys: PathKey[] = [];
  for (const item of issue.path ?? []) {
    const key: unknown = 'key' in item ? item.key : undefined;
    if (typeof key !== 'string' && typeof key !== 'number') break;
    keys.push(key);
  }
  // A list item that is not even an object breaks the list it is in.
  while (typeof keys[keys.length - 1] === 'number') keys.pop();
  const reason = issue.kind === 'schema' && issue.type === 'object' && issue.received === 'undefined'
    ? 'missing'
    : `expected ${issue.expected ?? 'another value'}, received ${issue.received}`;
  const first = keys[0];
  const whole = keys.length === 0 || (keys.length === 1 && typeof first === 'string' && containers.includes(first));
  return { keys, path: keys.length === 0 ? '(answer)' : pathText(keys), reason, whole };
}

function pathText(keys: readonly PathKey[]): string {
  return keys.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
}

function isPrefix(prefix: readonly PathKey[], keys: readonly PathKey[]): boolean {
  return prefix.length <= keys.length && prefix.every((key, i) => keys[i] === key);
}

/** Makes `keys` (from `root`) a getter that throws `error`; false when its parent is not an object. */
function installGetter(root: object, keys: readonly PathKey[], error: Error): boolean {
  let parent: unknown = root;
  for (const key of keys.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return false;
    parent = Reflect.get(parent, key);
  }
  const last = keys[keys.length - 1];
  if (typeof parent !== 'object' || parent === null || last === undefined) return false;
  Object.defineProperty(parent, last, {
    get() {
      throw error;
    },
    enumerable: true,
    configurable: true,
  });
  holders.add(parent);
  if (!Object.prototype.hasOwnProperty.call(parent, 'toJSON')) {
    Object.defineProperty(parent, 'toJSON', { value: withoutBrokenFields, enumerable: false, configurable: true });
  }
  return true;
}

/** `toJSON` of an object with broken fields: its other own enumerable properties. */
function withoutBrokenFields(this: object): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(this)) {
    const descriptor = Object.getOwnPropertyDescriptor(this, key);
    if (descriptor && 'value' in descriptor) copy[key] = descriptor.value;
  }
  return copy;
}

import * as v from 'valibot';
import { strictShapes, type NodeResultShapes, type Shapes } from '../../src/shapes/index.ts';

/**
 * Conformance checking against the strict build of the upstream descriptions
 * (src/shapes): what the devnet serves must have the seed's form exactly (every
 * required field, the seed's formats and enums, the fields its status requires).
 * Reports every mismatch of an instance at once, with JSON paths, and which fields
 * of each described object no instance carried.
 */

export const { shapes: STRICT_SHAPES, nodeResults: STRICT_NODE_RESULTS }: { shapes: Shapes; nodeResults: NodeResultShapes } = strictShapes();

type Schema = v.GenericSchema;
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function pathOf(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => {
    const key: unknown = 'key' in item ? item.key : undefined;
    return typeof key === 'number' ? `[${key}]` : typeof key === 'string' ? (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`) : '[?]';
  }).join('');
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema' && issue.type === 'object' && issue.received === 'undefined') return 'missing';
  if (issue.kind === 'schema') return `expected ${issue.expected ?? issue.type}, got ${issue.received}`;
  if (issue.type === 'raw_check') return issue.message;
  return `${issue.message}, got ${issue.received}`;
}

/** Every mismatch of `value` against `schema` (a strict shape), one line each, prefixed with its JSON path. */
export function mismatches(value: unknown, schema: Schema, coverage?: Coverage): string[] {
  coverage?.walk(schema, value);
  const result = v.safeParse(schema, value);
  if (result.success) return [];
  return result.issues.map((issue) => `$${pathOf(issue)}: ${describeIssue(issue)}`);
}

/**
 * Collapses repeated mismatches of list items (`[3]`, `[17]` ... become `[*]`)
 * into one line with a count, so a failure over a long page stays readable.
 */
export function summarize(lines: readonly string[]): string[] {
  const counts = new Map<string, { first: string; n: number }>();
  for (const line of lines) {
    const key = line.replace(/\[\d+\]/g, '[*]').replace(/, got .*$/, '');
    const entry = counts.get(key);
    if (entry) entry.n += 1;
    else counts.set(key, { first: line, n: 1 });
  }
  return [...counts.values()].map(({ first, n }) => (n > 1 ? `${first} (and ${n - 1} more like it)` : first));
}

const isSchema = (value: unknown): value is Schema => isObject(value) && value.kind === 'schema' && typeof value['~run'] === 'function';

/** A part of a valibot schema (`wrapped`, `item`, `value`), or undefined. */
function part(schema: Schema, key: 'wrapped' | 'item' | 'value'): Schema | undefined {
  const value: unknown = Reflect.get(schema, key);
  return isSchema(value) ? value : undefined;
}

function entriesOf(schema: Schema): [string, Schema][] {
  const entries: unknown = Reflect.get(schema, 'entries');
  return isObject(entries) ? Object.entries(entries).flatMap(([key, entry]): [string, Schema][] => (isSchema(entry) ? [[key, entry]] : [])) : [];
}

function optionsOf(schema: Schema): Schema[] {
  const options: unknown = Reflect.get(schema, 'options');
  return Array.isArray(options) ? options.filter(isSchema) : [];
}

/** Names of the described objects: the shape's name, `info.peers result`, or the path from the nearest named one. */
const NAMES = new Map<Schema, string>([
  // A shape's own name wins over a method's (health.health, readiness and liveness all answer a HealthReport).
  ...Object.entries(STRICT_NODE_RESULTS).map(([method, schema]): [Schema, string] => [schema, `${method} result`]),
  ...Object.entries(STRICT_SHAPES.HealthCheckMessages).map(([name, schema]): [Schema, string] => [schema, `${name} check message`]),
  ...Object.entries(STRICT_SHAPES).flatMap(([name, schema]): [Schema, string][] => (isSchema(schema) ? [[schema, name]] : [])),
]);

/** Which fields of each described object were present, across every checked instance. */
export class Coverage {
  private readonly seen = new Map<string, { fields: readonly string[]; present: Set<string> }>();

  walk(schema: Schema, value: unknown, name = NAMES.get(schema) ?? '(answer)'): void {
    const named = NAMES.get(schema) ?? name;
    switch (schema.type) {
      case 'object': {
        const entries = entriesOf(schema);
        let record = this.seen.get(named);
        if (!record) this.seen.set(named, (record = { fields: entries.map(([key]) => key), present: new Set() }));
        if (!isObject(value)) return;
        for (const [key, entry] of entries) {
          if (value[key] === undefined) continue;
          record.present.add(key);
          this.walk(entry, value[key], `${named}.${key}`);
        }
        return;
      }
      case 'optional':
      case 'nullable':
      case 'nullish': {
        const wrapped = part(schema, 'wrapped');
        if (value !== undefined && value !== null && wrapped) this.walk(wrapped, value, named);
        return;
      }
      case 'array': {
        const item = part(schema, 'item');
        if (Array.isArray(value) && item) for (const element of value) this.walk(item, element, `${named}[]`);
        return;
      }
      case 'record': {
        const item = part(schema, 'value');
        if (isObject(value) && item) for (const element of Object.values(value)) this.walk(item, element, `${named}{}`);
        return;
      }
      case 'union': {
        const option = optionsOf(schema).find((o) => v.is(o, value));
        if (option) this.walk(option, value, named);
        return;
      }
      default:
        return;
    }
  }

  /** `Object.field` for every field of a checked object that no instance carried. */
  neverSeen(): string[] {
    const out: string[] = [];
    for (const [name, { fields, present }] of this.seen) for (const field of fields) if (!present.has(field)) out.push(`${name}.${field}`);
    return out.sort();
  }

  /** Names of the objects checked at least once. */
  checked(): string[] {
    return [...this.seen.keys()].sort();
  }
}

/** Collects the mismatches of many instances, each labelled with where it came from. */
export class Findings {
  private readonly lines: string[] = [];

  constructor(private readonly coverage?: Coverage) {}

  check(label: string, value: unknown, schema: Schema): void {
    for (const line of mismatches(value, schema, this.coverage)) this.lines.push(`${label} ${line}`);
  }

  /** A finding that is not a shape mismatch (a conditional requirement). */
  add(line: string): void {
    this.lines.push(line);
  }

  /** Every finding, collapsed (see {@link summarize}); a test expects none. */
  summary(): string[] {
    return summarize(this.lines);
  }
}

/** The list under `key` of a JSON object, or none. */
export const list = <T = Json>(body: Json, key: string): T[] => {
  const items = body[key];
  return Array.isArray(items) ? (items as T[]) : [];
};

/** A query string from defined parameters. */
export const q = (params: Record<string, string | number | undefined>): string =>
  new URLSearchParams(Object.entries(params).flatMap(([k, value]) => (value === undefined ? [] : [[k, String(value)]]))).toString();

/**
 * docs/refusals.md, generated: every upstream field the tolerant reader narrows (src/shapes/narrowing.ts),
 * by rule, beside what the public Data API spec says of that property (its type, format, pattern, and
 * the examples it gives). Also the facts test/shapes/refusals.test.ts checks: every spec example of a
 * narrowed property is accepted by the leaf that reads it.
 *
 *   tsx scripts/refusals.ts          writes docs/refusals.md
 *   tsx scripts/refusals.ts --check  fails when docs/refusals.md is not what the code gives
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as v from 'valibot';
import { NARROWING_RULES, narrowedFields, type NarrowingLeaf, type NarrowingRule } from '../src/shapes/narrowing.ts';
import { ENDPOINTS, shapeOf, type EndpointRow } from '../src/upstream/endpoints.ts';

const specPath = fileURLToPath(new URL('../test/data/glacier-openapi.json', import.meta.url));
export const REFUSALS_DOC = fileURLToPath(new URL('../docs/refusals.md', import.meta.url));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A property of the spec at a narrowed path: its schemas (one per alternative) and where it is defined. */
interface SpecProperty {
  /** `Component.property` where a component defines it, else the operation and path. */
  where: string[];
  /** `number`, `string (date-time)`, `integer, minimum 0`... one per distinct alternative. */
  types: string[];
  /** Every `example`/`examples` value the spec gives for it, on the property or inside an enclosing object's example. */
  examples: Json[];
}

/** One narrowed upstream field of one operation. */
export interface Narrowing {
  operationId: string;
  /** Path keys from the answer's root (`[]` any item, `{}` any record value). */
  keys: readonly string[];
  rule: NarrowingRule;
  /** The description takes `null` for it (served as null, no error). */
  nullable: boolean;
  /** Undefined when the spec does not have the property (a seed field, or a node answer). */
  spec: SpecProperty | undefined;
}

const spec = JSON.parse(readFileSync(specPath, 'utf8')) as JsonObject;

function component(ref: string): { name: string; schema: JsonObject } {
  const name = ref.replace('#/components/schemas/', '');
  const schemas = (spec['components'] as JsonObject)['schemas'] as JsonObject;
  const schema = schemas[name];
  if (!isObject(schema)) throw new Error(`no component ${ref}`);
  return { name, schema };
}

/** A schema with its component name (when reached through a `$ref`), its alternatives spread (allOf, oneOf, anyOf). */
interface Located {
  schema: JsonObject;
  component?: string;
}

function alternatives(schema: Json | undefined, owner?: string, depth = 0): Located[] {
  if (!isObject(schema) || depth > 20) return [];
  if (typeof schema['$ref'] === 'string') {
    const { name, schema: target } = component(schema['$ref']);
    return alternatives(target, name, depth + 1);
  }
  const parts = ['allOf', 'oneOf', 'anyOf'].flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as Json[]) : []));
  const self: Located = owner === undefined ? { schema } : { schema, component: owner };
  return [self, ...parts.flatMap((part) => alternatives(part, owner, depth + 1))];
}

function examplesOf(schema: JsonObject): Json[] {
  const found: Json[] = [];
  if ('example' in schema) found.push(schema['example'] as Json);
  if (Array.isArray(schema['examples'])) found.push(...schema['examples']);
  return found;
}

/** The values at `keys` inside an example value (lists and records spread). */
function drill(value: Json, keys: readonly string[]): Json[] {
  if (keys.length === 0) return [value];
  const [key, ...rest] = keys as [string, ...string[]];
  if (key === '[]') return Array.isArray(value) ? value.flatMap((item) => drill(item, rest)) : [];
  if (key === '{}') return isObject(value) ? Object.values(value).flatMap((item) => drill(item, rest)) : [];
  return isObject(value) && key in value ? drill(value[key] as Json, rest) : [];
}

function typeText(schema: JsonObject): string | undefined {
  const type = Array.isArray(schema['type']) ? schema['type'].join(' or ') : typeof schema['type'] === 'string' ? schema['type'] : undefined;
  if (type === undefined) return undefined;
  const more = [
    typeof schema['format'] === 'string' ? `format ${schema['format']}` : '',
    typeof schema['pattern'] === 'string' ? `pattern \`${schema['pattern']}\`` : '',
    typeof schema['minimum'] === 'number' ? `minimum ${schema['minimum']}` : '',
    typeof schema['maximum'] === 'number' ? `maximum ${schema['maximum']}` : '',
    Array.isArray(schema['enum']) ? 'enum' : '',
  ].filter(Boolean);
  return more.length > 0 ? `${type} (${more.join(', ')})` : type;
}

/** The spec's property at `keys` under `root`, or undefined when no alternative has it. */
function specProperty(root: Json, keys: readonly string[], operationId: string): SpecProperty | undefined {
  let level: Located[] = alternatives(root);
  const examples: Json[] = [];
  for (const [i, key] of keys.entries()) {
    // An enclosing object's example holds this property's value further down.
    for (const { schema } of level) for (const example of examplesOf(schema)) examples.push(...drill(example, keys.slice(i)));
    const next: Located[] = [];
    for (const { schema } of level) {
      const child = key === '[]' ? schema['items'] : key === '{}' ? schema['additionalProperties'] : isObject(schema['properties']) ? schema['properties'][key] : undefined;
      if (child !== undefined) next.push(...alternatives(child));
    }
    if (next.length === 0) return undefined;
    const owners = [...new Set(level.flatMap(({ component: name, schema }) => (name !== undefined && isObject(schema['properties']) && key in schema['properties'] ? [name] : [])))];
    if (i === keys.length - 1) {
      for (const { schema } of next) examples.push(...examplesOf(schema));
      const types = [...new Set(next.map(({ schema }) => typeText(schema)).filter((t): t is string => t !== undefined))];
      return { where: owners.length > 0 ? owners.map((name) => `${name}.${key}`) : [`${operationId}: ${keys.join('.')}`], types, examples };
    }
    level = next;
  }
  return undefined;
}

function responseSchema(operationId: string): Json | undefined {
  for (const ops of Object.values(spec['paths'] as JsonObject)) {
    if (!isObject(ops)) continue;
    for (const op of Object.values(ops)) {
      if (!isObject(op) || op['operationId'] !== operationId || !isObject(op['responses'])) continue;
      for (const [status, response] of Object.entries(op['responses'])) {
        if (!status.startsWith('2') || !isObject(response) || !isObject(response['content'])) continue;
        const json = response['content']['application/json'];
        if (isObject(json)) return json['schema'];
      }
    }
  }
  return undefined;
}

const CHAINS = ['p-chain', 'x-chain', 'c-chain'] as const;

/** The shapes a row reads its answers through (one per chain for the rows read by chain). */
function shapesOf(row: EndpointRow): v.GenericSchema[] {
  return typeof row.shape === 'string' ? [shapeOf(row, undefined)] : CHAINS.map((chain) => shapeOf(row, chain));
}

/** Every narrowed field of every Data API answer, with what the spec says of it. */
export function narrowings(): Narrowing[] {
  const out: Narrowing[] = [];
  for (const row of Object.values(ENDPOINTS) as EndpointRow[]) {
    const root = responseSchema(row.operationId);
    const seen = new Set<string>();
    for (const shape of shapesOf(row)) {
      for (const field of narrowedFields(shape)) {
        const id = `${field.keys.join('.')} ${field.rule.leaf}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({ operationId: row.operationId, keys: field.keys, rule: field.rule, nullable: field.nullable, spec: root === undefined ? undefined : specProperty(root, field.keys, row.operationId) });
      }
    }
  }
  return out;
}

const cell = (text: string): string => text.replaceAll('|', '\\|');
const shownExample = (value: Json): string => {
  const text = JSON.stringify(value);
  return `\`${text.length > 40 ? `${text.slice(0, 40)}…` : text}\``;
};

/** The forms the spec gives a narrowed field (`(not in the spec)` when it does not list it). */
export function specForms(row: Narrowing): string[] {
  if (!row.spec) return [NOT_IN_SPEC];
  return row.spec.types.length > 0 ? row.spec.types : ['(no type)'];
}
const NOT_IN_SPEC = '(not in the spec)';

/** A row per spec property (or, outside the spec, per operation path): what the spec says, and its examples. */
function ruleTable(rows: readonly Narrowing[]): string[] {
  const byWhere = new Map<string, { types: Set<string>; examples: Set<string>; operations: Set<string> }>();
  for (const row of rows) {
    const where = row.spec ? row.spec.where.join(', ') : `${row.operationId}: ${row.keys.join('.')}`;
    const entry = byWhere.get(where) ?? { types: new Set(), examples: new Set(), operations: new Set() };
    for (const form of specForms(row)) entry.types.add(form);
    for (const example of row.spec?.examples ?? []) entry.examples.add(shownExample(example));
    entry.operations.add(row.operationId);
    byWhere.set(where, entry);
  }
  return [
    '| Upstream field | The spec says | Spec examples | Operations |',
    '|---|---|---|---|',
    ...[...byWhere]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([where, e]) => `| ${cell(where)} | ${cell([...e.types].join('; ') || '(no type)')} | ${cell([...e.examples].slice(0, 3).join(' ') || '—')} | ${e.operations.size} |`),
  ];
}

/** The generated document. */
export function refusalsDoc(): string {
  const all = narrowings();
  const byRule = new Map<NarrowingLeaf, Narrowing[]>();
  for (const row of all) byRule.set(row.rule.leaf, [...(byRule.get(row.rule.leaf) ?? []), row]);
  const properties = new Set(all.map((row) => (row.spec ? row.spec.where.join(', ') : `${row.operationId}: ${row.keys.join('.')}`)));
  const lines = [
    '# Upstream values chaingraph refuses',
    '',
    '<!-- Generated by `tsx scripts/refusals.ts` from src/shapes/narrowing.ts, the read build of src/shapes and the spec',
    '     in test/data/glacier-openapi.json; test/shapes/refusals.test.ts fails when it is stale. Do not edit by hand. -->',
    '',
    'chaingraph types upstream values exactly ([types on the wire](api.md#types-on-the-wire)). Where the Data API',
    'sends a value the field\'s scalar cannot hold, the tolerant reader refuses that one value: the GraphQL field',
    'reading it answers `null` with an `UPSTREAM_PROTOCOL_ERROR` naming the upstream field (`extensions.upstreamField`),',
    'and its siblings keep their data. Each refusal below is a choice: the reader takes every lossless form of the',
    'value (a numeric string for a number, an integer-valued float for an integer, a JSON integer for a decimal',
    'string), and refuses only what it could not serve without inventing or dropping digits. Every `example` the',
    'spec gives for these properties is read by test/shapes/refusals.test.ts through the rule that narrows it, and',
    'accepted.',
    '',
    'Two other refusals are not narrowings of a scalar, and keep their own reasons: a value read from one answer',
    'that a link would send onward as a path or query parameter (a chain id, a transaction hash, a node id) is',
    'checked against that parameter\'s grammar first, and a value outside it (words, separators, dot segments) is',
    'not sent (`extensions.parameter` names it), so an upstream answer can never steer a request elsewhere; and a',
    'value that reaches a scalar\'s serializer without fitting it (the backstop; the readers below keep it',
    'from happening) is refused by the serializer, naming the type only.',
    '',
    `${all.length} narrowed fields of ${new Set(all.map((row) => row.operationId)).size} Data API operations, ${properties.size} distinct properties, under ${byRule.size} rules.`,
    '',
    '## The rules',
    '',
    '| Rule (`k.…` in src/shapes) | Served as | Accepted | Refused | Why the refusal stays | Fields |',
    '|---|---|---|---|---|---|',
    ...NARROWING_RULES.filter((rule) => byRule.has(rule.leaf)).map(
      (rule) => `| \`${rule.leaf}\` | ${cell(rule.servedAs)} | ${cell(rule.accepts)} | ${cell(rule.refuses)} | ${cell(rule.why)} | ${byRule.get(rule.leaf)?.length ?? 0} |`,
    ),
  ];
  for (const rule of NARROWING_RULES) {
    const rows = byRule.get(rule.leaf);
    if (!rows) continue;
    const forms = new Map<string, Set<string>>();
    for (const row of rows) {
      for (const form of specForms(row)) forms.set(form, (forms.get(form) ?? new Set()).add(row.spec ? row.spec.where.join(', ') : row.keys.join('.')));
    }
    lines.push('', `## \`${rule.leaf}\`: served as ${rule.servedAs}`, '', 'What the spec says of these properties, and the choice made for each form:', '');
    for (const [form, where] of [...forms].sort(([a], [b]) => (a < b ? -1 : 1))) {
      lines.push(`- **${form === NOT_IN_SPEC ? form : `\`${form}\``}** (${where.size} ${where.size === 1 ? 'property' : 'properties'}): ${rule.decisions[form] ?? '(no decision)'}.`);
    }
    lines.push('', ...ruleTable(rows));
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = refusalsDoc();
  if (process.argv.includes('--check')) {
    if (readFileSync(REFUSALS_DOC, 'utf8') !== text) {
      console.error('docs/refusals.md is stale: run `tsx scripts/refusals.ts`');
      process.exit(1);
    }
  } else writeFileSync(REFUSALS_DOC, text);
}

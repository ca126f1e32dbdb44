import facts from './spec-facts.json' with { type: 'json' };

/**
 * A walk over a Data API answer along the real spec's schemas (`spec-facts.json`, derived by
 * `scripts/spec-facts.ts`), changing it only in ways those schemas allow: the one place that knows which
 * schemas apply to a value (refs, `allOf`, the branch of a `oneOf` it is), which properties are required
 * and what a value must be to stay valid. Two rewriters walk with it: the oddities mode (`oddities.ts`:
 * unusual values, drawn per request) and the plain devnet's sparse records (`sparse.ts`: optional fields
 * left out and an enum's `UNKNOWN` now and then, decided per record).
 *
 * Its guarantees, whatever a rewriter decides: a required property is never left out, a `oneOf` keeps
 * matching exactly the branch it matched, and two things stay as the devnet made them because changing
 * them would make the devnet inconsistent with itself, not odd: `nextPageToken` (the real API reads back
 * only its own tokens) and discriminator properties (which say which `oneOf` branch an object is).
 */

/** A JSON Schema as `spec-facts.json` keeps it: only the keywords that decide validity. */
export type Schema = boolean | SchemaObject;
export interface SchemaObject {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: Schema;
  discriminator?: { propertyName: string; mapping: Record<string, string> };
  /** A component's name (the script strips `#/components/schemas/`). */
  $ref?: string;
}

export interface SpecFacts {
  source: { file: string; title: string | null; version: string | null; sha256: string };
  /** By `"<METHOD> <path template>"`, the schema of each success status. */
  operations: Record<string, Record<string, Schema>>;
  schemas: Record<string, Schema>;
}

export const SPEC_FACTS = facts as unknown as SpecFacts;

/**
 * A number literal written as it is (the parsed value of `text` would lose digits or its form):
 * `18446744073709551615`, `5.0`, `1E+21`. Serialized by {@link oddJson}.
 */
export class RawNumber {
  constructor(readonly text: string) {}
  get value(): number {
    return Number(this.text);
  }
}

/** A JSON value as the walk handles it: numbers may be {@link RawNumber} literals. */
export type Json = null | boolean | number | string | RawNumber | Json[] | { [key: string]: Json };

/** A oneOf met on the way: its branches, those the value matched before the change (computed when asked), and the branch it is. */
interface OneOfChoice {
  branches: Schema[];
  before: () => Schema[];
  chosen: Schema;
}

/** The branch of `schema.oneOf` that the value's discriminator property names, if it has one. */
function discriminated(schema: SchemaObject, value: Json): Schema | undefined {
  const discriminator = schema.discriminator;
  if (!discriminator || value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof RawNumber) return undefined;
  const tag = value[discriminator.propertyName];
  const name = typeof tag === 'string' ? discriminator.mapping[tag] : undefined;
  return name === undefined ? undefined : schema.oneOf?.find((branch) => typeof branch === 'object' && branch.$ref === name);
}

/** Properties never changed nor left out, whatever their schema says (see the module comment). */
const KEPT_PROPERTIES = new Set(['nextPageToken']);

/** The schema of an answer of `route` (`"GET /v1/..."`, the devnet's stats key) with this status, if the spec has one. */
export function answerSchema(spec: SpecFacts, route: string, status: number): Schema | undefined {
  const answers = spec.operations[route];
  if (!answers) return undefined;
  // The seed answers 200 in places where the spec says 201 (or the reverse): the body is the same.
  return answers[String(status)] ?? Object.values(answers)[0];
}

/**
 * The walk. A rewriter says what to change through the hooks; `S` is where in the answer a value is
 * (the oddities need nothing, the sparse records the record a value belongs to), handed down from an
 * object to its properties by {@link scopeOf}.
 */
export abstract class SpecRewriter<S> {
  constructor(protected readonly spec: SpecFacts) {}

  /** Whether the non-empty array `value` (valid empty under its schemas) is answered empty. */
  protected abstract emptied(value: Json[], scope: S): boolean;
  /** Whether the optional property `name` (its value `value`) of an object at `scope` is left out. */
  protected abstract leftOut(name: string, scope: S, value: Json): boolean;
  /** The leaf `value` (a string, number, boolean or null) as sent; the walk keeps it if the result fails `schemas`. */
  protected abstract leaf(schemas: SchemaObject[], value: Json, scope: S): Json;
  /** Where `value` is: property `name` of an object at `scope`, or (no name) an item of an array at `scope`. */
  protected abstract scopeOf(value: Json, name: string | undefined, scope: S): S;

  /**
   * `value`, changed so that it still satisfies every schema of `schemas` (all of them apply to it:
   * an `allOf`, a `$ref` with siblings, the branch of a `oneOf` it matched). A value that already
   * fails one of them is left as it is: a rewrite never makes a bad answer worse.
   */
  visit(schemas: readonly Schema[], value: Json, scope: S): Json {
    const applied = this.expand(schemas, value);
    if (applied === undefined) return value;
    const changed = this.change(applied.schemas, value, scope);
    // Nothing changed below (the same value back): nothing to check.
    if (changed === value) return value;
    // A oneOf may match no branch it did not match before, nor lose the branch the object is (by its
    // discriminator, else the one it matched): else the object would say something else, or nothing valid.
    for (const { branches, before, chosen } of applied.exclusive) {
      const after = branches.filter((branch) => conforms(this.spec, branch, changed));
      const matched = before();
      if (after.some((branch) => !matched.includes(branch))) return value;
      if (matched.includes(chosen) && !after.includes(chosen)) return value;
    }
    return changed;
  }

  /**
   * Every schema that applies to `value`, refs and allOf flattened, with the branch of each oneOf
   * (named by its discriminator, else the one branch it matches) and the branches of each anyOf that it
   * matches; undefined when no branch can be told (then the value is left as it is).
   */
  private expand(schemas: readonly Schema[], value: Json): { schemas: SchemaObject[]; exclusive: OneOfChoice[] } | undefined {
    const out: SchemaObject[] = [];
    const exclusive: OneOfChoice[] = [];
    const pending = [...schemas];
    for (let schema = pending.pop(); schema !== undefined; schema = pending.pop()) {
      if (schema === true) continue;
      if (schema === false) return undefined;
      out.push(schema);
      if (schema.$ref !== undefined) pending.push(this.resolve(schema.$ref));
      if (schema.allOf) pending.push(...schema.allOf);
      if (schema.anyOf) {
        const matching = schema.anyOf.filter((branch) => conforms(this.spec, branch, value));
        if (matching.length === 0) return undefined;
        pending.push(...matching);
      }
      if (schema.oneOf) {
        const branches = schema.oneOf;
        // Matched against every branch only when needed (a discriminator names the branch; a walk that
        // changes nothing never asks): the checks go down the whole value, at every oneOf on the way.
        let matched: Schema[] | undefined;
        const before = (): Schema[] => (matched ??= branches.filter((branch) => conforms(this.spec, branch, value)));
        const chosen = discriminated(schema, value) ?? (before().length === 1 ? before()[0] : undefined);
        if (chosen === undefined) return undefined;
        exclusive.push({ branches, before, chosen });
        pending.push(chosen);
      }
    }
    return { schemas: out, exclusive };
  }

  private resolve(name: string): Schema {
    const found = this.spec.schemas[name];
    if (found === undefined) throw new Error(`spec facts: no schema ${name}`);
    return found;
  }

  private change(schemas: SchemaObject[], value: Json, scope: S): Json {
    if (Array.isArray(value)) return this.changeArray(schemas, value, scope);
    if (value !== null && typeof value === 'object' && !(value instanceof RawNumber)) return this.changeObject(schemas, value, scope);
    return this.leaf(schemas, value, scope);
  }

  private changeArray(schemas: SchemaObject[], value: Json[], scope: S): Json {
    if (value.length > 0 && this.emptied(value, scope) && schemas.every((s) => conforms(this.spec, s, []))) return [];
    const items = schemas.flatMap((s) => (s.items === undefined ? [] : [s.items]));
    const out = value.map((item) => this.visit(items, item, this.scopeOf(item, undefined, scope)));
    return out.every((item, i) => item === value[i]) ? value : out;
  }

  private changeObject(schemas: SchemaObject[], value: { [key: string]: Json }, scope: S): Json {
    const required = new Set(schemas.flatMap((s) => s.required ?? []));
    const kept = new Set([...KEPT_PROPERTIES, ...schemas.flatMap((s) => (s.discriminator ? [s.discriminator.propertyName] : []))]);
    const out: { [key: string]: Json } = {};
    let same = true;
    for (const [name, inner] of Object.entries(value)) {
      if (kept.has(name)) {
        out[name] = inner;
        continue;
      }
      const declared = schemas.flatMap((s) => {
        const property = s.properties?.[name];
        if (property !== undefined) return [property];
        return s.additionalProperties === undefined ? [] : [s.additionalProperties];
      });
      // A property the spec does not know (the seed's own): left as the devnet made it.
      if (declared.length === 0) {
        out[name] = inner;
        continue;
      }
      if (!required.has(name) && this.leftOut(name, scope, inner)) {
        same = false;
        continue;
      }
      out[name] = this.visit(declared, inner, this.scopeOf(inner, name, scope));
      if (out[name] !== inner) same = false;
    }
    return same ? value : out;
  }
}

/** The JSON type names `value` has (a number that is an integer is both). */
function typesOf(value: Json | undefined): string[] {
  if (value === null) return ['null'];
  if (value instanceof RawNumber) return Number.isInteger(value.value) ? ['number', 'integer'] : ['number'];
  if (Array.isArray(value)) return ['array'];
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? ['number', 'integer'] : ['number'];
    case 'string':
      return ['string'];
    case 'boolean':
      return ['boolean'];
    case 'object':
      return ['object'];
    default:
      return [];
  }
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function sameValue(a: unknown, b: Json): boolean {
  const plain = b instanceof RawNumber ? b.value : b;
  return typeof a === 'object' || typeof plain === 'object' ? JSON.stringify(a) === JSON.stringify(plain) : a === plain;
}

/**
 * Whether `value` is valid under `schema` (JSON Schema 2020-12 semantics of the keywords the facts keep;
 * `discriminator` is OpenAPI's hint and checks nothing beyond the oneOf it annotates).
 */
export function conforms(spec: SpecFacts, schema: Schema, value: Json | undefined): boolean {
  if (typeof schema === 'boolean') return schema;
  if (value === undefined) return false;
  if (schema.$ref !== undefined) {
    const target = spec.schemas[schema.$ref];
    if (target === undefined || !conforms(spec, target, value)) return false;
  }
  if (schema.type !== undefined) {
    const wanted = Array.isArray(schema.type) ? schema.type : [schema.type];
    const has = typesOf(value);
    if (!wanted.some((t) => has.includes(t))) return false;
  }
  if (schema.enum !== undefined && !schema.enum.some((e) => sameValue(e, value))) return false;
  if (schema.const !== undefined && !sameValue(schema.const, value)) return false;
  if (schema.format === 'date-time' && typeof value === 'string' && !DATE_TIME.test(value)) return false;
  if (schema.allOf && !schema.allOf.every((s) => conforms(spec, s, value))) return false;
  if (schema.anyOf && !schema.anyOf.some((s) => conforms(spec, s, value))) return false;
  if (schema.oneOf && schema.oneOf.filter((s) => conforms(spec, s, value)).length !== 1) return false;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items !== undefined && !value.every((item) => conforms(spec, items, item))) return false;
  } else if (value !== null && typeof value === 'object' && !(value instanceof RawNumber)) {
    for (const name of schema.required ?? []) if (!(name in value)) return false;
    for (const [name, inner] of Object.entries(value)) {
      const property = schema.properties?.[name];
      if (property !== undefined) {
        if (!conforms(spec, property, inner)) return false;
      } else if (schema.additionalProperties !== undefined && !conforms(spec, schema.additionalProperties, inner)) return false;
    }
  }
  return true;
}

/** JSON text of `value`, {@link RawNumber}s written as their literal. */
export function oddJson(value: Json): string {
  if (value instanceof RawNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map(oddJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, inner]) => `${JSON.stringify(key)}:${oddJson(inner)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

import { JSON_CONTENT_TYPE, type DevnetResponse } from './http-types.ts';
import { hashToUint32, Rng } from './rng.ts';
import facts from './spec-facts.json' with { type: 'json' };

/**
 * The oddities mode (`DEVNET_ODDITIES=1`): every Data API answer the devnet builds is rewritten into
 * one that is still valid under the real Data API's OpenAPI spec but takes the unusual values the spec
 * allows and real data sometimes has: non-numeric strings where the spec says `string` (`"string"`,
 * `""`, hashes that are not hex, text with URL separators), numbers at the top of their types as
 * digit strings (2^64-1, 2^256-1), negative, fractional and huge numbers where it says `number`
 * (2^64-1 as an exact literal, `5.0` for `5`, `1E+21`), optional properties left out, arrays empty.
 *
 * The spec's schemas drive it (`spec-facts.json`, derived by `scripts/spec-facts.ts`): a value is only
 * changed into one that every schema applying to it accepts, a required property is never left out, an
 * enum value is never changed (every enum of this spec is closed), and a `oneOf` keeps matching exactly
 * the branch it matched. Two things stay as the devnet made them because changing them would make
 * the devnet inconsistent with itself, not odd: `nextPageToken` (the real API reads back only its own
 * tokens) and discriminator properties (which say which `oneOf` branch an object is).
 *
 * Deterministic: the choices are drawn from a generator seeded by the oddities seed and the request
 * (method, path and query), so the same request gets the same answer and a test can run a query twice.
 */

/** Options of {@link createOddities}. */
export interface OdditiesOptions {
  /** Seed of the choices (the devnet passes its dataset seed). Default 1. */
  seed?: number;
  /** Share of leaf values (strings, numbers, booleans) changed. Default 0.3. */
  valueRate?: number;
  /** Share of optional properties left out. Default 0.12. */
  dropRate?: number;
  /** Share of arrays answered empty. Default 0.08. */
  emptyRate?: number;
}

export const ODDITIES_DEFAULTS = { seed: 1, valueRate: 0.3, dropRate: 0.12, emptyRate: 0.08 } as const;

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

const TOP_UINT64 = '18446744073709551615';
const TOP_UINT256 = '115792089237316195423570985084023665640564039457584007913129639935';

/** Strings the spec allows wherever it says `string` with no enum or format. */
const ODD_STRINGS: readonly string[] = [
  'string',
  '',
  '-1',
  '1.5',
  '1e3',
  TOP_UINT64,
  TOP_UINT256,
  `${TOP_UINT256}0`,
  '0xZZ',
  'not hex ∆ ✓',
  'a/b?c=d#e f%',
  'x'.repeat(600),
];

/** Date-times other than usual that `format: date-time` still accepts. */
const ODD_DATE_TIMES: readonly string[] = ['1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999Z', '2024-02-29T12:00:00+14:00'];

/** Numbers the spec allows wherever it says `number`: negative, fractional, huge, and exact literals of wide integers. */
const ODD_NUMBERS: readonly (number | RawNumber)[] = [
  -1,
  0,
  0.5,
  -2.75,
  2 ** 53 + 2,
  1.7976931348623157e308,
  5e-324,
  new RawNumber(TOP_UINT64),
  new RawNumber(TOP_UINT256),
  new RawNumber('-9223372036854775809'),
  new RawNumber('1E+21'),
];

/** A oneOf met on the way: its branches, those the value matched before the change, and the branch it is. */
interface OneOfChoice {
  branches: Schema[];
  before: Schema[];
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

/** A JSON value as the oddities handle it: numbers may be {@link RawNumber} literals. */
export type Json = null | boolean | number | string | RawNumber | Json[] | { [key: string]: Json };

/** Properties never changed nor left out, whatever their schema says (see the module comment). */
const KEPT_PROPERTIES = new Set(['nextPageToken']);

/**
 * The transformation of the devnet's Data API answers: a success answer whose operation the spec
 * declares is rewritten (and sent as JSON text, its wide number literals exact); any other answer
 * is passed through as it is.
 */
export function createOddities(options: OdditiesOptions = {}, spec: SpecFacts = SPEC_FACTS): (method: string, target: string, answer: DevnetResponse) => DevnetResponse {
  const settings = { ...ODDITIES_DEFAULTS, ...options };
  return (method, target, answer) => {
    if (answer.status < 200 || answer.status > 299 || answer.body === undefined) return answer;
    const schema = answerSchema(spec, answer.route, answer.status);
    if (schema === undefined) return answer;
    let body: unknown = answer.body;
    if (Buffer.isBuffer(body) || typeof body === 'string') {
      try {
        body = JSON.parse(String(body)) as unknown;
      } catch {
        return answer;
      }
    }
    const rng = new Rng(hashToUint32(`${settings.seed}\0${method} ${target}`));
    const odd = new Transformer(spec, rng, settings).visit([schema], body as Json);
    return { ...answer, body: Buffer.from(oddJson(odd)), contentType: JSON_CONTENT_TYPE };
  };
}

/** The schema of an answer of `route` (`"GET /v1/..."`, the devnet's stats key) with this status, if the spec has one. */
export function answerSchema(spec: SpecFacts, route: string, status: number): Schema | undefined {
  const answers = spec.operations[route];
  if (!answers) return undefined;
  // The seed answers 200 in places where the spec says 201 (or the reverse): the body is the same.
  return answers[String(status)] ?? Object.values(answers)[0];
}

class Transformer {
  constructor(
    private readonly spec: SpecFacts,
    private readonly rng: Rng,
    private readonly settings: Required<OdditiesOptions>,
  ) {}

  /**
   * `value`, changed so that it still satisfies every schema of `schemas` (all of them apply to it:
   * an `allOf`, a `$ref` with siblings, the branch of a `oneOf` it matched). A value that already
   * fails one of them is left as it is: the oddities never make a bad answer worse.
   */
  visit(schemas: readonly Schema[], value: Json): Json {
    const applied = this.expand(schemas, value);
    if (applied === undefined) return value;
    const changed = this.change(applied.schemas, value);
    // A oneOf may match no branch it did not match before, nor lose the branch the object is (by its
    // discriminator, else the one it matched): else the object would say something else, or nothing valid.
    for (const { branches, before, chosen } of applied.exclusive) {
      const after = branches.filter((branch) => conforms(this.spec, branch, changed));
      if (after.some((branch) => !before.includes(branch))) return value;
      if (before.includes(chosen) && !after.includes(chosen)) return value;
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
        const before = branches.filter((branch) => conforms(this.spec, branch, value));
        const chosen = discriminated(schema, value) ?? (before.length === 1 ? before[0] : undefined);
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

  private change(schemas: SchemaObject[], value: Json): Json {
    if (Array.isArray(value)) return this.changeArray(schemas, value);
    if (value !== null && typeof value === 'object' && !(value instanceof RawNumber)) return this.changeObject(schemas, value);
    return this.changeLeaf(schemas, value);
  }

  private changeArray(schemas: SchemaObject[], value: Json[]): Json {
    if (value.length > 0 && this.rng.bool(this.settings.emptyRate) && schemas.every((s) => conforms(this.spec, s, []))) return [];
    const items = schemas.flatMap((s) => (s.items === undefined ? [] : [s.items]));
    return value.map((item) => this.visit(items, item));
  }

  private changeObject(schemas: SchemaObject[], value: { [key: string]: Json }): Json {
    const required = new Set(schemas.flatMap((s) => s.required ?? []));
    const kept = new Set([...KEPT_PROPERTIES, ...schemas.flatMap((s) => (s.discriminator ? [s.discriminator.propertyName] : []))]);
    const out: { [key: string]: Json } = {};
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
      if (!required.has(name) && this.rng.bool(this.settings.dropRate)) continue;
      out[name] = this.visit(declared, inner);
    }
    return out;
  }

  private changeLeaf(schemas: SchemaObject[], value: Json): Json {
    if (!this.rng.bool(this.settings.valueRate)) return value;
    // Closed enums and constants: only the value the devnet chose is known to mean what it says.
    if (schemas.some((s) => s.enum !== undefined || s.const !== undefined)) return value;
    const candidates: Json[] = [];
    if (typeof value === 'string') candidates.push(...(schemas.some((s) => s.format === 'date-time') ? ODD_DATE_TIMES : ODD_STRINGS));
    else if (typeof value === 'number' || value instanceof RawNumber) {
      candidates.push(...ODD_NUMBERS);
      // The same integer written as a fraction: only an exact reader tells `5.0` from `5`.
      if (typeof value === 'number' && Number.isInteger(value)) candidates.push(new RawNumber(`${value}.0`));
    } else if (typeof value === 'boolean') candidates.push(!value);
    candidates.push(null);
    const allowed = candidates.filter((candidate) => schemas.every((s) => conforms(this.spec, s, candidate)));
    return allowed.length === 0 ? value : this.rng.pick(allowed);
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

/**
 * Derives the Data API's request facts from the public OpenAPI spec
 * (`../shared/reference/glacier-openapi.json`) into `test/data/glacier-parameters.json`, the
 * table the request-conformance test (test/upstream/spec-conformance.test.ts) checks every
 * client request against. A clean clone has no `../shared`, so the facts are committed.
 *
 *   tsx scripts/spec-parameters.ts          writes the table
 *   tsx scripts/spec-parameters.ts --check  fails when the committed table differs from what the
 *                                           spec gives; skips (exit 0) when the spec is absent
 *
 * Per operation (method, path template, operationId): each parameter's name, location,
 * required, style/explode (OpenAPI's defaults applied: form+explode in the query, simple in the
 * path and headers), schema type, items type and enum, enum, bounds, length bounds, pattern,
 * default, and whether its description calls it a comma-separated list; plus the request body's
 * presence, content types and top-level properties. Where the seed (`../shared/seeds/`) and the
 * spec disagree, the gateway sends what the seed says; each such case is listed below with its
 * reason and written into the table, so the test allows exactly these.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const sharedSpecPath = fileURLToPath(new URL('../../shared/reference/glacier-openapi.json', import.meta.url));
// A clean clone has no ../shared: the copy committed for the mock server (test/e2e/spec-mock.test.ts) stands in.
const specPath = existsSync(sharedSpecPath) ? sharedSpecPath : fileURLToPath(new URL('../test/data/glacier-openapi.json', import.meta.url));
const target = fileURLToPath(new URL('../test/data/glacier-parameters.json', import.meta.url));

/** A place where what the gateway sends differs from the spec on purpose. */
export interface SpecDeviation {
  /** The operationId it applies to, or `*` for every operation. */
  operation: string;
  in: 'query' | 'path' | 'header' | 'body';
  /** The name the gateway sends. */
  name: string;
  /** What the spec declares instead. */
  spec: string;
  /** Who decides what is sent, and why. */
  reason: string;
}

/**
 * The seed's requests that the spec does not declare. The seed describes the target service
 * (docs/ARCHITECTURE.md, "Seed versus the public spec"), so these are sent as the seed says.
 */
const SEED_DISAGREEMENTS: readonly SpecDeviation[] = [
  {
    operation: '*',
    in: 'header',
    name: 'x-service-api-key',
    spec: 'securityScheme apiKey: header x-glacier-api-key',
    reason: 'The seed (Authentication) names x-service-api-key for the target service; DATA_API_KEY_HEADER switches to the public name.',
  },
];

/** Headers the gateway adds that no API declares: servers ignore unknown headers. */
const GATEWAY_HEADERS: readonly SpecDeviation[] = [
  {
    operation: '*',
    in: 'header',
    name: 'x-request-id',
    spec: 'not declared',
    reason: 'The GraphQL request id, forwarded so upstream logs can be joined with the gateway\'s (src/lib/request-id.ts).',
  },
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** One parameter as the table states it. */
export interface ParameterFact {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  style: string;
  explode: boolean;
  /** The schema's type; `any` when the spec gives an empty schema. */
  type: string;
  itemsType?: string;
  itemsEnum?: string[];
  enum?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: Json;
  /** The description calls it a comma-separated list (a `string`, sent as one value). */
  commaSeparated?: boolean;
}

export interface BodyPropertyFact {
  type: string;
  itemsType?: string;
  itemsEnum?: string[];
  enum?: string[];
}

/** One alternative of the body's schema (a `oneOf` gives several). */
export interface BodySchemaFact {
  required: string[];
  properties: Record<string, BodyPropertyFact>;
}

export interface OperationFact {
  operationId: string;
  method: string;
  path: string;
  parameters: ParameterFact[];
  requestBody: { required: boolean; contentTypes: string[]; schemas: BodySchemaFact[] } | null;
}

export interface SpecParameters {
  source: string;
  generatedBy: string;
  security: { header: string; optional: boolean } | null;
  operations: OperationFact[];
  seedDisagreements: SpecDeviation[];
  gatewayHeaders: SpecDeviation[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectAt(value: Json | undefined, what: string): JsonObject {
  if (!isObject(value)) throw new Error(`spec: ${what} is not an object`);
  return value;
}

/** Follows local `$ref`s (`#/components/...`) to the object they name. */
function resolver(spec: JsonObject): (node: Json | undefined) => JsonObject {
  return function resolve(node) {
    let current = node;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
      if (hops > 32) throw new Error('spec: $ref chain too long');
      const ref: string = current.$ref;
      if (!ref.startsWith('#/')) throw new Error(`spec: external $ref ${ref}`);
      current = ref.slice(2).split('/').reduce<Json | undefined>((at, key) => (isObject(at) ? at[key.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined), spec);
    }
    return isObject(current) ? current : {};
  };
}

function strings(value: Json | undefined): string[] | undefined {
  return Array.isArray(value) ? value.map((v) => String(v)) : undefined;
}

function numberOf(value: Json | undefined): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** The schema's type: `string`, `integer`, `array` ...; `any` for `{}`, `oneOf` for unions. */
function typeOf(schema: JsonObject): string {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.map(String).join('|');
  if (schema.oneOf) return 'oneOf';
  if (schema.anyOf) return 'anyOf';
  if (schema.allOf) return 'allOf';
  if (schema.enum) return 'string';
  return 'any';
}

function parameterFact(raw: JsonObject, resolve: (node: Json | undefined) => JsonObject): ParameterFact {
  const location = raw.in;
  if (location !== 'query' && location !== 'path' && location !== 'header' && location !== 'cookie') throw new Error(`spec: parameter ${String(raw.name)} in ${String(location)}`);
  const schema = resolve(raw.schema);
  // OpenAPI 3: query and cookie parameters default to form style (exploded), path and header ones to simple.
  const style = typeof raw.style === 'string' ? raw.style : location === 'query' || location === 'cookie' ? 'form' : 'simple';
  const explode = typeof raw.explode === 'boolean' ? raw.explode : style === 'form';
  const fact: ParameterFact = { name: String(raw.name), in: location, required: raw.required === true, style, explode, type: typeOf(schema) };
  if (fact.type === 'array') {
    const items = resolve(schema.items);
    fact.itemsType = typeOf(items);
    const itemsEnum = strings(items.enum);
    if (itemsEnum) fact.itemsEnum = itemsEnum;
  }
  const enumValues = strings(schema.enum);
  if (enumValues) fact.enum = enumValues;
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength'] as const) {
    const value = numberOf(schema[key]);
    if (value !== undefined) fact[key] = value;
  }
  if (typeof schema.pattern === 'string') fact.pattern = schema.pattern;
  if (schema.default !== undefined) fact.default = schema.default;
  const description = typeof raw.description === 'string' ? raw.description : '';
  if (fact.type === 'string' && /comma[- ]separated/i.test(description)) fact.commaSeparated = true;
  return fact;
}

function bodyFact(raw: Json | undefined, resolve: (node: Json | undefined) => JsonObject): OperationFact['requestBody'] {
  if (raw === undefined) return null;
  const body = resolve(raw);
  const content = objectAt(body.content ?? {}, 'requestBody.content');
  const schemas: BodySchemaFact[] = [];
  for (const media of Object.values(content)) {
    const schema = resolve(objectAt(media, 'media type').schema);
    const alternatives = Array.isArray(schema.oneOf) ? schema.oneOf.map(resolve) : [schema];
    for (const alternative of alternatives) {
      const properties: Record<string, BodyPropertyFact> = {};
      for (const [name, node] of Object.entries(objectAt(alternative.properties ?? {}, 'body properties'))) {
        const property = resolve(node);
        const fact: BodyPropertyFact = { type: typeOf(property) };
        if (fact.type === 'array') {
          const items = resolve(property.items);
          fact.itemsType = typeOf(items);
          const itemsEnum = strings(items.enum);
          if (itemsEnum) fact.itemsEnum = itemsEnum;
        }
        const enumValues = strings(property.enum);
        if (enumValues) fact.enum = enumValues;
        properties[name] = fact;
      }
      schemas.push({ required: strings(alternative.required) ?? [], properties });
    }
  }
  return { required: body.required === true, contentTypes: Object.keys(content).sort(), schemas };
}

/** The whole table, in a stable order (by path, then method; parameters by location, then name). */
export function deriveSpecParameters(spec: JsonObject): SpecParameters {
  const resolve = resolver(spec);
  const operations: OperationFact[] = [];
  for (const [path, node] of Object.entries(objectAt(spec.paths, 'paths'))) {
    const item = objectAt(node, `paths.${path}`);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      // Operation parameters override path-level ones of the same name and location.
      const byKey = new Map<string, ParameterFact>();
      for (const raw of [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        const fact = parameterFact(resolve(raw), resolve);
        byKey.set(`${fact.in}:${fact.name}`, fact);
      }
      const parameters = [...byKey.values()].sort((a, b) => a.in.localeCompare(b.in) || a.name.localeCompare(b.name));
      operations.push({ operationId: String(op.operationId), method: method.toUpperCase(), path, parameters, requestBody: bodyFact(op.requestBody, resolve) });
    }
  }
  operations.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));

  const schemes = isObject(spec.components) && isObject(spec.components.securitySchemes) ? spec.components.securitySchemes : {};
  const headerScheme = Object.values(schemes).map(resolve).find((s) => s.type === 'apiKey' && s.in === 'header');
  // `security: [{apiKey: []}, {}]`: the empty alternative makes the key optional.
  const optional = Array.isArray(spec.security) && spec.security.some((alt) => isObject(alt) && Object.keys(alt).length === 0);
  const info = isObject(spec.info) ? spec.info : {};
  return {
    source: `../shared/reference/glacier-openapi.json: ${String(info.title)} ${String(info.version)} (OpenAPI ${String(spec.openapi)})`,
    generatedBy: 'scripts/spec-parameters.ts (do not edit by hand: run `npx tsx scripts/spec-parameters.ts`)',
    security: headerScheme ? { header: String(headerScheme.name).toLowerCase(), optional } : null,
    operations,
    seedDisagreements: [...SEED_DISAGREEMENTS],
    gatewayHeaders: [...GATEWAY_HEADERS],
  };
}

/** JSON with every object or array that fits in `width` characters on one line: one line per parameter, easy to review. */
function formatJson(value: unknown, indent = '', width = 160): string {
  const flat = JSON.stringify(value);
  if (value === null || typeof value !== 'object' || indent.length + flat.length <= width) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + formatJson(v, inner, width)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner, width)}`).join(',\n')}\n${indent}}`;
}

function main(): void {
  const check = process.argv.includes('--check');
  if (!existsSync(specPath)) {
    console.log(`spec-parameters: ${specPath} is absent; ${check ? 'nothing to check against' : 'nothing written'}.`);
    return;
  }
  const spec = objectAt(JSON.parse(readFileSync(specPath, 'utf8')) as Json, 'the spec');
  const text = `${formatJson(deriveSpecParameters(spec))}\n`;
  if (check) {
    const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
    if (current !== text) {
      console.error('test/data/glacier-parameters.json differs from the spec: run `npx tsx scripts/spec-parameters.ts` and commit the result.');
      process.exit(1);
    }
    console.log('test/data/glacier-parameters.json matches the spec.');
    return;
  }
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}

// Run as a script; imported (by the conformance test) only for its types and `deriveSpecParameters`.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();

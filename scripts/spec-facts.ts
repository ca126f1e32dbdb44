/**
 * Derives from the Data API's public OpenAPI spec (`../shared/reference/glacier-openapi.json`) the
 * facts the devnet's oddities mode needs (`src/devnet/oddities.ts`): the schema of every success
 * answer, and the component schemas they reach, reduced to the keywords that decide what is valid
 * (types, properties, which are required, items, enums, oneOf/anyOf/allOf, discriminators).
 * Descriptions and examples are dropped. A clean clone has no `../shared`, so the result is
 * committed as `src/devnet/spec-facts.json`; the spec itself is copied to
 * `test/data/glacier-openapi.json` for the mock server generated from it (test/e2e/spec-mock.test.ts).
 *
 *   tsx scripts/spec-facts.ts          writes both files
 *   tsx scripts/spec-facts.ts --check  fails when a committed file differs from what the spec gives
 *
 * Without `../shared` (a clean clone) the committed copy of the spec is the source: the facts are
 * checked, or written, from it.
 *
 * The oddities mode only changes a value in ways these keywords allow, so a keyword it does not
 * know (a `pattern`, a `minimum`...) would let it send an answer the spec refuses: the script fails
 * on any such keyword instead of dropping it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const specPath = fileURLToPath(new URL('../../shared/reference/glacier-openapi.json', import.meta.url));
const factsPath = fileURLToPath(new URL('../src/devnet/spec-facts.json', import.meta.url));
const specCopyPath = fileURLToPath(new URL('../test/data/glacier-openapi.json', import.meta.url));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Keywords kept as they are (their values hold no schema). */
const KEPT = new Set(['type', 'required', 'enum', 'const', 'format']);
/** Keywords that hold schemas, rewritten recursively. */
const NESTED = new Set(['properties', 'items', 'oneOf', 'anyOf', 'allOf', 'additionalProperties', 'discriminator', '$ref']);
/**
 * Keywords that only document: dropped. `nullable` is OpenAPI 3.0's and means nothing in a 3.1
 * document like this one, so the oddities mode must not rely on it (a null there is not valid).
 */
const DOCUMENTATION = new Set(['description', 'examples', 'example', 'title', 'deprecated', 'default', 'nullable', 'readOnly', 'writeOnly', 'externalDocs']);

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

const refName = (ref: string): string => {
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) throw new Error(`unsupported $ref ${ref}`);
  return ref.slice(prefix.length);
};

/** The schema reduced to what decides validity; `reached` collects the component names it refers to. */
function reduce(schema: Json, where: string, reached: Set<string>): Json {
  if (!isObject(schema)) {
    if (typeof schema === 'boolean') return schema;
    throw new Error(`${where}: a schema must be an object or a boolean`);
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DOCUMENTATION.has(key)) continue;
    if (KEPT.has(key)) {
      out[key] = value;
      continue;
    }
    if (!NESTED.has(key)) throw new Error(`${where}: keyword "${key}" is not understood by the oddities mode; teach src/devnet/oddities.ts about it first`);
    if (key === '$ref') {
      const name = refName(String(value));
      reached.add(name);
      out['$ref'] = name;
    } else if (key === 'properties') {
      if (!isObject(value)) throw new Error(`${where}: properties must be an object`);
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, reduce(sub, `${where}.${name}`, reached)]));
    } else if (key === 'oneOf' || key === 'anyOf' || key === 'allOf') {
      if (!Array.isArray(value)) throw new Error(`${where}: ${key} must be an array`);
      out[key] = value.map((sub, i) => reduce(sub, `${where}/${key}/${i}`, reached));
    } else if (key === 'discriminator') {
      if (!isObject(value) || typeof value['propertyName'] !== 'string') throw new Error(`${where}: discriminator without propertyName`);
      const mapping = isObject(value['mapping']) ? Object.fromEntries(Object.entries(value['mapping']).map(([k, ref]) => [k, refName(String(ref))])) : {};
      out[key] = { propertyName: value['propertyName'], mapping };
    } else {
      out[key] = reduce(value, `${where}/${key}`, reached);
    }
  }
  return out;
}

function derive(specText: string): { facts: string; specText: string } {
  const spec = JSON.parse(specText) as JsonObject;
  const paths = spec['paths'];
  const components = isObject(spec['components']) ? spec['components']['schemas'] : undefined;
  if (!isObject(paths) || !isObject(components)) throw new Error('the spec has no paths or no components.schemas');
  const reached = new Set<string>();
  const operations: JsonObject = {};
  // Each operation's compute-unit tier (`x-execution-weight`), null where the spec gives none: the devnet bills by it.
  const weights: JsonObject = {};
  for (const [path, methods] of Object.entries(paths)) {
    if (!isObject(methods)) continue;
    for (const [method, operation] of Object.entries(methods)) {
      if (!isObject(operation) || !isObject(operation['responses'])) continue;
      const weight = operation['x-execution-weight'];
      weights[`${method.toUpperCase()} ${path}`] = { operationId: operation['operationId'] ?? null, tier: typeof weight === 'string' ? weight : null };
      const answers: JsonObject = {};
      for (const [status, response] of Object.entries(operation['responses'])) {
        if (!status.startsWith('2') || !isObject(response)) continue;
        const content = isObject(response['content']) ? response['content']['application/json'] : undefined;
        if (!isObject(content) || content['schema'] === undefined) continue;
        answers[status] = reduce(content['schema'], `${method.toUpperCase()} ${path} ${status}`, reached);
      }
      if (Object.keys(answers).length > 0) operations[`${method.toUpperCase()} ${path}`] = answers;
    }
  }
  // The components reached, and those they reach in turn.
  const schemas: JsonObject = {};
  const pending = [...reached];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (name in schemas) continue;
    const found = components[name];
    if (found === undefined) throw new Error(`$ref to missing component ${name}`);
    const inner = new Set<string>();
    schemas[name] = reduce(found, name, inner);
    for (const next of inner) if (!(next in schemas)) pending.push(next);
  }
  const info = isObject(spec['info']) ? spec['info'] : {};
  const sorted = (object: JsonObject): JsonObject => Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const facts = {
    source: {
      file: 'glacier-openapi.json',
      title: info['title'] ?? null,
      version: info['version'] ?? null,
      sha256: createHash('sha256').update(specText).digest('hex'),
    },
    operations: sorted(operations),
    weights: sorted(weights),
    schemas: sorted(schemas),
  };
  // One line per operation and per schema, so a change of the spec shows as a readable diff.
  const lines = (object: JsonObject): string =>
    Object.entries(object)
      .map(([key, value]) => `    ${JSON.stringify(key)}: ${JSON.stringify(value)}`)
      .join(',\n');
  const text = `{\n  "source": ${JSON.stringify(facts.source)},\n  "operations": {\n${lines(facts.operations)}\n  },\n  "weights": {\n${lines(facts.weights)}\n  },\n  "schemas": {\n${lines(facts.schemas)}\n  }\n}\n`;
  return { facts: text, specText };
}

// The shared reference when present; on a clean clone, the committed copy (then only the facts are checked or written).
const source = existsSync(specPath) ? specPath : specCopyPath;
const { facts, specText } = derive(readFileSync(source, 'utf8'));
const targets: [string, string][] = [[factsPath, facts], ...(source === specPath ? ([[specCopyPath, specText]] as [string, string][]) : [])];
if (process.argv.includes('--check')) {
  const stale = targets.filter(([file, text]) => !existsSync(file) || readFileSync(file, 'utf8') !== text).map(([file]) => file);
  if (stale.length > 0) {
    console.error(`stale: ${stale.join(', ')}; run \`tsx scripts/spec-facts.ts\` and commit the result.`);
    process.exit(1);
  }
  console.log(`spec facts are up to date with ${source}.`);
} else {
  for (const [file, text] of targets) {
    writeFileSync(file, text);
    console.log(`wrote ${file} (${Buffer.byteLength(text)} bytes)`);
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { getSchema } from '../../src/schema/index.ts';
import { ruleAt } from '../../src/shapes/narrowing.ts';
import { ENDPOINTS, operationOf, shapeOf, type EndpointRow } from '../../src/upstream/endpoints.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { startPrism, type Prism } from '../helpers/prism.ts';
import { ALIAS_MARK, fixtureArguments, printWalkReport, runWalk, skipOutsideDataApi, walkFixturesOf, walkSchema, type WalkFixtures, type WalkResponse } from '../helpers/schema-walk.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

/**
 * An oracle nobody here wrote: Stoplight Prism serving the real Data API's OpenAPI spec
 * (test/data/glacier-openapi.json, copied from the public spec by scripts/spec-facts.ts) in dynamic
 * mode, every answer generated from the spec's schemas (json-schema-faker, seeded: the same request
 * gets the same answer). A gateway reads it as its Data API, and the whole-schema walk of the oddities
 * test runs against it with the same checks: no INTERNAL_SERVER_ERROR, every error coded and confined
 * to its own nullable field, interpreted and compiled runs alike.
 *
 * Prism answers 40-500 ms a request on this machine, so the gateway keeps an upstream cache (the
 * second run of a document, and the listings many documents share, are read once), each type is
 * walked by its shortest path only, and three types at a time. Requests Prism finds the spec does not allow are printed.
 */

type WalkError = NonNullable<WalkResponse['errors']>[number];

/**
 * `Type.field` an error's path ends at, from the data: the walk selects `__typename` on every object on
 * the way, so the object holding the failed field says its type (a list item's index is dropped).
 */
function fieldOfError(data: WalkResponse['data'], path: readonly (string | number)[]): string {
  const keys = [...path];
  while (typeof keys[keys.length - 1] === 'number') keys.pop();
  const last = String(keys.pop() ?? '(operation)');
  let holder: unknown = data;
  for (const key of keys) holder = holder && typeof holder === 'object' ? (holder as Record<string | number, unknown>)[key] : undefined;
  const type = keys.length === 0 ? 'Query' : holder && typeof holder === 'object' ? String((holder as Record<string, unknown>)['__typename'] ?? '?') : '?';
  const mark = last.lastIndexOf(ALIAS_MARK);
  return `${type}.${mark > 0 && /^\d+$/.test(last.slice(mark + ALIAS_MARK.length)) ? last.slice(0, mark) : last}`;
}

const ROWS = new Map<string, EndpointRow>(Object.values(ENDPOINTS).map((row: EndpointRow) => [operationOf(row), row]));
const CHAINS = ['p-chain', 'x-chain', 'c-chain'];

/**
 * Why the gateway refused an upstream value, in the words of its rule: the serializer's type, the
 * parameter a value read from an answer could not become, or the reader's narrowing rule for that
 * upstream field (`src/shapes/narrowing.ts`); `shape` when no narrowing leaf reads the field (it is
 * missing, or of another JSON type than the description's).
 */
function refusalReason(error: WalkError): string {
  const ext = error.extensions ?? {};
  if (typeof ext['type'] === 'string') return `serializer: not a valid ${ext['type']}`;
  const field = typeof ext['upstreamField'] === 'string' ? ext['upstreamField'] : '(answer)';
  if (typeof ext['parameter'] === 'string') return `not sent: ${ext['parameter']} read from ${field.replace(/\[\d+\]/g, '[]')}`;
  const row = ROWS.get(String(ext['operation'] ?? ''));
  if (!row) return `other: ${error.message.replace(/\[\d+\]/g, '[]')}`;
  const chains = typeof row.shape === 'string' ? [undefined] : CHAINS;
  const rule = chains.map((chain) => ruleAt(shapeOf(row, chain), field)).find((found) => found !== undefined);
  return rule ? `reader: ${rule.leaf} (${rule.servedAs})` : 'reader: shape (missing, or another JSON type)';
}

/** Prism's generator seed. */
const SEED = '20';

describe('whole schema against a mock server generated from the real Data API spec (Prism)', () => {
  let prism: Prism | undefined;
  let stack: TestStack;
  let fixtures: WalkFixtures;

  beforeAll(async () => {
    prism = await startPrism({ mode: 'mock', seed: SEED });
    stack = await startStack({
      devnet: { validators: 20 },
      dataApiUrl: prism.url,
      cache: createMemoryCache(),
      gateway: { compiledExecution: { compileAfter: 2 } },
    });
    // Prism accepts any string where the spec says string: the devnet's fixtures serve as arguments.
    const m: NetworkFixtures = stack.devnet.dataset.fixtures().mainnet;
    fixtures = walkFixturesOf(m, { blockId: '1', messageId: m.icmSourceTxHash ?? m.txHash });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await prism?.close();
  });

  it('answers every field with coded, confined errors only, the same interpreted and compiled', async () => {
    const schema = getSchema();
    const walk = walkSchema({ schema, argument: fixtureArguments(fixtures), skip: skipOutsideDataApi, pathsPerType: 1 });
    const walked = performance.now();
    // Every refusal of an upstream value (UPSTREAM_PROTOCOL_ERROR): which `Type.field` it nulled, and why.
    const refusals = new Map<string, Set<string>>();
    const query = async (text: string): Promise<WalkResponse> => {
      const answer: WalkResponse = await stack.query(text);
      for (const error of answer.errors ?? []) {
        if (error.extensions?.['code'] !== 'UPSTREAM_PROTOCOL_ERROR') continue;
        const reason = refusalReason(error);
        const fields = refusals.get(reason) ?? new Set<string>();
        fields.add(fieldOfError(answer.data, error.path ?? []));
        refusals.set(reason, fields);
      }
      return answer;
    };
    const report = await runWalk(walk, { query, concurrency: 3 });
    printWalkReport(`prism walk (prism up in ${prism?.startupMs ?? 0} ms, walk ${Math.round(performance.now() - walked)} ms)`, walk, report);
    // Prism logs each violation it finds: in a request the gateway sent (a parameter the spec does not
    // declare, or not in its form), or in an answer it generated itself (its generator's own slips).
    const lines = [...new Set((prism?.log() ?? '').split('\n').filter((line) => line.includes('Violation:')).map((line) => line.slice(line.indexOf('Violation:'))))];
    const requests = lines.filter((line) => line.startsWith('Violation: request'));
    console.log(`  requests Prism found the spec does not allow: ${requests.length}${requests.map((line) => `\n    ${line}`).join('')}`);
    console.log(`  answers Prism generated and then found invalid itself: ${lines.length - requests.length}`);
    const refused = new Set([...refusals.values()].flatMap((fields) => [...fields]));
    console.log(`  field paths answered UPSTREAM_PROTOCOL_ERROR: ${refused.size}, by reason:${[...refusals]
      .sort((a, b) => b[1].size - a[1].size)
      .map(([reason, fields]) => `\n    ${fields.size} ${reason}: ${[...fields].sort().join(', ')}`)
      .join('')}`);
    // Prism's strings are words with spaces, so every link that reuses an id read from it (a chain's
    // own chainId for its listings) fails, confined: less of the schema has data than on the devnet.
    expect(report.reached.size).toBeGreaterThan(report.selected.size * 0.25);
    expect(report.violations.map((v) => `${v.kind} ${v.code} ${v.field}: ${v.detail}`)).toEqual([]);
    // Every refusal is one docs/refusals.md explains: a narrowing rule, or a value not sent onward.
    expect([...refusals.keys()].filter((reason) => !/^(reader: \w+ \(|not sent: |serializer: )/.test(reason))).toEqual([]);
  }, 180_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { getSchema } from '../../src/schema/index.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { startPrism, type Prism } from '../helpers/prism.ts';
import { fixtureArguments, printWalkReport, runWalk, skipOutsideDataApi, walkFixturesOf, walkSchema, type WalkFixtures } from '../helpers/schema-walk.ts';
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
    const report = await runWalk(walk, { query: (text) => stack.query(text), concurrency: 3 });
    printWalkReport(`prism walk (prism up in ${prism?.startupMs ?? 0} ms, walk ${Math.round(performance.now() - walked)} ms)`, walk, report);
    // Prism logs each violation it finds: in a request the gateway sent (a parameter the spec does not
    // declare, or not in its form), or in an answer it generated itself (its generator's own slips).
    const lines = [...new Set((prism?.log() ?? '').split('\n').filter((line) => line.includes('Violation:')).map((line) => line.slice(line.indexOf('Violation:'))))];
    const requests = lines.filter((line) => line.startsWith('Violation: request'));
    console.log(`  requests Prism found the spec does not allow: ${requests.length}${requests.map((line) => `\n    ${line}`).join('')}`);
    console.log(`  answers Prism generated and then found invalid itself: ${lines.length - requests.length}`);
    // Prism's strings are words with spaces, so every link that reuses an id read from it (a chain's
    // own chainId for its listings) fails, confined: less of the schema has data than on the devnet.
    expect(report.reached.size).toBeGreaterThan(report.selected.size * 0.25);
    expect(report.violations.map((v) => `${v.kind} ${v.code} ${v.field}: ${v.detail}`)).toEqual([]);
  }, 180_000);
});

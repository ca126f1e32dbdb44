import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { parse, type DocumentNode } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentMemo, operationKey } from '../../src/gateway/plugins/document-memo.ts';
import { useOperationLimits } from '../../src/gateway/plugins/use-query-cost.ts';
import { detachTokens, PARSE_CACHE_DEFAULTS, useParseCache } from '../../src/gateway/plugins/use-parse-cache.ts';
import { MAX_ALIASES } from '../../src/devnet/node/admin.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { getSchema } from '../../src/schema/index.ts';
import { configFromEnv } from '../../src/server/config.ts';
import { heapBudget } from '../../src/server/heap-budget.ts';
import { createMemoryCache, MEMORY_CACHE_DEFAULTS } from '../../src/upstream/cache-memory.ts';
import { RESPONSE_CACHE_DEFAULTS } from '../../src/gateway/plugins/use-response-cache.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

// Heap measurements need a full GC: expose it to this test process.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const MiB = 1024 * 1024;

/** `{ __typename }` under a comment of about `bytes` bytes: one long line, or one `#` per line (a token each). */
function commentDocument(i: number, bytes: number, shape: 'line' | 'lines'): string {
  const comment = shape === 'line' ? `# ${i} ${'x'.repeat(bytes)}\n` : `# ${i}\n${'#\n'.repeat(bytes / 2)}`;
  return `${comment}query Q${i}($skip: Boolean = false) { __typename @skip(if: $skip) }`;
}

/** A yoga with the gateway's schema, its armor limits and the parse cache: no upstream needed for `__typename`. */
function parseCacheYoga(options: Parameters<typeof useParseCache>[0] = {}) {
  const cache = useParseCache(options);
  const yoga = createYoga({ schema: getSchema(), parserAndValidationCache: false, graphiql: false, plugins: [useOperationLimits(), cache] });
  const post = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await yoga.fetch('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: { message: string; locations?: unknown }[] } };
  };
  return { cache, post };
}

describe('the parse cache (useParseCache)', () => {
  it('keeps 200 distinct 100 KB-comment documents within its byte budget, and the heap with it', async () => {
    const maxBytes = 2 * MiB;
    const { cache, post } = parseCacheYoga({ maxBytes });
    const before = heapAfterGc();
    for (let i = 0; i < 200; i++) {
      const { status, body } = await post(commentDocument(i, 100 * 1024, i % 2 ? 'line' : 'lines'));
      expect(status).toBe(200);
      expect(body.data).toEqual({ __typename: 'Query' });
      expect(cache.parseCacheStats().bytes).toBeLessThanOrEqual(maxBytes);
    }
    const stats = cache.parseCacheStats();
    expect(stats.entries).toBeGreaterThan(5); // it does cache them, within budget
    // Yoga's own cache would hold all 200 (20 MB of text and 2 GB of comment tokens).
    expect(heapAfterGc() - before).toBeLessThan(maxBytes + 3 * MiB);
  });

  it('answers a repeated document from the cache, and keeps documents over maxDocumentBytes out', async () => {
    const { cache, post } = parseCacheYoga({ maxDocumentBytes: 64 * 1024 });
    await post('{ __typename }');
    await post('{ __typename }');
    expect(cache.parseCacheStats().entries).toBe(1);
    await post(commentDocument(1, 200 * 1024, 'line'));
    expect(cache.parseCacheStats().entries).toBe(1);
  });

  it('caches parse errors by hash too, and answers them again', async () => {
    const { cache, post } = parseCacheYoga();
    const bad = `# ${'x'.repeat(10_000)}\n{ __typename`;
    const first = await post(bad);
    const second = await post(bad);
    expect(first.body.errors?.[0]?.message).toMatch(/Syntax Error/);
    expect(second.body).toEqual(first.body);
    expect(cache.parseCacheStats().entries).toBe(1);
  });

  it('property: whatever documents arrive, the counted bytes never exceed the budget', async () => {
    const { cache, post } = parseCacheYoga({ maxBytes: 256 * 1024, maxDocumentBytes: 64 * 1024 });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 0, max: 120_000 }), fc.constantFrom('line', 'lines') as fc.Arbitrary<'line' | 'lines'>, async (i, bytes, shape) => {
        await post(commentDocument(i, bytes - (bytes % 2), shape));
        expect(cache.parseCacheStats().bytes).toBeLessThanOrEqual(256 * 1024);
      }),
      { numRuns: 150 },
    );
  });
});

describe('detached token lists', () => {
  it('drops the comment tokens a document held, and errors still point at the right line', async () => {
    const text = `${'#\n'.repeat(100_000)}{ __typename nope }`;
    const docs: DocumentNode[] = [];
    const before = heapAfterGc();
    for (let i = 0; i < 5; i++) {
      const document = parse(text);
      expect(detachTokens(document)).toBe(6); // <SOF> { __typename nope } <EOF>: comments are not counted
      docs.push(document);
    }
    // Attached, each would hold 100,000 comment tokens (about 9 MB).
    expect((heapAfterGc() - before) / docs.length).toBeLessThan(100 * 1024);

    const { post } = parseCacheYoga();
    const { body } = await post(text);
    expect(body.errors?.[0]?.locations).toEqual([{ line: 100_001, column: 14 }]);
  });
});

describe('document memos', () => {
  const document = parse('query A($first: Int, $after: String) { __typename } query B { __typename }');

  it('keys by the operation and only the variables it declares', () => {
    const key = (variables: Record<string, unknown>, name = 'A') => operationKey(document, name, variables);
    expect(key({ first: 1 })).toBe(key({ first: 1, unused: 'x'.repeat(100_000) }));
    expect(key({ first: 1 })).not.toBe(key({ first: 2 }));
    expect(key({ first: 1, after: 'c' })).not.toBe(key({ first: 1 }));
    expect(key({}, 'B')).not.toBe(key({}, 'A'));
    expect(key({ first: 1 }).length).toBe(43); // a SHA-256, whatever the variables' size
  });

  it('computes once per key, keeps at most maxPerDocument results, least recently used out first', () => {
    const memo = createDocumentMemo<number>({ maxPerDocument: 2 });
    let calls = 0;
    const run = (first: number) => memo(document, 'A', { first }, () => (calls += 1, first));
    run(1);
    run(1);
    expect(calls).toBe(1);
    run(2);
    run(1); // 1 is now the most recent
    run(3); // evicts 2
    run(1);
    expect(calls).toBe(3);
    run(2);
    expect(calls).toBe(4);
  });

  it('does not keep results counted over maxValueBytes', () => {
    const memo = createDocumentMemo<string>({ sizeOf: (v) => v.length, maxValueBytes: 10 });
    let calls = 0;
    const big = () => (calls += 1, 'y'.repeat(100));
    memo(document, 'A', {}, big);
    memo(document, 'A', {}, big);
    expect(calls).toBe(2);
  });

  it('still accepts the older (document, key, compute) form', () => {
    const memo = createDocumentMemo<number>();
    let calls = 0;
    expect(memo(document, 'k', () => (calls += 1))).toBe(1);
    expect(memo(document, 'k', () => (calls += 1))).toBe(1);
    expect(calls).toBe(1);
  });
});

describe('the gateway under distinct large documents and variables', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 20 } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('200 distinct 100 KB-comment documents leave the heap within the parse budget', async () => {
    const before = heapAfterGc();
    for (let i = 0; i < 200; i++) {
      const res = await stack.query(commentDocument(i, 100 * 1024, i % 2 ? 'line' : 'lines'), { skip: false });
      expect(res.errors).toBeUndefined();
    }
    expect(heapAfterGc() - before).toBeLessThan(PARSE_CACHE_DEFAULTS.maxBytes + 4 * MiB);
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('one document with 200 distinct values of a 200 KB unused variable holds nothing per request', async () => {
    const query = 'query Q($skip: Boolean!) { __typename @skip(if: $skip) }';
    await stack.query(query, { skip: false });
    const before = heapAfterGc();
    for (let i = 0; i < 200; i++) {
      const res = await stack.query(query, { skip: i % 2 === 1, unused: `${i}${'u'.repeat(200 * 1024)}` });
      expect(res.errors).toBeUndefined();
    }
    // Keyed by raw variables (as before), the two memos held 2 x 32 x 200 KB for this one document.
    expect(heapAfterGc() - before).toBeLessThan(2 * MiB);
  });
});

describe('the response cache counts at least what it holds', () => {
  it('20,000 small entries: counted bytes are above the heap they take', async () => {
    const cache = createMemoryCache({ maxEntries: 30_000, maxBytes: 1 << 30 });
    await cache.set('warm', 'x', 1000); // allocates lru-cache's fixed arrays before the measure
    await cache.delete('warm');
    const before = heapAfterGc();
    for (let i = 0; i < 20_000; i++) await cache.set(`v1:dataApi:listValidators:${'k'.repeat(40)}${i}`, { i, s: `x${i}`, list: [{ nodeId: `NodeID-${i}`, amount: String(i * 1e9) }] }, 60_000);
    const used = heapAfterGc() - before;
    expect(cache.stats().bytes).toBeGreaterThan(used);
  });
});

describe('the in-process devnet: state a caller can grow is budgeted', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ validators: 20 });
  });
  afterAll(async () => {
    await devnet?.close();
  });

  const rpc = async (method: string, params: unknown) => {
    const res = await fetch(`${devnet.url}/ext/admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    return (await res.json()) as { result?: unknown; error?: { message: string } };
  };

  it(`accepts at most ${MAX_ALIASES} aliases per node, HTTP and chain aliases together`, async () => {
    for (let i = 0; i < MAX_ALIASES; i++) {
      const reply = i % 2 ? await rpc('admin.alias', { endpoint: 'info', alias: `info-${i}` }) : await rpc('admin.aliasChain', { chain: 'X', alias: `x-${i}` });
      expect(reply.error).toBeUndefined();
    }
    expect((await rpc('admin.alias', { endpoint: 'info', alias: 'one-more' })).error?.message).toBe(`the devnet node keeps at most ${MAX_ALIASES} aliases`);
    expect((await rpc('admin.aliasChain', { chain: 'X', alias: 'one-more' })).error?.message).toBe(`the devnet node keeps at most ${MAX_ALIASES} aliases`);
  });

  it('refuses a request body over 2 MiB with 413 without buffering it', async () => {
    const res = await fetch(`${devnet.url}/v1/signatureAggregator/mainnet/aggregateSignatures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'a'.repeat(3 * MiB) }),
    });
    expect(res.status).toBe(413);
    const ok = await fetch(`${devnet.url}/__devnet/stats`);
    expect(ok.status).toBe(200);
  });
});

describe('the heap limit follows the budgets', () => {
  it('npm start sizes --max-old-space-size from heapBudget, which adds up every budget with headroom', async () => {
    const { readFileSync } = await import('node:fs');
    const start = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts['start'];
    expect(start).toContain('--max-old-space-size=${GATEWAY_HEAP_MB:-$(node dist/heap-budget-cli.mjs)}');
    const config = configFromEnv({});
    const budget = heapBudget(config);
    expect(budget.totalBytes).toBe(Object.values(budget.terms).reduce((a, b) => a + b, 0));
    expect(budget.terms['upstream answer cache (CACHE_MAX_BYTES, or a quarter of it in front of Redis; x1.25 for shared item copies)']).toBe(1.25 * MEMORY_CACHE_DEFAULTS.maxBytes);
    expect(budget.terms['whole-response cache (RESPONSE_CACHE_MAX_BYTES)']).toBe(RESPONSE_CACHE_DEFAULTS.maxBytes);
    expect(budget.terms['parse cache']).toBe(PARSE_CACHE_DEFAULTS.maxBytes);
    expect(budget.heapMb * MiB).toBeGreaterThanOrEqual(budget.totalBytes * 1.25);
    // Fewer concurrent operations, a smaller heap; no in-process devnet, no devnet term.
    const smaller = heapBudget(configFromEnv({ MAX_CONCURRENT_OPERATIONS: '8', DATA_API_URL: 'http://x', NODE_URLS: 'a=http://x' }));
    expect(smaller.heapMb).toBeLessThan(budget.heapMb);
    expect(smaller.terms['in-process devnet']).toBe(0);
    // A trusted-documents manifest is held for the process's life: counted by its size.
    expect(budget.terms['trusted documents (PERSISTED_OPERATIONS)']).toBe(0);
    const documents = new Map([['a'.repeat(64), `query { ${'chains { chainId } '.repeat(1000)}}`]]);
    const withManifest = heapBudget({ ...config, persisted: { ...config.persisted, documents } });
    expect(withManifest.terms['trusted documents (PERSISTED_OPERATIONS)']).toBeGreaterThan(2 * 17_000);
  });
});

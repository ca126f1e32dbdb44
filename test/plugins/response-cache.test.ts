import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

const WALK = `query Walk($first: Int!) { network(name: MAINNET) { validators(first: $first) {
  edges { node { nodeId amountStaked delegators(first: 2) { edges { node { txHash } } } } }
} } }`;
const BLOCKS = '{ network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 2) { edges { cursor } } } } }';

describe('the whole-response cache', () => {
  let stack: TestStack;
  const upstreamCache = createMemoryCache();
  beforeAll(async () => {
    stack = await startStack({
      devnet: { validators: 40 },
      cache: upstreamCache,
      gateway: { responseCache: { maxBytes: 4 * 1024 * 1024 } },
    });
  });
  afterAll(async () => stack?.close());
  beforeEach(() => stack.devnet.resetStats());

  it('answers an identical query whole, without an upstream call, and says it made none', async () => {
    const first = await stack.query(WALK, { first: 3 });
    expect(first.errors).toBeUndefined();
    const calls = stack.upstreamRequests();
    expect(calls).toBeGreaterThan(0);
    const again = await stack.query(WALK, { first: 3 });
    expect(again.data).toEqual(first.data);
    expect(stack.upstreamRequests()).toBe(calls);
    expect(again.extensions?.['cost']).toMatchObject({ actualUpstreamCalls: 0 });
  });

  it('keys on the variables, the operation and the caller’s key', async () => {
    await stack.query(WALK, { first: 2 });
    const base = await stack.query(WALK, { first: 2 });
    expect(base.extensions?.['cost']).toMatchObject({ actualUpstreamCalls: 0 });
    const other = await stack.query(WALK, { first: 4 });
    expect((other.data as { network: { validators: { edges: unknown[] } } }).network.validators.edges).toHaveLength(4);
    // A caller with their own key is served from their own entries (and the upstream sees their key).
    stack.devnet.resetStats();
    const keyed = await stack.query(WALK, { first: 2 }, { 'x-service-api-key': 'caller-key-1' });
    expect(keyed.data).toEqual(base.data);
    expect(stack.upstreamRequests()).toBeGreaterThan(0);
    stack.devnet.resetStats();
    await stack.query(WALK, { first: 2 }, { 'x-service-api-key': 'caller-key-1' });
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('serves the same bytes in both JSON media types', async () => {
    const query = '{ network(name: MAINNET) { validators(first: 1) { edges { node { nodeId } } } } }';
    const send = (accept: string) =>
      stack.gateway.fetch('http://chaingraph.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query }) });
    const made = await send('application/json');
    const text = await made.text();
    for (const accept of ['application/json', 'application/graphql-response+json', '*/*', 'application/graphql-response+json, application/json;q=0.9']) {
      const res = await send(accept);
      expect(res.status).toBe(200);
      const type = accept.startsWith('application/graphql-response+json') ? 'application/graphql-response+json' : 'application/json';
      expect(res.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
      const body = (await res.json()) as { data: unknown; extensions: { cost: { actualUpstreamCalls: number } } };
      expect(body.data).toEqual((JSON.parse(text) as { data: unknown }).data);
      expect(body.extensions.cost.actualUpstreamCalls).toBe(0);
    }
  });

  it('never holds a response past the earliest expiry of what it read', async () => {
    const short = await startStack({ devnet: { validators: 10 }, cache: createMemoryCache(), gateway: { responseCache: { maxBytes: 1024 * 1024 } } });
    try {
      // Blocks are cached for 2 s (the default TTL of the class): so is a response that read them.
      const first = await short.query(BLOCKS);
      expect(first.errors).toBeUndefined();
      short.devnet.resetStats();
      await short.query(BLOCKS);
      expect(short.upstreamRequests()).toBe(0);
      await sleep(2_100);
      await short.query(BLOCKS);
      expect(short.upstreamRequests()).toBeGreaterThan(0);
    } finally {
      await short.close();
    }
  });

  it('never holds errors, uncached reads or admin callers', async () => {
    const bad = '{ network(name: MAINNET) { validators(first: 1, filter: { nodeIds: ["NodeID-nope"] }) { edges { node { nodeId } } } } }';
    const first = await stack.query(bad);
    expect(first.errors).toBeDefined();
    expect((await stack.query(bad)).errors).toEqual(first.errors);
    const status = `{ exportOperation(operationId: "${stack.devnet.dataset.fixtures().mainnet.operationId}") { operationId } }`;
    const op = await stack.query(status);
    expect(op.errors).toBeUndefined();
    stack.devnet.resetStats();
    await stack.query(status);
    expect(stack.upstreamRequests()).toBe(1); // export status is never cached, so never held
    // An admin caller's request executes (it reads the upstream cache) instead of being answered whole.
    const plain = '{ network(name: MAINNET) { validators(first: 1) { edges { node { nodeId } } } } }';
    await stack.query(plain);
    const hits = upstreamCache.stats().hits;
    await stack.query(plain);
    expect(upstreamCache.stats().hits).toBe(hits);
    await stack.query(plain, undefined, { authorization: 'Bearer whatever' });
    expect(upstreamCache.stats().hits).toBeGreaterThan(hits);
  });

  it('refuses hostile variables as before: a 100,000-deep value answers VARIABLES_TOO_LARGE, nothing crashes', async () => {
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const body = `{"query":"query($v: JSON) { __typename }","variables":{"v":${deep}}}`;
    const res = await stack.gateway.fetch('http://chaingraph.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe('VARIABLES_TOO_LARGE');
  });

  it('property: a response served whole is the response the query makes when executed', async () => {
    const query = fc.record({
      first: fc.integer({ min: 1, max: 6 }),
      status: fc.constantFrom(undefined, 'ACTIVE', 'COMPLETED'),
      name: fc.constantFrom('', 'Walk', 'Other'),
      spacing: fc.constantFrom(' ', '\n  ', '\t'),
      withDelegators: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(query, async ({ first, status, name, spacing, withDelegators }) => {
        const filter = status ? `, filter: { validationStatus: ${status} }` : '';
        const text = `query ${name}($first: Int!) {${spacing}network(name: MAINNET) { validators(first: $first${filter}) { edges { node { nodeId${withDelegators ? ' delegators(first: 1) { edges { node { txHash } } }' : ''} } } } } }`;
        const made = await stack.query(text, { first });
        const served = await stack.query(text, { first });
        const executed = await stack.query(text, { first }, { authorization: 'Bearer executes-afresh' });
        expect(made.errors).toBeUndefined();
        expect(served.data).toEqual(made.data);
        expect(executed.data).toEqual(made.data);
        expect(served.extensions?.['cost']).toMatchObject({ actualUpstreamCalls: 0 });
      }),
      { numRuns: 40 },
    );
  });
});

describe('without an upstream cache', () => {
  it('holds nothing: every answer came straight from the upstream', async () => {
    const stack = await startStack({ devnet: { validators: 10 }, gateway: { responseCache: { maxBytes: 1024 * 1024 } } });
    try {
      const query = '{ network(name: MAINNET) { validators(first: 2) { edges { node { nodeId } } } } }';
      await stack.query(query);
      stack.devnet.resetStats();
      await stack.query(query);
      expect(stack.upstreamRequests()).toBe(1);
    } finally {
      await stack.close();
    }
  });
});

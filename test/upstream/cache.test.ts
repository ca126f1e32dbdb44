import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { Redis } from 'ioredis';
import { type ResponseCache } from '../../src/upstream/cache.ts';
import { createMemoryCache, entryBytes, MEMORY_CACHE_DEFAULTS } from '../../src/upstream/cache-memory.ts';
import { createRedisCache } from '../../src/upstream/cache-redis.ts';
import { freezeJson, stringBytes } from '../../src/lib/frozen-json.ts';
import { upstreamScope, withDataApiCache, withNodeCache, type CachedClientOptions } from '../../src/upstream/cached-clients.ts';
import type { UpstreamObserver } from '../../src/upstream/client-types.ts';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { createNodeClient, type NodeClientHandle } from '../../src/upstream/node-client.ts';
import { settlesAtOnce } from '../helpers/at-once.ts';
import { connectRedis, ensureRedis, freePort, redisAvailable, stopRedis } from '../helpers/redis.ts';

// ---------------------------------------------------------------- Redis for the shared table

if (!redisAvailable) {
  console.warn('cache.test.ts: Redis half SKIPPED: set TEST_REDIS_URL or install redis-server to run it');
}

const openCaches: { close(): Promise<void> }[] = [];

/** A Redis cache on its own key prefix and connection (a replica's), so parallel runs on one server never meet. */
async function redisCache(options: { keyPrefix?: string } = {}): Promise<ResponseCache> {
  const redis = connectRedis(await ensureRedis());
  const cache = createRedisCache({ redis: redis.commands, keyPrefix: options.keyPrefix ?? `chaingraph-test:${randomUUID()}:`, onError: () => {} });
  openCaches.push(cache, redis);
  expect(await redis.ready()).toBe(true);
  return cache;
}

afterAll(async () => {
  for (const open of openCaches) await open.close();
  await stopRedis();
});

interface Backend {
  name: string;
  make(): Promise<ResponseCache>;
}

const backends: Backend[] = [{ name: 'memory', make: async () => createMemoryCache() }];
if (redisAvailable) backends.push({ name: 'redis', make: () => redisCache() });

// ---------------------------------------------------------------- the stores

describe.each(backends)('ResponseCache ($name)', (backend) => {
  it('stores, reads, deletes and counts', async () => {
    const cache = await backend.make();
    expect(await cache.get('a')).toBeUndefined();
    const before = Date.now();
    await cache.set('a', { x: 1 }, 10_000);
    const entry = await cache.get('a');
    expect(entry?.value).toEqual({ x: 1 });
    expect(entry?.expiresAt).toBeGreaterThanOrEqual(before + 10_000);
    expect(entry?.expiresAt).toBeLessThanOrEqual(Date.now() + 10_000);
    await cache.delete('a');
    expect(await cache.get('a')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 2, sets: 1 });
  });

  it('expires entries after their TTL', async () => {
    const cache = await backend.make();
    await cache.set('short', 's', 60);
    await cache.set('long', 'l', 10_000);
    expect((await cache.get('short'))?.value).toBe('s');
    await sleep(120);
    expect(await cache.get('short')).toBeUndefined();
    expect((await cache.get('long'))?.value).toBe('l');
  });

  it('stores nothing for a TTL of 0', async () => {
    const cache = await backend.make();
    await cache.set('zero', 'z', 0);
    expect(await cache.get('zero')).toBeUndefined();
    expect(cache.stats().sets).toBe(0);
  });

  it('freezes what it stores, deeply: every reader shares it and nobody can change it', async () => {
    const cache = await backend.make();
    const value = { list: [{ id: 'a' }], nested: { n: 1 } };
    await cache.set('v', value, 10_000);
    const read = (await cache.get('v'))?.value as typeof value;
    expect(read).toEqual({ list: [{ id: 'a' }], nested: { n: 1 } });
    expect(Object.isFrozen(read) && Object.isFrozen(read.list) && Object.isFrozen(read.list[0]) && Object.isFrozen(read.nested)).toBe(true);
    expect(() => read.list.push({ id: 'b' })).toThrow(TypeError);
    expect(() => {
      (read.nested as { n: number }).n = 2;
    }).toThrow(TypeError);
  });
});

describe('createMemoryCache', () => {
  it('answers a hit at once, not in a promise', async () => {
    const cache = createMemoryCache();
    await cache.set('a', 1, 10_000);
    const read = cache.get('a');
    expect(read).not.toBeInstanceOf(Promise);
    expect(read).toMatchObject({ value: 1 });
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = createMemoryCache({ maxEntries: 2 });
    await cache.set('a', 1, 10_000);
    await cache.set('b', 2, 10_000);
    expect(cache.get('a')).toMatchObject({ value: 1 }); // a is now the most recently used
    await cache.set('c', 3, 10_000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toMatchObject({ value: 1 });
    expect(cache.get('c')).toMatchObject({ value: 3 });
  });

  it('evicts by counted bytes beyond maxBytes and never stores an entry larger than maxEntryBytes', async () => {
    const one = entryBytes('k1', freezeJson('x'.repeat(40)));
    const cache = createMemoryCache({ maxBytes: 2 * one + 10, maxEntryBytes: 2 * one });
    await cache.set('k1', 'x'.repeat(40), 10_000);
    await cache.set('k2', 'y'.repeat(40), 10_000);
    await cache.set('k3', 'z'.repeat(40), 10_000); // three entries do not fit: k1 goes
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k2')).toBeDefined();
    await cache.set('huge', 'h'.repeat(2 * one), 10_000);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('k3')).toBeDefined();
    expect(cache.stats().bytes).toBeLessThanOrEqual(2 * one + 10);
  });

  it('counts two bytes per character for strings V8 cannot store as Latin-1', () => {
    expect(stringBytes('abc') - stringBytes('')).toBe(3);
    expect(stringBytes('äbc') - stringBytes('')).toBe(3); // ä is Latin-1: one byte each
    expect(stringBytes('Ωbc') - stringBytes('')).toBe(6);
    expect(stringBytes('😀') - stringBytes('')).toBe(4);
  });

  it('defaults to a 16 MiB budget and reports what it holds', async () => {
    const cache = createMemoryCache();
    await cache.set('a', '1', 10_000);
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: entryBytes('a', freezeJson('1')), maxBytes: MEMORY_CACHE_DEFAULTS.maxBytes });
    expect(MEMORY_CACHE_DEFAULTS.maxBytes).toBe(16 * 1024 * 1024);
  });

  it('property: under any sequence of sets, reads and deletes, the counted bytes are the live entries\' and never exceed the budget', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 120 }),
      fc.integer({ min: 0, max: 5_000 }).map((n) => 'v'.repeat(n)),
    );
    const json = fc.oneof(text, fc.array(fc.record({ id: text, n: fc.double({ noNaN: true, noDefaultInfinity: true }) }), { maxLength: 20 }));
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.string({ minLength: 1, maxLength: 8 }), value: json, ttl: fc.constantFrom(0, 60_000) }),
      fc.record({ kind: fc.constant('get' as const), key: fc.string({ minLength: 1, maxLength: 8 }) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.string({ minLength: 1, maxLength: 8 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 300, max: 20_000 }), fc.array(op, { maxLength: 120 }), async (maxBytes, ops) => {
        const cache = createMemoryCache({ maxBytes, maxEntries: 50 });
        const live = new Map<string, unknown>();
        for (const o of ops) {
          if (o.kind === 'set') {
            await cache.set(o.key, o.value, o.ttl);
            if (o.ttl > 0) live.set(o.key, o.value);
          } else if (o.kind === 'delete') {
            await cache.delete(o.key);
            live.delete(o.key);
          } else {
            cache.get(o.key);
          }
          const stats = cache.stats();
          expect(stats.bytes).toBeLessThanOrEqual(maxBytes);
          expect(stats.entries).toBeLessThanOrEqual(50);
        }
        // What is still there is exactly what the counter says, each entry at most maxEntryBytes.
        let counted = 0;
        for (const [key, value] of live) {
          const stored = cache.get(key);
          if (stored === undefined || stored instanceof Promise) continue;
          expect(stored.value).toBe(value);
          const bytes = entryBytes(key, freezeJson(value));
          expect(bytes).toBeLessThanOrEqual(Math.floor(maxBytes / 8));
          counted += bytes;
        }
        expect(cache.stats().bytes).toBe(counted);
      }),
      { numRuns: 300 },
    );
  });
});

describe.skipIf(!redisAvailable)('createRedisCache', () => {
  it('keeps deployments apart by key prefix', async () => {
    const a = await redisCache({ keyPrefix: `chaingraph-test:${randomUUID()}:a:` });
    const b = await redisCache({ keyPrefix: `chaingraph-test:${randomUUID()}:b:` });
    await a.set('k', 'a', 10_000);
    expect((await a.get('k'))?.value).toBe('a');
    expect(await b.get('k')).toBeUndefined();
  });

  it('shares answers between replicas with their expiry, and each replica then holds them parsed', async () => {
    const prefix = `chaingraph-test:${randomUUID()}:`;
    const one = await redisCache({ keyPrefix: prefix });
    const two = await redisCache({ keyPrefix: prefix });
    await one.set('k', { page: [1, 2] }, 10_000);
    const first = two.get('k');
    expect(first).toBeInstanceOf(Promise); // from Redis
    const entry = await first;
    expect(entry?.value).toEqual({ page: [1, 2] });
    expect(entry?.expiresAt).toBe((one.get('k') as { expiresAt: number }).expiresAt);
    const again = two.get('k');
    expect(again).not.toBeInstanceOf(Promise); // from this replica's own parsed store
    expect((again as { value: unknown }).value).toBe(entry?.value);
  });

  it('reads a value in another format as a miss', async () => {
    const prefix = `chaingraph-test:${randomUUID()}:`;
    const raw = new Redis(await ensureRedis(), { keyPrefix: prefix });
    try {
      await raw.set('old', '{"x":1}', 'PX', 10_000);
      await raw.set('past', `${Date.now() - 1000}:{"x":1}`, 'PX', 10_000);
      const cache = await redisCache({ keyPrefix: prefix });
      expect(await cache.get('old')).toBeUndefined();
      expect(await cache.get('past')).toBeUndefined();
    } finally {
      raw.disconnect();
    }
  });

  it('reads as a miss at once when Redis is unreachable, and the outage is logged once', async () => {
    const warnings: unknown[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    const port = await freePort(); // nothing listens there
    const redis = connectRedis(`redis://127.0.0.1:${port}`, { connectTimeoutMs: 200, logger });
    const errors: Error[] = [];
    const cache = createRedisCache({ redis: redis.commands, localMaxBytes: 0, onError: (error) => errors.push(error) });
    try {
      expect(await redis.ready(300)).toBe(false);
      await cache.set('k', 'v', 10_000);
      const read = Promise.resolve(cache.get('k'));
      expect(await settlesAtOnce(read)).toBe(true);
      expect(await read).toBeUndefined();
      expect(await cache.get('k')).toBeUndefined();
      expect(cache.stats()).toMatchObject({ hits: 0, misses: 2, sets: 0 });
      await sleep(300); // several reconnect attempts fail meanwhile
      expect(errors).toHaveLength(0); // no command was sent to fail
      expect(warnings.filter((line) => (line as { connection?: string }).connection === 'commands')).toHaveLength(1);
    } finally {
      await cache.close();
      await redis.close();
    }
  });
});

// ---------------------------------------------------------------- the decorators, on both stores

describe.each(backends)('cached clients ($name)', (backend) => {
  let devnet: Devnet;
  let rawApi: DataApiClient;
  let rawNodes: NodeClientHandle[];

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 60, latencyMs: 40 });
    rawApi = createDataApiClient({ baseUrl: devnet.url, apiKey: 'server-key' });
    rawNodes = Object.entries(devnet.nodeUrls).map(([name, url]) => createNodeClient({ name, url }));
  });
  afterAll(async () => {
    await rawApi.close();
    await Promise.all(rawNodes.map((node) => node.close()));
    await devnet.close();
  });
  beforeEach(() => devnet.resetStats());

  const setup = async (options: CachedClientOptions = {}) => {
    const cache = await backend.make();
    return {
      cache,
      api: withDataApiCache(rawApi, cache, options),
      nodes: rawNodes.map((node) => withNodeCache(node, cache, options)),
    };
  };
  const requests = (): number => devnet.stats().requests;

  it('answers a repeated read from the cache, and a read with other arguments from the upstream', async () => {
    const { api, cache } = await setup();
    const first = await api.listValidators('mainnet', { pageSize: 3 });
    const again = await api.listValidators('mainnet', { pageSize: 3 });
    expect(again).toEqual(first);
    expect(requests()).toBe(1);
    await api.listValidators('mainnet', { pageSize: 4 });
    expect(requests()).toBe(2);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 2, sets: 2 });
  });

  it('shares one frozen answer between callers: nobody can change what another reads', async () => {
    const { api } = await setup();
    const first = await api.listChains();
    expect(() => {
      first.chains.length = 0;
    }).toThrow(TypeError);
    const again = await api.listChains();
    expect(again).toBe(first);
    expect(again.chains.length).toBeGreaterThan(0);
  });

  it('tells each caller until when its answer may be reused', async () => {
    const { api } = await setup({ ttlMs: { chains: 5_000 } });
    const seen: number[] = [];
    const before = Date.now();
    await api.listChains({}, { onExpiry: (at) => seen.push(at) });
    await api.listChains({}, { onExpiry: (at) => seen.push(at) });
    await api.getOperation(devnet.dataset.fixtures().mainnet.operationId, { onExpiry: (at) => seen.push(at) });
    expect(seen).toHaveLength(3);
    expect(seen[0]).toBeGreaterThanOrEqual(before + 5_000);
    expect(seen[1]).toBe(seen[0]); // the same entry, the same expiry
    expect(seen[2]).toBe(0); // never cached
  });

  it('refetches after the TTL of the resource class', async () => {
    const { api } = await setup({ ttlMs: { staking: 80 } });
    await api.listDelegators('mainnet', { pageSize: 2 });
    await api.listDelegators('mainnet', { pageSize: 2 });
    expect(requests()).toBe(1);
    await sleep(150);
    await api.listDelegators('mainnet', { pageSize: 2 });
    expect(requests()).toBe(2);
  });

  it('shares one upstream call between identical concurrent reads', async () => {
    const { api } = await setup();
    const [a, b, c] = await Promise.all([
      api.listSubnets('mainnet', { pageSize: 5 }),
      api.listSubnets('mainnet', { pageSize: 5 }),
      api.listSubnets('mainnet', { pageSize: 5 }),
    ]);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(devnet.stats().byRoute['GET /v1/networks/{network}/subnets']).toBe(1);
  });

  it("does not cancel a shared call when one caller aborts; that caller stops waiting at once", async () => {
    const { api } = await setup();
    const controller = new AbortController();
    const aborted = api.listValidators('fuji', { pageSize: 2 }, { signal: controller.signal });
    const patient = api.listValidators('fuji', { pageSize: 2 });
    let patientDone = false;
    void patient.then(() => (patientDone = true));
    setTimeout(() => controller.abort(), 5);
    const abortError = await aborted.then(() => undefined, (error: unknown) => error);
    expect(abortError).toBeInstanceOf(UpstreamError);
    expect((abortError as UpstreamError).kind).toBe('aborted');
    expect(patientDone).toBe(false); // the aborted caller did not wait for the shared answer
    expect((await patient).validators).toHaveLength(2);
    expect(requests()).toBe(1);
    await api.listValidators('fuji', { pageSize: 2 });
    expect(requests()).toBe(1); // and the answer was cached
  });

  it('cancels the shared call when every caller has gone, and caches nothing', async () => {
    const { api } = await setup();
    const controller = new AbortController();
    const call = api.listBlocks('mainnet', 'p-chain', { pageSize: 1 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
    await sleep(60);
    await api.listBlocks('mainnet', 'p-chain', { pageSize: 1 });
    expect(devnet.stats().byRoute['GET /v1/networks/{network}/blockchains/{blockchainId}/blocks']).toBe(2);
  });

  it('never caches mutations, admin reads or export status', async () => {
    const { api, nodes } = await setup();
    const fixtures = devnet.dataset.fixtures();
    const node = nodes[0];
    if (!node) throw new Error('no node');
    await api.getOperation(fixtures.mainnet.operationId);
    await api.getOperation(fixtures.mainnet.operationId);
    await node.call('admin.getLoggerLevel', {});
    await node.call('admin.getLoggerLevel', {});
    const body = { type: 'TRANSACTION_EXPORT_EVM', firstDate: '2024-01-01', lastDate: '2024-01-02', options: { addresses: [fixtures.mainnet.address], includeChains: ['43114'] } };
    await Promise.allSettled([api.createTransactionExport(body), api.createTransactionExport(body)]);
    const byRoute = devnet.stats().byRoute;
    expect(byRoute['GET /v1/operations/{operationId}']).toBe(2);
    expect(byRoute['POST admin.getLoggerLevel']).toBe(2);
    expect(byRoute['POST /v1/operations/transactions:export']).toBe(2);
  });

  it('never caches failures', async () => {
    const { api } = await setup();
    const missing = () => api.getTransaction('43114', `0x${'0'.repeat(64)}`);
    await expect(missing()).rejects.toBeInstanceOf(UpstreamError);
    await expect(missing()).rejects.toBeInstanceOf(UpstreamError);
    expect(requests()).toBe(2);
  });

  it('keys node calls by node name and params, and caches health GETs', async () => {
    const { nodes } = await setup();
    const [mainnet, fuji] = nodes;
    if (!mainnet || !fuji) throw new Error('two nodes expected');
    const a = await mainnet.call('info.getNodeID');
    const b = await fuji.call('info.getNodeID');
    expect(a.nodeID).not.toBe(b.nodeID);
    expect(await mainnet.call('info.getNodeID', {})).toEqual(a);
    expect(requests()).toBe(2);
    await mainnet.healthGet('liveness');
    await mainnet.healthGet('liveness');
    expect(requests()).toBe(3);
  });

  it('tells the per-call observer only about calls that went upstream', async () => {
    const { api } = await setup();
    const seen: string[] = [];
    const observer: UpstreamObserver = { onAttempt: (attempt) => seen.push(attempt.operation) };
    await api.listChains({ network: 'mainnet' }, { observer });
    await api.listChains({ network: 'mainnet' }, { observer });
    expect(seen).toEqual(['GET /v1/chains']);
    // A caller that joins someone else's in-flight call made no call of its own either.
    const joined: string[] = [];
    await Promise.all([
      api.listChains({ network: 'fuji' }, { observer }),
      api.listChains({ network: 'fuji' }, { observer: { onAttempt: (attempt) => joined.push(attempt.operation) } }),
    ]);
    expect(seen).toHaveLength(2);
    expect(joined).toHaveLength(0);
    expect(requests()).toBe(2);
  });

  it("a caller who joined a shared call that the first caller's budget refused makes the call under its own budget", async () => {
    const { api } = await setup();
    const refuseAll: UpstreamObserver = { onAttempt: () => {}, admit: () => false };
    const allowed: string[] = [];
    const admitAll: UpstreamObserver = { onAttempt: (attempt) => allowed.push(attempt.operation), admit: () => true };
    const [refused, joined] = await Promise.allSettled([
      api.listChains({ network: 'mainnet' }, { observer: refuseAll }),
      api.listChains({ network: 'mainnet' }, { observer: admitAll }),
    ]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { kind: 'budget' } });
    expect(joined.status).toBe('fulfilled');
    expect(allowed).toEqual(['GET /v1/chains']);
    expect(requests()).toBe(1);
  });

  it('passes uncached calls through with their own signal', async () => {
    const { api } = await setup();
    const controller = new AbortController();
    controller.abort();
    await expect(api.getOperation(devnet.dataset.fixtures().mainnet.operationId, { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(requests()).toBe(0);
  });
});

describe('one cache in front of different upstreams', () => {
  let first: Devnet;
  let second: Devnet;
  beforeAll(async () => {
    [first, second] = await Promise.all([startDevnet({ validators: 20, seed: 1 }), startDevnet({ validators: 20, seed: 2 })]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('keeps their answers apart: the Data API by the scope of its URL, each node by its URL', async () => {
    // As two gateways pointed at different upstreams would, sharing one Redis: here one memory cache.
    const cache = createMemoryCache();
    const apis = [first, second].map((devnet) =>
      withDataApiCache(createDataApiClient({ baseUrl: devnet.url, apiKey: 'k' }), cache, { scope: upstreamScope(devnet.url) }),
    );
    // One after the other, so the second could only be served from the first's entry.
    const a = await apis[0]?.listValidators('mainnet', { pageSize: 5 });
    const b = await apis[1]?.listValidators('mainnet', { pageSize: 5 });
    expect(a?.validators.map((v) => v.nodeId)).not.toEqual(b?.validators.map((v) => v.nodeId));
    // Same-named nodes at different URLs: each answers for itself.
    const nodes = [first, second].map((devnet) => withNodeCache(createNodeClient({ name: 'mainnet', url: devnet.nodeUrls['mainnet'] as string }), cache));
    const idA = await nodes[0]?.call('info.getNodeID', {});
    const idB = await nodes[1]?.call('info.getNodeID', {});
    expect(idA?.nodeID).not.toBe(idB?.nodeID);
  });
});

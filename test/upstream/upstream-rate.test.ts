import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { upstreamToGraphQLError } from '../../src/errors/graphql.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { createHttpUpstream } from '../../src/upstream/http.ts';
import { createUpstreamRate, type UpstreamRate, type UpstreamRateOptions } from '../../src/upstream/upstream-rate.ts';
import { settlesAtOnce } from '../helpers/at-once.ts';
import { connectRedis, ensureRedis, freePort, redisAvailable, stopRedis } from '../helpers/redis.ts';

const CHAINS = 'GET /v1/chains';

if (!redisAvailable) console.warn('upstream-rate.test.ts: the shared (Redis) half SKIPPED: set TEST_REDIS_URL or install redis-server');

// ---------------------------------------------------------------- fixtures

let devnet: Devnet;
const owned: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ validators: 50 });
});
afterAll(async () => {
  await devnet.close();
  await stopRedis();
});
beforeEach(() => {
  devnet.resetStats();
});
afterEach(async () => {
  await Promise.all(owned.splice(0).map((c) => c.close()));
});

function ceiling(options: UpstreamRateOptions): UpstreamRate {
  const rate = createUpstreamRate(options);
  owned.push(rate);
  return rate;
}

function client(rate: UpstreamRate, timeoutMs = 5_000): DataApiClient {
  const http = createHttpUpstream({ upstreamRate: rate, timeoutMs, retries: 0, breaker: false });
  owned.push(http);
  return createDataApiClient({ baseUrl: devnet.url, http });
}

/** Waits for the next one-second window to start fresh, so a burst lands in one window. */
async function freshWindow(): Promise<void> {
  await sleep(1_050);
}

async function settle(calls: Promise<unknown>[]): Promise<{ ok: number; throttled: UpstreamError[] }> {
  const results = await Promise.allSettled(calls);
  const throttled = results.flatMap((r) => (r.status === 'rejected' && r.reason instanceof UpstreamError && r.reason.kind === 'throttled' ? [r.reason] : []));
  const ok = results.filter((r) => r.status === 'fulfilled').length;
  expect(ok + throttled.length).toBe(results.length);
  return { ok, throttled };
}

async function untilShared(rate: UpstreamRate): Promise<void> {
  for (let i = 0; i < 100 && !rate.shared(); i += 1) await sleep(50);
  expect(rate.shared()).toBe(true);
}

// ---------------------------------------------------------------- tests

describe('UPSTREAM_MAX_RPS in one process', () => {
  it('sends at most maxRps a second; the rest, with no wait allowed, fail UPSTREAM_RATE_LIMITED unsent', async () => {
    const rate = ceiling({ maxRps: 5, maxWaitMs: 0 });
    const api = client(rate);
    const { ok, throttled } = await settle(Array.from({ length: 15 }, () => api.listChains()));
    expect(ok).toBe(5);
    expect(throttled).toHaveLength(10);
    expect(devnet.stats().byRoute[CHAINS]).toBe(5);
    expect(throttled[0]).toMatchObject({ upstream: 'data-api', operation: CHAINS, attempts: 0, retryAfter: 1 });
    expect(upstreamToGraphQLError(throttled[0]!).extensions).toMatchObject({ code: 'UPSTREAM_RATE_LIMITED', retryAfter: 1 });
    expect(rate.stats().refused).toBe(10);
  });

  it('a call over the ceiling waits for its turn within maxWaitMs, and the rate holds', async () => {
    const rate = ceiling({ maxRps: 4, maxWaitMs: 5_000 });
    const api = client(rate);
    const started = performance.now();
    const { ok } = await settle(Array.from({ length: 10 }, () => api.listChains()));
    const elapsed = performance.now() - started;
    expect(ok).toBe(10);
    // Fixed one-second windows: 10 calls at 4 a second need three windows, so at least two window ends.
    expect(elapsed).toBeGreaterThan(1_000);
    const starts = devnet.requestLog().map((entry) => entry.start);
    expect(maxInAnySecond(starts)).toBeLessThanOrEqual(8);
    expect(rate.stats().waited).toBe(6);
  });

  it('never waits past the call\'s deadline: a short deadline fails fast as throttled, not as a timeout', async () => {
    const rate = ceiling({ maxRps: 1, maxWaitMs: 10_000 });
    const api = client(rate, 300);
    await api.listChains();
    const call = api.listChains();
    // Fast: refused in the turn it was made, not after sleeping toward the 300 ms deadline.
    expect(await settlesAtOnce(call)).toBe(true);
    const error = await call.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).kind).toBe('throttled');
  });

  it('a caller that goes away while waiting is told it was aborted', async () => {
    const rate = ceiling({ maxRps: 1, maxWaitMs: 5_000 });
    const api = client(rate);
    await api.listChains();
    const error = await api.listChains({}, { signal: AbortSignal.timeout(50) }).then(() => undefined, (e: unknown) => e);
    expect((error as UpstreamError).kind).toBe('aborted');
  });

  it('counts each upstream on its own', async () => {
    const rate = ceiling({ maxRps: 1, maxWaitMs: 0 });
    expect(await rate.acquire('data-api', new AbortController().signal, 1_000)).toBeUndefined();
    expect(await rate.acquire('node:fuji', new AbortController().signal, 1_000)).toBeUndefined();
    expect(await rate.acquire('data-api', new AbortController().signal, 1_000)).toBeGreaterThan(0);
  });

  it('refuses nonsense settings', () => {
    expect(() => createUpstreamRate({ maxRps: 0 })).toThrow(/UPSTREAM_MAX_RPS/);
    expect(() => createUpstreamRate({ maxRps: 1.5 })).toThrow(/UPSTREAM_MAX_RPS/);
  });
});

describe.skipIf(!redisAvailable)('UPSTREAM_MAX_RPS shared by two gateways through Redis', () => {
  let url: string;
  beforeAll(async () => {
    url = await ensureRedis();
  });

  /** A replica's command connection, as the server's wiring opens it. */
  function redis(to = url): NonNullable<UpstreamRateOptions['redis']> {
    const connections = connectRedis(to);
    owned.push(connections);
    return connections.commands;
  }

  function gateway(rate: UpstreamRate): Gateway {
    const http = createHttpUpstream({ upstreamRate: rate, timeoutMs: 5_000, retries: 0 });
    owned.push(http);
    const gw = createGateway({ graphiql: false, metrics: false }, { dataApi: createDataApiClient({ baseUrl: devnet.url, http }), nodes: [] });
    owned.push({
      close: async () => {
        await gw.dispose();
      },
    });
    return gw;
  }

  async function ask(gw: Gateway): Promise<string> {
    const response = await gw.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ chains { chainId } }' }),
    });
    const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    return body.errors?.[0]?.extensions?.code ?? 'OK';
  }

  it('one budget for both: what one gateway spends the other cannot', async () => {
    const keyPrefix = `chaingraph-test:${randomUUID()}:`;
    const a = ceiling({ maxRps: 6, maxWaitMs: 0, redis: redis(), keyPrefix });
    const b = ceiling({ maxRps: 6, maxWaitMs: 0, redis: redis(), keyPrefix });
    await Promise.all([untilShared(a), untilShared(b)]);
    const [gwA, gwB] = [gateway(a), gateway(b)];
    await freshWindow();
    const codes = await Promise.all([...Array.from({ length: 8 }, () => ask(gwA)), ...Array.from({ length: 8 }, () => ask(gwB))]);
    expect(codes.filter((c) => c === 'OK')).toHaveLength(6);
    expect(codes.filter((c) => c === 'UPSTREAM_RATE_LIMITED')).toHaveLength(10);
    expect(devnet.stats().byRoute[CHAINS]).toBe(6);
  });

  it('the fleet holds the ceiling under sustained load from both', async () => {
    const keyPrefix = `chaingraph-test:${randomUUID()}:`;
    const a = ceiling({ maxRps: 5, maxWaitMs: 2_000, redis: redis(), keyPrefix });
    const b = ceiling({ maxRps: 5, maxWaitMs: 2_000, redis: redis(), keyPrefix });
    await Promise.all([untilShared(a), untilShared(b)]);
    const [gwA, gwB] = [gateway(a), gateway(b)];
    devnet.resetStats();
    const started = performance.now();
    // Four callers per gateway, each asking again as soon as it has an answer, for 2.5 s.
    const worker = async (gw: Gateway): Promise<void> => {
      while (performance.now() - started < 2_500) await ask(gw);
    };
    await Promise.all([gwA, gwA, gwA, gwA, gwB, gwB, gwB, gwB].map(worker));
    const elapsedSeconds = (performance.now() - started) / 1000;
    const starts = devnet.requestLog().map((entry) => entry.start);
    // Fixed windows: at most maxRps in each, so at most 2 × maxRps in any sliding second, and maxRps × (windows + 1) in all.
    expect(maxInAnySecond(starts)).toBeLessThanOrEqual(10);
    expect(starts.length).toBeLessThanOrEqual(5 * (Math.ceil(elapsedSeconds) + 1));
    // And the ceiling is not a stall: demand was continuous for the first 2.5 s, so at least two full windows were used.
    expect(starts.length).toBeGreaterThanOrEqual(10);
    console.info(`fleet ceiling 5/s, two gateways, 8 callers: ${starts.length} upstream requests in ${elapsedSeconds.toFixed(1)} s`);
  });

  it('while Redis does not answer, each replica still applies the ceiling on its own and nothing fails because of it', async () => {
    const down = `redis://127.0.0.1:${await freePort()}`;
    const rate = ceiling({ maxRps: 3, maxWaitMs: 0, redis: redis(down) });
    const api = client(rate);
    const { ok, throttled } = await settle(Array.from({ length: 5 }, () => api.listChains()));
    expect(rate.shared()).toBe(false);
    expect(ok).toBe(3);
    expect(throttled).toHaveLength(2);
  });
});

/** The most timestamps (ms) within any one-second span. */
function maxInAnySecond(times: number[]): number {
  const sorted = [...times].sort((x, y) => x - y);
  let best = 0;
  let from = 0;
  for (let to = 0; to < sorted.length; to += 1) {
    while (sorted[to]! - sorted[from]! >= 1_000) from += 1;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

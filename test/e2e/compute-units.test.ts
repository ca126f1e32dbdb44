import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyCaller } from '../../src/devnet/compute-units.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { ensureRedis, redisAvailable, stopRedis } from '../helpers/redis.ts';
import type { GraphQLResponse } from '../helpers/stack.ts';

/**
 * Compute units end to end: real servers (the production wiring, `startServer`) in front of a devnet that
 * bills every key in compute units by the spec's weights and, with a limit, answers 429 as the Data API
 * does. The devnet's ledger is the oracle: what the gateway reports as spent must be what the devnet billed.
 */

const SERVER_KEY = 'ops-server-key';
const SERVER = keyCaller(SERVER_KEY);
// The devnet's clock, pinned half a second before a minute ends: a 429's retry-after is then 1 s.
const MINUTE = 60_000;
let clock = Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE - 500;
let devnet: Devnet;
const servers: RunningServer[] = [];

async function start(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer(
    configFromEnv({
      PORT: '0',
      DATA_API_URL: devnet.url,
      DATA_API_KEY: SERVER_KEY,
      NODE_URLS: Object.entries(devnet.nodeUrls).map(([name, url]) => `${name}=${url}`).join(','),
      CACHE: 'off',
      CURSOR_SECRET: 'compute-units-test-cursor-secret-0123456789',
      ...env,
    }),
    pino({ level: 'silent' }),
  );
  servers.push(server);
  return server;
}

async function post(server: RunningServer, query: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: GraphQLResponse }> {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as GraphQLResponse };
}

interface Cost {
  estimatedUpstreamCalls: number;
  actualUpstreamCalls: number;
  estimatedComputeUnits: number;
  actualComputeUnits: number;
}
const costOf = (body: GraphQLResponse): Cost => body.extensions?.['cost'] as Cost;
const codes = (body: GraphQLResponse): unknown[] => (body.errors ?? []).map((error) => error.extensions?.['code']);
/** One validators listing (medium, 20 compute units); `first` makes each document distinct. */
const validators = (first: number) => `{ network(name: MAINNET) { validators(first: ${first}) { edges { node { nodeId } } } } }`;
const WALK = `{ network(name: MAINNET) { validators(first: 5, filter: { validationStatus: ACTIVE }) { edges { node {
  nodeId delegators(first: 2) { edges { node { txHash } } } pendingRewards(first: 2) { edges { node { txHash } } } subnet { subnetId }
} } } } chains { chainId } }`;
const billed = (): number => devnet.computeUnits().window[SERVER] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  devnet = await startDevnet({ validators: 60, now: () => clock });
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  devnet.setChaos({ computeUnitsPerMinute: null });
  // A fresh window for the next test: every caller starts from nothing.
  clock += MINUTE;
  devnet.resetStats();
});
afterAll(async () => {
  await devnet.close();
  await stopRedis();
});

describe('compute units, one replica', () => {
  it('reports what each operation spent as the devnet billed it, never above the estimate', async () => {
    const server = await start();
    for (const query of [WALK, validators(3), '{ chains { chainId chainName } }', '{ avalancheNode { version { version } } }']) {
      const before = billed();
      const { body } = await post(server, query);
      expect(body.errors, query).toBeUndefined();
      const cost = costOf(body);
      expect(cost.actualComputeUnits, query).toBe(billed() - before);
      expect(cost.actualComputeUnits, query).toBeLessThanOrEqual(cost.estimatedComputeUnits);
    }
    // Node calls weigh nothing: the last query made calls and spent no compute units.
    const node = await post(server, '{ avalancheNode { version { version } } }');
    expect(costOf(node.body)).toMatchObject({ actualComputeUnits: 0, estimatedComputeUnits: 0 });
  });

  it('refuses an operation over MAX_OPERATION_COMPUTE_UNITS before any call', async () => {
    const server = await start({ MAX_OPERATION_COMPUTE_UNITS: '100' });
    const before = devnet.stats().requests;
    // A page of 10 validators with their pending rewards (xl, 100 each): over 100.
    const { status, body } = await post(server, '{ network(name: MAINNET) { validators(first: 10) { edges { node { pendingRewards(first: 1) { edges { node { txHash } } } } } } } }');
    expect(status).toBe(400);
    expect(codes(body)).toEqual(['QUERY_TOO_COSTLY']);
    expect(body.errors?.[0]?.message).toMatch(/compute units \(limit 100 per operation\)/);
    expect(body.errors?.[0]?.extensions?.['limits']).toMatchObject({ maxComputeUnits: 100 });
    expect(devnet.stats().requests).toBe(before);
  });

  it('holds each client to CLIENT_COMPUTE_UNITS_PER_MINUTE: refused before any call, saying what it needs, what is left and when', async () => {
    const server = await start({ CLIENT_COMPUTE_UNITS_PER_MINUTE: '50', TRUST_PROXY: '1' });
    const asClient = { 'x-forwarded-for': '203.0.113.7' };
    for (const first of [1, 2]) {
      const { body } = await post(server, validators(first), asClient);
      expect(body.errors).toBeUndefined();
      expect(costOf(body).actualComputeUnits).toBe(20);
    }
    const before = devnet.stats().requests;
    const refused = await post(server, validators(3), asClient);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(codes(refused.body)).toEqual(['RATE_LIMITED']);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ limit: 'CLIENT_COMPUTE_UNITS_PER_MINUTE', computeUnits: { needed: 20, remaining: 10, limit: 50 } });
    expect(refused.body.errors?.[0]?.message).toMatch(/needs up to 20, 10 of 50 are left this minute\. Retry after \d+ s/);
    expect(devnet.stats().requests).toBe(before);
    // Another client's budget is its own.
    const other = await post(server, validators(3), { 'x-forwarded-for': '198.51.100.9' });
    expect(other.body.errors).toBeUndefined();
  });

  it('gives back what an operation reserved and did not spend', async () => {
    // Measured first: the walk is estimated above what it spends (its packed listings are counted as if they did not pack).
    const measuring = await start();
    const measured = costOf((await post(measuring, WALK)).body);
    expect(measured.actualComputeUnits).toBeGreaterThan(0);
    expect(measured.actualComputeUnits).toBeLessThan(measured.estimatedComputeUnits);
    // Room for the estimate plus one spending: the second walk fits only if the first gave back what it did not spend.
    const server = await start({ CLIENT_COMPUTE_UNITS_PER_MINUTE: String(measured.estimatedComputeUnits + measured.actualComputeUnits) });
    expect((await post(server, WALK)).body.errors).toBeUndefined();
    expect((await post(server, WALK)).body.errors).toBeUndefined();
    const third = await post(server, WALK);
    expect(codes(third.body)).toEqual(['RATE_LIMITED']);
    expect(third.body.errors?.[0]?.extensions?.['computeUnits']).toMatchObject({ remaining: measured.estimatedComputeUnits - measured.actualComputeUnits });
  });

  it('keeps the server key under UPSTREAM_COMPUTE_UNITS_PER_MINUTE: a burst of distinct queries earns no 429', async () => {
    devnet.setChaos({ computeUnitsPerMinute: 300 });
    const server = await start({ UPSTREAM_COMPUTE_UNITS_PER_MINUTE: '200', UPSTREAM_RATE_MAX_WAIT_MS: '0' });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(server, validators(i + 1))));
    const ok = answers.filter(({ body }) => !body.errors);
    const held = answers.filter(({ body }) => codes(body).includes('UPSTREAM_RATE_LIMITED'));
    expect(ok.length + held.length).toBe(20);
    // 200 units make 10 listings, less what the server's start-up probe of the Data API spent (a free call).
    expect(ok.length).toBeGreaterThanOrEqual(9);
    expect(ok.length).toBeLessThanOrEqual(10);
    for (const { body } of held) {
      expect(body.errors?.[0]?.extensions).toMatchObject({ limit: 'UPSTREAM_COMPUTE_UNITS_PER_MINUTE' });
      expect(body.errors?.[0]?.message).toMatch(/compute units its server key may use this minute/);
    }
    // The devnet billed only what the ceiling let through, and refused nothing.
    expect(billed()).toBeLessThanOrEqual(200);
    expect(billed()).toBeGreaterThan(180);
    expect(answers.some(({ body }) => (body.errors ?? []).some((e) => e.extensions?.['upstreamStatus'] === 429))).toBe(false);
  });

  it('after a 429 with retry-after sends nothing with that key until it has passed', async () => {
    devnet.setChaos({ computeUnitsPerMinute: 50 });
    const server = await start();
    expect((await post(server, validators(1))).body.errors).toBeUndefined();
    expect((await post(server, validators(2))).body.errors).toBeUndefined();
    // Over the devnet's limit: its 429 (retry-after 1 s) pauses the key.
    const over = await post(server, validators(3));
    expect(codes(over.body)).toEqual(['UPSTREAM_RATE_LIMITED']);
    const sent = devnet.stats().requests;
    const paused = await post(server, validators(4));
    expect(codes(paused.body)).toEqual(['UPSTREAM_RATE_LIMITED']);
    expect(paused.body.errors?.[0]?.extensions).toMatchObject({ limit: 'upstream-429', retryAfter: 1 });
    expect(devnet.stats().requests).toBe(sent);
    // Once the devnet's window has ended and the pause has passed, calls go again.
    clock += MINUTE;
    await sleep(1_100);
    expect((await post(server, validators(5))).body.errors).toBeUndefined();
    expect(devnet.stats().requests).toBe(sent + 1);
  });
});

describe.skipIf(!redisAvailable)('compute units, two replicas on one Redis', () => {
  let redisUrl: string;
  beforeAll(async () => {
    redisUrl = await ensureRedis();
  });

  it('share one ceiling for the server key', async () => {
    devnet.setChaos({ computeUnitsPerMinute: 1_000 });
    const env = { REDIS_URL: redisUrl, UPSTREAM_COMPUTE_UNITS_PER_MINUTE: '200', UPSTREAM_RATE_MAX_WAIT_MS: '0' };
    const [a, b] = [await start(env), await start(env)];
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => post(i % 2 === 0 ? a! : b!, validators(i + 1))));
    // One budget for both: 10 listings at most (the replicas' start-up probes may have counted alone, before Redis answered).
    expect(answers.filter(({ body }) => !body.errors).length).toBeLessThanOrEqual(10);
    expect(answers.filter(({ body }) => codes(body).includes('UPSTREAM_RATE_LIMITED')).length).toBeGreaterThanOrEqual(6);
    expect(billed()).toBeLessThanOrEqual(200 + 2);
    expect(answers.some(({ body }) => (body.errors ?? []).some((e) => e.extensions?.['upstreamStatus'] === 429))).toBe(false);
  });

  it('share the pause after a 429: the other replica sends nothing with that key', async () => {
    devnet.setChaos({ computeUnitsPerMinute: 30 });
    const env = { REDIS_URL: redisUrl };
    const [a, b] = [await start(env), await start(env)];
    expect((await post(a!, validators(1))).body.errors).toBeUndefined();
    expect(codes((await post(a!, validators(2))).body)).toEqual(['UPSTREAM_RATE_LIMITED']);
    const sent = devnet.stats().requests;
    // The pause reaches the other replica through Redis (its check is one read per call).
    const other = await post(b!, validators(3));
    expect(codes(other.body)).toEqual(['UPSTREAM_RATE_LIMITED']);
    expect(other.body.errors?.[0]?.extensions).toMatchObject({ limit: 'upstream-429' });
    expect(devnet.stats().requests).toBe(sent);
  });
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keyCaller } from '../../src/devnet/compute-units.ts';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { isWeightTier, UNWEIGHTED_OPERATIONS, WEIGHT_TIERS } from '../../src/lib/compute-units.ts';
import { SPEC_PATH } from '../helpers/prism.ts';

/**
 * The devnet bills compute units as the real Data API does (src/devnet/compute-units.ts): each call its
 * operation's weight, per key (or per address without one) per minute window, with the rate-limit headers
 * on every answer and a 429 past the limit. The oracle of the weights is the committed copy of the real
 * spec (`x-execution-weight` of each operation), read here, not the devnet's facts derived from it. The
 * clock is injected: a window ends when the test moves it, never by waiting.
 */

/** 12:00:15 UTC: 45 s left in the minute. */
const START = Date.UTC(2025, 5, 1, 12, 0, 15);
let clock = START;
let devnet: Devnet;
let f: NetworkFixtures;

beforeAll(async () => {
  devnet = await startDevnet({ validators: 60, webhookIntervalMs: 0, now: () => clock });
  f = devnet.dataset.fixtures().mainnet;
});
afterAll(async () => {
  await devnet?.close();
});
beforeEach(async () => {
  clock = START;
  await post('/__devnet/chaos', '');
  await post('/__devnet/stats/reset', '');
});

interface SpecOperation {
  operationId: string;
  'x-execution-weight'?: string;
}
type SpecPaths = Record<string, Record<string, SpecOperation | unknown>>;

/** Every operation of the real spec by `"<METHOD> <template>"`, and the tier it weighs (the spec's, else the one chaingraph chose). */
const SPEC_TIERS: [string, string | undefined][] = Object.entries((JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as { paths: SpecPaths }).paths).flatMap(([path, operations]) =>
  Object.entries(operations)
    .filter((entry): entry is [string, SpecOperation] => typeof entry[1] === 'object' && entry[1] !== null && 'operationId' in entry[1])
    .map(([method, op]): [string, string | undefined] => [`${method.toUpperCase()} ${path}`, op['x-execution-weight'] ?? UNWEIGHTED_OPERATIONS[op.operationId]]),
);
const unitsOf = (route: string): number => {
  const tier = SPEC_TIERS.find(([key]) => key === route)?.[1];
  if (!isWeightTier(tier)) throw new Error(`${route} has no weight`);
  return WEIGHT_TIERS[tier];
};

async function post(path: string, body: string): Promise<Response> {
  const res = await fetch(`${devnet.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  await res.arrayBuffer();
  return res;
}

async function call(path: string, init: { key?: string; header?: string; method?: string; body?: string } = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
  const headers: Record<string, string> = init.body === undefined ? {} : { 'content-type': 'application/json' };
  if (init.key !== undefined) headers[init.header ?? 'x-service-api-key'] = init.key;
  const res = await fetch(`${devnet.url}${path}`, { method: init.method ?? 'GET', headers, ...(init.body === undefined ? {} : { body: init.body }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const rateLimit = (headers: Headers) => ({
  policy: headers.get('ratelimit-policy'),
  limit: headers.get('ratelimit-limit'),
  remaining: headers.get('ratelimit-remaining'),
  reset: headers.get('ratelimit-reset'),
});

const statsComputeUnits = async (): Promise<Record<string, number>> =>
  ((await (await fetch(`${devnet.url}/__devnet/stats`)).json()) as { computeUnits: Record<string, number> }).computeUnits;

describe('the rate-limit headers', () => {
  it('are on every Data API answer, success or error, and on nothing else', async () => {
    const answers = [
      await call('/v1/chains'),
      await call('/v1/networks/mainnet/validators?pageSize=0'),
      await call('/v1/no-such-operation'),
      await call('/v1/operations/transactions:export', { method: 'POST', body: '{}' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 400, 404, 400]);
    for (const answer of answers) {
      // No limit set: a limit nothing reaches is announced; 45 s are left in the minute.
      expect(rateLimit(answer.headers)).toMatchObject({ policy: '1000000000;w=60', limit: '1000000000', reset: '45' });
      expect(answer.headers.get('retry-after')).toBeNull();
    }
    // 1 (supportedChains) + 20 (listValidators, refused by the route but billed) + 0 (no operation) + 20 (the export).
    expect(answers.map((a) => a.headers.get('ratelimit-remaining'))).toEqual(['999999999', '999999979', '999999979', '999999959']);
    for (const path of ['/__devnet/stats', '/ext/health']) {
      const res = await fetch(`${devnet.url}${path}`);
      await res.arrayBuffer();
      expect(res.headers.get('ratelimit-limit'), path).toBeNull();
    }
  });

  it('stay on an injected fault, which is not billed (a 5xx is the upstream\'s failure)', async () => {
    devnet.setChaos({ failNext: 1, retryAfterSeconds: 2 });
    const before = devnet.computeUnits().total;
    const fault = await call('/v1/chains');
    expect(fault.status).toBe(503);
    expect(rateLimit(fault.headers)).toMatchObject({ limit: '1000000000' });
    expect(devnet.computeUnits().total).toEqual(before);
    expect(fault.headers.get('retry-after')).toBe('2');
  });
});

describe('the bill', () => {
  it("is each call's weight in the spec, per key: 3 listValidators (medium) + 1 supportedChains (free) = 61", async () => {
    expect([unitsOf('GET /v1/networks/{network}/validators'), unitsOf('GET /v1/chains')]).toEqual([20, 1]);
    const remaining: (string | null)[] = [];
    for (const path of ['/v1/networks/mainnet/validators', '/v1/networks/fuji/validators?pageSize=5', '/v1/networks/mainnet/validators?validationStatus=active', '/v1/chains']) {
      const answer = await call(path, { key: 'key-a' });
      expect(answer.status, path).toBe(200);
      remaining.push(answer.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['999999980', '999999960', '999999940', '999999939']);
    expect(await statsComputeUnits()).toEqual({ [keyCaller('key-a')]: 61 });
    expect(devnet.computeUnits()).toEqual({ total: { [keyCaller('key-a')]: 61 }, window: { [keyCaller('key-a')]: 61 }, limit: undefined });
  });

  it('counts keys apart (either header), keyless calls per address, and never shows a key', async () => {
    await call('/v1/chains', { key: 'secret-key-a' });
    await call(`/v1/chains/${f.evmChainId}/transactions/${f.txHash}`, { key: 'secret-key-b', header: 'x-glacier-api-key' });
    await call('/v1/networks/mainnet/rewards:listPending?nodeIds=' + f.nodeId);
    await call('/v1/chains');
    const stats = await statsComputeUnits();
    expect(stats).toEqual({
      [keyCaller('secret-key-a')]: unitsOf('GET /v1/chains'),
      [keyCaller('secret-key-b')]: unitsOf('GET /v1/chains/{chainId}/transactions/{txHash}'),
      'addr:127.0.0.1': unitsOf('GET /v1/networks/{network}/rewards:listPending') + unitsOf('GET /v1/chains'),
    });
    expect(JSON.stringify(stats)).not.toContain('secret-key');
  });

  it('does not count node calls nor the devnet\'s own routes', async () => {
    await post('/ext/info', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNodeID' }));
    await fetch(`${devnet.url}/__devnet/fixtures`).then((r) => r.arrayBuffer());
    expect(await statsComputeUnits()).toEqual({});
  });

  it('is zeroed by POST /__devnet/stats/reset, the current window with it', async () => {
    devnet.setChaos({ computeUnitsPerMinute: 20 });
    expect((await call('/v1/networks/mainnet/validators', { key: 'k' })).status).toBe(200);
    expect((await call('/v1/networks/mainnet/validators', { key: 'k' })).status).toBe(429);
    await post('/__devnet/stats/reset', '');
    expect(await statsComputeUnits()).toEqual({});
    expect((await call('/v1/networks/mainnet/validators', { key: 'k' })).status).toBe(200);
  });
});

describe('the limit', () => {
  it('refuses a call that would take the key past it with 429, retry-after and ratelimit-reset, and does not bill it', async () => {
    expect((await post('/__devnet/chaos', JSON.stringify({ computeUnitsPerMinute: 50 }))).status).toBe(200);
    const first = await call('/v1/networks/mainnet/validators', { key: 'k' });
    const second = await call('/v1/networks/mainnet/validators', { key: 'k' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(rateLimit(second.headers)).toEqual({ policy: '50;w=60', limit: '50', remaining: '10', reset: '45' });

    clock = START + 5_000;
    const refused = await call('/v1/networks/mainnet/validators', { key: 'k' });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: expect.any(String), statusCode: 429, error: 'Too Many Requests' });
    expect(rateLimit(refused.headers)).toEqual({ policy: '50;w=60', limit: '50', remaining: '10', reset: '40' });
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(await statsComputeUnits()).toEqual({ [keyCaller('k')]: 40 });

    // What is left still buys a call that fits; another key has its own minute.
    expect((await call('/v1/chains', { key: 'k' })).status).toBe(200);
    expect((await call('/v1/networks/mainnet/validators', { key: 'other' })).status).toBe(200);
    expect(await statsComputeUnits()).toEqual({ [keyCaller('k')]: 41, [keyCaller('other')]: 20 });
  });

  it('refuses before the route runs: a refused POST creates nothing', async () => {
    devnet.setChaos({ computeUnitsPerMinute: 0 });
    const webhook = JSON.stringify({ url: 'https://example.com/hook', chainId: f.evmChainId, eventType: 'address_activity', metadata: { addresses: [f.address] } });
    expect((await call('/v1/webhooks', { key: 'k', method: 'POST', body: webhook })).status).toBe(429);
    devnet.setChaos({ computeUnitsPerMinute: null });
    const listed = await call('/v1/webhooks', { key: 'k' });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ webhooks: [] });
    // The same request admitted does create one.
    expect((await call('/v1/webhooks', { key: 'k', method: 'POST', body: webhook })).status).toBe(201);
    expect((await call('/v1/webhooks', { key: 'k' })).body).toMatchObject({ webhooks: [expect.anything()] });
  });

  it('starts afresh when the minute ends (fixed windows aligned to the minute; reset at least 1 s)', async () => {
    devnet.setChaos({ computeUnitsPerMinute: 20 });
    expect((await call('/v1/networks/mainnet/validators')).status).toBe(200);
    clock = START + 44_500;
    const refused = await call('/v1/networks/mainnet/validators');
    expect(refused.status).toBe(429);
    expect([refused.headers.get('retry-after'), refused.headers.get('ratelimit-reset')]).toEqual(['1', '1']);

    clock = START + 45_000;
    const next = await call('/v1/networks/mainnet/validators');
    expect(next.status).toBe(200);
    expect(rateLimit(next.headers)).toEqual({ policy: '20;w=60', limit: '20', remaining: '0', reset: '60' });
    // The total runs across windows; the window holds this minute's calls only.
    expect(devnet.computeUnits()).toEqual({ total: { 'addr:127.0.0.1': 40 }, window: { 'addr:127.0.0.1': 20 }, limit: 20 });
    clock = START + 105_000;
    expect(devnet.computeUnits().window).toEqual({});
  });

  it('is switched at run time by POST /__devnet/chaos: null lifts it, an empty body restores the start-up setting', async () => {
    await post('/__devnet/chaos', JSON.stringify({ computeUnitsPerMinute: 1 }));
    expect((await call('/v1/networks/mainnet/validators')).status).toBe(429);
    await post('/__devnet/chaos', JSON.stringify({ computeUnitsPerMinute: null }));
    const lifted = await call('/v1/networks/mainnet/validators');
    expect(lifted.status).toBe(200);
    expect(lifted.headers.get('ratelimit-limit')).toBe('1000000000');
    await post('/__devnet/chaos', '');
    expect(devnet.computeUnits().limit).toBeUndefined();
  });

  it('holds from the start with the computeUnitsPerMinute option, and never limits a replaying devnet', async () => {
    const limited = await startDevnet({ dataset: devnet.dataset, webhookIntervalMs: 0, now: () => clock, computeUnitsPerMinute: 30 });
    const replaying = await startDevnet({ dataset: devnet.dataset, webhookIntervalMs: 0, now: () => clock, computeUnitsPerMinute: 30, replay: true });
    try {
      const statuses = async (target: Devnet): Promise<number[]> => {
        const out: number[] = [];
        for (const pageSize of [1, 2, 3]) {
          const res = await fetch(`${target.url}/v1/networks/mainnet/validators?pageSize=${pageSize}`);
          await res.arrayBuffer();
          out.push(res.status);
        }
        return out;
      };
      expect(await statuses(limited)).toEqual([200, 429, 429]);
      expect(limited.computeUnits().limit).toBe(30);
      expect(await statuses(replaying)).toEqual([200, 200, 200]);
    } finally {
      await Promise.all([limited.close(), replaying.close()]);
    }
  });
});

describe('every operation of the spec has a weight, and the devnet bills it', () => {
  it('weighs all 81 operations (the spec leaves 6 unweighted: UNWEIGHTED_OPERATIONS chooses theirs)', () => {
    expect(SPEC_TIERS).toHaveLength(81);
    expect(SPEC_TIERS.filter(([, tier]) => !isWeightTier(tier)).map(([route]) => route)).toEqual([]);
  });

  /** A value for each path parameter of the spec, from the devnet's fixtures where it has one. */
  const sample = (name: string): string => {
    const values: Record<string, string> = {
      network: 'mainnet', chainId: f.evmChainId, address: f.address, blockchainId: 'p-chain', txHash: f.pChainTxHash, tokenId: '1',
      operationId: 'unknown-operation', blockId: '1', nodeId: f.nodeId, subnetId: f.subnetId, messageId: 'unknown-message', assetId: f.xAssetId,
      vertexHash: 'unknown-vertex', id: 'unknown-webhook',
    };
    const value = values[name];
    if (value === undefined) throw new Error(`no sample value for path parameter ${name}: add one`);
    return value;
  };

  it.each(SPEC_TIERS.map(([route]) => [route]))('%s', async (route) => {
    const [method, template] = route.split(' ') as [string, string];
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(sample(name)));
    const answer = await call(path, { key: 'route-test', method, ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }) });
    expect(answer.status, `${route} -> ${JSON.stringify(answer.body)}`).toBeLessThan(500);
    expect(devnet.requestLog().map((e) => e.route)).toEqual([route]);
    expect(devnet.computeUnits().total).toEqual({ [keyCaller('route-test')]: unitsOf(route) });
  });
});

import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { keyDigest } from '../../src/gateway/plugins/client-identity.ts';
import { configFromEnv } from '../../src/server/config.ts';
import { upstreamScope } from '../../src/upstream/cached-clients.ts';
import { startDevnet, UNKNOWN_KEY_ROUTE, type Devnet } from '../../src/devnet/server.ts';
import { nodeHealthPolling } from '../../src/loaders/node-health.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { connectRedis, ensureRedis, redisAvailable, stopRedis } from '../helpers/redis.ts';
import { readEvents } from '../helpers/sse.ts';

// An attacker's suite against the client identity (src/gateway/plugins/client-identity.ts), over real
// sockets to real servers in front of a devnet that knows only some keys (as the Data API does). The
// attacker makes up a new API key per request, hoping each is a new client with a full bucket and its
// own shares: every transport must count them all against the attacker's address. A key the Data API
// accepted is a client of its own; one it refused is answered UNAUTHENTICATED without asking it again,
// on every replica sharing Redis. Clients are told apart by address as a proxy tells them (TRUST_PROXY=1).
// What is checked is counted (responses refused, devnet requests), never timed.

const KEY_HEADER = 'x-service-api-key';
/** The keys the devnet's Data API accepts; any other is refused 401. */
const GOOD_KEYS = ['team-good-key', 'team-shared-key'];
/** A query that asks the Data API (the chain list), so its answer judges the key it carried. */
const QUERY = '{ chains { chainId } }';

let devnet: Devnet;
const started: RunningServer[] = [];

/** A server in front of the devnet, configured from its variables as `npm start` is. */
async function startGateway(env: Record<string, string>): Promise<RunningServer> {
  const config = configFromEnv({ PORT: '0', TRUST_PROXY: '1', ...env });
  const server = await startServer({ ...config, dataApiUrl: devnet.url, nodes: Object.entries(devnet.nodeUrls).map(([name, url]) => ({ name, url })) }, pino({ level: 'silent' }));
  started.push(server);
  return server;
}

/** Devnet requests served so far, as its own endpoint counts them. */
async function devnetRequests(): Promise<{ requests: number; refused: number }> {
  const stats = (await (await fetch(`${devnet.url}/__devnet/stats`)).json()) as { requests: number; byRoute: Record<string, number> };
  return { requests: stats.requests, refused: stats.byRoute[UNKNOWN_KEY_ROUTE] ?? 0 };
}

let addressCount = 0;
/** An address nobody used yet: each case's attacker or honest client starts with a full bucket. */
const freshAddress = (): string => {
  addressCount += 1;
  return `198.51.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
};

const headersOf = (address: string, key?: string): Record<string, string> => ({ 'x-forwarded-for': address, ...(key ? { [KEY_HEADER]: key } : {}) });

type Outcome = 'limited' | 'served' | `other: ${string}`;

interface Body {
  errors?: { message: string; extensions?: { code?: string; retryAfter?: number } }[];
  data?: unknown;
}

async function post(server: RunningServer, address: string, key?: string, query = QUERY): Promise<Response> {
  return fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headersOf(address, key) }, body: JSON.stringify({ query }) });
}

const outcomeOf = async (response: Response): Promise<Outcome> => {
  await response.body?.cancel();
  return response.status === 429 ? 'limited' : response.status === 200 ? 'served' : `other: ${response.status}`;
};

/** One operation per transport, as an attacker sends it: each with the key it is given, all from `address`. */
const TRANSPORTS: Record<'POST' | 'GET' | 'SSE' | 'graphql-ws', (server: RunningServer, address: string, key: string) => Promise<Outcome>> = {
  POST: async (server, address, key) => outcomeOf(await post(server, address, key)),
  GET: async (server, address, key) => outcomeOf(await fetch(`${server.url}?${new URLSearchParams({ query: QUERY })}`, { headers: headersOf(address, key) })),
  SSE: async (server, address, key) =>
    outcomeOf(await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headersOf(address, key) }, body: JSON.stringify({ query: QUERY }) })),
  'graphql-ws': (server, address, key) => wsOperation(server, address, key),
};

/** A graphql-ws socket with the key on its upgrade and in `connection_init`, running one query: refused at the upgrade (429) or the operation (RATE_LIMITED), or served. */
function wsOperation(server: RunningServer, address: string, key: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const ws = new WebSocket(server.url.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers: headersOf(address, key) });
    const done = (outcome: Outcome): void => {
      resolve(outcome);
      ws.terminate();
    };
    ws.on('unexpected-response', (_req, res) => done(res.statusCode === 429 ? 'limited' : `other: ${res.statusCode}`));
    ws.on('error', (error) => done(`other: ${error.message}`));
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { [KEY_HEADER]: key } })));
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string; payload?: unknown };
      if (message.type === 'connection_ack') ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY } }));
      else if (message.type === 'next') done('served');
      else if (message.type === 'error') {
        const code = (message.payload as Body['errors'])?.[0]?.extensions?.code;
        done(code === 'RATE_LIMITED' ? 'limited' : `other: ${code}`);
      }
    });
  });
}

beforeAll(async () => {
  devnet = await startDevnet({ validators: 300, apiKeys: GOOD_KEYS });
});

afterAll(async () => {
  for (const server of started) await server.close({ graceMs: 500 });
  await devnet?.close();
});

describe('RATE_LIMIT_RPS=1 RATE_LIMIT_BURST=2: made-up keys buy no buckets', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startGateway({ RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '2' });
  });

  for (const [name, send] of Object.entries(TRANSPORTS)) {
    it(`20 requests over ${name}, each with a different made-up key, from one address: at least 18 limited`, async () => {
      const address = freshAddress();
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => send(server, address, `made-up-${name.replace(/\W/g, '')}-${i}-${Math.random().toString(36).slice(2)}`)));
      const limited = outcomes.filter((outcome) => outcome === 'limited').length;
      expect(limited, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(18);
      expect(outcomes.filter((outcome) => outcome !== 'limited' && outcome !== 'served'), 'no other outcome').toEqual([]);
    });
  }

  it('a key the Data API accepts has its own bucket after its first 2xx: it does not take from its address, nor its address from it', async () => {
    const address = freshAddress();
    // Its first request counts against the address (one of its two tokens); the devnet's 2xx verifies the key.
    const first = await post(server, address, 'team-good-key');
    expect(first.status).toBe(200);
    expect(((await first.json()) as Body).errors).toBeUndefined();
    // Together: the key's burst (2) and the address's one token left. Counted against one bucket, at most one would pass.
    const [keyed, plain] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, () => post(server, address, 'team-good-key').then(outcomeOf))),
      Promise.all(Array.from({ length: 6 }, () => post(server, address).then(outcomeOf))),
    ]);
    expect(keyed.filter((outcome) => outcome === 'served').length, JSON.stringify(keyed)).toBeGreaterThanOrEqual(2);
    expect(plain.filter((outcome) => outcome === 'served').length, JSON.stringify(plain)).toBeGreaterThanOrEqual(1);
  });

  it('a key the Data API refused is answered 401 UNAUTHENTICATED with Retry-After, without an upstream call, while its refusal lasts', async () => {
    const stolen = `stolen-${Math.random().toString(36).slice(2)}`;
    const before = await devnetRequests();
    // The first request asks the Data API, which refuses the key: its answer says so (the upstream's own refusal).
    const first = (await (await post(server, freshAddress(), stolen)).json()) as Body;
    expect(first.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAUTHORIZED');
    const between = await devnetRequests();
    expect(between.refused).toBe(before.refused + 1);
    // Every later request with it, from any address, is refused here.
    for (const address of [freshAddress(), freshAddress()]) {
      const response = await post(server, address, stolen);
      expect(response.status).toBe(401);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = (await response.json()) as Body;
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED', header: KEY_HEADER });
      expect(body.errors?.[0]?.message).toMatch(/refused this x-service-api-key key recently.*retry after \d+ s/);
      expect(JSON.stringify(body)).not.toContain(stolen);
    }
    expect(await devnetRequests()).toEqual(between);
  });
});

describe('the per-client shares name the same client (no rate limit)', () => {
  let server: RunningServer;
  const saved = nodeHealthPolling.intervalMs;
  const open: AbortController[] = [];
  beforeAll(async () => {
    nodeHealthPolling.intervalMs = 100;
    server = await startGateway({ MAX_SUBSCRIPTIONS: '20', MAX_SUBSCRIPTIONS_PER_CLIENT: '1' });
  });
  afterAll(() => {
    for (const controller of open) controller.abort();
    nodeHealthPolling.intervalMs = saved;
  });

  async function subscribe(address: string, key: string): Promise<string | undefined> {
    const controller = new AbortController();
    open.push(controller);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headersOf(address, key) },
      body: JSON.stringify({ query: 'subscription { nodeHealth(node: "mainnet") { healthy } }' }),
      signal: controller.signal,
    });
    const { events } = await readEvents<Body>(response, 1);
    return events[0]?.errors?.[0]?.extensions?.code;
  }

  it('one address holds one subscription, whatever keys it makes up; a key the Data API accepted holds its own', async () => {
    const address = freshAddress();
    expect(await subscribe(address, 'made-up-sub-0'), 'the first streams').toBeUndefined();
    for (let i = 1; i <= 4; i += 1) expect(await subscribe(address, `made-up-sub-${i}`), `made-up key ${i}`).toBe('SERVER_BUSY');
    // Verified by one answer of the Data API, the shared key is a client of its own behind the same address.
    expect(((await (await post(server, address, 'team-shared-key')).json()) as Body).errors).toBeUndefined();
    expect(await subscribe(address, 'team-shared-key')).toBeUndefined();
    expect(await subscribe(address, 'team-shared-key'), 'its own share is one too').toBe('SERVER_BUSY');
  });
});

describe.skipIf(!redisAvailable)('two replicas on one Redis share what the Data API said of each key', () => {
  let a: RunningServer;
  let b: RunningServer;
  let redisUrl: string;
  beforeAll(async () => {
    redisUrl = await ensureRedis();
    const env = { REDIS_URL: redisUrl, RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '2' };
    a = await startGateway(env);
    b = await startGateway(env);
  });
  afterAll(async () => {
    // Before Redis goes: each closes its connections.
    for (const replica of [a, b]) {
      await replica?.close({ graceMs: 500 });
      started.splice(started.indexOf(replica), 1);
    }
    await stopRedis();
  });

  const keyed = (key: string): Request => new Request('http://gateway/graphql', { headers: { [KEY_HEADER]: key } });

  it('a key accepted on one replica is a client of its own on the other; a refused one is refused there without an upstream call', async () => {
    const good = 'team-good-key';
    const stolen = `stolen-${Math.random().toString(36).slice(2)}`;
    expect((await post(a, freshAddress(), good)).status).toBe(200);
    expect(((await (await post(a, freshAddress(), stolen)).json()) as Body).errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAUTHORIZED');
    // Replica b never asked the Data API about either key: it learns both from Redis (each look starts a lookup).
    await expect.poll(() => b.gateway.identity.clientOf(keyed(good), '192.0.2.1'), { timeout: 10_000 }).toBe(`key:${keyDigest(good)}`);
    await expect.poll(() => b.gateway.identity.refusedFor(stolen), { timeout: 10_000 }).toBeGreaterThan(0);
    const before = await devnetRequests();
    const refused = await post(b, freshAddress(), stolen);
    expect(refused.status).toBe(401);
    expect((((await refused.json()) as Body).errors ?? [])[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await devnetRequests()).toEqual(before);
  });

  it('keeps digests in Redis, never keys', async () => {
    const redis = connectRedis(redisUrl);
    try {
      expect(await redis.ready()).toBe(true);
      // This fleet's verdicts: keyed by a digest of the Data API's URL, as its cache is.
      const names = await redis.commands.keys(`chaingraph:identity:${upstreamScope(devnet.url)}:*`);
      expect(names.length).toBeGreaterThanOrEqual(2);
      const values = await Promise.all(names.map((name) => redis.commands.get(name)));
      expect(new Set(values)).toEqual(new Set(['accepted', 'refused']));
      expect(names.join(' ')).not.toMatch(/team-good-key|stolen-/);
      expect(names).toContainEqual(expect.stringMatching(new RegExp(`:${keyDigest('team-good-key')}$`)));
    } finally {
      await redis.close();
    }
  });
});

import { createHash } from 'node:crypto';
import { bech32 } from 'bech32';
import { createClient, type Client } from 'graphql-sse';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { configFromEnv } from '../../src/server/config.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { blockPolling } from '../../src/loaders/block-poller.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { signWebhookPayload } from '../../src/lib/webhook-signature.ts';
import { ensureRedis, freePort, redisAvailable, stopRedis } from '../helpers/redis.ts';
import { sleep, until } from '../helpers/until.ts';

// An attacker's suite against what a subscription holds and what it costs, over real sockets to real
// gateways in front of a devnet (its clock pinned). One client must not take another's topics, on any
// transport: the shares are checked where topics are taken (src/loaders/topics.ts), so SSE in both modes
// and graphql-ws refuse the same way, before any upstream call. A subscription opened and closed in a loop
// must not make upstream calls without bound: its registration lingers for a grace (the gateways' clock
// is the test's, moved rather than waited on), and a subscription's declared cost is never below the
// calls charged to it. Clients are told apart by address as a proxy tells them (TRUST_PROXY=1). What is
// checked is counted (refusals, the devnet's requests per route, events), never timed.

const KEY_HEADER = 'x-service-api-key';
const GRACE_MS = 60_000;
const WEBHOOK_PATH = '/webhooks/data-api';

interface Result {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
  extensions?: { cost?: { estimatedUpstreamCalls: number; actualUpstreamCalls: number } };
}

let devnet: Devnet;
let devnetClock = Date.now();
const savedInterval = blockPolling.intervalMs;
const started: RunningServer[] = [];

/** A gateway in front of the devnet with live activity, its deliveries at its own address, its grace on `clock`. */
async function startGateway(key: string, clock: { now: number }, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const config = configFromEnv({
    PORT: String(port),
    DATA_API_URL: devnet.url,
    DATA_API_KEY: key,
    NODE_URLS: Object.entries(devnet.nodeUrls).map(([name, url]) => `${name}=${url}`).join(','),
    CACHE: 'off',
    TRUST_PROXY: '1',
    WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${port}${WEBHOOK_PATH}`,
    REGISTRATION_GRACE_MS: String(GRACE_MS),
    ...env,
  });
  const server = await startServer(config, pino({ level: 'silent' }), { now: () => clock.now });
  started.push(server);
  return server;
}

/** The devnet's webhook calls by route (its own counters). */
const webhookCalls = (): Record<string, number> => Object.fromEntries(Object.entries(devnet.stats().byRoute).filter(([route]) => route.includes('/v1/webhooks') && !route.includes('SharedSecret')));
const callsOf = (route: string): number => webhookCalls()[route] ?? 0;
const totalWebhookCalls = (): number => Object.values(webhookCalls()).reduce((sum, n) => sum + n, 0);

let seed = 0;
/** `count` EVM addresses nobody watched yet. */
function evmAddresses(count: number): string[] {
  seed += 1;
  return Array.from({ length: count }, (_, i) => `0x${createHash('sha256').update(`evm:${seed}:${i}`).digest('hex').slice(0, 40)}`);
}
/** `count` mainnet primary-network addresses nobody watched yet. */
function primaryAddresses(count: number): string[] {
  seed += 1;
  return Array.from({ length: count }, (_, i) => bech32.encode('avax', bech32.toWords(createHash('sha256').update(`primary:${seed}:${i}`).digest().subarray(0, 20))));
}

const evmQuery = (chainId: string, addresses: string[]) => `subscription { addressActivity(chainId: "${chainId}", addresses: ${JSON.stringify(addresses)}) { messageId } }`;
const primaryQuery = (addresses: string[]) => `subscription { primaryNetworkActivity(network: MAINNET, blockchainId: "p-chain", addresses: ${JSON.stringify(addresses)}) { messageId } }`;
const BLOCKS = 'subscription { blocks(network: MAINNET, blockchainId: "p-chain") { blockNumber } }';

/** An open subscription: its first result (an event, or the refusal), and how to end it. */
interface Subscription {
  first: Promise<Result>;
  close(): Promise<void>;
}

type Transport = 'SSE, distinct connections' | 'SSE, single connection' | 'graphql-ws';
const TRANSPORTS: Transport[] = ['SSE, distinct connections', 'SSE, single connection', 'graphql-ws'];

/** Opens `query` over `transport` as the client at `address`. */
function open(server: RunningServer, transport: Transport, address: string, query: string): Subscription {
  const headers = { 'x-forwarded-for': address };
  if (transport === 'SSE, distinct connections') return sseDistinct(server, headers, query);
  if (transport === 'SSE, single connection') {
    const client: Client<true> = createClient({ url: server.url, singleConnection: true, retryAttempts: 0, headers });
    const results = client.iterate({ query });
    const first = results.next().then((step) => step.value as Result);
    first.catch(() => undefined);
    return {
      first,
      // Its stream (the reservation) closed: the server ends what it carried.
      close: async () => client.dispose(),
    };
  }
  return overGraphqlWs(server, headers, query);
}

function sseDistinct(server: RunningServer, headers: Record<string, string>, query: string): Subscription & { opened: Promise<void> } {
  const controller = new AbortController();
  const response = fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers }, body: JSON.stringify({ query }), signal: controller.signal });
  const first = response.then(async (res) => {
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    // Closed by the abort below, with nobody reading.
    reader.closed.catch(() => undefined);
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const cut = buffer.indexOf('\n\n');
      if (cut >= 0) {
        const data = buffer.slice(0, cut).split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('');
        buffer = buffer.slice(cut + 2);
        if (data) return JSON.parse(data) as Result;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  });
  first.catch(() => undefined);
  const opened = response.then(() => undefined);
  opened.catch(() => undefined);
  return {
    opened,
    first,
    close: async () => controller.abort(),
  };
}

function overGraphqlWs(server: RunningServer, headers: Record<string, string>, query: string): Subscription {
  const ws = new WebSocket(server.url.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers });
  const first = new Promise<Result>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string; payload?: unknown };
      if (message.type === 'connection_ack') ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
      else if (message.type === 'next') resolve(message.payload as Result);
      else if (message.type === 'error') resolve({ errors: message.payload as Result['errors'] });
    });
  });
  first.catch(() => undefined);
  return {
    first,
    close: async () => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ id: '1', type: 'complete' }));
      ws.close();
    },
  };
}

/** Calls `then` with a subscription's first result when it comes; a subscription closed before (its stream aborted) has none. */
function onFirst(subscription: Subscription, then: (result: Result) => unknown): void {
  subscription.first.then(then, () => undefined);
}

/** Which of `subscriptions` were refused, once `expected` of them were (bounded). */
async function refusals(subscriptions: Subscription[], expected: number): Promise<Result[]> {
  const refused: Result[] = [];
  for (const subscription of subscriptions) onFirst(subscription, (result) => result.errors && refused.push(result));
  await until(`${expected} refusals`, () => refused.length >= expected);
  return refused;
}

/** The first block a `blocks` subscriber gets: the devnet's clock moves until one is produced (bounded). */
async function firstBlock(subscription: Subscription): Promise<Result> {
  let result: Result | undefined;
  onFirst(subscription, (r) => (result = r));
  for (let i = 0; i < 100 && !result; i++) {
    devnetClock += 2_000;
    await sleep(50);
  }
  return result ?? { errors: [{ message: 'no block' }] };
}

/** Signs and posts a delivery to `server`'s endpoint, as the Data API does; its answer's word. */
async function deliver(server: RunningServer, key: string, payload: Record<string, unknown>): Promise<string> {
  const secret = ((await (await fetch(`${devnet.url}/v1/webhooks:getSharedSecret`, { headers: { [KEY_HEADER]: key } })).json()) as { secret: string }).secret;
  const origin = server.url.replace('/graphql', '');
  const res = await fetch(`${origin}${WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signWebhookPayload(secret, payload) }, body: JSON.stringify(payload) });
  return ((await res.json()) as { status: string }).status;
}

let messages = 0;
function primaryDelivery(address: string): Record<string, unknown> {
  messages += 1;
  return {
    webhookId: 'attack-suite', eventType: 'primary_network_address_activity', messageId: `p-${messages}-${Date.now()}`,
    event: { subEvent: 'balance_change', network: 'mainnet', blockchainId: devnet.dataset.primary.mainnet.chainIds.p, addresses: [address], blockTimestamp: Math.ceil(Date.now() / 1000) },
  };
}
function evmDelivery(chainId: string, address: string): Record<string, unknown> {
  messages += 1;
  return {
    webhookId: 'attack-suite', eventType: 'address_activity', messageId: `e-${messages}-${Date.now()}`,
    event: { transaction: { txHash: `0x${createHash('sha256').update(String(messages)).digest('hex')}`, chainId, from: address, to: address, blockTimestamp: Math.ceil(Date.now() / 1000), erc20Transfers: [] } },
  };
}

beforeAll(async () => {
  blockPolling.intervalMs = 100;
  devnet = await startDevnet({ validators: 50, now: () => devnetClock, webhookIntervalMs: 0 });
});

afterAll(async () => {
  for (const server of started) await server.close({ graceMs: 500 });
  await devnet?.close();
  blockPolling.intervalMs = savedInterval;
});

describe('one client cannot take every subscription topic (MAX_TOPICS 1000, a quarter per client)', () => {
  const clock = { now: Date.now() };
  let server: RunningServer;
  let chainId: string;
  beforeAll(async () => {
    server = await startGateway('attacks-topics-key', clock);
    chainId = devnet.dataset.fixtures().mainnet.evmChainId;
  });

  TRANSPORTS.forEach((transport, t) => {
    it(`over ${transport}: ten subscriptions of 100 distinct addresses take 250 topics at most; another client's blocks subscription is served`, async () => {
      const attacker = `198.51.100.${t + 1}`;
      const victim = `203.0.113.${t + 1}`;
      const before = totalWebhookCalls();
      const attack = Array.from({ length: 10 }, () => open(server, transport, attacker, evmQuery(chainId, evmAddresses(100))));
      // Two fit its share of 250 distinct topics; the eight others are refused before any upstream call.
      const refused = await refusals(attack, 8);
      expect(refused).toHaveLength(8);
      for (const result of refused) {
        expect(result.errors?.[0]?.extensions?.code).toBe('SERVER_BUSY');
        expect(result.errors?.[0]?.message).toContain('share of 250');
        expect(result.errors?.[0]?.message).toContain('MAX_TOPICS_PER_CLIENT');
      }
      // What was registered is the two accepted subscriptions' (one call each at most, plus the first look for leftovers).
      await until('the accepted ones are registered', () => totalWebhookCalls() - before >= 2);
      expect(totalWebhookCalls() - before).toBeLessThanOrEqual(3);

      // The replica still has room: another client's blocks subscription gets its first block.
      const blocks = open(server, transport, victim, BLOCKS);
      const block = await firstBlock(blocks);
      expect(block.errors).toBeUndefined();
      expect((block.data?.['blocks'] as { blockNumber?: string } | undefined)?.blockNumber).toMatch(/^\d+$/);
      await blocks.close();
      for (const subscription of attack) await subscription.close();
    }, 30_000);
  });

  it('refuses a client watching the same 100 addresses in a sixth subscription (MAX_WATCHED_KEYS_PER_CLIENT 500), with one registration for all', async () => {
    const attacker = '198.51.100.99';
    const addresses = evmAddresses(100);
    const before = webhookCalls();
    const held: Subscription[] = [];
    for (let i = 0; i < 5; i++) held.push(open(server, 'SSE, distinct connections', attacker, evmQuery(chainId, addresses)));
    await until('registered', () => (webhookCalls()['PATCH /v1/webhooks/{id}/addresses'] ?? 0) > (before['PATCH /v1/webhooks/{id}/addresses'] ?? 0));
    const sixth = open(server, 'SSE, distinct connections', attacker, evmQuery(chainId, addresses));
    const refused = await sixth.first;
    expect(refused.errors?.[0]?.extensions?.code).toBe('SERVER_BUSY');
    expect(refused.errors?.[0]?.message).toContain('share of 500');
    expect(refused.errors?.[0]?.message).toContain('MAX_WATCHED_KEYS_PER_CLIENT');
    // Five subscriptions of the same addresses: one add to the chain's webhook.
    expect((webhookCalls()['PATCH /v1/webhooks/{id}/addresses'] ?? 0) - (before['PATCH /v1/webhooks/{id}/addresses'] ?? 0)).toBe(1);
    // Every one of the five is served: a delivery touching one address reaches each once.
    expect(await deliver(server, 'attacks-topics-key', evmDelivery(chainId, addresses[7] as string))).toBe('accepted');
    for (const subscription of held) {
      const event = await subscription.first;
      expect(event.errors).toBeUndefined();
      expect(event.data?.['addressActivity']).toMatchObject({ messageId: expect.stringMatching(/^e-/) });
    }
    for (const subscription of [...held, sixth]) await subscription.close();
  }, 30_000);
});

/** Opens and closes `query` `times` times over SSE, each time until a delivery reached it; the first event's result each round. */
async function reopenLoop(server: RunningServer, key: string, query: string, delivery: () => Record<string, unknown>, times: number, registered: () => boolean): Promise<Result[]> {
  const firsts: Result[] = [];
  for (let round = 0; round < times; round++) {
    const subscription = sseDistinct(server, { 'x-forwarded-for': '198.51.100.200' }, query);
    await subscription.opened;
    // The first round's event once its registration is done, so the event reports the calls it was charged.
    if (round === 0) await until('registered', registered);
    let first: Result | undefined;
    onFirst(subscription, (result) => (first = result));
    await until('the event reached the subscriber', async () => {
      if (first) return true;
      expect(await deliver(server, key, delivery())).toBe('accepted');
      await sleep(10);
      return first !== undefined;
    });
    firsts.push(first as Result);
    await subscription.close();
    // The server saw it go (its subscription slot is free) before the next round opens.
    await until('the subscription ended', () => server.edgeStats().admission.subscriptions === 0);
  }
  return firsts;
}

describe('a subscription opened and closed 100 times (REGISTRATION_GRACE_MS 60 s)', () => {
  const clock = { now: Date.now() };
  const key = 'attacks-reopen-key';
  let server: RunningServer;
  beforeAll(async () => {
    server = await startGateway(key, clock);
  });

  it('64 primary-network addresses: one look for leftovers and one webhook for the whole loop, deactivated once the grace passed', async () => {
    devnet.resetStats();
    const addresses = primaryAddresses(64);
    const firsts = await reopenLoop(server, key, primaryQuery(addresses), () => primaryDelivery(addresses[0] as string), 100, () => callsOf('POST /v1/webhooks') === 1);
    for (const result of firsts) expect(result.errors).toBeUndefined();
    // Before: 64 listWebhooks, 64 createWebhook and 64 deactivateWebhook per round (19,200 calls).
    expect(webhookCalls()).toEqual({ 'GET /v1/webhooks': 1, 'POST /v1/webhooks': 1 });
    // The declared cost (a look of up to 5 pages, one create, a deactivation per address) covers what the opening was charged.
    const cost = firsts[0]?.extensions?.cost;
    expect(cost?.estimatedUpstreamCalls).toBe(5 + 1 + 64);
    expect(cost?.actualUpstreamCalls).toBe(2);
    for (const result of firsts.slice(1)) expect(result.extensions?.cost?.actualUpstreamCalls).toBe(0);

    clock.now += GRACE_MS - 1;
    await sleep(1_100);
    expect(callsOf('DELETE /v1/webhooks/{id}')).toBe(0);
    clock.now += 1;
    await until('the webhook was deactivated', () => callsOf('DELETE /v1/webhooks/{id}') === 1);
    expect(webhookCalls()).toEqual({ 'GET /v1/webhooks': 1, 'POST /v1/webhooks': 1, 'DELETE /v1/webhooks/{id}': 1 });
    expect(devnet.webhooks.counters().webhooks.filter((w) => w.status === 'active' && w.eventType === 'primary_network_address_activity')).toEqual([]);
  }, 60_000);

  it('100 EVM addresses: one look and one webhook for the whole loop; its addresses removed and the webhook deactivated after the grace', async () => {
    devnet.resetStats();
    const chainId = devnet.dataset.fixtures().mainnet.evmChainId;
    const addresses = evmAddresses(100);
    const firsts = await reopenLoop(server, key, evmQuery(chainId, addresses), () => evmDelivery(chainId, addresses[3] as string), 100, () => callsOf('POST /v1/webhooks') === 1);
    for (const result of firsts) expect(result.errors).toBeUndefined();
    // Before: a look, a create, a removal and a deactivation per round (400 calls).
    expect(webhookCalls()).toEqual({ 'GET /v1/webhooks': 1, 'POST /v1/webhooks': 1 });
    const cost = firsts[0]?.extensions?.cost;
    expect(cost?.estimatedUpstreamCalls).toBe(10);
    expect(cost?.actualUpstreamCalls).toBe(2);

    clock.now += GRACE_MS;
    await until('the webhook was deactivated', () => callsOf('DELETE /v1/webhooks/{id}') === 1);
    expect(webhookCalls()).toEqual({ 'GET /v1/webhooks': 1, 'POST /v1/webhooks': 1, 'DELETE /v1/webhooks/{id}/addresses': 1, 'DELETE /v1/webhooks/{id}': 1 });
  }, 60_000);

  it('charges a subscription the calls its opening made, within what it declared, and nothing for one reusing them', async () => {
    devnet.resetStats();
    const addresses = primaryAddresses(3);
    const [first] = await reopenLoop(server, key, primaryQuery(addresses), () => primaryDelivery(addresses[0] as string), 1, () => callsOf('POST /v1/webhooks') === 1);
    // A new group member: this process looked for leftovers of this group already, so one create.
    expect(webhookCalls()).toEqual({ 'POST /v1/webhooks': 1 });
    expect(first?.extensions?.cost).toMatchObject({ estimatedUpstreamCalls: 5 + 1 + 3, actualUpstreamCalls: 1 });
  }, 30_000);
});

describe('MAX_QUERY_COST below what a subscription may call', () => {
  it('refuses it before any upstream call, and takes a smaller one', async () => {
    const server = await startGateway('attacks-cost-key', { now: Date.now() }, { MAX_QUERY_COST: '50' });
    devnet.resetStats();
    const big = sseDistinct(server, { 'x-forwarded-for': '198.51.100.77' }, primaryQuery(primaryAddresses(64)));
    const refused = await big.first;
    expect(refused.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COSTLY');
    expect(refused.errors?.[0]?.message).toContain('70 upstream calls');
    expect(totalWebhookCalls()).toBe(0);
    const small = sseDistinct(server, { 'x-forwarded-for': '198.51.100.77' }, primaryQuery(primaryAddresses(40)));
    await until('registered', () => callsOf('POST /v1/webhooks') === 1);
    await small.close();
    await big.close();
  }, 30_000);
});

describe.skipIf(!redisAvailable)('the grace across two replicas sharing Redis', () => {
  const clocks: [{ now: number }, { now: number }] = [{ now: Date.now() }, { now: Date.now() }];
  const key = 'attacks-redis-key';
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    const redisUrl = await ensureRedis();
    const env = { REDIS_URL: redisUrl, TOPIC_LEASE_TTL_MS: '600' };
    a = await startGateway(key, clocks[0], env);
    b = await startGateway(key, clocks[1], env);
  });
  afterAll(async () => {
    await Promise.all([a?.close({ graceMs: 500 }), b?.close({ graceMs: 500 })]);
    await stopRedis();
  });

  const firstEvent = async (server: RunningServer, subscription: Subscription, address: string): Promise<Result> => {
    let first: Result | undefined;
    onFirst(subscription, (result) => (first = result));
    await until('an event', async () => {
      if (first) return true;
      expect(await deliver(server, key, primaryDelivery(address))).toBe('accepted');
      await sleep(20);
      return first !== undefined;
    });
    return first as Result;
  };

  it('a subscription closed on one replica and opened on the other within the grace reuses the registration: no call', async () => {
    devnet.resetStats();
    const addresses = primaryAddresses(64);
    const onA = sseDistinct(a, { 'x-forwarded-for': '198.51.100.150' }, primaryQuery(addresses));
    expect((await firstEvent(a, onA, addresses[0] as string)).errors).toBeUndefined();
    expect(webhookCalls()).toEqual({ 'GET /v1/webhooks': 1, 'POST /v1/webhooks': 1 });
    await onA.close();
    await until('closed on A', () => a.edgeStats().admission.subscriptions === 0);

    // B's subscriber: A's lingering topics hold the leases and the webhook; deliveries to either replica reach it.
    const onB = sseDistinct(b, { 'x-forwarded-for': '198.51.100.151' }, primaryQuery(addresses));
    const event = await firstEvent(a, onB, addresses[5] as string);
    expect(event.errors).toBeUndefined();
    expect(event.extensions?.cost?.actualUpstreamCalls).toBe(0);
    expect(webhookCalls()).toEqual({ 'GET /v1/webhooks': 1, 'POST /v1/webhooks': 1 });
    await onB.close();
    await until('closed on B', () => b.edgeStats().admission.subscriptions === 0);

    // A's grace ends: it gives the webhook back. B's topics, lingering without a lease, never take one.
    clocks[0].now += GRACE_MS;
    await until('deactivated', () => callsOf('DELETE /v1/webhooks/{id}') === 1);
    await sleep(3 * 600);
    clocks[1].now += GRACE_MS;
    await sleep(1_200);
    expect(webhookCalls()).toEqual({ 'GET /v1/webhooks': 1, 'POST /v1/webhooks': 1, 'DELETE /v1/webhooks/{id}': 1 });
  }, 60_000);

  it('a subscriber left on the other replica when the grace ends there keeps its events: that replica registers its keys', async () => {
    devnet.resetStats();
    const addresses = primaryAddresses(8);
    const onA = sseDistinct(a, { 'x-forwarded-for': '198.51.100.160' }, primaryQuery(addresses));
    expect((await firstEvent(a, onA, addresses[0] as string)).errors).toBeUndefined();
    const onB = sseDistinct(b, { 'x-forwarded-for': '198.51.100.161' }, primaryQuery(addresses));
    await onB.opened;
    await onA.close();
    await until('closed on A', () => a.edgeStats().admission.subscriptions === 0);
    clocks[0].now += GRACE_MS;
    // A gives its webhook back; B takes the leases over and registers the keys again (the gateway's own calls).
    await until('handed over', () => callsOf('DELETE /v1/webhooks/{id}') === 1 && callsOf('POST /v1/webhooks') >= 2 && devnet.webhooks.counters().webhooks.some((w) => w.status === 'active'));
    const event = await firstEvent(b, onB, addresses[2] as string);
    expect(event.errors).toBeUndefined();
    await onB.close();
  }, 60_000);
});

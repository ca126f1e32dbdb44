import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { configFromEnv } from '../../src/server/config.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { signWebhookPayload } from '../../src/lib/webhook-signature.ts';
import { LIVE_ACTIVITY_DEFAULTS, type LiveActivity } from '../../src/loaders/live-activity.ts';
import { WEBHOOK_DELIVERIES_DEFAULTS } from '../../src/gateway/plugins/use-webhook-deliveries.ts';
import { upstreamScope } from '../../src/upstream/cached-clients.ts';
import { connectRedis, ensureRedis, redisAvailable, stopRedis } from '../helpers/redis.ts';
import { until } from '../helpers/until.ts';

// An outside attacker's suite against the webhook delivery endpoint, over real HTTP against real
// gateways (startServer) on a devnet: a captured delivery replayed after the gateway restarts (with
// and without Redis), the Data API's own retries (which must still be taken once), a flood of forged
// large deliveries (counted: how many were verified at once, how many refused), and the built-in
// devnet's gateway key, which no caller may borrow. Waits are bounded loops on conditions, never times.

const KEY = 'webhook-attacks-test-key';
const PATH = '/webhooks/data-api';
const silent = pino({ level: 'silent' });

const origin = (server: RunningServer): string => server.url.replace('/graphql', '');
const liveOf = (server: RunningServer): LiveActivity => server.gateway.liveActivity as LiveActivity;
const nodeUrls = (devnet: Devnet): string => Object.entries(devnet.nodeUrls).map(([name, url]) => `${name}=${url}`).join(',');

function gatewayEnv(devnet: Devnet, publicUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PORT: '0', DATA_API_URL: devnet.url, DATA_API_KEY: KEY, NODE_URLS: nodeUrls(devnet), CACHE: 'off', WEBHOOK_PUBLIC_URL: `${publicUrl}${PATH}`, ...extra };
}

async function sharedSecret(devnet: Devnet, key = KEY): Promise<string> {
  return ((await (await fetch(`${devnet.url}/v1/webhooks:getSharedSecret`, { headers: { 'x-service-api-key': key } })).json()) as { secret: string }).secret;
}

interface Delivery { body: string; signature: string; messageId: string }

/** A delivery as the Data API signs it: `address_activity` of one transaction from `from`, at `seconds`. */
function delivery(secret: string, messageId: string, chainId: string, from: string, seconds: number, webhookId = 'hook'): Delivery {
  const payload = {
    webhookId, eventType: 'address_activity', messageId,
    event: { transaction: { txHash: `0x${'cd'.repeat(32)}`, chainId, from, to: from, blockTimestamp: seconds, erc20Transfers: [] } },
  };
  return { body: JSON.stringify(payload), signature: signWebhookPayload(secret, payload), messageId };
}

async function post(server: RunningServer, d: Pick<Delivery, 'body' | 'signature'>): Promise<{ status: number; word: string }> {
  const res = await fetch(`${origin(server)}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': d.signature }, body: d.body });
  const text = await res.text();
  return { status: res.status, word: res.status < 300 || res.status === 401 || res.status === 409 ? (JSON.parse(text) as { status: string }).status : text };
}

/** The current second, once it is not before `since` (ms): an event of that second is not before a process started at `since`. */
async function secondNotBefore(since: number): Promise<number> {
  await until('the clock passes a whole second', () => Math.floor(Date.now() / 1000) * 1000 >= since, 200);
  return Math.floor(Date.now() / 1000);
}

/** One SSE subscription over real HTTP, read incrementally. */
async function sseSubscribe(url: string, query: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers }, body: JSON.stringify({ query }), signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<{ data?: { addressActivity?: { messageId: string } }; errors?: unknown[] }> {
      for (;;) {
        const cut = buffer.indexOf('\n\n');
        if (cut >= 0) {
          const data = buffer.slice(0, cut).split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('');
          buffer = buffer.slice(cut + 2);
          if (data) return JSON.parse(data);
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}

const activityQuery = (chainId: string, addresses: string[]) =>
  `subscription { addressActivity(chainId: "${chainId}", addresses: ${JSON.stringify(addresses)}) { messageId } }`;

const activeHooks = (devnet: Devnet) => devnet.webhooks.counters().webhooks.filter((w) => w.status === 'active');

/** Once the gateway made a webhook call for its subscriber (so the subscriber's topic exists) and the devnet has an active webhook. */
const watching = (server: RunningServer, devnet: Devnet) => () => liveOf(server).stats().calls > 0 && activeHooks(devnet).length > 0;

/**
 * Replays after a restart: gateway 1 takes a signed delivery and is stopped; gateway 2, on the same devnet
 * and secret, is sent the same bytes. A subscriber of gateway 2 must not get it: the next event it gets is
 * a fresh delivery sent after the replay.
 */
async function replayAcrossRestart(devnet: Devnet, env: Record<string, string>, expectReplay: { status: number; word: string }): Promise<{ first: RunningServer; second: RunningServer; captured: Delivery }> {
  const fixtures = devnet.dataset.fixtures().mainnet;
  const secret = await sharedSecret(devnet);
  const first = await startServer(configFromEnv(env), silent);
  const seconds = await secondNotBefore(Date.now());
  const captured = delivery(secret, `replayed-${seconds}-${env['REDIS_URL'] ? 'redis' : 'memory'}`, fixtures.evmChainId, fixtures.address, seconds);
  const stream1 = await sseSubscribe(first.url, activityQuery(fixtures.evmChainId, [fixtures.address]));
  await until('gateway 1 watches the address', watching(first, devnet));
  expect(await post(first, captured)).toEqual({ status: 200, word: 'accepted' });
  expect((await stream1.next()).data?.addressActivity?.messageId).toBe(captured.messageId);
  expect(await post(first, captured)).toEqual({ status: 200, word: 'duplicate' });
  stream1.close();
  await first.close({ graceMs: 500 });

  const second = await startServer(configFromEnv(env), silent);
  const stream2 = await sseSubscribe(second.url, activityQuery(fixtures.evmChainId, [fixtures.address]));
  await until('gateway 2 watches the address', watching(second, devnet));
  expect(await post(second, captured)).toEqual(expectReplay);
  expect(liveOf(second).stats().accepted).toBe(0);
  // A fresh delivery is taken and is what the subscriber gets next: the replay reached nobody.
  const fresh = delivery(secret, `fresh-${seconds}`, fixtures.evmChainId, fixtures.address, Math.ceil(Date.now() / 1000));
  expect(await post(second, fresh)).toEqual({ status: 200, word: 'accepted' });
  expect((await stream2.next()).data?.addressActivity?.messageId).toBe(fresh.messageId);
  expect(liveOf(second).stats().accepted).toBe(1);
  stream2.close();
  return { first, second, captured };
}

describe('a captured delivery replayed after the gateway restarts', () => {
  let devnet: Devnet;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 50, webhookIntervalMs: 0 });
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close({ graceMs: 200 })));
    await devnet?.close();
    if (redisAvailable) await stopRedis();
  });

  it('without Redis: the restarted gateway refuses it as stale (it predates its memory) and pushes nothing', async () => {
    const { first, second } = await replayAcrossRestart(devnet, gatewayEnv(devnet, 'http://127.0.0.1:9'), { status: 409, word: 'stale' });
    servers.push(first, second);
    expect(liveOf(second).stats().stale).toBe(1);
  }, 60_000);

  it.skipIf(!redisAvailable)('with Redis: the restarted gateway knows it (duplicate), and after Redis lost its memory refuses it as stale', async () => {
    const redisUrl = await ensureRedis();
    const env = gatewayEnv(devnet, 'http://127.0.0.1:9', { REDIS_URL: redisUrl });
    const { first, second, captured } = await replayAcrossRestart(devnet, env, { status: 200, word: 'duplicate' });
    servers.push(first, second);
    expect(liveOf(second).stats().duplicate).toBe(1);
    // Redis emptied (a restart without persistence): only this gateway's keys, as other files may share the Redis.
    const redis = connectRedis(redisUrl);
    try {
      expect(await redis.ready(5_000)).toBe(true);
      const keys = await redis.commands.keys(`chaingraph:activity:${upstreamScope(devnet.url)}:*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.commands.del(...keys);
    } finally {
      await redis.close();
    }
    expect(await post(second, captured)).toEqual({ status: 409, word: 'stale' });
    expect(liveOf(second).stats().accepted).toBe(1);
  }, 60_000);
});

interface Attempt { messageId: string; attempt: number; toSender: number; word?: string }

/**
 * A proxy at WEBHOOK_PUBLIC_URL that fails each delivery's first attempt: `unforwarded` answers 503 without
 * passing it on (the gateway was away); `unacknowledged` passes it on, then answers 502 (the gateway's
 * answer was lost). Later attempts pass through. Every attempt is recorded.
 */
async function startFlakyProxy(target: () => string, mode: () => 'unforwarded' | 'unacknowledged') {
  const attempts: Attempt[] = [];
  const seen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const messageId = (JSON.parse(body) as { messageId: string }).messageId;
      const attempt = (seen.get(messageId) ?? 0) + 1;
      seen.set(messageId, attempt);
      if (attempt === 1 && mode() === 'unforwarded') {
        attempts.push({ messageId, attempt, toSender: 503 });
        res.writeHead(503).end();
        return;
      }
      const forward = httpRequest(new URL(PATH, target()), { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': req.headers['x-signature'] as string } }, (answer) => {
        const back: Buffer[] = [];
        answer.on('data', (c: Buffer) => back.push(c));
        answer.on('end', () => {
          const word = (JSON.parse(Buffer.concat(back).toString('utf8')) as { status?: string }).status;
          const toSender = attempt === 1 ? 502 : (answer.statusCode ?? 502);
          attempts.push({ messageId, attempt, toSender, ...(word ? { word } : {}) });
          res.writeHead(toSender, { 'content-type': 'application/json' }).end(Buffer.concat(back));
        });
      });
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, attempts, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("the Data API's own retries", () => {
  let clock = Date.now();
  let devnet: Devnet;
  let gateway: RunningServer;
  let proxy: Awaited<ReturnType<typeof startFlakyProxy>>;
  let mode: 'unforwarded' | 'unacknowledged' = 'unforwarded';

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 50, now: () => clock, webhookIntervalMs: 0 });
    proxy = await startFlakyProxy(() => origin(gateway), () => mode);
    gateway = await startServer(configFromEnv(gatewayEnv(devnet, proxy.url)), silent);
    clock = Math.max(clock, Date.now());
  });

  afterAll(async () => {
    await gateway?.close({ graceMs: 200 });
    await proxy?.close();
    await devnet?.close();
  });

  /** Moves the devnet's clock until `count` deliveries were attempted, then waits (bounded) for their retries to end. */
  async function produce(count: number): Promise<string[]> {
    const start = proxy.attempts.length;
    for (let i = 0; i < 40 && new Set(proxy.attempts.slice(start).map((a) => a.messageId)).size < count; i++) {
      clock += 60_000;
      await devnet.webhooks.tick();
    }
    await until('every retry ended', () => devnet.webhooks.counters().pending === 0, 1500);
    const ids = [...new Set(proxy.attempts.slice(start).map((a) => a.messageId))];
    expect(ids.length).toBeGreaterThanOrEqual(count);
    return ids;
  }

  for (const failure of ['unforwarded', 'unacknowledged'] as const) {
    it(`takes each delivery once when its first attempt failed (${failure}), and pushes it once`, async () => {
      mode = failure;
      const fixtures = devnet.dataset.fixtures().mainnet;
      const watched = [fixtures.contractAddress, fixtures.address];
      const stream = await sseSubscribe(gateway.url, activityQuery(fixtures.evmChainId, watched));
      await until('the webhook exists', watching(gateway, devnet));
      const acceptedBefore = liveOf(gateway).stats().accepted;
      const ids = await produce(2);
      for (const id of ids) {
        const mine = proxy.attempts.filter((a) => a.messageId === id);
        // The first attempt failed for the sender; the retry ended its retries; the gateway accepted it exactly once.
        expect(mine[0]?.toSender).toBeGreaterThanOrEqual(500);
        expect(mine.at(-1)?.toSender).toBe(200);
        expect(mine.filter((a) => a.word === 'accepted')).toHaveLength(1);
        if (failure === 'unacknowledged') expect(mine.slice(1).map((a) => a.word)).toEqual(['duplicate']);
      }
      expect(liveOf(gateway).stats().accepted - acceptedBefore).toBe(ids.length);
      const got: string[] = [];
      while (got.length < ids.length) got.push((await stream.next()).data?.addressActivity?.messageId as string);
      expect(got.sort()).toEqual([...ids].sort());
      stream.close();
    }, 60_000);
  }
});

describe('a flood of forged large deliveries', () => {
  let devnet: Devnet;
  let gateway: RunningServer;

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 50, webhookIntervalMs: 0 });
    gateway = await startServer(configFromEnv(gatewayEnv(devnet, 'http://127.0.0.1:9')), silent);
  });

  afterAll(async () => {
    await gateway?.close({ graceMs: 500 });
    await devnet?.close();
  });

  /** A forged delivery of about 190 KB of tiny values (the costliest to canonicalize), timed now so it reaches the signature check. */
  function forged(n: number): Delivery {
    const logs = Array.from({ length: 90_000 }, (_, i) => i % 10);
    const payload = { webhookId: 'w', eventType: 'address_activity', messageId: `forged-${n}`, event: { transaction: { txHash: '0x1', chainId: '43114', blockTimestamp: Math.ceil(Date.now() / 1000) }, logs } };
    return { body: JSON.stringify(payload), signature: 'ab'.repeat(32), messageId: payload.messageId };
  }

  /** Sends `count` forged deliveries at once; meanwhile asks /health and /graphql until they all settled. */
  async function flood(count: number): Promise<{ statuses: number[]; health: number[]; graphql: number[] }> {
    const body = forged(count);
    let settled = false;
    const sent = Promise.all(Array.from({ length: count }, () =>
      fetch(`${origin(gateway)}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': body.signature }, body: body.body })
        .then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        })
        .catch(() => 0))).finally(() => {
      settled = true;
    });
    const health: number[] = [];
    const graphql: number[] = [];
    do {
      health.push((await fetch(`${origin(gateway)}/health`)).status);
      graphql.push((await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })).status);
    } while (!settled);
    return { statuses: await sent, health, graphql };
  }

  it('verifies at most its share at once, refuses the rest (busy, then limited), and /health and /graphql answer throughout', async () => {
    const live = liveOf(gateway);
    expect(Buffer.byteLength(forged(0).body)).toBeGreaterThan(150_000);
    const first = await flood(240);
    // Never more verified at once than the slots, and each that was verified was found forged.
    expect(live.stats().peakVerifying).toBeGreaterThanOrEqual(1);
    expect(live.stats().peakVerifying).toBeLessThanOrEqual(LIVE_ACTIVITY_DEFAULTS.maxVerifying);
    for (const status of first.statuses) expect([401, 429, 503]).toContain(status);
    // At most the bodies read at once got in at a time: most of 240 at once were turned away unread.
    expect(first.statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(first.statuses.filter((s) => s === 401)).toHaveLength(live.stats().forged);
    expect(first.health.length).toBeGreaterThan(0);
    expect(new Set([...first.health, ...first.graphql])).toEqual(new Set([200]));

    // This source keeps sending forgeries: past its burst of refusals it is refused unread (429), verified no more.
    const started = performance.now();
    let limited = 0;
    for (let round = 0; round < 20 && limited === 0; round++) {
      const forgedBefore = live.stats().forged;
      const next = await flood(64);
      limited = next.statuses.filter((s) => s === 429).length;
      for (const status of next.statuses) expect([401, 429, 503]).toContain(status);
      // Each 401 was one verification; a 429 (or 503) none.
      expect(live.stats().forged - forgedBefore).toBe(next.statuses.filter((s) => s === 401).length);
      expect(new Set([...next.health, ...next.graphql])).toEqual(new Set([200]));
    }
    expect(limited).toBeGreaterThan(0);
    const seconds = (performance.now() - started) / 1000;
    // Verified forgeries after the first flood: at most the burst, what the rate refilled meanwhile, and those read when the limit began.
    const afterFirst = live.stats().forged - first.statuses.filter((s) => s === 401).length;
    expect(afterFirst).toBeLessThanOrEqual(WEBHOOK_DELIVERIES_DEFAULTS.refusalBurst + Math.ceil(seconds * WEBHOOK_DELIVERIES_DEFAULTS.refusalsPerSecond) + WEBHOOK_DELIVERIES_DEFAULTS.maxConcurrent);
    expect(live.stats().peakVerifying).toBeLessThanOrEqual(LIVE_ACTIVITY_DEFAULTS.maxVerifying);
  }, 120_000);
});

describe('the built-in devnet: no caller is the gateway', () => {
  const TOKEN = 'f'.repeat(48);
  let gateway: RunningServer;
  let devnet: Devnet;
  let hookId: string;
  let stream: Awaited<ReturnType<typeof sseSubscribe>>;
  const lines: string[] = [];

  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    gateway = await startServer(configFromEnv({ PORT: '0', CACHE: 'off', ADMIN_TOKEN: TOKEN }), logger);
    devnet = gateway.devnet as Devnet;
    const fixtures = devnet.dataset.fixtures().mainnet;
    // The gateway registers its own webhook, under its own key.
    stream = await sseSubscribe(gateway.url, activityQuery(fixtures.evmChainId, [fixtures.contractAddress]));
    await until('the gateway registered its webhook', watching(gateway, devnet));
    hookId = (activeHooks(devnet)[0] as { id: string }).id;
  });

  afterAll(async () => {
    stream?.close();
    await gateway?.close({ graceMs: 200 });
  });

  async function graphql(query: string, headers: Record<string, string>, variables: Record<string, unknown> = {}) {
    const res = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] };
  }
  const SECRET = '{ webhookSharedSecret { secret } }';
  const LIST = '{ webhooks(first: 100) { edges { node { id } } } }';
  const DEACTIVATE = 'mutation ($id: String!) { deactivateWebhook(id: $id) { id status } }';
  const listed = (answer: { data?: Record<string, unknown> | null }): string[] =>
    ((answer.data?.['webhooks'] as { edges: { node: { id: string } }[] } | null)?.edges ?? []).map((e) => e.node.id);

  it("the old fixed key, 'chaingraph-devnet', is an ordinary caller's key: its secret signs nothing the gateway takes, its webhooks are not the gateway's", async () => {
    const borrowed = { 'x-service-api-key': 'chaingraph-devnet' };
    const secret = ((await graphql(SECRET, borrowed)).data?.['webhookSharedSecret'] as { secret: string }).secret;
    expect(secret).toMatch(/\S/);
    // A delivery signed with it, for the gateway's own webhook, is refused as forged.
    const fixtures = devnet.dataset.fixtures().mainnet;
    const forgedDelivery = delivery(secret, 'borrowed-1', fixtures.evmChainId, fixtures.contractAddress, Math.ceil(Date.now() / 1000), hookId);
    expect(await post(gateway, forgedDelivery)).toEqual({ status: 401, word: 'forged' });
    expect(listed(await graphql(LIST, borrowed))).not.toContain(hookId);
    expect((await graphql(DEACTIVATE, borrowed, { id: hookId })).data?.['deactivateWebhook']).toBeNull();
    expect(activeHooks(devnet).map((w) => w.id)).toEqual([hookId]);
  });

  it("without a key of their own, neither anyone nor an admin acts on the gateway's key", async () => {
    for (const query of [SECRET, LIST]) expect((await graphql(query, {})).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await graphql(DEACTIVATE, {}, { id: hookId })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // An admin acts with the server's key: on the built-in devnet there is none (the gateway's own is not it).
    const admin = { authorization: `Bearer ${TOKEN}` };
    const adminSecret = await graphql(SECRET, admin);
    expect(adminSecret.data?.['webhookSharedSecret'] ?? null).toBeNull();
    expect(listed(await graphql(LIST, admin))).not.toContain(hookId);
    expect((await graphql(DEACTIVATE, admin, { id: hookId })).data?.['deactivateWebhook'] ?? null).toBeNull();
    expect(activeHooks(devnet).map((w) => w.id)).toEqual([hookId]);
  });

  it("never logs the gateway's key (a random secret made at start)", () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toMatch(/[0-9a-f]{64}/);
  });
});

import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { configFromEnv } from '../../src/server/config.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { signWebhookPayload } from '../../src/lib/webhook-signature.ts';
import { WEBHOOK_DELIVERIES_DEFAULTS } from '../../src/gateway/plugins/use-webhook-deliveries.ts';
import { ensureRedis, freePort, redisAvailable, stopRedis } from '../helpers/redis.ts';
import { until } from '../helpers/until.ts';

// Live activity end to end: real gateways (startServer) take the devnet's signed webhook deliveries
// over HTTP, through a recording proxy at WEBHOOK_PUBLIC_URL (in front of one replica, or alternating
// between two sharing a real Redis), and push them to SSE subscribers. The devnet's clock is pinned:
// blocks, and so deliveries, appear only when a test moves it and calls `devnet.webhooks.tick()`.
// Nothing here waits on time: counts and message ids are compared, and waits are bounded loops on a
// condition the code under test makes true.

const KEY = 'live-activity-test-key';
const WEBHOOK_ROUTES = /^(GET|POST|PATCH|DELETE) \/v1\/webhooks/;

let clock = Date.now();

interface Recorded { body: string; signature: string | undefined; to: string; status: number }

/** A tiny load balancer at the public URL: forwards each delivery to the next replica in turn, and records it. */
async function startProxy(targets: () => string[]): Promise<{ url: string; recorded: Recorded[]; close(): Promise<void> }> {
  const recorded: Recorded[] = [];
  let turn = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const list = targets();
      const to = list[turn++ % list.length] as string;
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = req.headers['x-signature'] as string | undefined;
      const forward = httpRequest(new URL(req.url ?? '/', to), { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'x-signature': signature } : {}) } }, (answer) => {
        const back: Buffer[] = [];
        answer.on('data', (c: Buffer) => back.push(c));
        answer.on('end', () => {
          recorded.push({ body, signature, to, status: answer.statusCode ?? 0 });
          res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' }).end(Buffer.concat(back));
        });
      });
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, recorded, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface ActivityEvent { messageId: string; transaction: { hash: string; from: string | null; to: string | null; erc20Transfers: { from: string; to: string; tokenAddress: string | null }[] } }

/** One SSE subscription read incrementally. */
async function sseSubscribe(url: string, query: string) {
  const controller = new AbortController();
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ query }), signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<{ data?: { addressActivity?: ActivityEvent }; errors?: { message: string; extensions?: { code?: string } }[] }> {
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
  `subscription { addressActivity(chainId: "${chainId}", addresses: ${JSON.stringify(addresses)}) { messageId transaction { hash from to erc20Transfers { from to tokenAddress } } } }`;

const webhookCalls = (devnet: Devnet): Record<string, number> =>
  Object.fromEntries(Object.entries(devnet.stats().byRoute).filter(([route]) => WEBHOOK_ROUTES.test(route)));

const delivered = (devnet: Devnet): number => devnet.webhooks.counters().webhooks.reduce((sum, w) => sum + w.delivered, 0);

/** Moves the clock on until the devnet has delivered at least `count` more events (bounded). */
async function produce(devnet: Devnet, count: number): Promise<number> {
  const start = delivered(devnet);
  for (let i = 0; i < 40 && delivered(devnet) - start < count; i++) {
    clock += 60_000;
    await devnet.webhooks.tick();
  }
  const made = delivered(devnet) - start;
  expect(made).toBeGreaterThanOrEqual(count);
  return made;
}

function touches(event: ActivityEvent, address: string): boolean {
  const a = address.toLowerCase();
  const { transaction: tx } = event;
  return [tx.from, tx.to, ...tx.erc20Transfers.flatMap((t) => [t.from, t.to, t.tokenAddress])].some((x) => x?.toLowerCase() === a);
}

function replicaEnv(devnet: Devnet, port: number, publicUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: String(port),
    DATA_API_URL: devnet.url,
    DATA_API_KEY: KEY,
    NODE_URLS: Object.entries(devnet.nodeUrls).map(([name, url]) => `${name}=${url}`).join(','),
    CACHE: 'off',
    WEBHOOK_PUBLIC_URL: `${publicUrl}/webhooks/data-api`,
    // Keys given back as their last subscriber leaves (no grace): the tests below count those calls.
    REGISTRATION_GRACE_MS: '0',
    ...extra,
  };
}

describe('live address activity on one gateway', () => {
  let devnet: Devnet;
  let gateway: RunningServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let chainId: string;
  let watched: string;
  let other: string;

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 50, now: () => clock, webhookIntervalMs: 0 });
    const port = await freePort();
    proxy = await startProxy(() => [`http://127.0.0.1:${port}`]);
    gateway = await startServer(configFromEnv(replicaEnv(devnet, port, proxy.url)), pino({ level: 'silent' }));
    // Blocks from here on: an event from before the gateway started is one it cannot tell from a replay (stale).
    clock = Math.max(clock, Date.now());
    const fixtures = devnet.dataset.fixtures().mainnet;
    chainId = fixtures.evmChainId;
    watched = fixtures.contractAddress;
    other = fixtures.address;
  });

  afterAll(async () => {
    await gateway?.close({ graceMs: 500 });
    await proxy?.close();
    await devnet?.close();
  });

  it('registers one webhook for the first subscriber, pushes each delivery once, and gives everything back when the last one leaves', async () => {
    devnet.resetStats();
    const first = await sseSubscribe(gateway.url, activityQuery(chainId, [watched]));
    await until('the webhook exists', () => devnet.webhooks.counters().webhooks.some((w) => w.status === 'active'));
    // Register: one look for a webhook to reuse, one create carrying the address.
    expect(webhookCalls(devnet)).toEqual({ 'GET /v1/webhooks': 1, 'POST /v1/webhooks': 1 });

    // A second subscriber of the same address costs nothing; one of another address costs one add.
    const second = await sseSubscribe(gateway.url, activityQuery(chainId, [watched.toUpperCase().replace('0X', '0x')]));
    const third = await sseSubscribe(gateway.url, activityQuery(chainId, [other]));
    await until('the second address was added', () => (webhookCalls(devnet)['PATCH /v1/webhooks/{id}/addresses'] ?? 0) === 1);
    expect(webhookCalls(devnet)).toEqual({ 'GET /v1/webhooks': 1, 'POST /v1/webhooks': 1, 'PATCH /v1/webhooks/{id}/addresses': 1 });

    const made = await produce(devnet, 3);
    // Every delivery was for one of the two watched addresses; each subscriber of `watched` gets those touching it, once.
    const ours = proxy.recorded.filter((r) => r.status === 200).map((r) => JSON.parse(r.body) as { messageId: string; event: { transaction: Record<string, unknown> } });
    expect(ours).toHaveLength(made);
    const forWatched = ours.filter((d) => JSON.stringify(d.event.transaction).toLowerCase().includes(watched.toLowerCase()));
    for (const stream of [first, second]) {
      const got: ActivityEvent[] = [];
      while (got.length < forWatched.length) {
        const event = await stream.next();
        expect(event.errors).toBeUndefined();
        got.push(event.data?.addressActivity as ActivityEvent);
      }
      expect(got.map((e) => e.messageId).sort()).toEqual(forWatched.map((d) => d.messageId).sort());
      for (const event of got) expect(touches(event, watched)).toBe(true);
    }

    // The last subscriber of each address gone: each is removed, and the webhook, empty, is deactivated.
    first.close();
    second.close();
    third.close();
    await until('the webhook was deactivated', () => devnet.webhooks.counters().webhooks.every((w) => w.status === 'inactive'));
    const calls = webhookCalls(devnet);
    expect(calls['DELETE /v1/webhooks/{id}']).toBe(1);
    expect(calls['DELETE /v1/webhooks/{id}/addresses']).toBeGreaterThanOrEqual(1);
    expect(calls['DELETE /v1/webhooks/{id}/addresses']).toBeLessThanOrEqual(2);
    expect(calls['POST /v1/webhooks']).toBe(1);
  }, 60_000);

  it('refuses forged, tampered, unsigned and stale deliveries, and drops a replay', async () => {
    const stream = await sseSubscribe(gateway.url, activityQuery(chainId, [watched]));
    await until('the webhook exists', () => devnet.webhooks.counters().webhooks.some((w) => w.status === 'active'));
    const before = proxy.recorded.length;
    const made = await produce(devnet, 1);
    const real = proxy.recorded.slice(before).find((r) => r.status === 200) as Recorded;
    const seen = new Set<string | undefined>();
    while (seen.size < made) seen.add((await stream.next()).data?.addressActivity?.messageId);

    const post = (body: string, signature?: string) =>
      fetch(`${gateway.url.replace('/graphql', '')}/webhooks/data-api`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'x-signature': signature } : {}) }, body });
    const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as { status: string } });

    // A replay of a real, signed delivery: acknowledged, not pushed again.
    expect(await answer(await post(real.body, real.signature))).toEqual({ status: 200, body: { status: 'duplicate' } });
    // The same delivery with its content changed, or signed with another secret, or unsigned.
    const payload = JSON.parse(real.body) as { messageId: string; event: { transaction: { blockTimestamp: number } } };
    const tampered = JSON.stringify({ ...payload, messageId: `${payload.messageId}-2` });
    expect(await answer(await post(tampered, real.signature))).toEqual({ status: 401, body: { status: 'forged' } });
    expect(await answer(await post(tampered, signWebhookPayload('not-the-secret', JSON.parse(tampered))))).toEqual({ status: 401, body: { status: 'forged' } });
    expect(await answer(await post(tampered))).toEqual({ status: 401, body: { status: 'forged' } });
    // Signed with the real secret but older than the ids the gateway remembers: a replay it could not tell.
    const secret = ((await (await fetch(`${devnet.url}/v1/webhooks:getSharedSecret`, { headers: { 'x-service-api-key': KEY } })).json()) as { secret: string }).secret;
    const stale = { ...payload, messageId: `${payload.messageId}-stale`, event: { ...payload.event, transaction: { ...payload.event.transaction, blockTimestamp: Math.floor(clock / 1000) - 3 * 86_400 } } };
    expect(await answer(await post(JSON.stringify(stale), signWebhookPayload(secret, stale)))).toEqual({ status: 409, body: { status: 'stale' } });
    // Not JSON, or not a delivery.
    expect((await answer(await post('{nope', real.signature))).status).toBe(400);
    expect((await fetch(`${gateway.url.replace('/graphql', '')}/webhooks/data-api`)).status).toBe(405);

    // The next event the subscriber gets is a new one: nothing above reached it.
    const start = proxy.recorded.length;
    await produce(devnet, 1);
    const next = await stream.next();
    const fresh = proxy.recorded.slice(start).map((r) => (JSON.parse(r.body) as { messageId: string }).messageId);
    expect(fresh).toContain(next.data?.addressActivity?.messageId);
    expect(seen.has(next.data?.addressActivity?.messageId)).toBe(false);
    stream.close();
    await until('the webhook was deactivated', () => devnet.webhooks.counters().webhooks.every((w) => w.status === 'inactive'));
  }, 60_000);
  it('pushes validator and primary-network activity (each key its own webhook), with their links resolved', async () => {
    const fixtures = devnet.dataset.fixtures().mainnet;
    devnet.resetStats();
    const origin = gateway.url.replace('/graphql', '');
    const node = await sseSubscribe(gateway.url, `subscription { validatorActivity(network: MAINNET, nodeId: "${fixtures.nodeId}") { messageId subEvent subEventRaw nodeId transactionHash validator { nodeId } } }`);
    const primary = await sseSubscribe(gateway.url, `subscription { primaryNetworkActivity(network: MAINNET, blockchainId: "p-chain", addresses: ["${fixtures.pChainAddress}"]) { messageId subEvent addresses transaction { txHash } } }`);
    await until('both webhooks exist', () => devnet.webhooks.counters().webhooks.filter((w) => w.status === 'active').length === 2);
    // Each: one look for a webhook to reuse, one create.
    expect(webhookCalls(devnet)).toEqual({ 'GET /v1/webhooks': 2, 'POST /v1/webhooks': 2 });
    const secret = ((await (await fetch(`${devnet.url}/v1/webhooks:getSharedSecret`, { headers: { 'x-service-api-key': KEY } })).json()) as { secret: string }).secret;
    const hooks = devnet.webhooks.counters().webhooks.filter((w) => w.status === 'active');
    const deliver = async (payload: Record<string, unknown>) => {
      const res = await fetch(`${origin}/webhooks/data-api`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signWebhookPayload(secret, payload) }, body: JSON.stringify(payload) });
      return ((await res.json()) as { status: string }).status;
    };
    const now = Math.floor(clock / 1000);
    const nodeHook = hooks.find((w) => w.eventType === 'validator_activity')?.id;
    expect(await deliver({ webhookId: nodeHook, eventType: 'validator_activity', messageId: 'v-1', event: { subEvent: 'delegator_stake', network: 'mainnet', nodeId: fixtures.nodeId, txHash: fixtures.delegationTxHash, blockTimestamp: now } })).toBe('accepted');
    const nodeEvent = (await node.next()) as { data?: { validatorActivity?: Record<string, unknown> } };
    expect(nodeEvent.data?.validatorActivity).toEqual({
      messageId: 'v-1', subEvent: 'DELEGATOR_STAKE', subEventRaw: 'delegator_stake', nodeId: fixtures.nodeId, transactionHash: fixtures.delegationTxHash, validator: { nodeId: fixtures.nodeId },
    });
    const bare = fixtures.pChainAddress.replace(/^P-/, '');
    const primaryHook = hooks.find((w) => w.eventType === 'primary_network_address_activity')?.id;
    const blockchainId = devnet.dataset.primary.mainnet.chainIds.p;
    expect(await deliver({ webhookId: primaryHook, eventType: 'primary_network_address_activity', messageId: 'p-1', event: { subEvent: 'balance_change', network: 'mainnet', blockchainId, addresses: [bare], txHash: fixtures.pChainTxHash, txType: 'AddPermissionlessDelegatorTx', blockTimestamp: now } })).toBe('accepted');
    const primaryEvent = (await primary.next()) as { data?: { primaryNetworkActivity?: Record<string, unknown> } };
    expect(primaryEvent.data?.primaryNetworkActivity).toEqual({ messageId: 'p-1', subEvent: 'BALANCE_CHANGE', addresses: [bare], transaction: { txHash: fixtures.pChainTxHash } });
    node.close();
    primary.close();
    await until('both webhooks were deactivated', () => devnet.webhooks.counters().webhooks.every((w) => w.status === 'inactive'));
    // Each gone with one deactivation; no address was added or removed.
    expect(webhookCalls(devnet)).toEqual({ 'GET /v1/webhooks': 2, 'POST /v1/webhooks': 2, 'DELETE /v1/webhooks/{id}': 2, 'GET /v1/webhooks:getSharedSecret': 1 });
  }, 60_000);
});

describe.skipIf(!redisAvailable)('live address activity across two replicas sharing Redis', () => {
  let devnet: Devnet;
  const replicas: RunningServer[] = [];
  let proxy: Awaited<ReturnType<typeof startProxy>>;

  beforeAll(async () => {
    const redisUrl = await ensureRedis();
    devnet = await startDevnet({ validators: 50, now: () => clock, webhookIntervalMs: 0 });
    const ports = [await freePort(), await freePort()];
    proxy = await startProxy(() => ports.map((p) => `http://127.0.0.1:${p}`));
    for (const port of ports) {
      replicas.push(await startServer(configFromEnv(replicaEnv(devnet, port, proxy.url, { REDIS_URL: redisUrl, TOPIC_LEASE_TTL_MS: '600' })), pino({ level: 'silent' })));
    }
    clock = Math.max(clock, Date.now());
  });

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close({ graceMs: 500 })));
    await proxy?.close();
    await devnet?.close();
    await stopRedis();
  });

  it('delivers each event exactly once to subscribers on both replicas, whichever replica received it', async () => {
    devnet.resetStats();
    const fixtures = devnet.dataset.fixtures().mainnet;
    const query = activityQuery(fixtures.evmChainId, [fixtures.contractAddress]);
    const [a, b] = replicas as [RunningServer, RunningServer];
    const streams = [await sseSubscribe(a.url, query), await sseSubscribe(b.url, query), await sseSubscribe(b.url, query)];
    await until('the webhook exists', () => devnet.webhooks.counters().webhooks.some((w) => w.status === 'active'));
    const made = await produce(devnet, 4);
    const accepted = proxy.recorded.filter((r) => r.status === 200);
    expect(accepted).toHaveLength(made);
    // The proxy alternated: both replicas took deliveries.
    expect(new Set(accepted.map((r) => r.to)).size).toBe(2);
    const ids = accepted.map((r) => (JSON.parse(r.body) as { messageId: string }).messageId).sort();
    for (const stream of streams) {
      const got: string[] = [];
      while (got.length < ids.length) got.push(((await stream.next()).data?.addressActivity as ActivityEvent).messageId);
      expect(got.sort()).toEqual(ids);
    }
    // One webhook for the fleet, registered once; each replica that took a delivery read the shared secret once.
    expect(webhookCalls(devnet)).toEqual({ 'GET /v1/webhooks': 1, 'POST /v1/webhooks': 1, 'GET /v1/webhooks:getSharedSecret': 2 });
    // A delivery one replica took, sent again to the other: the fleet has seen it.
    const firstTaken = accepted[0] as Recorded;
    const otherReplica = replicas.find((r) => !r.url.startsWith(firstTaken.to)) as RunningServer;
    const replay = await fetch(`${otherReplica.url.replace('/graphql', '')}/webhooks/data-api`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': firstTaken.signature ?? '' }, body: firstTaken.body });
    expect(await replay.json()).toEqual({ status: 'duplicate' });
    for (const stream of streams) stream.close();
    await until('the webhook was deactivated', () => devnet.webhooks.counters().webhooks.every((w) => w.status === 'inactive'));
  }, 60_000);
});

describe('live activity that cannot start', () => {
  it('answers LIVE_ACTIVITY_NOT_CONFIGURED, naming the variable, on a gateway without WEBHOOK_PUBLIC_URL', async () => {
    const devnet = await startDevnet({ validators: 50, webhookIntervalMs: 0 });
    const gateway = await startServer(configFromEnv({ PORT: '0', DATA_API_URL: devnet.url, NODE_URLS: Object.entries(devnet.nodeUrls).map(([n, u]) => `${n}=${u}`).join(','), CACHE: 'off' }), pino({ level: 'silent' }));
    try {
      const fixtures = devnet.dataset.fixtures().mainnet;
      const stream = await sseSubscribe(gateway.url, activityQuery(fixtures.evmChainId, [fixtures.address]));
      const event = await stream.next();
      expect(event.errors?.[0]?.extensions?.code).toBe('LIVE_ACTIVITY_NOT_CONFIGURED');
      expect(event.errors?.[0]?.message).toContain('WEBHOOK_PUBLIC_URL');
      expect(devnet.stats().byRoute['POST /v1/webhooks']).toBeUndefined();
    } finally {
      await gateway.close({ graceMs: 200 });
      await devnet.close();
    }
  });

  it('ends the subscription with the upstream\'s coded error when the webhook cannot be registered (no key: 401)', async () => {
    const devnet = await startDevnet({ validators: 50, webhookIntervalMs: 0 });
    const env = replicaEnv(devnet, 0, 'http://127.0.0.1:9');
    delete env['DATA_API_KEY'];
    const gateway = await startServer(configFromEnv(env), pino({ level: 'silent' }));
    try {
      const fixtures = devnet.dataset.fixtures().mainnet;
      const stream = await sseSubscribe(gateway.url, activityQuery(fixtures.evmChainId, [fixtures.address]));
      const event = await stream.next();
      expect(event.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAUTHORIZED');
    } finally {
      await gateway.close({ graceMs: 200 });
      await devnet.close();
    }
  });
});

describe('live activity on the built-in devnet (nothing configured)', () => {
  it('points its webhook at the gateway itself and serves what is delivered there', async () => {
    // The gateway's key on the built-in devnet is a random secret; this test gives its own, to sign as the devnet does.
    const gatewayKey = 'live-activity-built-in-test-key';
    const gateway = await startServer(configFromEnv({ PORT: '0', CACHE: 'off' }), pino({ level: 'silent' }), { devnetWebhookKey: gatewayKey });
    try {
      const devnet = gateway.devnet as Devnet;
      const fixtures = devnet.dataset.fixtures().mainnet;
      const stream = await sseSubscribe(gateway.url, activityQuery(fixtures.evmChainId, [fixtures.contractAddress]));
      const key = { 'x-service-api-key': gatewayKey };
      let hooks: { id: string; url: string; status: string }[] = [];
      await until('the webhook exists', async () => {
        hooks = ((await (await fetch(`${devnet.url}/v1/webhooks`, { headers: key })).json()) as { webhooks: typeof hooks }).webhooks;
        return hooks.length === 1;
      });
      const origin = gateway.url.replace('/graphql', '');
      expect(hooks[0]?.url).toBe(`${origin}/webhooks/data-api`);
      // A delivery as the devnet sends it, to that URL.
      const secret = ((await (await fetch(`${devnet.url}/v1/webhooks:getSharedSecret`, { headers: key })).json()) as { secret: string }).secret;
      const payload = {
        webhookId: hooks[0]?.id, eventType: 'address_activity', messageId: 'built-in-1',
        // Not before the gateway started (in whole seconds, rounded up): older would be stale.
        event: { transaction: { txHash: `0x${'ab'.repeat(32)}`, chainId: fixtures.evmChainId, from: fixtures.address, to: fixtures.contractAddress, blockTimestamp: Math.ceil(Date.now() / 1000), erc20Transfers: [] } },
      };
      const res = await fetch(`${origin}/webhooks/data-api`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signWebhookPayload(secret, payload) }, body: JSON.stringify(payload) });
      expect(await res.json()).toEqual({ status: 'accepted' });
      // The devnet may deliver real blocks' events meanwhile (it runs its own loop here): read on to ours.
      const ids: (string | undefined)[] = [];
      while (!ids.includes('built-in-1') && ids.length < 100) ids.push((await stream.next()).data?.addressActivity?.messageId);
      expect(ids).toContain('built-in-1');
      stream.close();
    } finally {
      await gateway.close({ graceMs: 200 });
    }
  });
});

describe('the delivery endpoint under hostile senders', () => {
  let devnet: Devnet;
  let gateway: RunningServer;
  let origin: string;

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 50, webhookIntervalMs: 0 });
    gateway = await startServer(configFromEnv(replicaEnv(devnet, 0, 'http://127.0.0.1:9')), pino({ level: 'silent' }));
    origin = gateway.url.replace('/graphql', '');
  });

  afterAll(async () => {
    await gateway?.close({ graceMs: 200 });
    await devnet?.close();
  });

  /** Sends raw bytes and resolves with the status line's code (0 when the socket closed without one). */
  function raw(head: string, body = '', keepOpen = false): { status: Promise<number>; socket: Socket } {
    const { port } = new URL(origin);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(head + body);
    const status = new Promise<number>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
        if (match) resolve(Number(match[1]));
      });
      socket.on('close', () => resolve(0));
      socket.on('error', () => resolve(0));
    });
    if (!keepOpen) void status.then(() => socket.destroy());
    return { status, socket };
  }
  // With a signature of the right form (any other is refused before the body is read).
  const head = (length: number | 'chunked', type = 'application/json') =>
    `POST /webhooks/data-api HTTP/1.1\r\nhost: x\r\ncontent-type: ${type}\r\nx-signature: ${'ab'.repeat(32)}\r\n${length === 'chunked' ? 'transfer-encoding: chunked' : `content-length: ${length}`}\r\n\r\n`;

  it('refuses a body over its limit unread (declared or streamed), a non-JSON one, and a method other than POST', async () => {
    expect(await raw(head(WEBHOOK_DELIVERIES_DEFAULTS.maxBodyBytes + 1)).status).toBe(413);
    const chunk = 'x'.repeat(64 * 1024);
    const chunked = Array.from({ length: 5 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    expect(await raw(head('chunked'), chunked).status).toBe(413);
    expect(await raw(head(2, 'text/plain'), '{}').status).toBe(415);
    expect((await fetch(`${origin}/webhooks/data-api`, { method: 'PUT' })).status).toBe(405);
    expect((await fetch(`${origin}/ready`)).status).toBe(200);
  });

  it('reads at most its share of deliveries at once: senders that never finish cannot hold more', async () => {
    const slow = Array.from({ length: WEBHOOK_DELIVERIES_DEFAULTS.maxConcurrent }, () => raw(head(1000), '{"webhookId":', true));
    // Each is being read once the next one is refused; wait (bounded) until the gateway holds them all.
    let status = 0;
    await until('the next sender is refused', async () => {
      status = await raw(head(2), '{}').status;
      return status === 503;
    });
    expect(status).toBe(503);
    for (const { socket } of slow) socket.destroy();
    // Their slots come back: a delivery (not one: `{}`) is read and judged again.
    await until('a delivery is read again', async () => (await raw(head(2), '{}').status) === 400);
  });

  it('turns a flood of forged deliveries into no more than a couple of secret reads (the rest refused, busy or limited)', async () => {
    devnet.resetStats();
    // Timed now, so each reaches the signature check (an untimed or old one is refused as stale before it).
    const forged = JSON.stringify({ webhookId: 'w', eventType: 'address_activity', messageId: 'm', event: { transaction: { txHash: '0x1', chainId: '43114', blockTimestamp: Math.ceil(Date.now() / 1000) } } });
    const answers = await Promise.all(Array.from({ length: 100 }, () =>
      fetch(`${origin}/webhooks/data-api`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': 'ab'.repeat(32) }, body: forged }).then((r) => r.status)));
    expect(answers).toContain(401);
    for (const status of answers) expect([401, 429, 503]).toContain(status);
    expect(devnet.stats().byRoute['GET /v1/webhooks:getSharedSecret'] ?? 0).toBeLessThanOrEqual(2);
    expect(devnet.stats().requests).toBeLessThanOrEqual(2);
  });
});

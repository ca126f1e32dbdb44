import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client, type ClientOptions, type FormattedExecutionResult } from 'graphql-ws';
import pino from 'pino';
import WebSocket from 'ws';
import { configFromEnv } from '../../src/server/config.ts';
import { blockPolling } from '../../src/loaders/block-poller.ts';
import { nodeHealthPolling } from '../../src/loaders/node-health.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { readEvents } from '../helpers/sse.ts';
import { takeResults } from '../helpers/take.ts';

// graphql-ws on the gateway's own listening server and path (/graphql upgraded to WebSocket), with a
// real graphql-ws client: subscriptions, queries, coded errors, limits and the close on shutdown.
// CACHE=off, so the devnet counts every poll (a cached health.health would hide them).

type Result = FormattedExecutionResult<Record<string, unknown>, Record<string, unknown>>;
type FormattedErrors = readonly { message: string; extensions?: Record<string, unknown> }[];

let running: RunningServer;
let wsUrl: string;
const clients: Client[] = [];
const saved = { blocks: blockPolling.intervalMs, health: nodeHealthPolling.intervalMs };

beforeAll(async () => {
  blockPolling.intervalMs = 100;
  nodeHealthPolling.intervalMs = 100;
  const config = configFromEnv({ PORT: '0', CACHE: 'off', WS_MAX_OPERATIONS_PER_SOCKET: '3', MAX_BODY_BYTES: '40000', WS_CONNECTION_INIT_TIMEOUT_MS: '300' });
  running = await startServer(config, pino({ level: 'silent' }));
  wsUrl = running.url.replace(/^http/, 'ws');
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await running?.close({ graceMs: 1000 });
  blockPolling.intervalMs = saved.blocks;
  nodeHealthPolling.intervalMs = saved.health;
});

function client(options: Partial<ClientOptions> = {}): Client {
  const made = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, ...options });
  clients.push(made);
  return made;
}

/** The first `count` results of an operation, then completes it (the client sends `complete`). */
function take(on: Client, query: string, count: number, variables?: Record<string, unknown>): Promise<Result[]> {
  return takeResults(on.iterate<Record<string, unknown>, Record<string, unknown>>({ query, ...(variables ? { variables } : {}) }), count);
}

/** The errors an operation was refused with (graphql-ws `error` message), or its result's errors. */
async function refusal(on: Client, query: string, variables?: Record<string, unknown>): Promise<FormattedErrors> {
  try {
    const [result] = await take(on, query, 1, variables);
    return result?.errors ?? [];
  } catch (errors) {
    return errors as FormattedErrors;
  }
}

const devnetRoutes = (): Record<string, number> => running.devnet?.stats().byRoute ?? {};
const admission = async (): Promise<{ subscriptions: number }> =>
  ((await (await fetch(running.url.replace('/graphql', '/ready'))).json()) as { admission: { subscriptions: number } }).admission;

describe('graphql-ws on /graphql', () => {
  it('streams nodeHealth and blocks, each event costed as over SSE', async () => {
    const on = client();
    const [health] = await take(on, 'subscription { nodeHealth { healthy checks { name passing } } }', 1);
    expect(health?.errors).toBeUndefined();
    expect(typeof (health?.data?.['nodeHealth'] as { healthy: unknown }).healthy).toBe('boolean');
    expect(health?.extensions?.['cost']).toMatchObject({ estimatedUpstreamCalls: 1, actualUpstreamCalls: 1 });

    // The devnet makes a block every 2 s: the first one after subscribing arrives within a few seconds.
    const [block] = await take(on, 'subscription { blocks(network: MAINNET, blockchainId: "p-chain") { blockNumber blockchainId } }', 1);
    expect(block?.errors).toBeUndefined();
    expect((block?.data?.['blocks'] as { blockNumber: string }).blockNumber).toMatch(/^\d+$/);
  }, 20_000);

  it('serves queries and mutations too, and reads the API key from connectionParams', async () => {
    const [result] = await take(client(), '{ avalancheNodes { name } }', 1);
    expect(result?.data?.['avalancheNodes']).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'mainnet' })]));

    const keyed = client({ connectionParams: { 'x-service-api-key': 'not a key!' } });
    expect((await refusal(keyed, '{ avalancheNodes { name } }'))[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
    const [ok] = await take(client({ connectionParams: { 'x-service-api-key': 'caller-key-1' } }), '{ avalancheNodes { name } }', 1);
    expect(ok?.errors).toBeUndefined();
  });

  it('answers bad operations with coded errors, before any upstream call', async () => {
    const on = client();
    running.devnet?.resetStats();
    expect((await refusal(on, 'subscription { nodeHealth(node: "nope") { healthy } }'))[0]?.extensions?.['code']).toBe('NODE_NOT_CONFIGURED');
    expect((await refusal(on, 'subscription { blocks(network: MAINNET, blockchainId: "not a chain!") { blockNumber } }'))[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect((await refusal(on, 'subscription($n: NetworkName!) { blocks(network: $n, blockchainId: "p-chain") { blockNumber } }', { n: 'NOPE' }))[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect((await refusal(on, '{ nope }'))[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await refusal(on, `{ ${'a: __typename '.repeat(10)}${'{'.repeat(70)} }`))[0]?.extensions?.['code']).toBe('QUERY_TOO_DEEP');
    expect((await refusal(on, '{ avalancheNodes { name } }', { v: Array.from({ length: 11_000 }, () => 1) }))[0]?.extensions?.['code']).toBe('VARIABLES_TOO_LARGE');
    expect(running.devnet?.stats().requests).toBe(0);
  });

  it('bounds each socket: operations at once, message size, and the wait for connection_init', async () => {
    const on = client();
    const live = ['node: "mainnet"', 'node: "fuji"', ''].map((args) =>
      on.iterate({ query: `subscription { nodeHealth${args ? `(${args})` : ''} { healthy } }` }),
    );
    await Promise.all(live.map((iterator) => iterator.next()));
    // Three live on this socket (the limit), counted by admission control like any subscription.
    expect((await admission()).subscriptions).toBeGreaterThanOrEqual(3);
    expect((await refusal(on, '{ avalancheNodes { name } }'))[0]?.extensions?.['code']).toBe('SERVER_BUSY');
    await Promise.all(live.map((iterator) => iterator.return?.()));
    await expect.poll(admission, { timeout: 3000 }).toMatchObject({ subscriptions: 0 });
    const [after] = await take(on, '{ avalancheNodes { name } }', 1);
    expect(after?.errors).toBeUndefined();

    // A message above MAX_BODY_BYTES (40000 here) closes the socket with 1009 (Message Too Big).
    const closed = new Promise<number>((resolve) => {
      const big = client({ on: { closed: (event) => resolve((event as { code: number }).code) } });
      void take(big, `{ avalancheNodes { name } } # ${'x'.repeat(50_000)}`, 1).catch(() => undefined);
    });
    expect(await closed).toBe(1009);

    // A socket that never sends connection_init is closed with 4408 after WS_CONNECTION_INIT_TIMEOUT_MS.
    const raw = new WebSocket(wsUrl, 'graphql-transport-ws');
    const code = await new Promise<number>((resolve) => raw.once('close', resolve));
    expect(code).toBe(4408);
  });

  it('refuses an upgrade of any other path', async () => {
    const raw = new WebSocket(wsUrl.replace('/graphql', '/elsewhere'), 'graphql-transport-ws');
    const status = await new Promise<number | undefined>((resolve) => {
      raw.once('unexpected-response', (_req, res) => resolve(res.statusCode));
      raw.once('error', () => resolve(undefined));
    });
    expect(status).toBe(404);
  });

  it('shares one poller per topic between its subscribers over ws and SSE', async () => {
    const route = 'POST health.health';
    const subscribers = [client(), client(), client()].map((on) => on.iterate({ query: 'subscription { nodeHealth(node: "fuji") { healthy } }' }));
    await Promise.all(subscribers.map((iterator) => iterator.next()));
    const sse = await fetch(running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { nodeHealth(node: "fuji") { healthy } }' }),
    });
    const { events, reader } = await readEvents(sse, 1);
    expect(events[0]?.data).toMatchObject({ nodeHealth: { healthy: expect.any(Boolean) } });
    const before = devnetRoutes()[route] ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const polls = (devnetRoutes()[route] ?? 0) - before;
    // One poll per 100 ms interval for all four subscribers (about 10), not one per subscriber (about 40).
    expect(polls).toBeGreaterThanOrEqual(5);
    expect(polls).toBeLessThanOrEqual(13);
    await reader.cancel();
    await Promise.all(subscribers.map((iterator) => iterator.return?.()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = devnetRoutes()[route] ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(devnetRoutes()[route] ?? 0).toBe(stopped);
  });
});

describe('graphql-ws and shutdown', () => {
  it('closes every socket with 1001 (Going Away) when the server shuts down, its subscriptions ended', async () => {
    const own = await startServer(configFromEnv({ PORT: '0' }), pino({ level: 'silent' }));
    const closed = new Promise<number>((resolve) => {
      const on = createClient({ url: own.url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, on: { closed: (event) => resolve((event as { code: number }).code) } });
      clients.push(on);
      const iterator = on.iterate({ query: 'subscription { nodeHealth { healthy } }' });
      void iterator.next().then(() => void own.close({ graceMs: 2000 }));
    });
    expect(await closed).toBe(1001);
    expect(await own.close()).toBe('drained');
  }, 15_000);
});

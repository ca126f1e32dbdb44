import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client, type ClientOptions, type ExecutionResult } from 'graphql-sse';
import pino from 'pino';
import { configFromEnv } from '../../src/server/config.ts';
import { nodeHealthPolling } from '../../src/loaders/node-health.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { takeResults } from '../helpers/take.ts';

// Both modes of graphql-sse on /graphql with the real graphql-sse client: distinct connections (one
// SSE response per operation: yoga's own) and single connection (a reserved stream that carries
// every operation: @graphql-yoga/plugin-graphql-sse), on a listening gateway.

type Result = ExecutionResult<Record<string, unknown>, Record<string, unknown>>;

let running: RunningServer;
const clients: Client[] = [];
const savedInterval = nodeHealthPolling.intervalMs;

beforeAll(async () => {
  nodeHealthPolling.intervalMs = 100;
  running = await startServer(configFromEnv({ PORT: '0', CACHE: 'off', MAX_SUBSCRIPTIONS: '4', MAX_BODY_BYTES: '20000' }), pino({ level: 'silent' }));
});

// A single-connection client holds its stream (and its reservation) until disposed.
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
});

afterAll(async () => {
  await running?.close({ graceMs: 1000 });
  nodeHealthPolling.intervalMs = savedInterval;
});

function client(options: Partial<ClientOptions<boolean>> = {}): Client {
  const made = createClient<boolean>({ url: running.url, retryAttempts: 0, ...options });
  clients.push(made);
  return made;
}

function take(on: Client, query: string, count: number): Promise<Result[]> {
  return takeResults(on.iterate<Record<string, unknown>, Record<string, unknown>>({ query }), count);
}

const healthy = (result: Result | undefined): unknown => (result?.data?.['nodeHealth'] as { healthy?: unknown } | undefined)?.healthy;

describe.each([
  ['distinct connections', false],
  ['single connection', true],
] as const)('graphql-sse, %s mode, on /graphql', (_mode, singleConnection) => {
  it('streams a subscription, each event costed', async () => {
    const [event] = await take(client({ singleConnection }), 'subscription { nodeHealth(node: "mainnet") { healthy } }', 1);
    expect(event?.errors).toBeUndefined();
    expect(typeof healthy(event)).toBe('boolean');
    expect(event?.extensions?.['cost']).toMatchObject({ estimatedUpstreamCalls: 1, actualUpstreamCalls: 1 });
  });

  it('runs queries and several subscriptions at once', async () => {
    const on = client({ singleConnection });
    const [query, fuji, mainnet] = await Promise.all([
      take(on, '{ avalancheNodes { name } }', 1),
      take(on, 'subscription { nodeHealth(node: "fuji") { healthy } }', 1),
      take(on, 'subscription { nodeHealth(node: "mainnet") { healthy } }', 1),
    ]);
    expect(query[0]?.data?.['avalancheNodes']).toEqual(expect.arrayContaining([{ name: 'mainnet' }]));
    expect(typeof healthy(fuji[0])).toBe('boolean');
    expect(typeof healthy(mainnet[0])).toBe('boolean');
  });

  it('answers refused operations (input, validation, a malformed API key) with coded errors, before any upstream call', async () => {
    running.devnet?.resetStats();
    const [result] = await take(client({ singleConnection }), 'subscription { blocks(network: MAINNET, blockchainId: "not a chain!") { blockNumber } }', 1);
    expect(result?.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    const [invalid] = await take(client({ singleConnection }), '{ nope }', 1);
    expect(invalid?.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
    // Over distinct connections the refusal is the HTTP response itself (401, as for any request); on a reserved stream, a result.
    const keyed = await take(client({ singleConnection, headers: { 'x-service-api-key': 'not a key!' } }), '{ avalancheNodes { name } }', 1).then(
      ([refused]) => refused?.errors?.[0]?.extensions?.['code'],
      (error: { response?: Response }) => error.response?.status,
    );
    expect(keyed).toBe(singleConnection ? 'UNAUTHENTICATED' : 401);
    // The health polls of the subscriptions of the tests before may still arrive (a poll in flight when
    // its stream ended): only the calls these operations could cause count.
    const caused = (running.devnet?.requestLog() ?? []).filter((entry) => !/health/.test(entry.route));
    expect(caused).toEqual([]);
  });
});

describe('single-connection mode at the edge', () => {
  const put = () => fetch(running.url, { method: 'PUT' });
  const post = (token: string, body: string) =>
    fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': token }, body });

  it('leaves every other request on /graphql to yoga', async () => {
    const response = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ avalancheNodes { name } }' }) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Result).data?.['avalancheNodes']).toBeDefined();
  });

  it('bounds reservations and checks operations sent to a stream as yoga checks its own', async () => {
    const tokens: string[] = [];
    // MAX_SUBSCRIPTIONS (4) reservations at most; each token is a random UUID.
    for (let i = 0; i < 4; i++) {
      const response = await put();
      expect(response.status).toBe(201);
      tokens.push(await response.text());
    }
    expect(new Set(tokens).size).toBe(4);
    expect(tokens.every((token) => /^[0-9a-f-]{36}$/.test(token))).toBe(true);
    const refused = await put();
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as Result).errors?.[0]?.extensions?.['code']).toBe('SERVER_BUSY');

    const unknown = await post('00000000-0000-4000-8000-000000000000', JSON.stringify({ query: '{ avalancheNodes { name } }', extensions: { operationId: '1' } }));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as Result).errors?.[0]?.extensions?.['code']).toBe('NOT_FOUND');

    const [token] = tokens as [string];
    const tooLarge = await post(token, JSON.stringify({ query: `{ avalancheNodes { name } } # ${'x'.repeat(25_000)}` }));
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as Result).errors?.[0]?.extensions?.['code']).toBe('PAYLOAD_TOO_LARGE');
    const tooDeep = await post(token, JSON.stringify({ query: `{ ${'{'.repeat(80)} }` }));
    expect(tooDeep.status).toBe(400);
    expect(((await tooDeep.json()) as Result).errors?.[0]?.extensions?.['code']).toBe('QUERY_TOO_DEEP');
  });
});

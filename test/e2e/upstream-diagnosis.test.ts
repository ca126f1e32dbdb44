import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { upstreamToGraphQLError } from '../../src/errors/graphql.ts';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { createHttpUpstream } from '../../src/upstream/http.ts';
import { freePort } from '../helpers/redis.ts';

// Each way an upstream can fail, against a real socket: the GraphQL error, the log and /ready must name
// the upstream (its origin only), the cause in words, and the setting to check.

const SERVER_KEY = 'diagnosis-server-key-0123456789';

interface GraphQLErrorBody {
  message: string;
  extensions?: Record<string, unknown>;
}
interface GraphQLBody {
  data?: unknown;
  errors?: GraphQLErrorBody[];
  extensions?: { cost?: { actualUpstreamCalls?: number } };
}

interface Started {
  running: RunningServer;
  lines: Record<string, unknown>[];
}

const started: RunningServer[] = [];

async function start(env: Record<string, string>): Promise<Started> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const running = await startServer(configFromEnv({ PORT: '0', HOST: '127.0.0.1', CACHE: 'off', ...env }), pino({ level: 'debug' }, sink));
  started.push(running);
  return { running, lines };
}

async function query(running: RunningServer, document: string, variables: Record<string, unknown> = {}): Promise<GraphQLBody> {
  const response = await fetch(running.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: document, variables }),
  });
  return (await response.json()) as GraphQLBody;
}

async function ready(running: RunningServer): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL('/ready', running.url));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const messages = (lines: Record<string, unknown>[]): string[] => lines.map((line) => String(line['msg']));
const CHAINS = '{ chains { chainId } }';

afterEach(async () => {
  await Promise.all(started.splice(0).map((running) => running.close({ graceMs: 100 })));
});

/** A server answering every request with `status` (a JSON error body), counting what it got. */
async function statusServer(): Promise<{ server: Server; url: string; status: { value: number }; hits: { value: number } }> {
  const status = { value: 401 };
  const hits = { value: 0 };
  const server = createServer((request, response) => {
    hits.value += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(status.value, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ statusCode: status.value, error: 'Refused', message: 'refused by the test server' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, status, hits };
}

describe('connection refused', () => {
  it('names the cause, the origin and DATA_API_URL in the error, the log, the banner and /ready; "not made" only for calls not made', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const { running, lines } = await start({ DATA_API_URL: `${origin}/some/prefix`, BREAKER_FAILURES: '3' });

    const warning = lines.find((line) => String(line['msg']).startsWith('upstream not answering at start'));
    expect(warning).toMatchObject({ upstream: 'data-api', url: origin, cause: 'connection_refused', variable: 'DATA_API_URL' });
    expect(String(warning?.['msg'])).toContain(`The Data API at ${origin} refused the connection (nothing listens there): check DATA_API_URL.`);
    const banner = messages(lines).find((msg) => msg.startsWith('chaingraph '));
    expect(banner).toMatch(/^chaingraph running, but: The Data API at http:\/\/127\.0\.0\.1:\d+ refused the connection/);
    expect(messages(lines)).toContain('no NODE_URLS: node fields answer NODE_NOT_CONFIGURED');
    expect(running.notAnswering).toEqual([expect.objectContaining({ upstream: 'data-api', cause: 'connection_refused', variable: 'DATA_API_URL' })]);
    // Only the origin: never the path of the setting.
    expect(JSON.stringify(lines)).not.toContain('/some/prefix');

    // The start-up probe's failures opened the circuit: this call is not made, and says why the circuit is open.
    const refused = await query(running, CHAINS);
    expect(refused.extensions?.cost?.actualUpstreamCalls).toBe(0);
    expect(refused.errors?.[0]?.message).toMatch(
      new RegExp(`^The Data API is failing \\(connection refused: check DATA_API_URL\\); this call \\(GET /v1/chains\\) was not made while its circuit breaker is open\\. Retry after \\d+ s\\.$`),
    );
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', circuit: 'open', cause: 'connection_refused', variable: 'DATA_API_URL' });

    const notReady = await ready(running);
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({ ready: false, upstream: 'data-api', cause: 'connection_refused', variable: 'DATA_API_URL' });
    // /ready is public: the cause and the setting, not the address (the start-up warning has it).
    expect(String(notReady.body['reason'])).toMatch(/^The Data API is failing \(connection refused: check DATA_API_URL\)/);
    expect(JSON.stringify(notReady.body)).not.toContain(origin);
  });

  it('a call that was made reports its own cause, never "not made"', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const { running, lines } = await start({ DATA_API_URL: origin, BREAKER_FAILURES: '100000' });
    const body = await query(running, CHAINS);
    expect(body.extensions?.cost?.actualUpstreamCalls).toBeGreaterThan(0);
    expect(body.errors?.[0]?.message).toBe(`The Data API refused the connection (nothing listens there): check DATA_API_URL.`);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', cause: 'connection_refused', variable: 'DATA_API_URL' });
    const logged = lines.find((line) => line['msg'] === 'upstream failure');
    expect(logged).toMatchObject({ cause: 'connection_refused', variable: 'DATA_API_URL', upstream: 'data-api' });
  });

  it('a node that refuses names its NODE_URLS entry', async () => {
    const devnet = await startDevnet({});
    try {
      const port = await freePort();
      const { running, lines } = await start({ DATA_API_URL: devnet.url, NODE_URLS: `edge=http://127.0.0.1:${port}`, CURSOR_SECRET: 'x'.repeat(32) });
      expect(lines.find((line) => String(line['msg']).startsWith('upstream not answering at start'))).toMatchObject({ upstream: 'node:edge', cause: 'connection_refused', variable: 'NODE_URLS' });
      const body = await query(running, '{ avalancheNode(name: "edge") { networkId } }');
      const error = body.errors?.[0];
      expect(error?.message).toContain('Node "edge" ');
      expect(error?.message).toContain('check the NODE_URLS entry "edge"');
      expect(error?.extensions).toMatchObject({ cause: 'connection_refused', variable: 'NODE_URLS' });
      // A node is an optional part: /ready follows the Data API, which answers.
      expect((await ready(running)).status).toBe(200);
    } finally {
      await devnet.close();
    }
  });
});

describe('answers that refuse the call', () => {
  let upstream: Awaited<ReturnType<typeof statusServer>>;
  let gateway: Started;
  beforeAll(async () => {
    upstream = await statusServer();
  });
  afterAll(async () => {
    await new Promise((resolve) => upstream.server.close(resolve));
  });

  const cases: [number, string, string, RegExp][] = [
    [401, 'unauthorized', 'DATA_API_KEY', /refused the API key \(401 Unauthorized\): check DATA_API_KEY \(sent in the x-service-api-key header\)/],
    [403, 'forbidden', 'DATA_API_KEY', /refused the API key \(403 Forbidden: not allowed for this call\): check DATA_API_KEY \(sent in the x-service-api-key header\)/],
    [404, 'not_found', 'DATA_API_URL', /answered 404 for GET \/v1\/chains: if it should exist, check DATA_API_URL's path/],
  ];
  for (const [status, cause, variable, words] of cases) {
    it(`${status}: names ${cause} and ${variable}`, async () => {
      upstream.status.value = status;
      gateway = await start({ DATA_API_URL: upstream.url, DATA_API_KEY: SERVER_KEY, CURSOR_SECRET: 'y'.repeat(32) });
      const warning = gateway.lines.find((line) => String(line['msg']).startsWith('upstream not answering at start'));
      expect(warning).toMatchObject({ upstream: 'data-api', url: upstream.url, cause, variable });
      const body = await query(gateway.running, CHAINS);
      const error = body.errors?.[0];
      expect(error?.message).toMatch(/^The Data API /);
      expect(error?.message).toMatch(words);
      expect(error?.extensions).toMatchObject({ cause, variable, upstreamStatus: status });
      const notReady = await ready(gateway.running);
      expect(notReady).toMatchObject({ status: 503, body: { upstream: 'data-api', cause, variable } });
      expect(JSON.stringify([body, notReady, gateway.lines])).not.toContain(SERVER_KEY);
    });
  }

  it('a node answering 401 names its NODE_URLS entry and its credentials', async () => {
    const devnet = await startDevnet({});
    try {
      upstream.status.value = 401;
      const nodeUrl = upstream.url.replace('://', '://rpc:s3cret-pass@');
      gateway = await start({ DATA_API_URL: devnet.url, NODE_URLS: `n1=${nodeUrl}`, CURSOR_SECRET: 'z'.repeat(32) });
      const body = await query(gateway.running, '{ avalancheNode(name: "n1") { networkId } }');
      expect(body.errors?.[0]?.message).toContain(`Node "n1" refused the call (401 Unauthorized): check the NODE_URLS entry "n1" (its user and password).`);
      expect(body.errors?.[0]?.extensions).toMatchObject({ cause: 'unauthorized', variable: 'NODE_URLS' });
      expect(JSON.stringify([body, gateway.lines])).not.toContain('s3cret-pass');
    } finally {
      await devnet.close();
    }
  });
});

describe('DNS, TLS and timeouts', () => {
  it('an unresolvable host: DNS', async () => {
    const { running, lines } = await start({ DATA_API_URL: 'http://chaingraph-nowhere.invalid', BREAKER_FAILURES: '100000', CURSOR_SECRET: 'd'.repeat(32) });
    expect(lines.find((line) => String(line['msg']).startsWith('upstream not answering at start'))).toMatchObject({ cause: 'dns', variable: 'DATA_API_URL' });
    const body = await query(running, CHAINS);
    expect(body.errors?.[0]?.message).toBe('The Data API cannot be reached (DNS: host not found): check DATA_API_URL (its host name).');
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', cause: 'dns', variable: 'DATA_API_URL' });
    expect(await ready(running)).toMatchObject({ status: 503, body: { cause: 'dns', variable: 'DATA_API_URL' } });
  });

  it('a self-signed certificate: TLS', async (context) => {
    const dir = mkdtempSync(join(tmpdir(), 'chaingraph-tls-'));
    let server: HttpsServer | undefined;
    try {
      try {
        execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
          '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
      } catch {
        context.skip();
        return;
      }
      server = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_request, response) => response.end('{}'));
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { running, lines } = await start({ DATA_API_URL: origin, BREAKER_FAILURES: '100000', CURSOR_SECRET: 't'.repeat(32) });
      expect(lines.find((line) => String(line['msg']).startsWith('upstream not answering at start'))).toMatchObject({ url: origin, cause: 'tls', variable: 'DATA_API_URL' });
      const body = await query(running, CHAINS);
      expect(body.errors?.[0]?.message).toMatch(/^The Data API failed the secure connection \(TLS: self[- ]signed certificate\): check DATA_API_URL/);
      expect(body.errors?.[0]?.extensions).toMatchObject({ cause: 'tls', variable: 'DATA_API_URL' });
    } finally {
      server?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a server that never answers: timeout, in the start-up warning, /ready and the error', async () => {
    const held: { end: () => void }[] = [];
    const server = createServer((request, response) => {
      held.push(response);
      request.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { running, lines } = await start({ DATA_API_URL: origin, BREAKER_FAILURES: '100000', CURSOR_SECRET: 'w'.repeat(32) });
      const warning = lines.find((line) => String(line['msg']).startsWith('upstream not answering at start'));
      expect(warning).toMatchObject({ url: origin, cause: 'timeout', variable: 'DATA_API_URL' });
      expect(String(warning?.['msg'])).toContain(`The Data API at ${origin} did not answer within 3 s: check DATA_API_URL`);
      // A query waits the whole deadline (15 s): the same mapping, through the client, with a short one.
      const http = createHttpUpstream({ timeoutMs: 200, breaker: false });
      const client = createDataApiClient({ baseUrl: origin, http });
      const error = await client.listChains({}).then(() => undefined, (thrown: unknown) => thrown);
      await http.close();
      expect(error).toBeInstanceOf(UpstreamError);
      const mapped = upstreamToGraphQLError(error as UpstreamError);
      expect(mapped.message).toBe(`The Data API did not answer within 0.2 s: check DATA_API_URL, and that the gateway can reach it.`);
      expect(mapped.extensions).toMatchObject({ code: 'UPSTREAM_TIMEOUT', cause: 'timeout', variable: 'DATA_API_URL' });
      expect(running.url).toMatch(/^http:/);
    } finally {
      for (const response of held) response.end();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('the built-in devnet and a base URL with /v1', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({});
  });
  afterAll(async () => {
    await devnet.close();
  });

  it('takes a DATA_API_URL ending in /v1, and says plainly that there are no nodes', async () => {
    const { running, lines } = await start({ DATA_API_URL: `${devnet.url}/v1`, CURSOR_SECRET: 'v'.repeat(32) });
    expect(messages(lines)).toContain('no NODE_URLS: node fields answer NODE_NOT_CONFIGURED');
    expect(messages(lines).some((msg) => msg.startsWith('chaingraph ready: GraphiQL at'))).toBe(true);
    expect(lines.some((line) => String(line['msg']).startsWith('upstream not answering at start'))).toBe(false);
    const body = await query(running, CHAINS);
    expect(body.errors).toBeUndefined();
    expect((body.data as { chains: unknown[] }).chains.length).toBeGreaterThan(0);
    const node = await query(running, '{ avalancheNode { networkId } }');
    expect(node.errors?.[0]?.extensions?.['code']).toBe('NODE_NOT_CONFIGURED');
    expect(node.errors?.[0]?.message).toBe('This gateway has no node configured (its operator sets NODE_URLS), so node fields cannot answer here.');
    expect((await ready(running)).status).toBe(200);
  });

  it('signs cursors with the fixed development secret: a cursor survives a restart, and no CURSOR_SECRET warning', async () => {
    const page = '{ latestBlocks(first: 2) { pageInfo { endCursor hasNextPage } edges { node { id } } } }';
    const first = await start({});
    expect(messages(first.lines).some((msg) => msg.startsWith('CURSOR_SECRET is not set'))).toBe(false);
    const one = await query(first.running, page);
    expect(one.errors).toBeUndefined();
    const cursor = (one.data as { latestBlocks: { pageInfo: { endCursor: string } } }).latestBlocks.pageInfo.endCursor;
    await first.running.close({ graceMs: 100 });
    started.splice(started.indexOf(first.running), 1);

    const second = await start({});
    const next = await query(second.running, 'query ($after: String) { latestBlocks(first: 2, after: $after) { edges { node { id } } } }', { after: cursor });
    expect(next.errors).toBeUndefined();
    expect((next.data as { latestBlocks: { edges: unknown[] } }).latestBlocks.edges.length).toBe(2);
  });

  it('id, cursor and node-name errors say what to do next', async () => {
    const page = '{ latestBlocks(first: 2) { pageInfo { endCursor } } }';
    const devnetGateway = await start({});
    const cursor = ((await query(devnetGateway.running, page)).data as { latestBlocks: { pageInfo: { endCursor: string } } }).latestBlocks.pageInfo.endCursor;

    const badId = await query(devnetGateway.running, '{ node(id: "bm90LWFuLWlk") { id } }');
    expect(badId.errors?.[0]?.message).toBe('Invalid argument "id": This id is not one chaingraph issued: take ids from a response\'s `id` field and pass them unchanged.');
    const cut = await query(devnetGateway.running, 'query ($after: String) { latestBlocks(first: 2, after: $after) { edges { cursor } } }', { after: cursor.slice(0, -3) });
    expect(cut.errors?.[0]?.message).toMatch(/^Invalid argument "after": This cursor is not one chaingraph issued, or it was cut short: pass `pageInfo.endCursor` .*omit `after` to start from the first page\.$/);
    const otherArgs = await query(devnetGateway.running, 'query ($after: String) { latestBlocks(first: 2, after: $after, network: TESTNET) { edges { cursor } } }', { after: cursor });
    expect(otherArgs.errors?.[0]?.message).toMatch(/pass the same arguments that produced it, or omit `after` to start from the first page/);
    const unknownNode = await query(devnetGateway.running, '{ avalancheNode(name: "nope") { networkId } }');
    expect(unknownNode.errors?.[0]?.message).toBe('No node named "nope" is configured: use one of "mainnet", "fuji", or omit the name for the first (`avalancheNodes` lists them).');
    expect(unknownNode.errors?.[0]?.extensions).toMatchObject({ code: 'NODE_NOT_CONFIGURED', configured: ['mainnet', 'fuji'] });

    // Another secret: the cursor is genuine, but not this server's.
    const other = await start({ DATA_API_URL: devnet.url, CURSOR_SECRET: 'o'.repeat(32) });
    const foreign = await query(other.running, 'query ($after: String) { latestBlocks(first: 2, after: $after) { edges { cursor } } }', { after: cursor });
    expect(foreign.errors?.[0]?.message).toMatch(/^Invalid argument "after": This cursor was changed, or signed by another server or with a secret this one no longer holds .*: pass `pageInfo.endCursor` .* unchanged from a page this server answered, or omit `after` to start from the first page\.$/);
  });

  it('warns about CURSOR_SECRET only with real upstreams', async () => {
    const { lines } = await start({ DATA_API_URL: devnet.url });
    expect(messages(lines).some((msg) => msg.startsWith('CURSOR_SECRET is not set'))).toBe(true);
  });
});

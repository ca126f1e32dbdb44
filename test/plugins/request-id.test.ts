import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config.ts';
import { createAdmissionGate } from '../../src/gateway/plugins/use-admission-control.ts';
import { createRequestIds, isRequestId, MAX_REQUEST_ID_LENGTH } from '../../src/gateway/plugins/use-request-id.ts';
import { startServer } from '../../src/server/server.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const VALIDATORS = 'query Validators { network(name: MAINNET) { validators(first: 2) { edges { node { nodeId } } } } }';
const NODE_VERSION = 'query NodeVersion { avalancheNode(name: "fuji") { version { version } } }';

describe('isRequestId', () => {
  it.each([
    ['a UUID', '3f1c2b4e-9d0a-4c55-8e21-7a6b5c4d3e2f', true],
    ['a hex trace id', '4bf92f3577b34da6a3ce929d0e0e4736', true],
    ['a service:counter id', 'web-frontend:000123', true],
    ['dots and underscores', 'req_1.2', true],
    [`${MAX_REQUEST_ID_LENGTH} characters`, 'a'.repeat(MAX_REQUEST_ID_LENGTH), true],
    ['empty', '', false],
    [`${MAX_REQUEST_ID_LENGTH + 1} characters`, 'a'.repeat(MAX_REQUEST_ID_LENGTH + 1), false],
    ['a space', 'a b', false],
    ['two ids joined by a comma', 'a,b', false],
    ['a slash', 'a/b', false],
    ['a quote', 'a"b', false],
    ['a newline (log injection)', 'a\nlevel=error', false],
    ['non-ASCII', 'idé', false],
    ['markup', '<script>', false],
  ])('%s: %s', (_what, value, expected) => {
    expect(isRequestId(value)).toBe(expected);
  });

  it('a request keeps the caller\'s id exactly when it is well-formed, else gets a fresh UUID (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.stringMatching(/^[A-Za-z0-9._:-]{1,140}$/)), (sent) => {
        let request: Request;
        try {
          request = new Request('http://chaingraph.test/graphql', { headers: { 'x-request-id': sent } });
        } catch {
          return; // not a header value at all: never reaches the gateway
        }
        const ids = createRequestIds();
        const id = ids.of(request);
        expect(isRequestId(id)).toBe(true);
        expect(ids.of(request)).toBe(id);
        // Headers trim surrounding whitespace: what the gateway sees is the trimmed value.
        const seen = request.headers.get('x-request-id') ?? '';
        if (isRequestId(seen)) expect(id).toBe(seen);
        else expect(id).toMatch(UUID);
      }),
    );
  });
});

describe('request ids through the gateway', () => {
  let stack: TestStack;
  const gate = createAdmissionGate({ maxConcurrent: 4, maxQueued: 0 });

  beforeAll(async () => {
    stack = await startStack({ gateway: { admission: gate, requestLimits: { maxBodyBytes: 2048 } } });
    // The gateway learns each node's network in the background at start, outside any request: let that finish.
    await stack.query('{ a: avalancheNode(name: "mainnet") { networkName } b: avalancheNode(name: "fuji") { networkName } }');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const post = (query: string, headers: Record<string, string> = {}, body?: string) =>
    stack.gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: body ?? JSON.stringify({ query }),
    });

  it('echoes a well-formed id and sends it on every Data API and node call of the request', async () => {
    stack.devnet.resetStats();
    const response = await post(`{ ${VALIDATORS.slice(VALIDATORS.indexOf('{') + 1, -1)} ${NODE_VERSION.slice(NODE_VERSION.indexOf('{') + 1, -1)} }`, {
      'x-request-id': 'frontend:checkout-42',
    });
    expect(response.headers.get('x-request-id')).toBe('frontend:checkout-42');
    expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
    const log = stack.devnet.requestLog();
    expect(log.some((entry) => entry.route.includes('validators'))).toBe(true);
    expect(log.some((entry) => entry.route.includes('info.getNodeVersion') || entry.route.includes('/ext/info'))).toBe(true);
    expect(log.length).toBeGreaterThanOrEqual(2);
    for (const entry of log) expect(entry.requestId).toBe('frontend:checkout-42');
  });

  it.each([
    ['too long', 'x'.repeat(129)],
    ['with a space', 'a b'],
    ['two ids joined', 'one,two'],
    ['with a slash', '../etc'],
  ])('replaces an id %s with a generated one, and sends that one upstream', async (_what, bad) => {
    stack.devnet.resetStats();
    const response = await post(VALIDATORS, { 'x-request-id': bad });
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    await response.text();
    const log = stack.devnet.requestLog();
    expect(log.length).toBeGreaterThan(0);
    for (const entry of log) expect(entry.requestId).toBe(id);
  });

  it('generates a distinct id for each request that sends none', async () => {
    const ids = new Set<string | null>();
    for (let i = 0; i < 5; i++) {
      const response = await post('{ avalancheNodes { name } }');
      await response.text();
      ids.add(response.headers.get('x-request-id'));
    }
    expect(ids.size).toBe(5);
    for (const id of ids) expect(id).toMatch(UUID);
  });

  it('returns the id on edge refusals, health, readiness and metrics', async () => {
    const sent = { 'x-request-id': 'edge-1' };
    const tooBig = await post('', sent, JSON.stringify({ query: `{ __typename } # ${'x'.repeat(4096)}` }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.headers.get('x-request-id')).toBe('edge-1');
    const badType = await stack.gateway.fetch('http://chaingraph.test/graphql', { method: 'POST', headers: { 'content-type': 'text/plain', ...sent }, body: 'x' });
    expect(badType.status).toBe(415);
    expect(badType.headers.get('x-request-id')).toBe('edge-1');
    const releases = await Promise.all([gate.acquire(), gate.acquire(), gate.acquire(), gate.acquire()]);
    try {
      const busy = await post('{ avalancheNodes { name } }', sent);
      expect(busy.status).toBe(503);
      expect(busy.headers.get('x-request-id')).toBe('edge-1');
    } finally {
      for (const release of releases) release?.();
    }
    for (const path of ['/health', '/ready', '/metrics', '/nope']) {
      const response = await stack.gateway.fetch(`http://chaingraph.test${path}`, { headers: sent });
      await response.text();
      expect([path, response.headers.get('x-request-id')]).toEqual([path, 'edge-1']);
    }
  });
});

describe('log lines of a request carry its id (npm start wiring, real socket)', () => {
  it('the upstream-failure warning of a request is logged with its request id', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const config = { ...configFromEnv({ PORT: '0', HOST: '127.0.0.1', CACHE: 'off' }) };
    const running = await startServer(config, pino({ level: 'debug' }, stream));
    try {
      expect(running.devnet).toBeDefined();
      // Only the validators route fails: the nodes' start-up lookups must not take the faults.
      running.devnet?.setChaos({ failNext: 3, faultStatus: 503, routeFilter: 'validators' });
      const response = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'soak-7:trace' },
        body: JSON.stringify({ query: VALIDATORS }),
      });
      expect(response.headers.get('x-request-id')).toBe('soak-7:trace');
      const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      expect(body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
      const failure = lines.find((line) => line['msg'] === 'upstream failure');
      expect(failure).toMatchObject({ requestId: 'soak-7:trace', code: 'UPSTREAM_UNAVAILABLE', upstream: 'data-api' });
      // Another request's lines carry their own id, never this one's (yoga's own debug lines included).
      const before = lines.length;
      const other = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'other-8' },
        body: JSON.stringify({ query: '{ avalancheNode(name: "nope") { name } }' }),
      });
      await other.text();
      expect(lines.slice(0, before).filter((line) => line['requestId'] !== undefined).every((line) => line['requestId'] === 'soak-7:trace')).toBe(true);
      const otherLines = lines.slice(before).filter((line) => line['requestId'] !== undefined);
      expect(otherLines.length).toBeGreaterThan(0);
      expect(otherLines.every((line) => line['requestId'] === 'other-8')).toBe(true);
      // The real server serves /metrics too.
      const metrics = await fetch(running.url.replace(/\/graphql$/, '/metrics'));
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/chaingraph_upstream_requests_total\{upstream="data-api",route="GET \/v1\/networks\/\{network\}\/validators",status="503"\} 3/);
    } finally {
      await running.close();
    }
  });
});

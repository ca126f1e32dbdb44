import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config.ts';
import { addressBlock, addressClient, createRateLimiter } from '../../src/gateway/plugins/use-rate-limit.ts';
import { createClientIdentity } from '../../src/gateway/plugins/client-identity.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

const QUERY = JSON.stringify({ query: '{ chains { chainId } }' });

describe('the token buckets', () => {
  it('grants a burst, then one request per 1/rps, and says how long to wait', () => {
    let now = 0;
    const limiter = createRateLimiter({ rps: 2, burst: 3, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(500);
    now = 499;
    expect(limiter.take('a')).toBeGreaterThan(0);
    now = 500;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(500);
    // Another client has its own bucket.
    expect(limiter.take('b')).toBe(0);
  });

  it('never grants more than burst + rps × elapsed over any run of requests (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 50, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 300 }),
        (rps, burst, gaps) => {
          let now = 0;
          const limiter = createRateLimiter({ rps, burst, now: () => now });
          let granted = 0;
          for (const gap of gaps) {
            now += gap;
            if (limiter.take('c') === 0) granted += 1;
          }
          return granted <= burst + (rps * now) / 1000 + 1e-9;
        },
      ),
    );
  });

  it('after a quiet period a client gets its whole burst back (property: refusal only while the bucket is empty)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 10 }), (rps, burst) => {
        let now = 0;
        const limiter = createRateLimiter({ rps, burst, now: () => now });
        for (let i = 0; i < burst; i += 1) if (limiter.take('d') !== 0) return false;
        if (limiter.take('d') === 0) return false;
        now += (burst / rps) * 1000 + 1;
        for (let i = 0; i < burst; i += 1) if (limiter.take('d') !== 0) return false;
        return true;
      }),
    );
  });

  it('tracks at most maxClients, whatever the number of callers', () => {
    const limiter = createRateLimiter({ rps: 1, burst: 1, maxClients: 100, now: () => 0 });
    for (let i = 0; i < 5_000; i += 1) limiter.take(`client-${i}`);
    expect(limiter.size()).toBe(100);
  });

  it('refuses nonsense settings', () => {
    expect(() => createRateLimiter({ rps: 0 })).toThrow(/RATE_LIMIT_RPS/);
    expect(() => createRateLimiter({ rps: 1, burst: 0 })).toThrow(/RATE_LIMIT_BURST/);
  });
});

describe('who a client is', () => {
  const request = (headers: Record<string, string> = {}): Request => new Request('http://gw.test/graphql', { headers });

  it('an API key once the Data API accepted it, as a digest; before that, or malformed, the address', () => {
    const identity = createClientIdentity();
    const accepted = (key: string) => identity.answered(key, { upstream: 'data-api', operation: 'GET /v1/chains', status: 200 });
    const keyed = (key: string, header = 'x-service-api-key') => request({ [header]: key });
    expect(identity.clientOf(keyed('team-a-key'), '10.0.0.1')).toBe('addr:10.0.0.1');
    accepted('team-a-key');
    accepted('team-b-key');
    const a = identity.clientOf(keyed('team-a-key'), '10.0.0.1');
    expect(a).toMatch(/^key:[A-Za-z0-9_-]{22}$/);
    expect(a).not.toContain('team-a-key');
    expect(a).not.toBe(identity.clientOf(keyed('team-b-key'), '10.0.0.1'));
    expect(identity.clientOf(keyed('bad key, two'), '10.0.0.1')).toBe('addr:10.0.0.1');
    const other = createClientIdentity({ apiKeyHeader: 'x-other' });
    other.answered('k', { upstream: 'data-api', operation: 'GET /v1/chains', status: 200 });
    expect(other.clientOf(keyed('k', 'x-other'), '10.0.0.1')).toMatch(/^key:/);
  });

  it('ignores x-forwarded-for unless proxies are trusted, and then believes only the trusted hops', () => {
    const spoofed = request({ 'x-forwarded-for': '6.6.6.6, 203.0.113.7' });
    expect(addressClient(spoofed, '10.0.0.1')).toBe('addr:10.0.0.1');
    expect(addressClient(spoofed, '10.0.0.1', 1)).toBe('addr:203.0.113.7');
    expect(addressClient(spoofed, '10.0.0.1', 2)).toBe('addr:6.6.6.6');
    expect(addressClient(request({ 'x-forwarded-for': '203.0.113.7:4431' }), '10.0.0.1', 1)).toBe('addr:203.0.113.7');
    expect(addressClient(request({ 'x-forwarded-for': 'not-an-address' }), '10.0.0.1', 1)).toBe('addr:10.0.0.1');
    expect(addressClient(request(), undefined)).toBe('addr:unknown');
    expect(createClientIdentity({ trustProxy: 1 }).clientOf(spoofed, '10.0.0.1')).toBe('addr:203.0.113.7');
  });

  it('counts IPv6 per /64 and IPv4-mapped addresses as IPv4', () => {
    expect(addressBlock('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('::1')).toBe('0:0:0:0::/64');
    expect(addressBlock('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressBlock('192.0.2.1')).toBe('192.0.2.1');
  });

  it('any two addresses in one /64 are one client (property)', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.array(group, { minLength: 4, maxLength: 4 }), (a, tail) => {
        const other = [...a.slice(0, 4), ...tail];
        return addressBlock(a.join(':')) === addressBlock(other.join(':'));
      }),
    );
  });
});

describe('useRateLimit in the gateway', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // A clock that stands still: however slow the machine, no bucket refills during a test.
    stack = await startStack({ gateway: { rateLimit: { rps: 0.5, burst: 2, now: () => 0 }, graphiql: true } });
  });
  afterAll(async () => {
    await stack.close();
  });

  const post = (address: string, headers: Record<string, string> = {}, body = QUERY): Promise<Response> =>
    Promise.resolve(
      stack.gateway.fetch(
        'http://chaingraph.test/graphql',
        { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body },
        { req: { socket: { remoteAddress: address } } },
      ),
    );

  it('answers 429 RATE_LIMITED with Retry-After past the burst, before any upstream call; other clients are not affected', async () => {
    expect((await post('198.51.100.1')).status).toBe(200);
    expect((await post('198.51.100.1')).status).toBe(200);
    stack.devnet.resetStats();
    const refused = await post('198.51.100.1');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({
      errors: [{ message: expect.stringContaining('Too many requests') as unknown, extensions: { code: 'RATE_LIMITED', retryAfter: 2 } }],
    });
    expect(stack.upstreamRequests()).toBe(0);
    // A second client has its own bucket; behind the limited address, a key nobody verified counts against it.
    expect((await post('198.51.100.2')).status).toBe(200);
    expect((await post('198.51.100.1', { 'x-service-api-key': 'team-b' })).status).toBe(429);
    // Once the Data API accepted the key (its first request, from elsewhere), it has its own bucket behind that address too.
    expect((await post('198.51.100.5', { 'x-service-api-key': 'team-b' })).status).toBe(200);
    expect((await post('198.51.100.1', { 'x-service-api-key': 'team-b' })).status).toBe(200);
  });

  it('refuses before the body is read: an oversized body from a limited client is a 429, not a 413', async () => {
    await post('198.51.100.3');
    await post('198.51.100.3');
    const response = await post('198.51.100.3', {}, JSON.stringify({ query: `{ chains { chainId } } #${'x'.repeat(2 * 1024 * 1024)}` }));
    expect(response.status).toBe(429);
  });

  it('never limits /health, /ready or the GraphiQL page', async () => {
    for (let i = 0; i < 3; i += 1) await post('198.51.100.4');
    const context = { req: { socket: { remoteAddress: '198.51.100.4' } } };
    for (let i = 0; i < 5; i += 1) {
      expect((await stack.gateway.fetch('http://chaingraph.test/health', {}, context)).status).toBe(200);
      expect((await stack.gateway.fetch('http://chaingraph.test/ready', {}, context)).status).toBe(200);
      expect((await stack.gateway.fetch('http://chaingraph.test/graphql', { headers: { accept: 'text/html' } }, context)).status).toBe(200);
    }
    expect((await post('198.51.100.4')).status).toBe(429);
  });
});

describe('over real sockets (npm start with RATE_LIMIT_RPS)', () => {
  let running: RunningServer;
  beforeAll(async () => {
    // One token per 100 s: no bucket refills while the test runs, however slow the machine.
    running = await startServer({ ...configFromEnv({ RATE_LIMIT_RPS: '0.01', RATE_LIMIT_BURST: '2' }), port: 0 }, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await running.close();
  });

  const send = (headers: Record<string, string> = {}): Promise<Response> =>
    fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: QUERY });

  it('limits by the socket address, and separately by an API key the Data API accepted', async () => {
    // The key's first request counts against the address (nobody verified it yet); its answer (2xx) verifies it.
    expect((await send({ 'x-service-api-key': 'team-a' })).status).toBe(200);
    const keyed = [];
    for (let i = 0; i < 3; i += 1) keyed.push((await send({ 'x-service-api-key': 'team-a' })).status);
    expect(keyed).toEqual([200, 200, 429]);
    const statuses = [];
    for (let i = 0; i < 2; i += 1) statuses.push((await send()).status);
    expect(statuses).toEqual([200, 429]);
    // A key nobody verified is the address's.
    expect((await send({ 'x-service-api-key': 'team-made-up' })).status).toBe(429);
  });

  it('is off unless RATE_LIMIT_RPS is set', () => {
    expect(configFromEnv({}).protection.rateLimitRps).toBeUndefined();
    expect(configFromEnv({ RATE_LIMIT_RPS: '0' }).protection.rateLimitRps).toBeUndefined();
    expect(() => configFromEnv({ RATE_LIMIT_RPS: '-1' })).toThrow(/RATE_LIMIT_RPS/);
    expect(configFromEnv({ RATE_LIMIT_RPS: '5' }).protection).toMatchObject({ rateLimitRps: 5, rateLimitMaxClients: 10_000, trustProxy: 0 });
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { upstreamToGraphQLError } from '../../src/errors/graphql.ts';
import { breakerVerdict, createBreakers, type BreakerStateChange } from '../../src/upstream/breaker.ts';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { UpstreamError, type UpstreamErrorKind } from '../../src/upstream/errors.ts';
import { createHttpUpstream, type HttpUpstream, type HttpUpstreamOptions } from '../../src/upstream/http.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';
import pino from 'pino';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer } from '../../src/server/server.ts';
import { settlesAtOnce } from '../helpers/at-once.ts';
import { startStack } from '../helpers/stack.ts';

const CHAINS = 'GET /v1/chains';
const MISSING_TX = `0x${'ab'.repeat(32)}`;

let devnet: Devnet;
const owned: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ validators: 50 });
});
afterAll(async () => {
  await devnet.close();
});
beforeEach(() => {
  devnet.resetStats();
});
afterEach(async () => {
  devnet.resetChaos();
  await Promise.all(owned.splice(0).map((c) => c.close()));
});

/** A Data API client on its own policy: a 100 ms deadline against a devnet that may be made to stall. */
function client(options: HttpUpstreamOptions = {}): { api: DataApiClient; http: HttpUpstream; changes: BreakerStateChange[] } {
  const changes: BreakerStateChange[] = [];
  // Short enough to open the circuit quickly against the 2 s stall, long enough that a healthy answer
  // never times out on a loaded CI machine.
  const http = createHttpUpstream({
    timeoutMs: 500,
    retries: 0,
    retryBaseDelayMs: 1,
    breaker: { failures: 3, halfOpenAfterMs: 400, onStateChange: (change) => changes.push(change) },
    ...options,
  });
  owned.push(http);
  return { api: createDataApiClient({ baseUrl: devnet.url, http }), http, changes };
}

async function rejection(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamError);
    return error as UpstreamError;
  }
  throw new Error('expected the call to fail');
}

/** Stalls the Data API and spends `n` timeouts on it. */
async function openWithTimeouts(api: DataApiClient, n: number): Promise<void> {
  devnet.setChaos({ latencyMs: 2_000 });
  for (let i = 0; i < n; i += 1) expect((await rejection(api.listChains())).kind).toBe('timeout');
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('what moves the breaker', () => {
  const kinds: UpstreamErrorKind[] = ['http', 'rpc', 'timeout', 'aborted', 'network', 'protocol', 'input', 'budget', 'circuit', 'throttled'];
  const error = (kind: UpstreamErrorKind, status?: number, cause?: unknown): UpstreamError =>
    new UpstreamError('x', { upstream: 'data-api', kind, operation: CHAINS, ...(status !== undefined ? { status } : {}), cause });

  it.each([
    ['timeout', undefined, 'failure'],
    ['network', undefined, 'failure'],
    ['protocol', undefined, 'failure'],
    ['rpc', 200, 'answer'],
    ['aborted', undefined, 'neutral'],
    ['input', undefined, 'neutral'],
    ['budget', undefined, 'neutral'],
    ['circuit', undefined, 'neutral'],
    ['throttled', undefined, 'neutral'],
    ['http', 429, 'neutral'],
    ['http', 404, 'answer'],
    ['http', 400, 'answer'],
    ['http', 401, 'answer'],
    ['http', 503, 'failure'],
  ] as const)('%s %s is %s', (kind, status, verdict) => {
    expect(breakerVerdict(error(kind, status))).toBe(verdict);
  });

  it('a response too large for us is the caller\'s, not a failure', () => {
    expect(breakerVerdict(error('protocol', 200, Object.assign(new Error('big'), { code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' })))).toBe('neutral');
  });

  it('every 5xx is a failure, every other 4xx but 429 an answer (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 599 }), (status) => {
        const verdict = breakerVerdict(error('http', status));
        if (status >= 500) return verdict === 'failure';
        return verdict === (status === 429 ? 'neutral' : 'answer');
      }),
    );
  });

  it('no kind a caller controls without the upstream (input, budget, aborted) is a failure', () => {
    for (const kind of kinds) {
      if (kind === 'timeout' || kind === 'network' || kind === 'protocol' || kind === 'http') continue;
      expect(breakerVerdict(error(kind, 200)), kind).not.toBe('failure');
    }
  });

  it('opens exactly after N consecutive failures; answers reset the count, neutral outcomes leave it (model, property)', async () => {
    type Outcome = 'ok' | 'answer' | 'failure' | 'neutral';
    const thrownFor: Record<Exclude<Outcome, 'ok'>, UpstreamError> = { answer: error('http', 404), failure: error('timeout'), neutral: error('aborted') };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(fc.constantFrom<Outcome>('ok', 'answer', 'failure', 'neutral'), { maxLength: 60 }), async (n, outcomes) => {
        const breakers = createBreakers({ failures: n, halfOpenAfterMs: 60_000 });
        let streak = 0;
        let open = false;
        for (const outcome of outcomes) {
          let sent = false;
          const attempt = async (): Promise<string> => {
            sent = true;
            if (outcome === 'ok') return 'ok';
            throw thrownFor[outcome];
          };
          const result = await breakers.run('data-api', CHAINS, 0, attempt, (thrown) => (thrown instanceof UpstreamError ? thrown : undefined)).then(
            (value) => value,
            (thrown: unknown) => thrown,
          );
          if (open) {
            // Open: refused at once, nothing sent.
            if (sent || !(result instanceof UpstreamError) || result.kind !== 'circuit') return false;
            continue;
          }
          // Closed: the attempt ran and its own outcome came back unchanged.
          if (!sent) return false;
          if (outcome === 'ok' ? result !== 'ok' : result !== thrownFor[outcome]) return false;
          if (outcome === 'failure') streak += 1;
          else if (outcome !== 'neutral') streak = 0;
          if (streak >= n) open = true;
          if (breakers.states()[0]?.state !== (open ? 'open' : 'closed')) return false;
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it('refuses nonsense settings', () => {
    expect(() => createBreakers({ failures: 0 })).toThrow(/failures/);
    expect(() => createBreakers({ halfOpenAfterMs: -1 })).toThrow(/half-open/);
  });
});

describe('a stalled Data API', () => {
  it('opens after N timeouts; then answers UPSTREAM_UNAVAILABLE at once without sending anything', async () => {
    const { api, http, changes } = client();
    await openWithTimeouts(api, 3);
    expect(http.breakers()).toEqual([{ upstream: 'data-api', state: 'open', openings: 1 }]);
    expect(changes).toEqual([{ upstream: 'data-api', state: 'open', previous: 'closed' }]);
    const sent = devnet.stats().requests;

    for (let i = 0; i < 20; i += 1) {
      const call = api.listChains();
      // At once: refused in the turn it was made, waiting on no timer and no upstream.
      expect(await settlesAtOnce(call)).toBe(true);
      const error = await rejection(call);
      expect(error).toMatchObject({ kind: 'circuit', upstream: 'data-api', operation: CHAINS, attempts: 0 });
      expect(error.retryAfter).toBeGreaterThanOrEqual(1);
    }
    expect(devnet.stats().requests).toBe(sent);

    const graphql = upstreamToGraphQLError(await rejection(api.listChains()));
    expect(graphql.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', circuit: 'open', upstream: 'data-api', retryAfter: 1 });
  });

  it('half-opens after the delay, sends one probe, and closes when it succeeds', async () => {
    const { api, http, changes } = client();
    await openWithTimeouts(api, 3);
    const healed = performance.now();
    devnet.setChaos({ latencyMs: 0 });
    // Still open until the delay: nothing sent.
    expect((await rejection(api.listChains())).kind).toBe('circuit');
    let answered = 0;
    while (performance.now() - healed < 3_000) {
      try {
        await api.listChains();
        answered = performance.now() - healed;
        break;
      } catch (error) {
        expect((error as UpstreamError).kind).toBe('circuit');
        await sleep(20);
      }
    }
    console.info(`breaker recovery: first answer ${answered.toFixed(0)} ms after the upstream healed (half-open delay 400 ms)`);
    expect(answered).toBeGreaterThanOrEqual(350);
    expect(http.breakers()[0]).toMatchObject({ state: 'closed', openings: 1 });
    expect(changes.map((c) => c.state)).toEqual(['open', 'half-open', 'closed']);
    await api.listChains();
  });

  it('lets exactly one probe through while half-open; the others are refused without waiting on it', async () => {
    const { api, http } = client({ timeoutMs: 1_000 });
    await openWithTimeouts(api, 3);
    devnet.setChaos({ latencyMs: 200 });
    await sleep(450);
    const before = devnet.stats().requests;
    const probe = api.listChains();
    const others = Array.from({ length: 10 }, () => api.listChains());
    // Refused in the turn they were made: none waits on the probe (still 200 ms from its answer) or a timer.
    expect(await Promise.all(others.map(settlesAtOnce))).toEqual(others.map(() => true));
    for (const error of await Promise.all(others.map(rejection))) expect(error.kind).toBe('circuit');
    expect(http.breakers()[0]?.state).toBe('half-open');
    await probe;
    expect(devnet.stats().requests - before).toBe(1);
    expect(http.breakers()[0]?.state).toBe('closed');
  });

  it('opens again when the probe fails, for another period', async () => {
    const { api, http } = client();
    await openWithTimeouts(api, 3);
    await sleep(450);
    expect((await rejection(api.listChains())).kind).toBe('timeout');
    expect(http.breakers()[0]).toMatchObject({ state: 'open', openings: 2 });
    const sent = devnet.stats().requests;
    expect((await rejection(api.listChains())).kind).toBe('circuit');
    expect(devnet.stats().requests).toBe(sent);
  });

  it('never retries while open: the retry loop stops at the breaker', async () => {
    const { api } = client({ retries: 5, timeoutMs: 5_000 });
    devnet.setChaos({ failNext: 100, routeFilter: CHAINS });
    const error = await rejection(api.listChains());
    // Three 503s open the circuit; the fourth attempt is refused before it is sent, and the call reports
    // the failure it met (it was made), not the refusal.
    expect(devnet.stats().byRoute[CHAINS]).toBe(3);
    expect(error).toMatchObject({ kind: 'http', status: 503, attempts: 3 });
    // The next call is not made at all: the refusal names the failure that keeps the circuit open.
    const refused = await rejection(api.listChains());
    expect(devnet.stats().byRoute[CHAINS]).toBe(3);
    expect(refused).toMatchObject({ kind: 'circuit', attempts: 0, openedBy: { kind: 'http', status: 503, failure: 'server_error' } });
  });
});

describe('what does not open it', () => {
  it('caller mistakes (4xx) never open it, and an answer resets the count of failures', async () => {
    const { api, http } = client({ timeoutMs: 5_000 });
    for (let i = 0; i < 10; i += 1) expect((await rejection(api.getTransaction('43114', MISSING_TX))).status).toBe(404);
    expect(http.breakers()[0]?.state).toBe('closed');
    devnet.setChaos({ failNext: 2, routeFilter: CHAINS });
    await rejection(api.listChains());
    await rejection(api.listChains());
    await rejection(api.getTransaction('43114', MISSING_TX));
    devnet.setChaos({ failNext: 2, routeFilter: CHAINS });
    await rejection(api.listChains());
    await rejection(api.listChains());
    expect(http.breakers()[0]?.state).toBe('closed');
  });

  it('callers that go away never open it', async () => {
    const { api, http } = client({ timeoutMs: 5_000 });
    devnet.setChaos({ latencyMs: 2_000 });
    for (let i = 0; i < 8; i += 1) {
      const error = await rejection(api.listChains({}, { signal: AbortSignal.timeout(20) }));
      expect(error.kind).toBe('aborted');
    }
    expect(http.breakers()[0]?.state).toBe('closed');
  });

  it('429 quota answers do not open it', async () => {
    const { api, http } = client({ timeoutMs: 5_000 });
    devnet.setChaos({ failNext: 10, faultStatus: 429, routeFilter: CHAINS });
    for (let i = 0; i < 10; i += 1) expect((await rejection(api.listChains())).status).toBe(429);
    expect(http.breakers()[0]?.state).toBe('closed');
  });
});

describe('one breaker per upstream', () => {
  it('a dead node opens its own circuit; the other node and the Data API keep answering', async () => {
    const http = createHttpUpstream({ timeoutMs: 500, retries: 0, breaker: { failures: 3, halfOpenAfterMs: 10_000 } });
    owned.push(http);
    const dead = createNodeClient({ name: 'dead', url: `http://127.0.0.1:${await closedPort()}`, http });
    const alive = createNodeClient({ name: 'fuji', url: devnet.nodeUrls['fuji']!, http });
    const api = createDataApiClient({ baseUrl: devnet.url, http });
    for (let i = 0; i < 3; i += 1) expect((await rejection(dead.call('info.getNodeVersion'))).kind).toBe('network');
    expect((await rejection(dead.call('info.getNodeVersion'))).kind).toBe('circuit');
    await alive.call('info.getNodeVersion');
    await api.listChains();
    expect(Object.fromEntries(http.breakers().map((b) => [b.upstream, b.state]))).toEqual({ 'node:dead': 'open', 'node:fuji': 'closed', 'data-api': 'closed' });
  });

  it('a health GET answering 503 with a report is an answer, not a failure', async () => {
    const http = createHttpUpstream({ timeoutMs: 500, retries: 0, breaker: { failures: 1, halfOpenAfterMs: 10_000 } });
    owned.push(http);
    const server = createServer((_, res) => {
      res.statusCode = 503;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ checks: {}, healthy: false }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    owned.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const node = createNodeClient({ name: 'sick', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, http });
    for (let i = 0; i < 3; i += 1) expect((await node.healthGet('health')).status).toBe(503);
    expect(http.breakers()).toEqual([{ upstream: 'node:sick', state: 'closed', openings: 0 }]);
  });
});

describe('through the gateway', () => {
  it('a query to an open circuit answers UPSTREAM_UNAVAILABLE with circuit "open" and retryAfter, fast', async () => {
    const stack = await startStack();
    const http = createHttpUpstream({ timeoutMs: 100, retries: 0, breaker: { failures: 2, halfOpenAfterMs: 10_000 } });
    owned.push(http, stack);
    const { createGateway } = await import('../../src/gateway/gateway.ts');
    const gateway = createGateway({ graphiql: false }, { dataApi: createDataApiClient({ baseUrl: stack.devnet.url, http }), nodes: [] });
    const ask = async (): Promise<{ errors?: { extensions?: Record<string, unknown> }[] }> => {
      const response = await gateway.fetch('http://chaingraph.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ chains { chainId } }' }),
      });
      return (await response.json()) as { errors?: { extensions?: Record<string, unknown> }[] };
    };
    stack.devnet.setChaos({ latencyMs: 1_000 });
    for (let i = 0; i < 2; i += 1) expect((await ask()).errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_TIMEOUT');
    const sent = stack.devnet.stats().requests;
    const answer = ask();
    // The whole GraphQL request answers in the turn it was made: nothing in it waits on a timer or the upstream.
    expect(await settlesAtOnce(answer)).toBe(true);
    const value = await answer;
    expect(value.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', circuit: 'open', upstream: 'data-api', retryAfter: 10 });
    expect(stack.devnet.stats().requests).toBe(sent);
    await gateway.dispose();
  });
});

describe('the server', () => {
  it('reads BREAKER_FAILURES and BREAKER_HALF_OPEN_MS, with defaults 5 and 10000', () => {
    expect(configFromEnv({}).protection).toMatchObject({ breakerFailures: 5, breakerHalfOpenMs: 10_000 });
    expect(configFromEnv({ BREAKER_FAILURES: '3', BREAKER_HALF_OPEN_MS: '500' }).protection).toMatchObject({ breakerFailures: 3, breakerHalfOpenMs: 500 });
    expect(() => configFromEnv({ BREAKER_FAILURES: '0' })).toThrow(/BREAKER_FAILURES/);
    expect(() => configFromEnv({ UPSTREAM_MAX_RPS: '2.5' })).toThrow(/UPSTREAM_MAX_RPS/);
    expect(configFromEnv({ UPSTREAM_MAX_RPS: '0' }).protection.upstreamMaxRps).toBeUndefined();
  });

  it('shares one breaker set among its clients and reports it on /metrics', async () => {
    const running = await startServer({ ...configFromEnv({ CACHE: 'off' }), port: 0 }, pino({ level: 'silent' }));
    try {
      const response = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ chains { chainId } }' }) });
      expect(response.status).toBe(200);
      const metrics = await (await fetch(running.url.replace('/graphql', '/metrics'))).text();
      expect(metrics).toMatch(/chaingraph_upstream_breaker_state\{upstream="data-api",state="closed"\} 1/);
      expect(metrics).toMatch(/chaingraph_upstream_breaker_state\{upstream="data-api",state="open"\} 0/);
    } finally {
      await running.close();
    }
  });
});

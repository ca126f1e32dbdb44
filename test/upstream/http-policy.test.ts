import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import type { UpstreamAttempt } from '../../src/upstream/client-types.ts';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { createHttpUpstream, parseRetryAfter, type HttpUpstream, type HttpUpstreamOptions } from '../../src/upstream/http.ts';
import { settlesAtOnce } from '../helpers/at-once.ts';

const CHAINS = 'GET /v1/chains';
const EXPORT = 'POST /v1/operations/transactions:export';

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

/** A Data API client on its own policy, with an attempt log. */
function client(options: HttpUpstreamOptions = {}, apiKey?: string): { api: DataApiClient; http: HttpUpstream; attempts: UpstreamAttempt[] } {
  const attempts: UpstreamAttempt[] = [];
  const http = createHttpUpstream({ observer: { onAttempt: (a) => attempts.push(a) }, ...options });
  owned.push(http);
  const api = createDataApiClient({ baseUrl: devnet.url, http, ...(apiKey ? { apiKey } : {}) });
  return { api, http, attempts };
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

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

/**
 * Makes a call through `make` (given the per-call observer to pass on) and reports, besides
 * its error, whether the call failed at once after its last attempt was reported: no sleep,
 * backoff or wait for the deadline between the attempt that decided it and the answer.
 */
async function failsAtOnceAfterLastAttempt(make: (observer: { onAttempt(info: UpstreamAttempt): void }) => Promise<unknown>): Promise<{ error: UpstreamError; attempts: UpstreamAttempt[]; atOnce: boolean }> {
  const attempts: UpstreamAttempt[] = [];
  let atOnce: Promise<boolean> = Promise.resolve(false);
  const call = make({
    onAttempt: (info) => {
      attempts.push(info);
      atOnce = settlesAtOnce(call);
    },
  });
  const error = await rejection(call);
  return { error, attempts, atOnce: await atOnce };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('retries', () => {
  it('retries a GET on 503 and succeeds, counting each attempt', async () => {
    const { api, attempts } = client({ retryBaseDelayMs: 10 });
    devnet.setChaos({ failNext: 2, routeFilter: CHAINS });
    const { chains } = await api.listChains();
    expect(chains.length).toBeGreaterThan(0);
    expect(devnet.stats().byRoute[CHAINS]).toBe(3);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([[1, 503], [2, 503], [3, 200]]);
    expect(attempts.every((a) => a.upstream === 'data-api' && a.operation === CHAINS)).toBe(true);
  });

  it('gives up after the configured retries with the last error and the attempt count', async () => {
    const { api } = client({ retries: 2, retryBaseDelayMs: 5 });
    devnet.setChaos({ failNext: 10, routeFilter: CHAINS, faultStatus: 502 });
    const error = await rejection(api.listChains());
    expect(error).toMatchObject({ kind: 'http', status: 502, attempts: 3, operation: CHAINS, upstream: 'data-api' });
    expect(error.body).toMatchObject({ statusCode: 502, error: 'Bad Gateway', message: 'Injected fault' });
    expect(devnet.stats().byRoute[CHAINS]).toBe(3);
  });

  it('retries 429 as well', async () => {
    const { api } = client({ retryBaseDelayMs: 5 });
    devnet.setChaos({ failNext: 1, routeFilter: CHAINS, faultStatus: 429 });
    await api.listChains();
    expect(devnet.stats().byRoute[CHAINS]).toBe(2);
  });

  it.each([400, 401, 403, 404])('never retries a %i', async (status) => {
    const { api } = client({ retryBaseDelayMs: 5 });
    devnet.setChaos({ failNext: 1, routeFilter: CHAINS, faultStatus: status });
    const error = await rejection(api.listChains());
    expect(error).toMatchObject({ kind: 'http', status, attempts: 1 });
    expect(error.isNotFound).toBe(status === 404);
    expect(devnet.stats().byRoute[CHAINS]).toBe(1);
  });

  it('never retries a POST, even on 503', async () => {
    const { api } = client({ retryBaseDelayMs: 5 });
    devnet.setChaos({ failNext: 1, routeFilter: EXPORT });
    const error = await rejection(
      api.createTransactionExport({ type: 'TRANSACTION_EXPORT_EVM', options: { addresses: ['0x0000000000000000000000000000000000000001'], includeChains: ['43114'] } }),
    );
    expect(error).toMatchObject({ kind: 'http', status: 503, attempts: 1, operation: EXPORT });
    expect(devnet.stats().byRoute[EXPORT]).toBe(1);
  });

  it('retries network errors (connection refused) and then reports kind network', async () => {
    const port = await closedPort();
    const attempts: UpstreamAttempt[] = [];
    const http = createHttpUpstream({ retryBaseDelayMs: 5, observer: { onAttempt: (a) => attempts.push(a) } });
    owned.push(http);
    const api = createDataApiClient({ baseUrl: `http://127.0.0.1:${port}`, http });
    const error = await rejection(api.listChains());
    expect(error).toMatchObject({ kind: 'network', attempts: 3 });
    expect(attempts.map((a) => a.error)).toEqual(['network', 'network', 'network']);
  });

  it('retries a reset connection and succeeds', async () => {
    let requests = 0;
    const server: Server = createServer((req, res) => {
      requests += 1;
      if (requests === 1) {
        req.socket.destroy();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ chains: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const http = createHttpUpstream({ retryBaseDelayMs: 5 });
      owned.push(http);
      const api = createDataApiClient({ baseUrl: `http://127.0.0.1:${port}`, http });
      await expect(api.listChains()).resolves.toEqual({ chains: [] });
      expect(requests).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('Retry-After', () => {
  it('waits as long as Retry-After says before retrying', async () => {
    const { api } = client({ retryBaseDelayMs: 1 });
    devnet.setChaos({ failNext: 1, routeFilter: CHAINS, retryAfterSeconds: 1 });
    const { ms } = await timed(() => api.listChains());
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(devnet.stats().byRoute[CHAINS]).toBe(2);
  });

  it('fails fast with the 503 when Retry-After exceeds the remaining deadline', async () => {
    const { api } = client();
    devnet.setChaos({ failNext: 1, routeFilter: CHAINS, retryAfterSeconds: 30 });
    const { error, atOnce } = await failsAtOnceAfterLastAttempt((observer) => api.listChains(undefined, { timeoutMs: 2_000, observer }));
    // Fast: the 503 is answered in the turn its attempt ended, with no wait toward the deadline.
    expect(atOnce).toBe(true);
    expect(error).toMatchObject({ kind: 'http', status: 503, retryAfter: 30, attempts: 1 });
    expect(devnet.stats().byRoute[CHAINS]).toBe(1);
  });

  it('does not sleep into the deadline for a backoff either', async () => {
    const { api } = client({ retryBaseDelayMs: 5_000, retryMaxDelayMs: 5_000, random: () => 0.99 });
    devnet.setChaos({ failNext: 5, routeFilter: CHAINS });
    const { error, atOnce } = await failsAtOnceAfterLastAttempt((observer) => api.listChains(undefined, { timeoutMs: 1_000, observer }));
    expect(atOnce).toBe(true);
    expect(error).toMatchObject({ kind: 'http', status: 503, attempts: 1 });
  });

  it('parses delta-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('deadlines and timeouts', () => {
  it('stops at the per-call deadline when the devnet is slow', async () => {
    const { api } = client();
    devnet.setChaos({ latencyMs: 1_500, routeFilter: CHAINS });
    const start = performance.now();
    const { error, attempts, atOnce } = await failsAtOnceAfterLastAttempt((observer) => api.listChains(undefined, { timeoutMs: 250, observer }));
    const ms = performance.now() - start;
    // The answer would have come at 1.5 s, and succeeded: a timeout means the deadline cut the attempt,
    // and the call ended in that turn, without another attempt.
    expect(error.kind).toBe('timeout');
    expect(attempts.map((a) => a.error)).toEqual(['timeout']);
    expect(atOnce).toBe(true);
    // Not before the deadline (a slow machine only makes this longer).
    expect(ms).toBeGreaterThanOrEqual(240);
  });

  it('uses the client-wide deadline when the call sets none', async () => {
    const http = createHttpUpstream({ timeoutMs: 5_000 });
    owned.push(http);
    const api = createDataApiClient({ baseUrl: devnet.url, http, timeoutMs: 200 });
    devnet.setChaos({ latencyMs: 1_500, routeFilter: CHAINS });
    const { error, atOnce } = await failsAtOnceAfterLastAttempt((observer) => api.listChains(undefined, { observer }));
    // The http layer's 5 s would have let the 1.5 s answer through: a timeout is the client's 200 ms.
    expect(error.kind).toBe('timeout');
    expect(atOnce).toBe(true);
  });

  it('reports aborted when the caller aborts, and stops retrying', async () => {
    const { api } = client();
    devnet.setChaos({ latencyMs: 1_500, routeFilter: CHAINS });
    const controller = new AbortController();
    const call = api.listChains(undefined, { signal: controller.signal });
    // Some time into the 1.5 s wait for the answer (how long does not matter: the call is in flight).
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    expect(await settlesAtOnce(call)).toBe(true);
    const error = await rejection(call);
    expect(error.kind).toBe('aborted');
    expect(devnet.stats().byRoute[CHAINS]).toBe(1);
  });

  it('aborts during the backoff wait', async () => {
    const { api } = client({ retryBaseDelayMs: 2_000, retryMaxDelayMs: 2_000, random: () => 0.99 });
    devnet.setChaos({ failNext: 5, routeFilter: CHAINS });
    const controller = new AbortController();
    let afterAbort: Promise<boolean> = Promise.resolve(false);
    const call = api.listChains(undefined, {
      signal: controller.signal,
      observer: {
        // The first 503 is in: the ~2 s backoff starts in this turn; abort in the next, while it waits.
        onAttempt: () =>
          setImmediate(() => {
            controller.abort();
            afterAbort = settlesAtOnce(call);
          }),
      },
    });
    const error = await rejection(call);
    expect(error).toMatchObject({ kind: 'aborted', attempts: 1 });
    // The wait ends with the abort, not with the backoff.
    expect(await afterAbort).toBe(true);
    expect(devnet.stats().byRoute[CHAINS]).toBe(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { api } = client();
    const error = await rejection(api.listChains(undefined, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: 'aborted', attempts: 0 });
    expect(devnet.stats().requests).toBe(0);
  });

  it('maps a stalled body to a timeout (body timeout)', async () => {
    const { api } = client({ bodyTimeoutMs: 200, retries: 0 });
    devnet.setChaos({ bodyDelayMs: 4_000, routeFilter: CHAINS });
    const error = await rejection(api.listChains());
    // The body would have come after 4 s, and succeeded: undici's body timer (checked on a coarse ~1 s
    // tick) ended the call before it.
    expect(error.kind).toBe('timeout');
    expect((error.cause as { code?: string }).code).toBe('UND_ERR_BODY_TIMEOUT');
  });

  it('maps missing headers to a timeout (headers timeout) and retries it', async () => {
    const { api, attempts } = client({ headersTimeoutMs: 200, retries: 1, retryBaseDelayMs: 5 });
    devnet.setChaos({ latencyMs: 4_000, routeFilter: CHAINS });
    const error = await rejection(api.listChains());
    // Each attempt's headers would have come after 4 s: two timeouts mean undici's headers timer ended both.
    expect(error).toMatchObject({ kind: 'timeout', attempts: 2 });
    expect((error.cause as { code?: string }).code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(attempts.map((a) => a.error)).toEqual(['timeout', 'timeout']);
  });
});

describe('observers and error hygiene', () => {
  it('tells both the upstream observer and the per-call observer about every attempt', async () => {
    const { api, attempts } = client({ retryBaseDelayMs: 5 });
    const mine: UpstreamAttempt[] = [];
    devnet.setChaos({ failNext: 1, routeFilter: CHAINS });
    await api.listChains(undefined, { observer: { onAttempt: (a) => mine.push(a) } });
    await api.listChains();
    expect(mine.map((a) => a.status)).toEqual([503, 200]);
    expect(attempts.map((a) => a.status)).toEqual([503, 200, 200]);
    expect(mine.every((a) => a.durationMs >= 0)).toBe(true);
  });

  it('a throwing observer does not fail the call', async () => {
    const { api } = client();
    await expect(api.listChains(undefined, { observer: { onAttempt: () => { throw new Error('boom'); } } })).resolves.toBeTruthy();
  });

  it('keeps the API key and the URL out of errors', async () => {
    const { api } = client({}, 'very-secret-key');
    devnet.setChaos({ failNext: 1, routeFilter: 'GET /v1/networks/{network}/validators', faultStatus: 400 });
    const error = await rejection(api.listValidators('mainnet', { nodeIds: ['NodeID-abc'] }));
    const serialized = `${error.message} ${JSON.stringify(error)} ${String(error.stack)}`;
    expect(serialized).not.toContain('very-secret-key');
    expect(serialized).not.toContain(devnet.url);
    expect(error.operation).toBe('GET /v1/networks/{network}/validators');
  });
});

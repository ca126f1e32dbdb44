import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pino from 'pino';
import { Client, errors as undiciErrors } from 'undici';
import { configFromEnv } from '../../src/server/config.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { untilAborted } from '../../src/gateway/plugins/use-graceful-shutdown.ts';
import { startServer } from '../../src/server/server.ts';
import { spawn } from 'node:child_process';
import { descendants, freePort, root, startNpmGateway, waitFor, type NpmGateway } from '../../bench/process.ts';

/**
 * The gateway's lifecycle as supervisors drive it: `npm start` stops on SIGTERM/SIGINT sent to npm, to
 * node, or to the whole process group (Ctrl-C); the drain answers `/ready` 503 at once, lets requests in
 * flight finish, ends subscriptions, and a second signal or the grace running out aborts what is left.
 */

const SLOW_ROUTE = 'validators';
const SLOW_QUERY = '{ network(name: MAINNET) { validators(first: 3) { edges { node { nodeId } } } } }';

/** An external devnet the npm-started gateway points at, so the test can slow its upstream. */
let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ validators: 200 });
});
afterAll(async () => {
  await devnet?.close();
});

const upstreamEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  DATA_API_URL: devnet.url,
  NODE_URLS: Object.entries(devnet.nodeUrls)
    .map(([name, url]) => `${name}=${url}`)
    .join(','),
  // Every request reaches the (slowed) devnet.
  CACHE: 'off',
  ...extra,
});

/** npm's exit: its code (the node process's, passed on) and how long after `since` it came. */
function npmExit(gateway: NpmGateway, since: () => number): Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }> {
  return new Promise((resolve) => {
    if (gateway.npm.exitCode !== null || gateway.npm.signalCode !== null) {
      resolve({ code: gateway.npm.exitCode, signal: gateway.npm.signalCode, afterMs: 0 });
      return;
    }
    gateway.npm.once('exit', (code, signal) => resolve({ code, signal, afterMs: performance.now() - since() }));
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Whether anything accepts a TCP connection on the port. */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const portOf = (gateway: NpmGateway): number => Number(new URL(gateway.base).port);

async function graphql(client: Client, query: string): Promise<{ status: number; body: { data?: unknown; errors?: { extensions?: { code?: string } }[] }; headers: Record<string, unknown> }> {
  const res = await client.request({
    path: '/graphql',
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as never };
}

/** Resolves once the devnet has received a request on the slowed route (the slow query is in flight). */
async function upstreamReached(route: string, before: number): Promise<void> {
  const count = () => Object.entries(devnet.stats().byRoute).reduce((n, [r, c]) => (r.includes(route) ? n + c : n), 0);
  const deadline = performance.now() + 10_000;
  while (count() <= before) {
    if (performance.now() > deadline) throw new Error('the slow query never reached the devnet');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const slowRouteCount = () => Object.entries(devnet.stats().byRoute).reduce((n, [r, c]) => (r.includes(SLOW_ROUTE) ? n + c : n), 0);

describe('npm start stops on a signal', () => {
  const cases: { name: string; signal: NodeJS.Signals; target: 'npm' | 'node' | 'group' }[] = [
    { name: 'SIGTERM to npm (docker stop, systemd, most supervisors)', signal: 'SIGTERM', target: 'npm' },
    { name: 'SIGINT to npm', signal: 'SIGINT', target: 'npm' },
    { name: 'SIGTERM to node', signal: 'SIGTERM', target: 'node' },
    // A terminal's Ctrl-C reaches npm and node at once, and npm forwards its copy too: two SIGINTs in a
    // few ms, which must still be one graceful stop (exit 0), not "second signal: abort".
    { name: 'SIGINT to the process group (Ctrl-C in a terminal)', signal: 'SIGINT', target: 'group' },
  ];
  for (const { name, signal, target } of cases) {
    it(`${name}: a request in flight finishes, then node exits 0 and nothing listens`, async () => {
      const gateway = await startNpmGateway({ env: upstreamEnv({ SHUTDOWN_GRACE_MS: '8000' }), detached: target === 'group' });
      const client = new Client(gateway.base);
      try {
        expect(gateway.argv.some((arg) => arg.startsWith('--max-old-space-size='))).toBe(true);
        // node replaced npm's shell (exec), so npm's own signal forwarding reaches it.
        expect(descendants(gateway.npm.pid as number)).toEqual([gateway.pid]);
        devnet.setChaos({ latencyMs: 800, routeFilter: SLOW_ROUTE });
        const before = slowRouteCount();
        const slow = graphql(client, SLOW_QUERY);
        await upstreamReached(SLOW_ROUTE, before);
        let sentAt = 0;
        const exited = npmExit(gateway, () => sentAt);
        sentAt = performance.now();
        if (target === 'npm') process.kill(gateway.npm.pid as number, signal);
        else if (target === 'node') process.kill(gateway.pid, signal);
        else process.kill(-(gateway.npm.pid as number), signal);
        const answer = await slow;
        expect(answer.status).toBe(200);
        expect(answer.body.errors).toBeUndefined();
        expect(answer.headers['connection']).toBe('close');
        const exit = await exited;
        expect(exit).toMatchObject({ code: 0, signal: null });
        expect(exit.afterMs).toBeLessThan(8000);
        expect(alive(gateway.pid)).toBe(false);
        expect(await listening(portOf(gateway))).toBe(false);
      } finally {
        devnet.setChaos({ latencyMs: 0, routeFilter: undefined });
        await client.close().catch(() => undefined);
        if (alive(gateway.pid)) process.kill(gateway.pid, 'SIGKILL');
      }
    }, 40_000);
  }
});

describe('npm run devnet stops on a signal', () => {
  it('SIGTERM to npm ends the devnet below it (the script execs tsx, which passes the signal on)', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['run', '-s', 'devnet'], {
      cwd: root,
      env: { ...process.env, DEVNET_PORT: String(port), DEVNET_VALIDATORS: '50' },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    let below: number[] = [];
    try {
      await waitFor(`http://127.0.0.1:${port}/__devnet/stats`, { ready: (status) => status === 200, timeoutMs: 30_000 });
      below = descendants(npm.pid as number);
      expect(below.length).toBeGreaterThan(0);
      process.kill(npm.pid as number, 'SIGTERM');
      await exited;
      const deadline = performance.now() + 5000;
      while (below.some(alive) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(below.filter(alive)).toEqual([]);
      expect(await listening(port)).toBe(false);
    } finally {
      // Whatever outlived the test (found before npm exited: orphans are no longer below it).
      for (const pid of [...below, ...descendants(npm.pid as number)].filter(alive)) process.kill(pid, 'SIGKILL');
    }
  }, 40_000);
});

describe('the drain of npm start', () => {
  it('answers /ready 503 at once, refuses new connections, and finishes the slow query in flight with 200', async () => {
    const gateway = await startNpmGateway({ env: upstreamEnv() });
    // A load balancer's health checks on a keep-alive connection of their own.
    const probe = new Client(gateway.base);
    const client = new Client(gateway.base);
    try {
      const ready = await probe.request({ path: '/ready', method: 'GET' });
      expect(ready.statusCode).toBe(200);
      await ready.body.dump();
      devnet.setChaos({ latencyMs: 2000, routeFilter: SLOW_ROUTE });
      const before = slowRouteCount();
      const started = performance.now();
      let slowDone = false;
      const slow = graphql(client, SLOW_QUERY).finally(() => {
        slowDone = true;
      });
      await upstreamReached(SLOW_ROUTE, before);
      const exited = npmExit(gateway, () => started);
      process.kill(gateway.npm.pid as number, 'SIGTERM');

      // /ready turns 503 as soon as node has the signal, long before the slow query ends. (Asked once the
      // signal has surely arrived: a check already in progress when it does is answered, then its
      // connection closes.)
      await new Promise((r) => setTimeout(r, 300));
      const notReady = await probe.request({ path: '/ready', method: 'GET' });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.headers['connection']).toBe('close');
      expect(await notReady.body.json()).toEqual({ ready: false, reason: 'shutting down' });
      expect(slowDone).toBe(false);
      // The listener is closed: a new connection is refused (a load balancer retries it elsewhere).
      expect(await listening(portOf(gateway))).toBe(false);

      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      expect(performance.now() - started).toBeGreaterThanOrEqual(2000);
      expect((await exited).code).toBe(0);
    } finally {
      devnet.setChaos({ latencyMs: 0, routeFilter: undefined });
      await Promise.all([probe.close().catch(() => undefined), client.close().catch(() => undefined)]);
      if (alive(gateway.pid)) process.kill(gateway.pid, 'SIGKILL');
    }
  }, 40_000);

  it('aborts what is left and exits 1 when the grace period runs out', async () => {
    const gateway = await startNpmGateway({ env: upstreamEnv({ SHUTDOWN_GRACE_MS: '500' }) });
    const client = new Client(gateway.base);
    try {
      devnet.setChaos({ latencyMs: 5000, routeFilter: SLOW_ROUTE });
      const before = slowRouteCount();
      const slow = graphql(client, SLOW_QUERY).then(
        () => 'answered',
        (error: unknown) => error,
      );
      await upstreamReached(SLOW_ROUTE, before);
      let sentAt = 0;
      const exited = npmExit(gateway, () => sentAt);
      sentAt = performance.now();
      process.kill(gateway.npm.pid as number, 'SIGTERM');
      const exit = await exited;
      expect(exit.code).toBe(1);
      expect(exit.afterMs).toBeGreaterThanOrEqual(400);
      expect(exit.afterMs).toBeLessThan(4000);
      // The request's connection was destroyed, not answered.
      expect(await slow).toBeInstanceOf(undiciErrors.SocketError);
      expect(await listening(portOf(gateway))).toBe(false);
    } finally {
      devnet.setChaos({ latencyMs: 0, routeFilter: undefined });
      await client.close().catch(() => undefined);
      if (alive(gateway.pid)) process.kill(gateway.pid, 'SIGKILL');
    }
  }, 40_000);

  it('aborts what is left and exits 1 on a second signal', async () => {
    const gateway = await startNpmGateway({ env: upstreamEnv({ SHUTDOWN_GRACE_MS: '30000' }) });
    const client = new Client(gateway.base);
    try {
      devnet.setChaos({ latencyMs: 20_000, routeFilter: SLOW_ROUTE });
      const before = slowRouteCount();
      const slow = graphql(client, SLOW_QUERY).then(
        () => 'answered',
        (error: unknown) => error,
      );
      await upstreamReached(SLOW_ROUTE, before);
      let sentAt = 0;
      const exited = npmExit(gateway, () => sentAt);
      process.kill(gateway.npm.pid as number, 'SIGTERM');
      // Later than a duplicate delivery (cli.ts ignores a repeat within 1 s).
      await new Promise((r) => setTimeout(r, 1300));
      expect(alive(gateway.pid)).toBe(true);
      sentAt = performance.now();
      process.kill(gateway.npm.pid as number, 'SIGTERM');
      const exit = await exited;
      expect(exit.code).toBe(1);
      expect(exit.afterMs).toBeLessThan(3000);
      expect(await slow).toBeInstanceOf(undiciErrors.SocketError);
    } finally {
      devnet.setChaos({ latencyMs: 0, routeFilter: undefined });
      await client.close().catch(() => undefined);
      if (alive(gateway.pid)) process.kill(gateway.pid, 'SIGKILL');
    }
  }, 40_000);
});

describe('RunningServer.close (in process)', () => {
  it('while draining: /health stays 200 (alive), /ready is 503, and queries on open connections are served, each closing its connection', async () => {
    const running = await startServer({ ...configFromEnv({}), port: 0 }, pino({ level: 'silent' }));
    const base = running.url.replace(/\/graphql$/, '');
    const slowClient = new Client(base);
    const clients = [new Client(base), new Client(base), new Client(base)];
    try {
      // Open the three keep-alive connections before the drain.
      for (const client of clients) await (await client.request({ path: '/health', method: 'GET' })).body.dump();
      running.devnet?.setChaos({ latencyMs: 1500, routeFilter: SLOW_ROUTE });
      const slow = graphql(slowClient, SLOW_QUERY);
      await new Promise((r) => setTimeout(r, 200));
      const closed = running.close({ graceMs: 8000 });
      const [health, ready, query] = await Promise.all([
        clients[0]!.request({ path: '/health', method: 'GET' }),
        clients[1]!.request({ path: '/ready', method: 'GET' }),
        graphql(clients[2]!, '{ __typename }'),
      ]);
      expect(health.statusCode).toBe(200);
      expect(ready.statusCode).toBe(503);
      expect(query).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
      for (const headers of [health.headers, ready.headers, query.headers]) expect(headers['connection']).toBe('close');
      await Promise.all([health.body.dump(), ready.body.dump()]);
      expect((await slow).status).toBe(200);
      expect(await closed).toBe('drained');
    } finally {
      await Promise.all([slowClient, ...clients].map((client) => client.close().catch(() => undefined)));
      await running.close();
    }
  });

  it('ends a live subscription with its complete event and drains at once', async () => {
    const running = await startServer({ ...configFromEnv({}), port: 0 }, pino({ level: 'silent' }));
    const controller = new AbortController();
    try {
      const res = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: 'subscription { nodeHealth { healthy } }' }),
        signal: controller.signal,
      });
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let stream = '';
      while (!stream.includes('nodeHealth')) {
        const { value, done } = await reader.read();
        if (done) break;
        stream += decoder.decode(value, { stream: true });
      }
      const started = performance.now();
      const closed = running.close({ graceMs: 8000 });
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        stream += decoder.decode(value, { stream: true });
      }
      expect(stream).toContain('event: complete');
      expect(await closed).toBe('drained');
      // Well before the grace period: the subscription did not hold the drain.
      expect(performance.now() - started).toBeLessThan(4000);
    } finally {
      controller.abort();
      await running.close();
    }
  });

  it('keeps every request of 24 busy keep-alive clients: each one the server received is answered and read, none cut', async () => {
    const running = await startServer({ ...configFromEnv({}), port: 0 }, pino({ level: 'silent' }));
    const base = running.url.replace(/\/graphql$/, '');
    const outcomes = { answered: 0, answeredDuringDrain: 0, refused: 0, other: [] as string[] };
    let draining = false;
    let stop = false;
    const worker = async () => {
      const client = new Client(base, { pipelining: 1 });
      try {
        while (!stop) {
          try {
            const res = await client.request({ path: '/graphql?query=%7B__typename%7D', method: 'GET' });
            await res.body.json();
            outcomes.answered++;
            if (draining) outcomes.answeredDuringDrain++;
          } catch (error) {
            const code = (error as { code?: string }).code ?? String(error);
            if (code === 'ECONNREFUSED') outcomes.refused++;
            else outcomes.other.push(code);
            return;
          }
        }
      } finally {
        await client.close().catch(() => undefined);
      }
    };
    const workers = Array.from({ length: 24 }, worker);
    // Drain once every client is busy (counted, not timed: a loaded machine takes longer to get there).
    for (let waited = 0; outcomes.answered < 48 && waited < 30_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    draining = true;
    const result = await running.close({ graceMs: 8000 });
    stop = true;
    await Promise.all(workers);
    // Counted from the server's side, so a loaded machine gives the same answer: every request it received
    // was answered whole, and every answer reached its client. What else the clients saw is at the
    // connection level, for requests the server never received: refused, or reset by the kernel when
    // the listener closed with connections still in its accept queue (or a keep-alive connection closed
    // idle as the client reused it, which HTTP lets clients retry).
    const served = running.edgeStats().connections;
    expect(served.cut).toBe(0);
    expect(served.answered).toBe(served.requests);
    expect(outcomes.answered).toBe(served.answered);
    expect(outcomes.other.filter((code) => code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')).toEqual([]);
    expect(result).toBe('drained');
    expect(outcomes.answered).toBeGreaterThan(24);
    expect(outcomes.answeredDuringDrain).toBeGreaterThan(0);
    // Each connection closed after an answer sent during the drain; reconnecting was refused (or reset, above).
    expect(outcomes.refused + outcomes.other.length).toBeGreaterThan(0);
  });
});

describe('SHUTDOWN_GRACE_MS', () => {
  it.each([
    [undefined, 10_000],
    ['', 10_000],
    ['0', 0],
    ['2500', 2500],
  ])('%j reads as %d ms', (value, expected) => {
    expect(configFromEnv(value === undefined ? {} : { SHUTDOWN_GRACE_MS: value }).shutdownGraceMs).toBe(expected);
  });
  it.each(['-1', '1.5', 'ten', '1e400'])('refuses %j, naming the variable', (value) => {
    expect(() => configFromEnv({ SHUTDOWN_GRACE_MS: value })).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});

describe('untilAborted', () => {
  it('ends at once when the signal was aborted before it started (a subscription during the drain)', async () => {
    const controller = new AbortController();
    controller.abort();
    let polled = false;
    const source = (async function* () {
      polled = true;
      yield 1;
    })();
    const stream = untilAborted(source, controller.signal);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(polled).toBe(false);
  });

  it('passes the source through until the signal aborts, then ends and stops the source once (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(8), fc.nat(10), async (length, abortAfter) => {
        let returned = 0;
        let produced = 0;
        const source: AsyncIterable<number> = {
          [Symbol.asyncIterator]: () => ({
            next: async () => (produced < length ? { done: false, value: produced++ } : { done: true, value: undefined }),
            return: async () => {
              returned++;
              return { done: true, value: undefined };
            },
          }),
        };
        const controller = new AbortController();
        const stream = untilAborted(source, controller.signal);
        const seen: number[] = [];
        for (let i = 0; i < 12; i++) {
          if (i === abortAfter) controller.abort();
          const step = await stream.next();
          if (step.done) break;
          seen.push(step.value);
        }
        const expected = Array.from({ length: Math.min(length, abortAfter) }, (_, i) => i);
        expect(seen).toEqual(expected);
        expect(await stream.next()).toEqual({ done: true, value: undefined });
        expect(returned).toBeLessThanOrEqual(1);
        // Ending by itself or by the signal, the source was told to stop at most once and never polled again.
        expect(produced).toBe(Math.min(length, abortAfter));
      }),
      { numRuns: 60 },
    );
  });

  it('ends a source that is waiting for its next event, without waiting for it', async () => {
    const controller = new AbortController();
    let released: () => void = () => undefined;
    const pending = new Promise<void>((resolve) => {
      released = resolve;
    });
    const source = (async function* () {
      yield 1;
      await pending;
      yield 2;
    })();
    const stream = untilAborted(source, controller.signal);
    expect(await stream.next()).toEqual({ done: false, value: 1 });
    const waiting = stream.next();
    controller.abort();
    expect(await waiting).toEqual({ done: true, value: undefined });
    released();
  });

  it('removes its abort listener when the stream ends by itself', async () => {
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    }) as typeof remove;
    for (let i = 0; i < 5; i++) {
      const stream = untilAborted((async function* () { yield i; })(), signal);
      for await (const _ of stream) void _;
    }
    expect(listeners).toBe(0);
  });
});

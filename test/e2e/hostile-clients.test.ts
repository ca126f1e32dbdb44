import { connect, type Socket } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { configFromEnv } from '../../src/server/config.ts';
import { RESPONSE_LIMIT_DEFAULTS } from '../../src/gateway/plugins/use-response-limit.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

/**
 * An attacker's suite, per transport, against the real server on a real socket: clients that never
 * read, bodies trickled a byte at a time, floods of idle sockets and WebSockets, deferred operations
 * that outlive their first payload, bodies far over the limit. Each case asserts that the gateway stays
 * up (`/health` answers, an honest client is served), that what the attack holds is bounded by the
 * configured limits (read from the server's own counters, never from timing), and that it is all freed.
 * Attackers and the honest client are told apart as a proxy would tell them (`TRUST_PROXY=1`).
 */

const ATTACKER = { 'x-forwarded-for': '203.0.113.66' };
const HONEST = { 'x-forwarded-for': '198.51.100.7' };

/** About 3 MB of answer: 30 aliases of 100 validators with most fields. */
const FIELDS =
  'id network txHash nodeId subnetId amountStaked delegationFee amountDelegated startTimestamp endTimestamp blsCredentials { publicKey proofOfPossession } delegatorCount validationStatus ... on ActiveValidator { stakePercentage uptimePerformance avalancheGoVersion delegationCapacity }';
const BIG_QUERY = `{ network(name: MAINNET) { ${Array.from({ length: 30 }, (_, i) => `a${i}: validators(first: 100) { edges { cursor node { ${FIELDS} } } }`).join(' ')} } }`;
const SMALL_QUERY = '{ network(name: MAINNET) { validators(first: 1) { edges { node { nodeId } } } } }';

const until = async (check: () => boolean, what: string, limitMs = 20_000): Promise<void> => {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('hostile clients over HTTP', () => {
  let devnet: Devnet;
  let running: RunningServer;
  let port: number;
  let base: string;
  const maxConcurrent = 8;

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 300 });
    const config = configFromEnv({
      PORT: '0',
      CACHE: 'off',
      TRUST_PROXY: '1',
      MAX_CONCURRENT_OPERATIONS: String(maxConcurrent),
      MAX_QUEUE_WAIT_MS: '500',
      WRITE_TIMEOUT_MS: '800',
      BODY_TIMEOUT_MS: '2000',
      MAX_CONNECTIONS: '200',
      MAX_CONNECTIONS_PER_CLIENT: '200',
    });
    running = await startServer({ ...config, dataApiUrl: devnet.url, nodes: Object.entries(devnet.nodeUrls).map(([name, url]) => ({ name, url })) }, pino({ level: 'silent' }));
    port = Number(new URL(running.url).port);
    base = running.url.replace(/\/graphql$/, '');
  });
  afterAll(async () => {
    await running?.close({ graceMs: 500 });
    await devnet?.close();
  });

  const post = (query: string, headers: Record<string, string>) =>
    fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });

  async function stillServing(): Promise<void> {
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const response = await post(SMALL_QUERY, HONEST);
    const body = (await response.json()) as { errors?: unknown };
    expect(response.status).toBe(200);
    expect(body.errors).toBeUndefined();
  }

  /**
   * Raw HTTP/1.1 POSTs pipelined on one socket that never reads what comes back: the kernel's buffers
   * take the first answer or two (several MB on loopback), the rest wait in the process.
   */
  function neverReads(query: string, pipelined = 4): Socket {
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    socket.on('error', () => undefined);
    const body = JSON.stringify({ query });
    const request = `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nx-forwarded-for: ${ATTACKER['x-forwarded-for']}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    socket.write(request.repeat(pipelined));
    return socket;
  }

  it('clients that never read their 3 MB answers hold at most their share of slots, are cut, and leave the gateway serving', async () => {
    const stalledBefore = running.edgeStats().connections.stalled;
    const attackers = Array.from({ length: 24 }, () => neverReads(BIG_QUERY));
    let peakRunning = 0;
    let peakUnsent = 0;
    const sample = setInterval(() => {
      const stats = running.edgeStats();
      peakRunning = Math.max(peakRunning, stats.admission.running);
      peakUnsent = Math.max(peakUnsent, stats.connections.unsentBytes);
    }, 10);
    try {
      // While they hold what they can: the honest client is served, /health answers.
      await until(() => running.edgeStats().admission.running > 0, 'the attackers to hold slots');
      await stillServing();
      // Every attacker that got its answer started is cut by the write deadline, and its slot freed.
      await until(() => running.edgeStats().connections.stalled > stalledBefore, 'a stalled attacker to be cut');
      await until(() => running.edgeStats().admission.running === 0, 'every slot to be freed');
    } finally {
      clearInterval(sample);
      for (const socket of attackers) socket.destroy();
    }
    // Unsent bytes are held only by operations holding a slot: at most one answer per slot.
    expect(peakRunning).toBeLessThanOrEqual(maxConcurrent);
    expect(peakUnsent).toBeLessThanOrEqual(maxConcurrent * RESPONSE_LIMIT_DEFAULTS.maxResponseBytes);
    await stillServing();
  });

  it('bodies trickled a byte at a time hold no admission slot, only their body budget, and are cut by the body deadline', async () => {
    const trickling: Socket[] = [];
    const timers: NodeJS.Timeout[] = [];
    const answers: string[] = [];
    for (let i = 0; i < 40; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      let answer = '';
      socket.on('data', (data) => (answer += data.toString('latin1')));
      socket.on('close', () => answers.push(answer));
      socket.write(`POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nx-forwarded-for: 203.0.113.${i}\r\ncontent-length: 400\r\n\r\n`);
      timers.push(setInterval(() => socket.writable && socket.write(' '), 100));
      trickling.push(socket);
    }
    try {
      await until(() => running.edgeStats().admission.bodyBytes >= 40 * 400, 'the bodies to be reserved');
      expect(running.edgeStats().admission.running).toBe(0);
      await stillServing();
      // The body deadline (BODY_TIMEOUT_MS) ends each of them with a coded 408.
      await until(() => answers.length === 40, 'the trickled requests to be ended', 15_000);
      expect(answers.filter((answer) => answer.startsWith('HTTP/1.1 408')).length).toBe(40);
      // Released when each cut request's connection closes, which may follow its 408 by a turn or two.
      await until(() => running.edgeStats().admission.bodyBytes === 0, 'the body budget to be released');
    } finally {
      for (const timer of timers) clearInterval(timer);
      for (const socket of trickling) socket.destroy();
    }
  });

  it('a flood of idle connections past MAX_CONNECTIONS evicts the longest idle, never one in use', async () => {
    const before = running.edgeStats().connections;
    const idle: Socket[] = [];
    for (let i = 0; i < 260; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      idle.push(socket);
    }
    try {
      await until(() => running.edgeStats().connections.evicted - before.evicted >= 60, 'idle connections to be evicted');
      expect(running.edgeStats().connections.open).toBeLessThanOrEqual(200);
      await stillServing();
    } finally {
      for (const socket of idle) socket.destroy();
    }
  });

  it('four concurrent 8 MB bodies each read their 413, none is reset', async () => {
    const body = Buffer.alloc(8 * 1024 * 1024, 0x20);
    const answers = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<string>((resolve) => {
            const socket = connect(port, '127.0.0.1');
            let answer = '';
            socket.on('data', (data) => (answer += data.toString('latin1')));
            socket.on('error', (error: NodeJS.ErrnoException) => (answer ||= error.code ?? 'error'));
            socket.on('close', () => resolve(answer));
            socket.write(`POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
            socket.write(body, () => socket.end());
          }),
      ),
    );
    for (const answer of answers) {
      expect(answer.slice(0, 40)).toMatch(/^HTTP\/1.1 413/);
      expect(answer).toContain('"code":"PAYLOAD_TOO_LARGE"');
    }
    await stillServing();
  });

  it('deferred operations hold their slot until their last payload: never more running than the slots, the rest refused', async () => {
    devnet.setChaos({ latencyMs: 300 });
    try {
      const query = `{ network(name: MAINNET) { validators(first: 2) { edges { node { nodeId ... @defer { delegators(first: 1) { edges { node { txHash } } } } } } } } }`;
      let peak = 0;
      const sample = setInterval(() => (peak = Math.max(peak, running.edgeStats().admission.running)), 5);
      const bodies = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          fetch(running.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'multipart/mixed', 'x-forwarded-for': `203.0.113.${100 + (i % 10)}` },
            body: JSON.stringify({ query }),
          }).then((response) => response.text()),
        ),
      );
      clearInterval(sample);
      const refused = bodies.filter((text) => text.includes('SERVER_BUSY')).length;
      const completed = bodies.filter((text) => text.includes('"hasNext":false')).length;
      expect(peak).toBeLessThanOrEqual(maxConcurrent);
      expect(refused).toBeGreaterThan(0);
      expect(refused + completed).toBe(30);
    } finally {
      devnet.resetChaos();
    }
    expect(running.edgeStats().admission.running).toBe(0);
  });

  it('a deferred operation still holds its slot after its first payload, until its last', async () => {
    devnet.setChaos({ latencyMs: 400 });
    try {
      const query = `{ network(name: FUJI) { validators(first: 3, filter: { validationStatus: ACTIVE }) { edges { node { nodeId ... on ActiveValidator @defer { pendingRewards(first: 2) { edges { node { txHash } } } } } } } } }`;
      const response = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'multipart/mixed', ...HONEST }, body: JSON.stringify({ query }) });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      while (!text.includes('"hasNext":true')) text += new TextDecoder().decode((await reader.read()).value);
      // The first payload is out; the deferred part is still waiting on the upstream, and holds its slot.
      expect(text).not.toContain('"hasNext":false');
      expect(running.edgeStats().admission.running).toBe(1);
      for (let step = await reader.read(); !step.done; step = await reader.read()) text += new TextDecoder().decode(step.value);
      expect(text).toContain('"hasNext":false');
    } finally {
      devnet.resetChaos();
    }
    await until(() => running.edgeStats().admission.running === 0, 'the slot to be freed');
  });

  it('GET /ready costs the Data API at most one call per interval, whatever the traffic', async () => {
    devnet.resetStats();
    await Promise.all(Array.from({ length: 200 }, () => fetch(`${base}/ready`).then((response) => response.text())));
    expect(devnet.stats().byRoute['GET /v1/chains'] ?? 0).toBeLessThanOrEqual(1);
  });
});

describe('hostile clients over graphql-ws', () => {
  let devnet: Devnet;
  let running: RunningServer;
  let wsUrl: string;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 300 });
    const config = configFromEnv({ PORT: '0', CACHE: 'off', WS_MAX_SOCKETS: '40', MAX_SUBSCRIPTIONS: '8', WRITE_TIMEOUT_MS: '800' });
    running = await startServer({ ...config, dataApiUrl: devnet.url, nodes: Object.entries(devnet.nodeUrls).map(([name, url]) => ({ name, url })) }, pino({ level: 'silent' }));
    wsUrl = running.url.replace(/^http/, 'ws');
  });
  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await running?.close({ graceMs: 500 });
    await devnet?.close();
  });

  const client = (): WsClient => {
    const made = createWsClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    clients.push(made);
    return made;
  };

  it('idle sockets past WS_MAX_SOCKETS make room by closing the longest idle; a socket with a live subscription stays', async () => {
    const subscriber = client();
    const events: unknown[] = [];
    let ended = false;
    const stop = subscriber.subscribe(
      { query: 'subscription { nodeHealth(node: "mainnet") { healthy } }' },
      { next: (event) => void events.push(event), error: () => (ended = true), complete: () => (ended = true) },
    );
    await until(() => events.length > 0, 'the first health event');
    const idle: WebSocket[] = [];
    for (let i = 0; i < 80; i++) {
      const ws = new WebSocket(wsUrl, 'graphql-transport-ws');
      ws.on('error', () => undefined);
      idle.push(ws);
    }
    try {
      await until(() => idle.filter((ws) => ws.readyState === WebSocket.CLOSED).length >= 40, 'idle sockets to be closed');
      expect(running.edgeStats().webSockets).toBeLessThanOrEqual(40);
      // The subscriber's socket was never evicted: its subscription is live and it still runs operations.
      expect(ended).toBe(false);
      const answer = await new Promise<unknown>((resolve, reject) => {
        subscriber.subscribe({ query: '{ avalancheNodes { name } }' }, { next: resolve, error: reject, complete: () => undefined });
      });
      expect(answer).toMatchObject({ data: { avalancheNodes: expect.any(Array) } });
    } finally {
      stop();
      for (const ws of idle) ws.terminate();
    }
  });

  it('one client cannot hold every subscription slot', async () => {
    const on = client();
    const outcomes: string[] = [];
    const stops = Array.from({ length: 8 }, () =>
      on.subscribe(
        { query: 'subscription { nodeHealth(node: "mainnet") { healthy } }' },
        {
          next: (event) => void outcomes.push(event.errors ? String((event.errors[0] as { extensions?: { code?: unknown } }).extensions?.code) : 'event'),
          error: () => void outcomes.push('error'),
          complete: () => undefined,
        },
      ),
    );
    try {
      await until(() => outcomes.includes('SERVER_BUSY') && outcomes.includes('event'), 'a refusal and an event');
      expect(running.edgeStats().admission.subscriptions).toBeLessThanOrEqual(4);
    } finally {
      for (const stop of stops) stop();
    }
  });
});

import { connect, type Socket } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config.ts';
import { REQUEST_LIMITS_DEFAULTS } from '../../src/gateway/plugins/use-request-limits.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

/**
 * The real server (what `npm start` runs, devnet in-process) on a real socket, given the worst request
 * each limit allows, many at once, and the requests just past each limit. Afterwards it still answers
 * /health and ordinary queries. Numbers are logged for the README's closing note.
 */
describe('the worst allowed requests, many at once, leave the server up', () => {
  let running: RunningServer;
  let base: string;
  let host: string;
  let port: number;
  const config = configFromEnv({});
  const maxBody = config.limits.maxBodyBytes;

  beforeAll(async () => {
    running = await startServer({ ...config, port: 0 }, pino({ level: 'silent' }));
    base = running.url.replace(/\/graphql$/, '');
    const url = new URL(running.url);
    host = url.hostname;
    port = Number(url.port);
  });
  afterAll(async () => {
    await running?.close();
  });

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  async function healthy(): Promise<void> {
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    const query = await post(JSON.stringify({ query: '{ network(name: MAINNET) { validators(first: 1) { edges { node { nodeId } } } } }' }));
    expect(((await query.json()) as { errors?: unknown }).errors).toBeUndefined();
  }

  /** Sends raw bytes and reads until the server closes or `until` matches. */
  function raw(request: string | Buffer, options: { keepOpen?: boolean } = {}): Promise<string> {
    return new Promise((resolve) => {
      const socket: Socket = connect(port, host);
      let answer = '';
      socket.on('data', (data) => {
        answer += data.toString('latin1');
        if (options.keepOpen && answer.includes('\r\n\r\n') && answer.includes('}]}')) socket.destroy();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(answer));
      socket.write(request);
    });
  }

  it(`32 concurrent bodies of the maximum size (${maxBody} bytes) are all answered`, async () => {
    const query = '{ network(name: MAINNET) { validators(first: 5) { edges { node { nodeId } } } } }';
    const envelope = JSON.stringify({ query, variables: { pad: '' } });
    // A string variable the operation does not declare: the whole body is read, parsed and ignored.
    const body = envelope.replace('"pad":""', `"pad":"${'x'.repeat(maxBody - envelope.length)}"`);
    expect(Buffer.byteLength(body)).toBe(maxBody);
    const started = Date.now();
    const responses = await Promise.all(Array.from({ length: 32 }, () => post(body)));
    const statuses = responses.map((r) => r.status);
    for (const response of responses) expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
    expect(statuses.every((s) => s === 200)).toBe(true);
    console.info(`[limits] 32 x ${maxBody} B bodies: all 200 in ${Date.now() - started} ms, rss ${rssMb()} MB`);
    await healthy();
  });

  it('64 concurrent documents at the nesting limit and 64 far past it answer 400 with codes', async () => {
    const atLimit = `{ network(name: ${'['.repeat(REQUEST_LIMITS_DEFAULTS.maxDocumentNesting - 2)}MAINNET${']'.repeat(REQUEST_LIMITS_DEFAULTS.maxDocumentNesting - 2)}) { __typename } }`;
    const deep = `${'{ a '.repeat(100_000)}${'}'.repeat(100_000)}`;
    const deepVariables = `{"query":"query($v: [Int]) { __typename }","variables":{"v":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`;
    // application/graphql-response+json: request errors answer 400 (an application/json client gets 200).
    const accept = { accept: 'application/graphql-response+json' };
    const responses = await Promise.all([
      ...Array.from({ length: 64 }, () => post(JSON.stringify({ query: atLimit }), accept)),
      ...Array.from({ length: 64 }, () => post(JSON.stringify({ query: deep }), accept)),
      ...Array.from({ length: 16 }, () => post(deepVariables, accept)),
    ]);
    const codes = await Promise.all(responses.map(async (r) => [r.status, ((await r.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code] as const));
    const summary = new Map<string, number>();
    for (const [status, code] of codes) summary.set(`${status} ${code}`, (summary.get(`${status} ${code}`) ?? 0) + 1);
    expect(Object.fromEntries(summary)).toEqual({
      '400 GRAPHQL_VALIDATION_FAILED': 64,
      '400 QUERY_TOO_DEEP': 64,
      '400 VARIABLES_TOO_LARGE': 16,
    });
    await healthy();
  });

  it('8 concurrent 64 MB bodies are refused after reading at most the limit', async () => {
    const declared = Array.from({ length: 4 }, () =>
      raw(`POST /graphql HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${64 * 1024 * 1024}\r\n\r\n{"query":"`),
    );
    // Chunked, no Content-Length: counted while streaming. The server closes the socket once past the limit.
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    const chunked = Array.from(
      { length: 4 },
      () =>
        new Promise<string>((resolve) => {
          const socket = connect(port, host);
          let answer = '';
          let sent = 0;
          socket.on('data', (data) => (answer += data.toString('latin1')));
          socket.on('error', () => undefined);
          socket.on('close', () => resolve(answer));
          socket.write(`POST /graphql HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
          const pump = () => {
            while (sent < 64 * 1024 * 1024 && !socket.destroyed) {
              sent += chunk.length;
              if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString('latin1')}\r\n`, 'latin1')) return void socket.once('drain', pump);
            }
          };
          pump();
        }),
    );
    const answers = await Promise.all([...declared, ...chunked]);
    for (const answer of answers.slice(0, 4)) {
      expect(answer).toMatch(/^HTTP\/1.1 413/);
      expect(answer).toContain('PAYLOAD_TOO_LARGE');
    }
    // A chunked sender may see the socket closed while still writing; when the answer arrived, it is the 413.
    for (const answer of answers.slice(4)) if (answer) expect(answer).toMatch(/^HTTP\/1.1 413[\s\S]*PAYLOAD_TOO_LARGE/);
    console.info(`[limits] 8 x 64 MB bodies refused (413), rss ${rssMb()} MB`);
    await healthy();
  });

  it('slow bodies hold their sockets, not the server: /health and queries still answer', async () => {
    const slow = Array.from({ length: 16 }, () => {
      const socket = connect(port, host);
      socket.on('error', () => undefined);
      socket.write(`POST /graphql HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"query":`);
      return socket;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await healthy();
    } finally {
      for (const socket of slow) socket.destroy();
    }
  });

  it('an oversized URL or header block is refused by node:http with a coded body', async () => {
    const answer = await raw(`GET /graphql?query=${'a'.repeat(20_000)} HTTP/1.1\r\nhost: ${host}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1.1 431/);
    expect(answer).toContain('"code":"BAD_REQUEST"');
    const long = await fetch(`${running.url}?query=${encodeURIComponent(`{ __typename ${'#'.repeat(REQUEST_LIMITS_DEFAULTS.maxUrlLength)} }`)}`);
    expect([414, 431]).toContain(long.status);
    await healthy();
  });

  it('16 concurrent of the largest allowed response (30 aliases of 100 validators with every field)', async () => {
    const fields =
      'id network txHash nodeId subnetId amountStaked delegationFee amountDelegated startTimestamp endTimestamp blsCredentials { publicKey proofOfPossession } delegatorCount validationStatus validationStatusRaw ... on ActiveValidator { stakePercentage uptimePerformance validatorHealth { reachabilityPercent } geolocation { city country latitude longitude } avalancheGoVersion delegationCapacity }';
    const aliases = Array.from({ length: 30 }, (_, i) => `a${i}: validators(first: 100) { edges { cursor node { ${fields} } } }`).join(' ');
    const query = `{ network(name: MAINNET) { ${aliases} } }`;
    const started = Date.now();
    const responses = await Promise.all(Array.from({ length: 16 }, () => post(JSON.stringify({ query }))));
    const sizes: number[] = [];
    for (const response of responses) {
      const text = await response.text();
      sizes.push(text.length);
      expect(response.status, text.slice(0, 300)).toBe(200);
      expect(text, text.slice(0, 300)).not.toContain('"errors"');
    }
    console.info(`[limits] 16 x ${Math.max(...sizes)} B responses in ${Date.now() - started} ms, rss ${rssMb()} MB`);
    expect(Math.max(...sizes)).toBeLessThan(config.limits.maxResponseBytes);
    await healthy();
  });

  it('reports admission counters on /ready, back to zero when idle', async () => {
    const ready = (await (await fetch(`${base}/ready`)).json()) as { admission?: { running: number; queued: number } };
    expect(ready.admission).toMatchObject({ running: 0, queued: 0 });
  });
});

function rssMb(): number {
  return Math.round(process.memoryUsage().rss / 1024 / 1024);
}

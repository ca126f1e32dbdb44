import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { buildSchema } from 'graphql';
import { CloseCode } from 'graphql-ws';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { freePort, root } from '../../bench/process.ts';
import { createGateway } from '../../src/gateway/gateway.ts';
import { useLoggedServer } from '../../src/server/graphql-ws-server.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';

/**
 * With LOG_FORMAT=json every line the gateway writes, on stdout and stderr, is one JSON object, and a
 * line about a request carries its id: a real server (`src/server/cli.ts` in a process of its own, the
 * built-in devnet) under malformed requests and WebSocket clients that fail their operations or vanish
 * mid-stream. graphql-ws and yoga used to print multi-line stack traces without any id.
 */

type Line = Record<string, unknown>;

/** Messages of lines that are about one request (HTTP or a WebSocket connection's). */
const ABOUT_A_REQUEST = /^(Parsing request|Processing GraphQL Parameters|graphql-ws: |upstream failure|upstream call abandoned|an upstream value)/;

describe('JSON log lines of a real server (LOG_FORMAT=json)', () => {
  let child: ChildProcess;
  const raw: string[] = [];
  let base = '';
  let devnet = '';

  beforeAll(async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
      cwd: root,
      env: { ...process.env, LOG_FORMAT: 'json', LOG_LEVEL: 'debug', PORT: String(port), CACHE: 'off', CURSOR_SECRET: 'json-logs-test-secret-0123456789' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let pending = '';
    const collect = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      raw.push(...parts.filter((part) => part.trim() !== ''));
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const started = Date.now();
    while (!devnet) {
      if (child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode}):\n${raw.join('\n')}`);
      if (Date.now() - started > 60_000) throw new Error(`the gateway did not start:\n${raw.join('\n')}`);
      for (const line of raw) {
        if (!line.includes('chaingraph is running')) continue;
        const running = JSON.parse(line) as { url: string; devnet: string };
        base = running.url;
        devnet = running.devnet;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  const post = (query: string, headers: Record<string, string> = {}) =>
    fetch(base, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) }).then((r) => r.text());

  /** A graphql-ws client that sends `messages` after the ack, then vanishes (terminate, no close frame) after `lingerMs`. */
  const wsClient = (messages: unknown[], options: { lingerMs: number; requestId?: string; connectionParams?: Record<string, unknown> }) =>
    new Promise<void>((resolve) => {
      const socket = new WebSocket(base.replace(/^http/, 'ws'), 'graphql-transport-ws', options.requestId ? { headers: { 'x-request-id': options.requestId } } : {});
      const done = () => resolve();
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: options.connectionParams ?? {} })));
      socket.once('message', () => {
        for (const message of messages) socket.send(JSON.stringify(message));
        setTimeout(() => socket.terminate(), options.lingerMs);
      });
      socket.on('close', done);
      socket.on('error', done);
    });

  it('every line is JSON, and every line about a request carries its id', async () => {
    // Malformed HTTP requests.
    for (const search of ['variables=%7Bbad', 'query=%7B__typename%7D&extensions=%5B', 'query=a&query=b', 'query=%7B__typename%7D&variables=%5B1%5D']) {
      const response = await fetch(`${base}?${search}`, { headers: { 'x-request-id': 'http-bad' } });
      expect(response.status).toBe(400);
    }
    await post('{ network(name: MAINNET) { validators(first: 2) { edges @stream(initialCount: -1) { cursor } } } }', { 'x-request-id': 'http-stream' });
    // Upstream failures: the devnet fails the validators route for a while.
    await fetch(`${devnet}/__devnet/chaos`, { method: 'POST', body: JSON.stringify({ failNext: 200, faultStatus: 500, routeFilter: 'validators' }) });
    await post('{ network(name: MAINNET) { validators(first: 2) { edges { cursor } } } }', { 'x-request-id': 'http-upstream' });
    // 25 WebSocket clients: a subscription, a failing query, a refused one, then gone mid-stream.
    const operations = [
      { id: 's', type: 'subscribe', payload: { query: 'subscription { blocks(network: MAINNET, blockchainId: "p-chain") { blockNumber } }' } },
      { id: 'q', type: 'subscribe', payload: { query: '{ network(name: MAINNET) { validators(first: 5) { edges { node { nodeId } } } } }' } },
      { id: 'r', type: 'subscribe', payload: { query: '{ network(name: MAINNET) { validators(first: 2) { edges @stream(initialCount: -1) { cursor } } } }' } },
    ];
    await Promise.all(Array.from({ length: 25 }, (_, i) => wsClient(operations, { lingerMs: 20 + i * 7, requestId: `ws-${i}` })));
    // A connection that sends an API key no header can carry.
    await wsClient([{ id: 'k', type: 'subscribe', payload: { query: '{ __typename }' } }], { lingerMs: 500, requestId: 'ws-key', connectionParams: { 'x-service-api-key': 'a\nb' } });
    await fetch(`${devnet}/__devnet/chaos`, { method: 'POST', body: '' });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const lines: Line[] = [];
    for (const text of raw) {
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        throw new Error(`a line that is not JSON: ${text.slice(0, 300)}`);
      }
      expect(typeof line === 'object' && line !== null && !Array.isArray(line), text).toBe(true);
      lines.push(line as Line);
    }
    // No process warning either (they are JSON lines too, but 25 subscribers are no listener leak).
    expect(lines.filter((line) => String(line['msg']).startsWith('process warning'))).toEqual([]);
    const aboutRequests = lines.filter((line) => ABOUT_A_REQUEST.test(String(line['msg'])) || line['err'] !== undefined);
    const withoutId = aboutRequests.filter((line) => typeof line['requestId'] !== 'string' || line['requestId'] === '');
    expect(withoutId).toEqual([]);
    const ids = new Set(lines.map((line) => line['requestId']));
    for (const id of ['http-bad', 'http-stream', 'http-upstream']) expect(ids, id).toContain(id);
    // The upstream failure is a warning of its request.
    expect(lines.find((line) => line['msg'] === 'upstream failure' && line['requestId'] === 'http-upstream')).toBeDefined();
    // What graphql-ws logs is about one connection: its upgrade's id.
    for (const line of lines.filter((each) => String(each['msg']).startsWith('graphql-ws: '))) expect(String(line['requestId'])).toMatch(/^ws-/);
    // Malformed parameters are the caller's mistake: nothing above debug is logged about them.
    expect(lines.filter((line) => line['requestId'] === 'http-bad' && Number(line['level']) > 20)).toEqual([]);
  }, 60_000);
});

describe('graphql-ws\'s own failures (in process)', () => {
  it('are one error line bound to the connection\'s request id, and the socket closes 4500 without the error\'s text', async () => {
    const lines: Line[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Line);
        done();
      },
    });
    const server = createServer();
    const wss = new WebSocketServer({ server });
    // A hook that throws: graphql-ws reports it as an internal error of the message's handling.
    const disposable = useLoggedServer({ schema: buildSchema('type Query { a: Int }'), onSubscribe: () => { throw new Error('a hook failed'); } }, wss, 0, pino({ level: 'info' }, stream));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}`, 'graphql-transport-ws', { headers: { 'x-request-id': 'ws-hook-1' } });
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
      socket.once('message', () => socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ a }' } })));
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    await disposable.dispose();
    await new Promise((resolve) => server.close(resolve));
    expect(closed).toEqual({ code: CloseCode.InternalServerError, reason: 'Internal server error' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, requestId: 'ws-hook-1', msg: 'graphql-ws: handling a message failed: closing the socket', err: { message: 'a hook failed' } });
  });
});

describe('yoga\'s own log lines (in process)', () => {
  it('an unexpected error yoga masks is logged once, as JSON with the request id and the stack inside', async () => {
    const lines: Line[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Line);
        done();
      },
    });
    const real = createDataApiClient({ baseUrl: 'http://127.0.0.1:9' });
    const dataApi = { ...real, listValidators: () => Promise.reject(new Error('a bug, not an upstream failure')) };
    const gateway = createGateway({ graphiql: false }, { dataApi, nodes: [], logger: pino({ level: 'info' }, stream) });
    try {
      const response = await gateway.fetch('http://chaingraph.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'masked-1' },
        body: JSON.stringify({ query: '{ network(name: MAINNET) { validators(first: 2) { edges { cursor } } } }' }),
      });
      const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      expect(body.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      const errors = lines.filter((line) => line['level'] === 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ requestId: 'masked-1', err: { message: 'a bug, not an upstream failure' } });
      expect(String((errors[0]?.['err'] as { stack?: unknown }).stack)).toContain('a bug, not an upstream failure');
    } finally {
      await gateway.dispose();
    }
  });
});

describe('a setting the gateway cannot use (a real process, LOG_FORMAT=json)', () => {
  /** Runs `src/server/cli.ts` with `env` until it exits: its exit code and its output lines. */
  async function start(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
      cwd: root,
      env: { ...process.env, LOG_FORMAT: 'json', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, lines: out.split('\n').filter((line) => line.trim() !== '') };
  }

  it('exits 1 with one line naming the variable and what it expects, without a stack or the secret in it', async () => {
    for (const [value, expected] of [
      ['127.0.0.1:4899', /^chaingraph did not start: DATA_API_URL: "127\.0\.0\.1:4899" is not a valid URL \(expected e\.g\. http/],
      ['localhost:4899', /^chaingraph did not start: DATA_API_URL: .* must use http or https/],
      ['ftp://user:hunter2-secret@example.test/', /^chaingraph did not start: DATA_API_URL: .* must use http or https/],
    ] as const) {
      const { code, lines } = await start({ DATA_API_URL: value });
      expect(code).toBe(1);
      const fatal = lines.map((line) => JSON.parse(line) as Line).filter((line) => line['level'] === 60);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]?.['msg']).toMatch(expected);
      expect(fatal[0]?.['err']).toBeUndefined();
      expect(lines.join('\n')).not.toContain('hunter2-secret');
    }
  }, 60_000);
});

import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { createClient as createSseClient, type Client as SseClient } from 'graphql-sse';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { configFromEnv } from '../../src/server/config.ts';
import { nodeHealthPolling } from '../../src/loaders/node-health.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

// Persisted operations hold on every transport, not only on yoga's HTTP request stage: graphql-ws
// and graphql-sse's single-connection mode take the document from the manifest or the APQ store, and
// with ONLY_PERSISTED refuse query text as HTTP does.

const HEALTH = 'subscription { nodeHealth(node: "mainnet") { healthy } }';
const CHAINS = '{ chains { chainId } }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });

type Outcome = { data?: unknown; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] };

/** The first result of an operation, or the errors it was refused with. */
async function first(client: WsClient | SseClient<boolean>, payload: { query: string; extensions?: Record<string, unknown> }): Promise<Outcome> {
  const iterator = (client as WsClient).iterate(payload);
  try {
    const { value } = await iterator.next();
    return value as Outcome;
  } catch (error) {
    const errors = Array.isArray(error) ? error : [error];
    return { errors: errors.map((e: { message?: string; extensions?: Record<string, unknown> }) => ({ message: String(e.message), ...(e.extensions ? { extensions: e.extensions } : {}) })) };
  } finally {
    await iterator.return?.();
  }
}

/** HTTP status of each refusal: graphql-sse's client reports a refused POST by its status only (the coded body is not read). */
const STATUS: Record<string, number> = { PERSISTED_QUERY_ONLY: 400, PERSISTED_QUERY_NOT_FOUND: 404, PERSISTED_QUERY_MISMATCH: 400 };
/** The refusal's code (graphql-ws), or the code its HTTP status stands for (graphql-sse). */
const codeOf = (outcome: Outcome) => {
  const error = outcome.errors?.[0];
  const code = error?.extensions?.['code'];
  if (typeof code === 'string') return code;
  const status = /^Server responded with (\d+)/.exec(error?.message ?? '')?.[1];
  return Object.entries(STATUS).find(([c, s]) => String(s) === status && c !== 'PERSISTED_QUERY_MISMATCH')?.[0] ?? error?.message;
};

describe.each([
  ['graphql-ws', (running: RunningServer): WsClient | SseClient<boolean> => createWsClient({ url: running.url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, lazy: true })],
  ['graphql-sse single connection', (running: RunningServer): WsClient | SseClient<boolean> => createSseClient({ url: running.url, singleConnection: true, retryAttempts: 0 })],
] as const)('%s', (_transport, connect) => {
  const saved = nodeHealthPolling.intervalMs;
  const servers: RunningServer[] = [];
  const clients: (WsClient | SseClient<boolean>)[] = [];
  let onlyPersisted: RunningServer;
  let apq: RunningServer;

  beforeAll(async () => {
    nodeHealthPolling.intervalMs = 100;
    const dir = mkdtempSync(join(tmpdir(), 'chaingraph-manifest-'));
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ [sha256(HEALTH)]: HEALTH, [sha256(CHAINS)]: CHAINS }));
    onlyPersisted = await startServer(configFromEnv({ PORT: '0', PERSISTED_OPERATIONS: manifest, ONLY_PERSISTED: 'true' }), pino({ level: 'silent' }));
    apq = await startServer(configFromEnv({ PORT: '0' }), pino({ level: 'silent' }));
    servers.push(onlyPersisted, apq);
  });
  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await Promise.all(servers.map((server) => server.close({ graceMs: 500 })));
    nodeHealthPolling.intervalMs = saved;
  });
  const client = (running: RunningServer) => {
    const made = connect(running);
    clients.push(made);
    return made;
  };

  it('ONLY_PERSISTED: query text is refused, subscription or query, before anything runs', async () => {
    const on = client(onlyPersisted);
    expect(codeOf(await first(on, { query: HEALTH }))).toBe('PERSISTED_QUERY_ONLY');
    expect(codeOf(await first(on, { query: CHAINS }))).toBe('PERSISTED_QUERY_ONLY');
    // Even the manifest's own text, sent as text.
    expect(codeOf(await first(on, { query: HEALTH, extensions: persisted(HEALTH) }))).toBe('PERSISTED_QUERY_ONLY');
  });

  it('ONLY_PERSISTED: a manifest document named by its hash runs', async () => {
    const on = client(onlyPersisted);
    expect(await first(on, { query: '', extensions: persisted(HEALTH) })).toMatchObject({ data: { nodeHealth: { healthy: expect.any(Boolean) } } });
    expect(await first(on, { query: '', extensions: persisted(CHAINS) })).toMatchObject({ data: { chains: expect.any(Array) } });
    expect(codeOf(await first(on, { query: '', extensions: persisted('{ nope }') }))).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('APQ: an unknown hash is PERSISTED_QUERY_NOT_FOUND, a wrong one a MISMATCH, a registered one runs', async () => {
    const on = client(apq);
    const query = '{ chains { chainId chainName } }';
    expect(codeOf(await first(on, { query: '', extensions: persisted(query) }))).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(['PERSISTED_QUERY_MISMATCH', 'PERSISTED_QUERY_ONLY' /* 400, over graphql-sse */]).toContain(codeOf(await first(on, { query, extensions: persisted('{ other }') })));
    expect(await first(on, { query, extensions: persisted(query) })).toMatchObject({ data: { chains: expect.any(Array) } });
    expect(await first(on, { query: '', extensions: persisted(query) })).toMatchObject({ data: { chains: expect.any(Array) } });
  });
});

describe('graphql-sse single connection, on the wire', () => {
  it('ONLY_PERSISTED: an operation sent to a reserved stream with query text is a coded 400', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chaingraph-manifest-'));
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ [sha256(CHAINS)]: CHAINS }));
    const running = await startServer(configFromEnv({ PORT: '0', PERSISTED_OPERATIONS: manifest, ONLY_PERSISTED: 'true' }), pino({ level: 'silent' }));
    try {
      const reserved = await fetch(running.url, { method: 'PUT', headers: { accept: 'text/plain' } });
      expect(reserved.status).toBe(201);
      const token = await reserved.text();
      const body = JSON.stringify({ query: CHAINS, extensions: { operationId: '1' } });
      const refused = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': token }, body });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ errors: [{ extensions: { code: 'PERSISTED_QUERY_ONLY' } }] });
    } finally {
      await running.close({ graceMs: 500 });
    }
  });
});

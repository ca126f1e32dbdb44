import { createClient, type Client } from 'graphql-ws';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

// RATE_LIMIT_RPS holds over graphql-ws too: opening a socket and each operation sent on it take a
// token from the client's bucket, so a socket is no way around the per-client rate.

describe('the per-client rate limit over graphql-ws', () => {
  let running: RunningServer;
  const clients: Client[] = [];
  beforeAll(async () => {
    running = await startServer(configFromEnv({ PORT: '0', RATE_LIMIT_RPS: '0.5', RATE_LIMIT_BURST: '4' }), pino({ level: 'silent' }));
  });
  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await running?.close({ graceMs: 500 });
  });

  async function run(client: Client): Promise<{ data?: unknown; code?: unknown }> {
    const iterator = client.iterate({ query: '{ chains { chainId } }' });
    try {
      const { value } = await iterator.next();
      const result = value as { data?: unknown; errors?: { extensions?: { code?: unknown } }[] };
      return { data: result.data, code: result.errors?.[0]?.extensions?.code };
    } catch (error) {
      const errors = Array.isArray(error) ? (error as { extensions?: { code?: unknown } }[]) : [];
      return { code: errors[0]?.extensions?.code ?? String(error) };
    } finally {
      await iterator.return?.();
    }
  }

  it('counts the upgrade and each operation; beyond the burst, RATE_LIMITED with retryAfter, then 429 on a new socket', async () => {
    const url = running.url.replace(/^http/, 'ws');
    // One socket for every operation (a lazy client would close it between them).
    const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, lazyCloseTimeout: 60_000 });
    clients.push(client);
    // Burst 4: the upgrade takes one, three operations pass, the fourth is refused.
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await run(client));
    expect(outcomes.map((o) => o.code ?? "ok")).toEqual(["ok", "ok", "ok", "RATE_LIMITED"]);
    expect(outcomes[3]?.code).toBe('RATE_LIMITED');
    // A second socket from the same client is refused at the upgrade.
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(url, 'graphql-transport-ws');
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    expect(refused).toBe(429);
  });
});

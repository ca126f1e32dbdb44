import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import pino from 'pino';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer } from '../../src/server/server.ts';
import { connectRedis, ensureRedis, freePort, redisAvailable, stopRedis } from '../helpers/redis.ts';

// One replica, one wiring: the response cache, the fleet-wide upstream rate and the subscription topics
// share one command connection, and pub/sub has the one subscriber connection it needs.

if (!redisAvailable) console.warn('redis.test.ts: SKIPPED: set TEST_REDIS_URL or install redis-server to run it');

/** The names of the clients connected to Redis now, as `CLIENT LIST` from a connection of our own reports them. */
async function clientNames(admin: Redis): Promise<string[]> {
  const list = (await admin.client('LIST')) as string;
  return list
    .split('\n')
    .map((line) => /(?:^| )name=(\S*)/.exec(line)?.[1] ?? '')
    .filter((name) => name.startsWith('chaingraph:'));
}

describe.skipIf(!redisAvailable)('the Redis wiring of a replica', () => {
  let url: string;
  let admin: Redis;
  beforeAll(async () => {
    url = await ensureRedis();
    admin = new Redis(url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await stopRedis();
  });

  it('a gateway started with REDIS_URL holds exactly two connections: the shared one and the subscriber', async () => {
    const before = await clientNames(admin);
    // CACHE defaults to redis with REDIS_URL; UPSTREAM_MAX_RPS puts the rate limit on Redis too.
    const server = await startServer(configFromEnv({ PORT: '0', REDIS_URL: url, UPSTREAM_MAX_RPS: '100' }), pino({ level: 'silent' }));
    try {
      const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ chains { chainId } }' }) });
      expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
      const added = (await clientNames(admin)).filter((name) => !before.includes(name)).sort();
      expect(added).toHaveLength(2);
      const replica = /^chaingraph:(.+):commands$/.exec(added[0] ?? '')?.[1];
      expect(added).toEqual([`chaingraph:${replica}:commands`, `chaingraph:${replica}:subscriber`]);
    } finally {
      await server.close({ graceMs: 500 });
    }
    // Both ended by the gateway's close.
    expect((await clientNames(admin)).filter((name) => !before.includes(name))).toEqual([]);
  });

  it('logs an outage once per connection, never with the password, and closes once', async () => {
    const lines: Record<string, unknown>[] = [];
    const raw: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void (raw.push(line), lines.push(JSON.parse(line) as Record<string, unknown>)) });
    const redis = connectRedis(`redis://user:hunter2-secret@127.0.0.1:${await freePort()}`, { connectTimeoutMs: 100, logger });
    expect(await redis.ready(500)).toBe(false); // several reconnect attempts fail meanwhile
    const close = redis.close();
    expect(redis.close()).toBe(close);
    await close;
    expect(lines.map((line) => line['connection']).sort()).toEqual(['commands', 'subscriber']);
    expect(lines.every((line) => line['level'] === 40)).toBe(true);
    expect(raw.join('')).not.toContain('hunter2');
    expect(lines[0]?.['redis']).toMatch(/^redis:\/\/\[redacted\]@127\.0\.0\.1:\d+$/);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import pino from 'pino';
import { createRedisConnections, type RedisConnections, type RedisConnectionsOptions } from '../../src/server/redis.ts';

/**
 * A real Redis for the tests that need one: `TEST_REDIS_URL` (what `.ci/run` starts), else a
 * `redis-server` this test file spawns on a free port and stops in its `afterAll`.
 */
const REDIS_BINARY = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path));

/** Whether a Redis can be had; the Redis halves of a test file are skipped without one. */
export const redisAvailable = Boolean(process.env['TEST_REDIS_URL'] || REDIS_BINARY);

let redisUrl: string | undefined = process.env['TEST_REDIS_URL'];
let redisProcess: ChildProcess | undefined;

/** A port nothing listens on (for a moment): for servers to start on, or for an unreachable URL. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The URL of a Redis that answers, spawning one the first time when `TEST_REDIS_URL` is unset. */
export async function ensureRedis(): Promise<string> {
  if (redisUrl) return redisUrl;
  if (!REDIS_BINARY) throw new Error('no Redis: set TEST_REDIS_URL or install redis-server');
  const port = await freePort();
  redisProcess = spawn(REDIS_BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const probe = connectRedis(url);
  // The server needs a moment to listen; ioredis reconnects until it does.
  const up = await probe.ready(5_000);
  await probe.close();
  if (!up) throw new Error(`redis-server did not come up on port ${port}`);
  redisUrl = url;
  return url;
}

/** Stops the Redis this file spawned, if any (call from `afterAll`). */
export async function stopRedis(): Promise<void> {
  if (redisProcess && redisProcess.exitCode === null) {
    const exited = new Promise((resolve) => redisProcess?.once('exit', resolve));
    redisProcess.kill('SIGTERM');
    await exited;
  }
}

/**
 * The production wiring's connections to `url` (`src/server/redis.ts`), logging nowhere unless given a
 * logger: the caller closes them.
 */
export function connectRedis(url: string, options: Partial<RedisConnectionsOptions> = {}): RedisConnections {
  return createRedisConnections({ url, logger: pino({ level: 'silent' }), ...options });
}

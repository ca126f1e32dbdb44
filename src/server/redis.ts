import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createRedactor, urlSecrets } from '../lib/redact.ts';

/** Options of {@link createRedisConnections}. */
export interface RedisConnectionsOptions {
  /** `redis://[user:password@]host:port[/db]` (`REDIS_URL`). */
  url: string;
  /** Told once per change of a connection's state (lost, back); never sees the URL's credentials. */
  logger: Logger;
  /** This replica's name in its client names (`chaingraph:<replica>:commands`) and topic leases. Default a random UUID. */
  replicaId?: string;
  /**
   * Longest wait for one command on the shared connection, ms: a slower answer is a cache miss, a
   * per-replica rate count, a lease not held. The strictest of what its users need (the rate limiter's
   * 200 ms; the cache once allowed 500, leases 1000), so no user waits on Redis longer than it would alone.
   * Default 200.
   */
  commandTimeoutMs?: number;
  /** TCP connect timeout, ms. Default 2000. */
  connectTimeoutMs?: number;
}

/** The replica's two connections to Redis, opened from `REDIS_URL` in one place. */
export interface RedisConnections {
  readonly replicaId: string;
  /**
   * The shared command connection: the response cache, the fleet-wide upstream rate, publishing topic
   * events and their leases. It never queues: while Redis is away every command fails at once, so each
   * user falls back (a miss, a per-replica count, no lease) instead of waiting.
   */
  readonly commands: Redis;
  /** The connection pub/sub needs to itself: it queues its SUBSCRIBEs, retries forever and resubscribes after a reconnect. */
  readonly subscriber: Redis;
  /** Resolves true once the command connection is ready, false when it is not within `timeoutMs` (default 5000). */
  ready(timeoutMs?: number): Promise<boolean>;
  /** Ends both connections; later calls return the first call's promise. */
  close(): Promise<void>;
}

export const REDIS_CONNECTIONS_DEFAULTS = { commandTimeoutMs: 200, connectTimeoutMs: 2_000 } as const;

/**
 * Opens the replica's Redis connections: one for commands, shared by every user, and the subscriber
 * pub/sub requires (a subscribed connection can run no other command). Their failures are logged here,
 * once when a connection is lost and once when it answers again (ioredis emits an error per reconnect
 * attempt), with the URL's credentials redacted; the users only fall back.
 */
export function createRedisConnections(options: RedisConnectionsOptions): RedisConnections {
  const replicaId = options.replicaId ?? randomUUID();
  const connectTimeout = options.connectTimeoutMs ?? REDIS_CONNECTIONS_DEFAULTS.connectTimeoutMs;
  const commands = new Redis(options.url, {
    connectionName: `chaingraph:${replicaId}:commands`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? REDIS_CONNECTIONS_DEFAULTS.commandTimeoutMs,
    connectTimeout,
  });
  // No ready check: ioredis checks with INFO, which a connection whose SUBSCRIBE went out first refuses
  // ("only subscriber commands"), leaving it subscribed but never delivering a message.
  const subscriber = new Redis(options.url, { connectionName: `chaingraph:${replicaId}:subscriber`, maxRetriesPerRequest: null, connectTimeout, enableReadyCheck: false });

  const redactor = createRedactor(urlSecrets(options.url));
  const redis = redactor.redact(options.url);
  let closing: Promise<void> | undefined;
  for (const [connection, client] of [['commands', commands], ['subscriber', subscriber]] as const) {
    let down = false;
    client.on('error', (error: Error & { code?: string }) => {
      if (down || closing) return;
      down = true;
      options.logger.warn(
        { redis, connection, error: redactor.redact(error.message), ...(error.code ? { code: error.code } : {}) },
        'Redis unavailable: until it answers again the response cache is skipped, UPSTREAM_MAX_RPS counts per replica and subscription events wait',
      );
    });
    client.on('ready', () => {
      if (!down) return;
      down = false;
      options.logger.info({ redis, connection }, 'Redis answers again');
    });
  }

  return {
    replicaId,
    commands,
    subscriber,
    ready(timeoutMs = 5_000) {
      if (commands.status === 'ready') return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const done = (value: boolean): void => {
          clearTimeout(timer);
          commands.off('ready', onReady);
          resolve(value);
        };
        const onReady = (): void => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        commands.on('ready', onReady);
      });
    },
    close: () =>
      (closing ??= Promise.all(
        [commands, subscriber].map(async (client) => {
          if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
          else client.disconnect();
        }),
      ).then(() => undefined)),
  };
}

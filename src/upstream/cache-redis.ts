import { Redis } from 'ioredis';
import type { CacheStats, ResponseCache } from './cache.ts';

/** Options of {@link createRedisCache}. */
export interface RedisCacheOptions {
  /** `redis://[user:password@]host:port[/db]` (`REDIS_URL`). */
  url: string;
  /** Prepended to every key, so several deployments can share one Redis. Default `chaingraph:`. */
  keyPrefix?: string;
  /**
   * Longest wait for one Redis command; a slower answer reads as a miss, so a
   * sick Redis costs each request at most this much. Default 500.
   */
  commandTimeoutMs?: number;
  /** TCP connect timeout. Default 2000. */
  connectTimeoutMs?: number;
  /**
   * Told about the first failure of an outage (connection lost, command failed);
   * further failures stay quiet until Redis answers again. Default `console.warn`.
   */
  onError?: (error: Error) => void;
}

export interface RedisCache extends ResponseCache {
  /** Resolves true once connected, false when not connected within `timeoutMs` (default 5000). */
  ready(timeoutMs?: number): Promise<boolean>;
}

export const REDIS_CACHE_DEFAULTS = { keyPrefix: 'chaingraph:', commandTimeoutMs: 500, connectTimeoutMs: 2_000 } as const;

/**
 * A {@link ResponseCache} on Redis (`SET key value PX ttl`), for several replicas
 * sharing answers. A cache must never fail a request: while Redis is down or
 * still connecting every read is a miss and every write is dropped, without
 * waiting (no offline queue), and the outage is reported once.
 */
export function createRedisCache(options: RedisCacheOptions): RedisCache {
  const onError = options.onError ?? ((error: Error) => console.warn(`chaingraph: Redis cache unavailable, serving without it: ${error.message}`));
  const redis = new Redis(options.url, {
    keyPrefix: options.keyPrefix ?? REDIS_CACHE_DEFAULTS.keyPrefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? REDIS_CACHE_DEFAULTS.commandTimeoutMs,
    connectTimeout: options.connectTimeoutMs ?? REDIS_CACHE_DEFAULTS.connectTimeoutMs,
  });
  const counters: CacheStats = { hits: 0, misses: 0, sets: 0 };
  let failing = false;
  let closed = false;

  const report = (error: unknown): void => {
    if (failing || closed) return;
    failing = true;
    try {
      onError(error instanceof Error ? error : new Error(String(error)));
    } catch {
      /* a broken logger must not break the cache */
    }
  };
  // ioredis emits one error per reconnect attempt; without a listener it prints them all.
  redis.on('error', report);
  redis.on('ready', () => {
    failing = false;
  });
  redis.connect().catch(report);

  const usable = (): boolean => !closed && redis.status === 'ready';

  return {
    async get(key) {
      if (!usable()) {
        counters.misses += 1;
        return undefined;
      }
      try {
        const value = await redis.get(key);
        failing = false;
        if (value === null) {
          counters.misses += 1;
          return undefined;
        }
        counters.hits += 1;
        return value;
      } catch (error) {
        report(error);
        counters.misses += 1;
        return undefined;
      }
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0 || !usable()) return;
      try {
        await redis.set(key, value, 'PX', Math.ceil(ttlMs));
        failing = false;
        counters.sets += 1;
      } catch (error) {
        report(error);
      }
    },
    async delete(key) {
      if (!usable()) return;
      try {
        await redis.del(key);
      } catch (error) {
        report(error);
      }
    },
    stats: () => ({ ...counters }),
    ready(timeoutMs = 5_000) {
      if (redis.status === 'ready') return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const done = (value: boolean): void => {
          clearTimeout(timer);
          redis.off('ready', onReady);
          resolve(value);
        };
        const onReady = (): void => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        redis.on('ready', onReady);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      if (redis.status === 'ready') {
        await redis.quit().catch(() => redis.disconnect());
      } else {
        redis.disconnect();
      }
    },
  };
}

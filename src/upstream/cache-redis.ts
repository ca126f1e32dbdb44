import type { Redis } from 'ioredis';
import type { CacheEntry, CacheStats, ResponseCache } from './cache.ts';
import { createMemoryCache } from './cache-memory.ts';

/** Options of {@link createRedisCache}. */
export interface RedisCacheOptions {
  /**
   * A connection that does not queue while Redis is away (`enableOfflineQueue: false`) and bounds each
   * command (`commandTimeout`): a slower answer reads as a miss, so a sick Redis costs each request at
   * most that much. Opened, logged and closed by its owner (the server's Redis wiring), not by the cache.
   */
  redis: Redis;
  /** Prepended to every key, so several deployments can share one Redis. Default `chaingraph:`. */
  keyPrefix?: string;
  /**
   * Told about the first failed command of an outage; further failures stay quiet until a command
   * succeeds again. The connection's own errors are its owner's to report. Default `console.warn`.
   */
  onError?: (error: Error) => void;
  /**
   * Byte budget of the parsed answers each replica keeps in front of Redis (each until
   * the expiry Redis has for it), so a hot answer is fetched and parsed once per
   * replica and TTL, not once per read. 0 turns it off. Default 4 MiB.
   */
  localMaxBytes?: number;
}

export const REDIS_CACHE_DEFAULTS = { keyPrefix: 'chaingraph:', localMaxBytes: 4 * 1024 * 1024 } as const;

/**
 * A {@link ResponseCache} on Redis (`SET key value PX ttl`), for several replicas
 * sharing answers. A cache must never fail a request: while Redis is down or
 * still connecting every read is a miss and every write is dropped, without
 * waiting (the connection does not queue), and a failing command is reported once.
 *
 * Redis holds `<expiry in epoch ms>:<JSON>`, so a replica that reads an answer
 * another one stored knows how long it may keep it in its own parsed store.
 */
export function createRedisCache(options: RedisCacheOptions): ResponseCache {
  const onError = options.onError ?? ((error: Error) => console.warn(`chaingraph: Redis cache unavailable, serving without it: ${error.message}`));
  const { redis } = options;
  // Prefixed here, not by ioredis' keyPrefix: the connection is shared with users of other keys.
  const keyPrefix = options.keyPrefix ?? REDIS_CACHE_DEFAULTS.keyPrefix;
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

  const usable = (): boolean => !closed && redis.status === 'ready';
  const localMaxBytes = options.localMaxBytes ?? REDIS_CACHE_DEFAULTS.localMaxBytes;
  const local = localMaxBytes > 0 ? createMemoryCache({ maxBytes: localMaxBytes }) : undefined;

  const fromRedis = async (key: string): Promise<CacheEntry | undefined> => {
    if (!usable()) return undefined;
    try {
      const stored = await redis.get(keyPrefix + key);
      failing = false;
      const entry = stored === null ? undefined : decode(stored);
      if (entry) local?.hold(key, entry.value, entry.expiresAt);
      return entry;
    } catch (error) {
      report(error);
      return undefined;
    }
  };

  return {
    get(key) {
      const held = local?.get(key);
      if (held !== undefined && !(held instanceof Promise)) {
        counters.hits += 1;
        return held;
      }
      return fromRedis(key).then((entry) => {
        if (entry) counters.hits += 1;
        else counters.misses += 1;
        return entry;
      });
    },
    async set(key, value, ttlMs, expiresAt = Date.now() + ttlMs) {
      if (!(ttlMs > 0)) return;
      // Held here even while Redis is away: this replica's readers still share it.
      local?.hold(key, value, expiresAt);
      if (!usable()) return;
      try {
        await redis.set(keyPrefix + key, `${expiresAt}:${JSON.stringify(value)}`, 'PX', Math.ceil(ttlMs));
        failing = false;
        counters.sets += 1;
      } catch (error) {
        report(error);
      }
    },
    async delete(key) {
      await local?.delete(key);
      if (!usable()) return;
      try {
        await redis.del(keyPrefix + key);
      } catch (error) {
        report(error);
      }
    },
    stats: () => ({ ...counters }),
    async close() {
      if (closed) return;
      closed = true;
      await local?.close();
    },
  };
}

/** `<expiry>:<JSON>` as stored; anything else (an old format, a foreign writer) reads as a miss. */
function decode(stored: string): CacheEntry | undefined {
  const colon = stored.indexOf(':');
  const expiresAt = Number(stored.slice(0, colon));
  if (colon < 1 || !Number.isSafeInteger(expiresAt) || expiresAt <= Date.now()) return undefined;
  try {
    return { value: JSON.parse(stored.slice(colon + 1)) as unknown, expiresAt };
  } catch {
    return undefined;
  }
}

/**
 * Cross-request response caches for the upstream layer. A cache stores JSON
 * text under a string key with a per-entry TTL; the decorators in
 * `cached-clients.ts` decide what is cached and for how long.
 *
 * Values are JSON strings in both implementations, so the in-memory cache
 * behaves like Redis: every reader gets its own parsed copy and nobody can
 * mutate what another request will read.
 */
import { LRUCache } from 'lru-cache';

export { createRedisCache, type RedisCache, type RedisCacheOptions } from './cache-redis.ts';

export interface CacheStats {
  /** Reads that found a live entry. */
  hits: number;
  /** Reads that found nothing (or failed: a broken store reads as empty). */
  misses: number;
  /** Entries written. */
  sets: number;
}

/** A shared store of upstream answers. Implementations never throw from get/set/delete. */
export interface ResponseCache {
  /** The stored JSON text, or undefined when absent, expired, or the store is unavailable. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` for `ttlMs` milliseconds (a TTL of 0 or less stores nothing). */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  stats(): CacheStats;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

/** Options of {@link createMemoryCache}. */
export interface MemoryCacheOptions {
  /** Most entries kept; the least recently used goes first. Default 10000. */
  maxEntries?: number;
  /**
   * Budget for keys plus values, counted in characters (about bytes for the
   * ASCII JSON upstreams send). A value larger than the whole budget is not stored.
   * Default 64 MiB.
   */
  maxBytes?: number;
}

export const MEMORY_CACHE_DEFAULTS = { maxEntries: 10_000, maxBytes: 64 * 1024 * 1024 } as const;

/** An in-process LRU cache with per-entry TTLs; the default when `REDIS_URL` is unset. */
export function createMemoryCache(options: MemoryCacheOptions = {}): ResponseCache {
  const maxEntries = options.maxEntries ?? MEMORY_CACHE_DEFAULTS.maxEntries;
  const maxBytes = options.maxBytes ?? MEMORY_CACHE_DEFAULTS.maxBytes;
  const lru = new LRUCache<string, string>({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (value, key) => Math.max(1, value.length + key.length),
  });
  const counters: CacheStats = { hits: 0, misses: 0, sets: 0 };
  return {
    get(key) {
      const value = lru.get(key);
      if (value === undefined) counters.misses += 1;
      else counters.hits += 1;
      return Promise.resolve(value);
    },
    set(key, value, ttlMs) {
      if (ttlMs > 0) {
        lru.set(key, value, { ttl: ttlMs });
        counters.sets += 1;
      }
      return Promise.resolve();
    },
    delete(key) {
      lru.delete(key);
      return Promise.resolve();
    },
    stats: () => ({ ...counters }),
    close() {
      lru.clear();
      return Promise.resolve();
    },
  };
}

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
  /** In-process caches: entries held now. */
  entries?: number;
  /** In-process caches: bytes held now, as counted against `maxBytes` (see {@link entryBytes}). */
  bytes?: number;
  /** In-process caches: the byte budget. */
  maxBytes?: number;
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
  /** Most entries kept; the least recently used goes first. Default 20000. */
  maxEntries?: number;
  /**
   * Budget in bytes for everything the cache holds, counted by {@link entryBytes}
   * (key and value at V8's one or two bytes per character, plus the per-entry
   * overhead). An entry larger than `maxEntryBytes` is not stored. Default 16 MiB
   * (`CACHE_MAX_BYTES`), chosen from the heap arithmetic in the README.
   */
  maxBytes?: number;
  /** Largest single entry stored. Default an eighth of `maxBytes`, so one answer never flushes the cache. */
  maxEntryBytes?: number;
}

export const MEMORY_CACHE_DEFAULTS = { maxEntries: 20_000, maxBytes: 16 * 1024 * 1024 } as const;

/**
 * What one entry costs beyond its characters: two string headers, the Map entry
 * and the slots of lru-cache's index, TTL and size arrays: measured at about 100
 * bytes on V8 11 with lru-cache 11 (test/upstream/cache.test.ts checks the counted
 * bytes stay above the heap actually used), counted at about twice that.
 */
export const ENTRY_OVERHEAD_BYTES = 192;

/**
 * Heap bytes a cache entry holds. V8 stores a string at one byte per character when
 * every character fits Latin-1 and two otherwise; JSON from the upstream is usually,
 * but not always, ASCII (names, descriptions), so the check is made per string.
 */
export function entryBytes(key: string, value: string): number {
  return stringBytes(key) + stringBytes(value) + ENTRY_OVERHEAD_BYTES;
}

function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u00ff]/.test(text) ? 2 * text.length : text.length;
}

/** An in-process LRU cache with per-entry TTLs and a byte budget; the default when `REDIS_URL` is unset. */
export function createMemoryCache(options: MemoryCacheOptions = {}): ResponseCache {
  const maxEntries = options.maxEntries ?? MEMORY_CACHE_DEFAULTS.maxEntries;
  const maxBytes = options.maxBytes ?? MEMORY_CACHE_DEFAULTS.maxBytes;
  const maxEntryBytes = Math.min(options.maxEntryBytes ?? Math.floor(maxBytes / 8), maxBytes);
  const lru = new LRUCache<string, string>({
    max: maxEntries,
    maxSize: maxBytes,
    // lru-cache refuses (does not store) an entry over maxEntrySize instead of evicting everything for it.
    maxEntrySize: maxEntryBytes,
    sizeCalculation: (value, key) => entryBytes(key, value),
  });
  const counters = { hits: 0, misses: 0, sets: 0 };
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
    stats: () => ({ ...counters, entries: lru.size, bytes: lru.calculatedSize, maxBytes }),
    close() {
      lru.clear();
      return Promise.resolve();
    },
  };
}

/**
 * The in-process store of upstream answers: an LRU of parsed, frozen values with
 * per-entry expiry and a byte budget (see `cache.ts`).
 */
import { LRUCache } from 'lru-cache';
import { freezeJson, stringBytes } from '../lib/frozen-json.ts';
import type { CacheEntry, ResponseCache } from './cache.ts';

/** Options of {@link createMemoryCache}. */
export interface MemoryCacheOptions {
  /** Most entries kept; the least recently used goes first. Default 20000. */
  maxEntries?: number;
  /**
   * Budget in bytes for everything the store holds, counted by {@link entryBytes}
   * (the parsed value's heap, estimated while freezing it, plus the key and the
   * per-entry overhead). An entry larger than `maxEntryBytes` is not stored.
   * Default 16 MiB (`CACHE_MAX_BYTES`), chosen from the heap arithmetic in the README.
   */
  maxBytes?: number;
  /** Largest single entry stored. Default an eighth of `maxBytes`, so one answer never flushes the cache. */
  maxEntryBytes?: number;
}

export const MEMORY_CACHE_DEFAULTS = { maxEntries: 20_000, maxBytes: 16 * 1024 * 1024 } as const;

/**
 * What one entry costs beyond its key and value: the entry record, the Map entry and
 * the slots of lru-cache's index, TTL and size arrays: measured at about 150 bytes
 * on V8 11 with lru-cache 11 (test/plugins/memory-budgets.test.ts checks the counted
 * bytes stay above the heap actually used), counted at about twice that.
 */
export const ENTRY_OVERHEAD_BYTES = 256;

/** Heap bytes an entry holds: its key, the value's estimate from {@link freezeJson}, the overhead. */
export function entryBytes(key: string, valueBytes: number): number {
  return stringBytes(key) + valueBytes + ENTRY_OVERHEAD_BYTES;
}

/** An entry as the LRU holds it: the entry and its counted size. */
interface Held extends CacheEntry {
  readonly bytes: number;
}

/**
 * An in-process LRU of parsed, frozen answers with per-entry expiry and a byte budget;
 * the default when `REDIS_URL` is unset, and the local layer in front of Redis.
 */
export function createMemoryCache(options: MemoryCacheOptions = {}): ResponseCache & {
  /** Stores an entry with its expiry (ms since the epoch): what the Redis layer copies in. */
  hold(key: string, value: unknown, expiresAt: number): void;
} {
  const maxEntries = options.maxEntries ?? MEMORY_CACHE_DEFAULTS.maxEntries;
  const maxBytes = options.maxBytes ?? MEMORY_CACHE_DEFAULTS.maxBytes;
  const maxEntryBytes = Math.min(options.maxEntryBytes ?? Math.floor(maxBytes / 8), maxBytes);
  const lru = new LRUCache<string, Held>({
    max: maxEntries,
    maxSize: maxBytes,
    // lru-cache refuses (does not store) an entry over maxEntrySize instead of evicting everything for it.
    maxEntrySize: maxEntryBytes,
    sizeCalculation: (held) => held.bytes,
  });
  const counters = { hits: 0, misses: 0, sets: 0 };
  const hold = (key: string, value: unknown, expiresAt: number): void => {
    const ttl = expiresAt - Date.now();
    if (!(ttl > 0)) return;
    lru.set(key, { value, expiresAt, bytes: entryBytes(key, freezeJson(value)) }, { ttl });
    counters.sets += 1;
  };
  return {
    get(key) {
      const held = lru.get(key);
      // lru-cache checks its TTL on its own coarse clock; the entry's expiry is the exact one.
      if (held === undefined || held.expiresAt <= Date.now()) {
        counters.misses += 1;
        return undefined;
      }
      counters.hits += 1;
      return held;
    },
    set(key, value, ttlMs, expiresAt = Date.now() + ttlMs) {
      if (ttlMs > 0) hold(key, value, expiresAt);
      return Promise.resolve();
    },
    hold,
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

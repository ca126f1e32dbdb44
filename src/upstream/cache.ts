/**
 * Cross-request caches of upstream answers. The decorators in `cached-clients.ts`
 * decide what is cached and for how long; a store keeps answers under string keys,
 * each until its own expiry.
 *
 * The in-process store keeps answers parsed and deep-frozen: a hit costs a map
 * lookup, not a JSON parse, and every reader shares the one value, which nobody can
 * change (a write to it throws). Redis keeps JSON text, so replicas can share it,
 * behind a small parsed store of the same kind in each replica (see
 * `cache-redis.ts`).
 *
 * This module holds the store's interface only; the stores are `cache-memory.ts` and
 * `cache-redis.ts`.
 */

export interface CacheStats {
  /** Reads that found a live entry. */
  hits: number;
  /** Reads that found nothing (or failed: a broken store reads as empty). */
  misses: number;
  /** Entries written. */
  sets: number;
  /** In-process stores: entries held now. */
  entries?: number;
  /** In-process stores: heap bytes held now, as counted against `maxBytes` (see {@link entryBytes}). */
  bytes?: number;
  /** In-process stores: the byte budget. */
  maxBytes?: number;
}

/** A stored answer: the value (deep-frozen, shared by every reader) and when it stops being served (epoch ms). */
export interface CacheEntry {
  readonly value: unknown;
  readonly expiresAt: number;
}

/** What a read gives: at once when the answer is in this process, else later. */
export type CacheRead = CacheEntry | undefined | Promise<CacheEntry | undefined>;

/** A shared store of upstream answers. Implementations never throw from get/set/delete. */
export interface ResponseCache {
  /**
   * The live entry under `key`, or undefined when absent, expired, or the store is
   * unavailable. In-process hits are returned as they are, not in a promise, so the
   * hot path allocates nothing.
   */
  get(key: string): CacheRead;
  /**
   * Stores a JSON value for `ttlMs` milliseconds (a TTL of 0 or less stores nothing).
   * The store freezes it (deeply): the caller must not change it afterwards. `expiresAt` (epoch ms,
   * default now + `ttlMs`) is the instant the caller told its own reader, so later hits tell the same.
   */
  set(key: string, value: unknown, ttlMs: number, expiresAt?: number): Promise<void>;
  delete(key: string): Promise<void>;
  stats(): CacheStats;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

/**
 * The Data API's own limits, kept by the whole fleet instead of earned by each replica. The Data API
 * limits every key in compute units (CUs) per minute (`src/lib/compute-units.ts`) and answers a key over
 * its limit 429 with `retry-after`. Two rules, each fleet-wide through Redis when `REDIS_URL` is set
 * (rate-limiter-flexible, as `upstream-rate.ts`), else per process:
 *
 * - **A ceiling for the server's key** (`UPSTREAM_COMPUTE_UNITS_PER_MINUTE`): every call sent with the
 *   server's key takes its weight from one budget per minute window; a call that does not fit waits for
 *   the next window within `maxWaitMs` and what is left of its deadline, else is refused unsent. The
 *   answers' `ratelimit-remaining` keep the count in step with the upstream's own: when the upstream says
 *   fewer units are left than the ceiling believes, the difference is taken from the budget (another
 *   client of the same key, or the upstream's own count, spent them).
 * - **A pause after the upstream said stop**, for every key (the server's and callers' own): after a 429
 *   (or an answer with `ratelimit-remaining: 0`), no call is sent with that key until its `retry-after`
 *   (or `ratelimit-reset`) has passed, by any replica; callers get UPSTREAM_RATE_LIMITED with the time
 *   instead of each replica earning its own 429s.
 *
 * Keys are named by their holder (`server`, or `caller:<digest>`), never by the key. While Redis does not
 * answer, each replica counts alone (the insurance limiters), so a sick Redis never fails a request.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { takeTurn } from './limiter-turn.ts';
import { parseRetryAfter } from './retry-after.ts';

/** Options of {@link createComputeUnitCeiling}. */
export interface ComputeUnitCeilingOptions {
  /** CUs per minute the server's key may spend, all replicas together (`UPSTREAM_COMPUTE_UNITS_PER_MINUTE`). Undefined: no ceiling, pauses only. */
  maxPerMinute?: number;
  /** Longest wait for room under the ceiling, ms (`UPSTREAM_RATE_MAX_WAIT_MS`); never past the call's deadline. Default 1000. */
  maxWaitMs?: number;
  /** Longest pause one answer may impose, s: a `retry-after` of a day is read as this. Default 3600. */
  maxPauseSeconds?: number;
  /** The Redis of `REDIS_URL`, shared with the fleet (its owner opens and closes it). Default: this process only. */
  redis?: Redis;
  /** Prefix of the Redis keys. Default `chaingraph:compute-units:`. */
  keyPrefix?: string;
}

export const COMPUTE_UNIT_CEILING_DEFAULTS = { maxWaitMs: 1_000, maxPauseSeconds: 3_600, keyPrefix: 'chaingraph:compute-units:' } as const;

/** Who a call is billed to upstream and what it weighs: `key` names the key's holder (`server`, `caller:<digest>`), never the key. */
export interface Billing {
  readonly key: string;
  readonly computeUnits: number;
}

/** Why a call was not sent: the ceiling had no room, or the upstream paused the key. */
export interface Refusal {
  readonly reason: 'ceiling' | 'paused';
  readonly waitMs: number;
}

export interface ComputeUnitCeilingStats {
  /** CUs taken under the ceiling by this replica. */
  spent: number;
  /** Calls refused unsent (ceiling full or key paused). */
  refused: number;
  /** Pauses this replica started from an answer (429, or nothing left). */
  pauses: number;
  /** CUs taken from the budget to follow the upstream's `ratelimit-remaining`. */
  resynced: number;
}

export interface ComputeUnitCeiling {
  /** Room for one attempt: undefined when it may be sent, else why not and for how long. Rejects with the signal's reason. */
  acquire(billing: Billing, signal: AbortSignal, budgetMs: number): Promise<Refusal | undefined>;
  /** Reads an answer's status and `ratelimit-*`/`retry-after` headers for the key it was sent with. */
  observe(billing: Billing, status: number, headers: IncomingHttpHeaders): void;
  stats(): ComputeUnitCeilingStats;
}

const SERVER = 'server';
/** Keys paused at once that a replica remembers locally (the server's and callers' own that got a 429). */
const MAX_PAUSED_KEYS = 10_000;

export function createComputeUnitCeiling(options: ComputeUnitCeilingOptions = {}): ComputeUnitCeiling {
  const { maxPerMinute, redis } = options;
  if (maxPerMinute !== undefined && (!Number.isSafeInteger(maxPerMinute) || maxPerMinute < 1)) {
    throw new Error(`UPSTREAM_COMPUTE_UNITS_PER_MINUTE must be an integer of at least 1, got ${maxPerMinute}`);
  }
  const maxWaitMs = options.maxWaitMs ?? COMPUTE_UNIT_CEILING_DEFAULTS.maxWaitMs;
  const maxPauseSeconds = options.maxPauseSeconds ?? COMPUTE_UNIT_CEILING_DEFAULTS.maxPauseSeconds;
  const prefix = options.keyPrefix ?? COMPUTE_UNIT_CEILING_DEFAULTS.keyPrefix;
  const stats: ComputeUnitCeilingStats = { spent: 0, refused: 0, pauses: 0, resynced: 0 };

  const limiter = (points: number, duration: number, keyPrefix: string): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ points, duration, keyPrefix });
    return redis ? new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix, rejectIfRedisNotReady: true, insuranceLimiter: memory }) : memory;
  };
  const ceiling = maxPerMinute !== undefined ? limiter(maxPerMinute, 60, `${prefix}ceiling`) : undefined;
  // A pause is a block of one point: `block` keeps the key over its points for the pause's seconds.
  const pauses = limiter(1, 1, `${prefix}pause`);
  // Keys this replica paused itself, until when (ms): no store round trip while that lasts. Pauses another
  // replica started are read from the store (one read per call with Redis). Bounded: each entry expires with
  // its pause, and at most MAX_PAUSED_KEYS are kept (the store still holds the rest).
  const pausedHere = new LRUCache<string, number>({ max: MAX_PAUSED_KEYS, ttl: maxPauseSeconds * 1000 });
  // What the ceiling had left after this replica's last take, to compare with the upstream's count.
  let believedRemaining: number | undefined;

  const pausedFor = async (key: string): Promise<number> => {
    const local = (pausedHere.get(key) ?? 0) - Date.now();
    if (local > 0) return local;
    pausedHere.delete(key);
    // In one process the local view is the whole truth: no store read on every call's path.
    if (!redis) return 0;
    try {
      const state = await pauses.get(key);
      return state && state.consumedPoints > 1 ? state.msBeforeNext : 0;
    } catch {
      return 0;
    }
  };

  const pause = (key: string, seconds: number): void => {
    const bounded = Math.min(maxPauseSeconds, Math.max(1, Math.ceil(seconds)));
    const until = Date.now() + bounded * 1000;
    if ((pausedHere.get(key) ?? 0) >= until) return;
    pausedHere.set(key, until, { ttl: bounded * 1000 });
    stats.pauses += 1;
    void pauses.block(key, bounded).catch(() => undefined);
  };

  return {
    async acquire(billing, signal, budgetMs) {
      const paused = await pausedFor(billing.key);
      if (paused > 0) {
        stats.refused += 1;
        return { reason: 'paused', waitMs: paused };
      }
      if (!ceiling || billing.key !== SERVER || billing.computeUnits <= 0) return undefined;
      const turn = await takeTurn(ceiling, SERVER, billing.computeUnits, signal, Date.now() + Math.max(0, Math.min(maxWaitMs, budgetMs)));
      if (!turn.taken) {
        stats.refused += 1;
        return { reason: 'ceiling', waitMs: turn.nextMs };
      }
      if (turn.remaining !== undefined) believedRemaining = turn.remaining;
      stats.spent += billing.computeUnits;
      return undefined;
    },
    observe(billing, status, headers) {
      const remaining = numberHeader(headers['ratelimit-remaining']);
      if (status === 429) {
        const waitMs = parseRetryAfter(headers['retry-after']) ?? secondsHeader(headers['ratelimit-reset']) ?? 1000;
        pause(billing.key, waitMs / 1000);
        return;
      }
      if (remaining === 0) {
        const resetMs = secondsHeader(headers['ratelimit-reset']);
        if (resetMs !== undefined) pause(billing.key, resetMs / 1000);
        return;
      }
      // In step with the upstream: when it has fewer units left than the ceiling believes, the ceiling spends the difference.
      if (ceiling && billing.key === SERVER && remaining !== undefined && believedRemaining !== undefined && remaining < believedRemaining) {
        const gap = believedRemaining - remaining;
        believedRemaining = remaining;
        stats.resynced += gap;
        void ceiling.penalty(SERVER, gap).catch(() => undefined);
      }
    },
    stats: () => ({ ...stats }),
  };
}

function numberHeader(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || !/^\s*\d+\s*$/.test(raw)) return undefined;
  return Number(raw);
}

/** `ratelimit-reset` as ms: seconds until the window ends. */
function secondsHeader(value: string | string[] | undefined): number | undefined {
  const seconds = numberHeader(value);
  return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * An optional ceiling on the gateway's own upstream request rate (`UPSTREAM_MAX_RPS`):
 * at most `maxRps` attempts per second to each upstream (retries included, they
 * spend the key's quota too), counted in fixed one-second windows by
 * rate-limiter-flexible. With `REDIS_URL` the count lives in Redis
 * (`RateLimiterRedis`), so every replica draws from one budget and a fleet stays
 * under the upstream key's quota; without it, in this process (`RateLimiterMemory`).
 *
 * An attempt over the ceiling waits for the next window while its turn comes within
 * `maxWaitMs` and what is left of its call's deadline, and is otherwise refused
 * unsent (`throttled`, UPSTREAM_RATE_LIMITED) rather than sent to earn a 429.
 *
 * A ceiling must never fail requests because Redis is sick: while Redis does not
 * answer, each replica counts alone (rate-limiter-flexible's insurance limiter, the
 * same ceiling per replica); the connection's owner reports the outage.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { takeTurn } from './limiter-turn.ts';
import { UpstreamError, type UpstreamName } from './errors.ts';

/** Options of {@link createUpstreamRate}. */
export interface UpstreamRateOptions {
  /** Attempts per second to each upstream, all replicas together when shared (`UPSTREAM_MAX_RPS`). An integer, at least 1. */
  maxRps: number;
  /** Longest wait for a turn, ms (`UPSTREAM_RATE_MAX_WAIT_MS`); never past the call's deadline. Default 1000. */
  maxWaitMs?: number;
  /**
   * A connection to the Redis of `REDIS_URL`: share the count with every replica using the same Redis
   * and prefix. It should not queue while Redis is away and should bound each command (`commandTimeout`,
   * the longest wait before this replica counts alone). Its owner opens, logs and closes it. Default:
   * this process only.
   */
  redis?: Redis;
  /** Prefix of the Redis keys. Default `chaingraph:upstream-rate:`. */
  keyPrefix?: string;
}

export const UPSTREAM_RATE_DEFAULTS = { maxWaitMs: 1_000, keyPrefix: 'chaingraph:upstream-rate:' } as const;

export interface UpstreamRateStats {
  /** Attempts that had to wait for a later window. */
  waited: number;
  /** Attempts refused unsent: no turn within their wait. */
  refused: number;
}

export interface UpstreamRate {
  /**
   * Takes one turn for an attempt to `upstream`, waiting at most `budgetMs` (and
   * `maxWaitMs`). Resolves `undefined` when the attempt may be sent, or the ms until
   * the next turn when it may not; rejects with the signal's reason when it aborts.
   */
  acquire(upstream: UpstreamName, signal: AbortSignal, budgetMs: number): Promise<number | undefined>;
  /** Whether the shared (Redis) count is in use, false while Redis does not answer. */
  shared(): boolean;
  stats(): UpstreamRateStats;
  close(): Promise<void>;
}

export function createUpstreamRate(options: UpstreamRateOptions): UpstreamRate {
  const { maxRps } = options;
  if (!Number.isSafeInteger(maxRps) || maxRps < 1) throw new Error(`UPSTREAM_MAX_RPS must be an integer of at least 1, got ${maxRps}`);
  const maxWaitMs = options.maxWaitMs ?? UPSTREAM_RATE_DEFAULTS.maxWaitMs;
  const keyPrefix = options.keyPrefix ?? UPSTREAM_RATE_DEFAULTS.keyPrefix;
  const stats: UpstreamRateStats = { waited: 0, refused: 0 };
  const memory = new RateLimiterMemory({ points: maxRps, duration: 1, keyPrefix });
  const { redis } = options;
  // The insurance limiter answers while Redis is not ready or a command fails: the same ceiling, per replica.
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ storeClient: redis, points: maxRps, duration: 1, keyPrefix, rejectIfRedisNotReady: true, insuranceLimiter: memory })
    : memory;

  return {
    async acquire(upstream, signal, budgetMs) {
      const turn = await takeTurn(limiter, upstream, 1, signal, Date.now() + Math.max(0, Math.min(maxWaitMs, budgetMs)));
      if (turn.waited) stats.waited += 1;
      if (turn.taken) return undefined;
      stats.refused += 1;
      return turn.nextMs;
    },
    shared: () => redis !== undefined && redis.status === 'ready',
    stats: () => ({ ...stats }),
    // The Redis connection is its owner's to close.
    close: async () => undefined,
  };
}

/** The attempt refused by the ceiling, with the time until the next turn as `retryAfter`. */
export function throttledError(upstream: UpstreamName, operation: string, attempts: number, waitMs: number, previous?: UpstreamError): UpstreamError {
  return new UpstreamError(`${upstream} ${operation}: not sent, the gateway is at its upstream request rate ceiling (UPSTREAM_MAX_RPS)`, {
    upstream, kind: 'throttled', operation, attempts, retryAfter: Math.max(1, Math.ceil(waitMs / 1000)), cause: previous,
  });
}


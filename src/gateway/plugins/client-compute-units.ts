/**
 * Each client's budget in the Data API's compute units (`CLIENT_COMPUTE_UNITS_PER_MINUTE`): what one
 * client identity (`ctx.client`: a key the Data API accepted, else an address) may have the gateway spend
 * for it per minute, all replicas together through Redis when `REDIS_URL` is set (rate-limiter-flexible,
 * fixed one-minute windows; while Redis does not answer, each replica counts alone).
 *
 * An operation reserves its estimate (`estimatedComputeUnits`) before any upstream call and is refused
 * when it does not fit what is left; when it ends, what it did not spend (`actualComputeUnits` is what
 * the Data API billed) is given back, within the same window. A refused operation takes nothing.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Options of {@link createClientComputeUnits}. */
export interface ClientComputeUnitsOptions {
  /** Compute units one client may spend per minute (`CLIENT_COMPUTE_UNITS_PER_MINUTE`), at least 1. */
  perMinute: number;
  /** The Redis of `REDIS_URL`: one budget per client across the fleet. Its owner opens and closes it. Default: this process only. */
  redis?: Redis;
  /** Prefix of the Redis keys. Default `chaingraph:client-compute-units:`. */
  keyPrefix?: string;
  /** Clock, ms since the epoch (tests). Default `Date.now`. */
  now?: () => number;
}

export const CLIENT_COMPUTE_UNITS_DEFAULTS = { keyPrefix: 'chaingraph:client-compute-units:' } as const;

/** An operation's hold on its client's budget. */
export interface Reservation {
  readonly reserved: number;
  /** Gives back what the operation did not spend (`reserved - actual`), if its window has not ended; idempotent. */
  settle(actual: number): void;
}

/** Why an operation cannot run now, in the numbers its refusal states. */
export interface ComputeUnitRefusal {
  readonly needed: number;
  readonly remaining: number;
  readonly limit: number;
  /** Seconds until the client's window resets. */
  readonly resetSeconds: number;
}

export interface ClientComputeUnits {
  readonly perMinute: number;
  /** Takes `units` from the client's window, or says why not (nothing taken). */
  reserve(client: string, units: number): Promise<Reservation | ComputeUnitRefusal>;
  /** Adds what was spent outside a reservation (a subscription's events); never refused. */
  charge(client: string, units: number): void;
}

export const isRefusal = (value: Reservation | ComputeUnitRefusal): value is ComputeUnitRefusal => 'needed' in value;

export function createClientComputeUnits(options: ClientComputeUnitsOptions): ClientComputeUnits {
  const { perMinute, redis } = options;
  if (!Number.isSafeInteger(perMinute) || perMinute < 1) throw new Error(`CLIENT_COMPUTE_UNITS_PER_MINUTE must be an integer of at least 1, got ${perMinute}`);
  const now = options.now ?? Date.now;
  const keyPrefix = options.keyPrefix ?? CLIENT_COMPUTE_UNITS_DEFAULTS.keyPrefix;
  const memory = new RateLimiterMemory({ points: perMinute, duration: 60, keyPrefix });
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ storeClient: redis, points: perMinute, duration: 60, keyPrefix, rejectIfRedisNotReady: true, insuranceLimiter: memory })
    : memory;

  const give = (client: string, units: number): void => void limiter.reward(client, units).catch(() => undefined);

  return {
    perMinute,
    async reserve(client, units) {
      if (units <= 0) return { reserved: 0, settle: () => undefined };
      let taken: RateLimiterRes;
      try {
        taken = await limiter.consume(client, units);
      } catch (rejection) {
        // A store failure the insurance limiter could not absorb lets the operation run: the budget never fails requests by itself.
        if (!(rejection instanceof RateLimiterRes)) return { reserved: 0, settle: () => undefined };
        // A refused consume still counted its points: given back, so a refusal costs nothing.
        give(client, units);
        const used = Math.max(0, rejection.consumedPoints - units);
        return { needed: units, remaining: Math.max(0, perMinute - used), limit: perMinute, resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      const windowEnds = now() + taken.msBeforeNext;
      let settled = false;
      return {
        reserved: units,
        settle(actual) {
          if (settled) return;
          settled = true;
          const unspent = units - Math.max(0, actual);
          // After its window ended, the reservation's window is gone: nothing to give back to.
          if (unspent > 0 && now() < windowEnds) give(client, unspent);
        },
      };
    },
    charge(client, units) {
      if (units > 0) void limiter.penalty(client, units).catch(() => undefined);
    },
  };
}

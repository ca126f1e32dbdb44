import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { ActivityStore } from '../loaders/live-activity.ts';

/** Options of {@link createRedisActivityStore}. */
export interface RedisActivityStoreOptions {
  /** The replica's command connection (src/server/redis.ts). Closed by its owner. */
  redis: Redis;
  /** Prefix of every key. Default `chaingraph:activity:`. */
  keyPrefix?: string;
  /** How long a lock lives without its holder (a holder that died): ms. Default 30000. */
  lockTtlMs?: number;
  /** Longest wait for a lock before giving up: ms. Default 60000. */
  lockWaitMs?: number;
}

/** Deletes the lock only if this holder still has it. */
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Live activity's shared state through Redis, so replicas agree: one webhook per group (its id under
 * `webhook:<group>`), a lock per group while its webhook changes (SET NX PX, freed by its holder only),
 * and the message ids seen (SET NX PX: the first replica to take a delivery publishes it; a repeat on
 * any replica is dropped).
 */
export function createRedisActivityStore(options: RedisActivityStoreOptions): ActivityStore {
  const { redis } = options;
  const prefix = options.keyPrefix ?? 'chaingraph:activity:';
  const lockTtlMs = options.lockTtlMs ?? 30_000;
  const lockWaitMs = options.lockWaitMs ?? 60_000;
  return {
    async locked(name, work) {
      const key = `${prefix}lock:${name}`;
      const token = randomUUID();
      const deadline = Date.now() + lockWaitMs;
      for (let wait = 10; (await redis.set(key, token, 'PX', lockTtlMs, 'NX')) !== 'OK'; wait = Math.min(wait * 2, 250)) {
        if (Date.now() > deadline) throw new Error(`live activity: the lock ${name} stayed taken for ${lockWaitMs} ms`);
        await delay(wait);
      }
      try {
        return await work();
      } finally {
        await redis.eval(UNLOCK, 1, key, token).catch(() => undefined);
      }
    },
    webhookOf: async (group) => (await redis.get(`${prefix}webhook:${group}`)) ?? undefined,
    async setWebhookOf(group, id) {
      if (id === undefined) await redis.del(`${prefix}webhook:${group}`);
      else await redis.set(`${prefix}webhook:${group}`, id);
    },
    firstSight: async (messageId, ttlMs) => (await redis.set(`${prefix}seen:${messageId}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX')) === 'OK',
  };
}

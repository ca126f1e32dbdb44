import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { ActivityStore, Sighting } from '../loaders/live-activity.ts';

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
 * One sight of a delivery. KEYS: the time the memory began, the message id's key; ARGV: now, the event's
 * time, how long to remember the id (ms). A memory that lost its start (an emptied or restarted Redis)
 * begins again now: what happened before cannot be told from a repeat.
 */
const SIGHT = `
local since = tonumber(redis.call('GET', KEYS[1]))
if not since then
  redis.call('SET', KEYS[1], ARGV[1])
  since = tonumber(ARGV[1])
end
if tonumber(ARGV[2]) < since then return 'stale' end
if redis.call('SET', KEYS[2], '1', 'PX', ARGV[3], 'NX') then return 'first' end
return 'repeat'`;

/**
 * Live activity's shared state through Redis, so replicas agree: one webhook per group (its id under
 * `webhook:<group>`), a lock per group while its webhook changes (SET NX PX, freed by its holder only),
 * and the message ids seen (SET NX PX: the first replica to take a delivery publishes it; a repeat on
 * any replica is dropped). The ids outlive a replica; `seen-since` says since when they are kept (set by
 * the first replica, set again if Redis lost it), and an event before it is `stale`. Redis must not evict
 * the ids before they expire (`maxmemory-policy noeviction`, or memory enough that it never evicts): an
 * evicted id's delivery could be taken again within the replay window.
 */
export function createRedisActivityStore(options: RedisActivityStoreOptions): ActivityStore {
  const { redis } = options;
  const prefix = options.keyPrefix ?? 'chaingraph:activity:';
  const lockTtlMs = options.lockTtlMs ?? 30_000;
  const lockWaitMs = options.lockWaitMs ?? 60_000;
  const since = `${prefix}seen-since`;
  // The memory begins with the fleet's first replica, not with its first delivery (always of an earlier event):
  // this replica's start is put first (commands fail while the connection is down, so again until it holds);
  // a start missing after that was lost, and the script begins the memory again.
  const startedAt = String(Date.now());
  let started: Promise<unknown> | undefined;
  const start = (): Promise<unknown> => (started ??= redis.set(since, startedAt, 'NX').catch((error: unknown) => {
    started = undefined;
    throw error;
  }));
  start().catch(() => undefined);
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
    async firstSight(messageId, eventMs, windowMs) {
      await start();
      const now = Date.now();
      const rememberMs = Math.max(1, Math.ceil(eventMs + windowMs - now));
      return (await redis.eval(SIGHT, 2, since, `${prefix}seen:${messageId}`, String(now), String(eventMs), String(rememberMs))) as Sighting;
    },
  };
}

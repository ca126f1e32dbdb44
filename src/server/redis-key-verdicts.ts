import type { Redis } from 'ioredis';
import type { KeyVerdict, KeyVerdictStore } from '../gateway/plugins/client-identity.ts';

/** Options of {@link createRedisKeyVerdicts}. */
export interface RedisKeyVerdictsOptions {
  /** The replica's command connection (src/server/redis.ts). Closed by its owner. */
  redis: Redis;
  /** Prefix of every key. Default `chaingraph:identity:`. */
  keyPrefix?: string;
}

const VERDICTS: ReadonlySet<string> = new Set<KeyVerdict>(['accepted', 'refused']);

/**
 * What the Data API said of callers' keys, shared by the replicas: one Redis string per key digest
 * (`<prefix><digest>`, never the key) holding `accepted` or `refused`, expiring with the verdict (SET PX).
 * A lookup reads the verdict and the time it has left in one round trip. On the command connection, which
 * never queues: while Redis is away every call fails at once and each replica keeps its own view.
 */
export function createRedisKeyVerdicts(options: RedisKeyVerdictsOptions): KeyVerdictStore {
  const { redis } = options;
  const prefix = options.keyPrefix ?? 'chaingraph:identity:';
  return {
    async get(digest) {
      const replies = await redis.multi().get(`${prefix}${digest}`).pttl(`${prefix}${digest}`).exec();
      const [verdict, ttl] = (replies ?? []).map(([error, value]) => (error ? undefined : value));
      if (typeof verdict !== 'string' || !VERDICTS.has(verdict) || typeof ttl !== 'number' || ttl <= 0) return undefined;
      return { verdict: verdict as KeyVerdict, ttlMs: ttl };
    },
    async set(digest, verdict, ttlMs) {
      await redis.set(`${prefix}${digest}`, verdict, 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
  };
}

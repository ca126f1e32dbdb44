import { randomUUID } from 'node:crypto';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { PubSubEventTarget } from '@graphql-yoga/subscription';
import type { Redis } from 'ioredis';
import { createTopics, type TopicLease, type TopicMessage, type Topics, type TopicsOptions } from '../loaders/topics.ts';

/** Options of {@link createRedisTopics}. */
export interface RedisTopicsOptions extends Pick<TopicsOptions, 'leaseTtlMs' | 'maxTopics' | 'maxTopicsPerClient' | 'maxWatchedKeysPerClient' | 'lingerMs' | 'now' | 'onError'> {
  /**
   * The shared command connection: publishes events and holds leases. It should fail commands at once
   * while Redis is away (no offline queue), so a lease is then simply not held. Closed by its owner.
   */
  publisher: Redis;
  /**
   * The connection pub/sub needs to itself: it should queue its SUBSCRIBEs until connected, retry
   * forever and skip the ready check (`src/server/redis.ts`). Closed by its owner.
   */
  subscriber: Redis;
  /** Prefix of the channels and lease keys. Default `chaingraph:topic:`. */
  keyPrefix?: string;
  /** This replica's name in the leases it holds. Default a random UUID. */
  replicaId?: string;
}

type Target = PubSubEventTarget<Record<string, [TopicMessage<unknown>]>>;

/**
 * Takes the lease when nobody holds it (SET NX PX), renews it when this replica does; 1 while held.
 * One script, so a lease that expired between the two steps cannot be renewed by its former holder.
 */
const HOLD = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0`;
/** Deletes the lease only if this replica holds it. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** JSON that keeps bigints (a block number parsed as one would not survive `JSON.stringify`). */
const serializer = {
  stringify: (value: unknown): string => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v)),
  parse: (text: string): unknown =>
    JSON.parse(text, (_key, v: unknown) => (v !== null && typeof v === 'object' && '$bigint' in v && typeof v.$bigint === 'string' ? BigInt(v.$bigint) : v)),
};

/**
 * The subscriptions' topics shared by every replica through Redis (`REDIS_URL`): events travel
 * over Redis pub/sub (`@graphql-yoga/redis-event-target`, the replica's command connection publishing
 * and its subscriber connection subscribed), and a lease per topic (a key set with NX and PX, renewed
 * by its holder) lets exactly one replica poll a topic at a time while the others receive its events. While Redis does not answer,
 * no replica holds a lease and subscribers wait (a failed PUBLISH reported through `onError`, the
 * connections' own errors by their owner); ioredis reconnects and resubscribes by itself.
 */
export function createRedisTopics(options: RedisTopicsOptions): Topics {
  const prefix = options.keyPrefix ?? 'chaingraph:topic:';
  const replica = options.replicaId ?? randomUUID();
  const onError = options.onError ?? (() => undefined);
  const { publisher: publishClient, subscriber: subscribeClient } = options;
  const inner = createRedisEventTarget<CustomEvent<TopicMessage<unknown>>>({ publishClient, subscribeClient, serializer });
  // Channels under the prefix; publishing awaited here, so a failed PUBLISH is reported, never left unhandled.
  const eventTarget: Target = {
    addEventListener: (type, listener) => inner.addEventListener(prefix + type, listener),
    removeEventListener: (type, listener) => inner.removeEventListener(prefix + type, listener),
    dispatchEvent: (event) => {
      publishClient.publish(prefix + event.type, serializer.stringify(event.detail)).catch((error: unknown) => onError(error, event.type));
      return true;
    },
  };
  const lease: TopicLease = {
    hold: async (topic, ttlMs) => (await publishClient.eval(HOLD, 1, `${prefix}lease:${topic}`, replica, String(Math.ceil(ttlMs)))) === 1,
    release: async (topic) => void (await publishClient.eval(RELEASE, 1, `${prefix}lease:${topic}`, replica)),
  };
  const topics = createTopics({ ...options, eventTarget, lease });
  return {
    subscribe: (source, signal) => topics.subscribe(source, signal),
    subscribeAll: (sources, subscribeOptions) => topics.subscribeAll(sources, subscribeOptions),
    publish: (key, items) => topics.publish(key, items),
    stats: () => topics.stats(),
    async close() {
      // Leases are given up first, so another replica takes the topics over at its next try.
      await topics.close();
    },
  };
}

import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { createPubSub, type PubSubEventTarget } from '@graphql-yoga/subscription';
import { codedError, ErrorCode } from '../errors/graphql.ts';
import { newBudgetWindow, type UpstreamBudget } from './budget.ts';
import { UpstreamError, type UpstreamErrorKind, type UpstreamName } from '../upstream/errors.ts';
import type { CallOptions } from '../upstream/client-types.ts';
import { shortDigest } from '../lib/text.ts';
import { loaderContext, upstreamOf, type LoaderContext } from './registry.ts';

/**
 * Shared pollers behind the subscriptions. A topic (`blocks:<network>:<blockchainId>`,
 * `nodeHealth:<node>`) has at most one poller per process, started by its first subscriber and
 * stopped when its last one leaves (ref-counted); each poll is published once and fans out to every
 * subscriber through an event target. With a shared event target and a lease (Redis: see
 * src/server/redis-topics.ts), one replica of the fleet polls a topic and the others receive its events:
 * every replica with subscribers of a topic asks for its lease every third of the lease's time to
 * live; the holder renews it and polls, the others wait; when the holder dies or its subscribers
 * leave (it releases the lease), the next replica to ask takes over. Two pollers may overlap for
 * at most one renewal period after a holder stalled past its lease; subscribers drop what they saw.
 */

/** What a topic publishes: one poll's new items and the upstream calls it made, or why the poller stopped. */
export type TopicMessage<T> = { readonly items: readonly T[]; readonly calls: number } | { readonly error: SerializedError };

/** An error as it travels between replicas: enough to rebuild an upstream error and its code. */
export interface SerializedError {
  message: string;
  upstream?: UpstreamName;
  kind?: UpstreamErrorKind;
  operation?: string;
  status?: number;
  retryAfter?: number;
}

/** A lease per topic, so one replica polls it at a time. */
export interface TopicLease {
  /** Takes the lease on `topic` for `ttlMs`, or renews it when this replica holds it: true while this replica holds it. */
  hold(topic: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up, if this replica holds it. */
  release(topic: string): Promise<void>;
}

/** Options of {@link createTopics}. */
export interface TopicsOptions {
  /** Where events go and come from. Default: an in-process `EventTarget` (one poller per topic per process). */
  eventTarget?: PubSubEventTarget<Record<string, [TopicMessage<unknown>]>>;
  /** The fleet-wide lease per topic (with a shared event target). Default none: this process polls every topic it has subscribers for. */
  lease?: TopicLease;
  /** Time to live of a lease, ms; it is renewed every third of it. A dead holder is replaced within about this long. Default 10000. */
  leaseTtlMs?: number;
  /** Most topics with subscribers at once in this process (`MAX_TOPICS`); SERVER_BUSY beyond. Default 1000. */
  maxTopics?: number;
  /** Told about lease failures (Redis unreachable...). Default: ignored. */
  onError?: (error: unknown, topic: string) => void;
}

export const TOPICS_DEFAULTS = { leaseTtlMs: 10_000, maxTopics: 1000 } as const;

/** A topic and how to poll it. */
export interface TopicSource<T> {
  /** The topic's name: what it polls, and a digest of the caller's own API key when there is one. */
  readonly key: string;
  /**
   * Polls until `signal` aborts, publishing each poll's new items (never an empty list) and the calls
   * it made. `last` is the last message this process saw on the topic, so a replica taking over carries on from it.
   */
  poll(signal: AbortSignal, publish: (items: readonly T[], calls: number) => void, last: readonly T[] | undefined): Promise<void>;
  /** A new subscriber is handed the last message this process saw at once (a state, such as a health report). Default false. */
  readonly replayLast?: boolean;
}

export interface TopicStats {
  /** Topics with subscribers in this process. */
  topics: number;
  /** Topics this process polls (holds the lease of). */
  polling: number;
  subscribers: number;
}

export interface Topics {
  /** The topic's messages from now on, until `return()` or `signal` aborts; the first subscriber starts its poller. */
  subscribe<T>(source: TopicSource<T>, signal?: AbortSignal): AsyncIterableIterator<TopicMessage<T>>;
  /**
   * Publishes items on a topic from outside its poller (an event pushed to this replica, such as a
   * webhook delivery): every subscriber of the topic, on every replica sharing the event target, gets
   * them once. Nothing happens for a topic nobody subscribes to.
   */
  publish<T>(key: string, items: readonly T[]): void;
  stats(): TopicStats;
  /** Stops every poller and gives every lease up. */
  close(): Promise<void>;
}

interface Entry {
  readonly key: string;
  readonly source: TopicSource<unknown>;
  readonly stop: AbortController;
  subscribers: number;
  poller?: AbortController;
  last?: { readonly items: readonly unknown[]; readonly calls: number };
  readonly onMessage: (event: CustomEvent<TopicMessage<unknown>>) => void;
  /** The poller's failure, once it failed: a subscriber that had not started listening yet still ends on it. */
  failed?: TopicMessage<unknown>;
  /** Subscribers waiting for a message, woken by a failure. */
  readonly waiting: Set<(message: TopicMessage<unknown>) => void>;
  fail(message: { readonly error: SerializedError }): void;
}

/**
 * The in-process event target: one listener per subscriber of a topic. Subscribers are bounded by the
 * admission gate (`MAX_SUBSCRIPTIONS`), not by Node's leak heuristic, whose warning at the 11th
 * listener is a stray line on stderr (outside the JSON logs) for a routine eleventh subscriber.
 */
function ownEventTarget(): PubSubEventTarget<Record<string, [TopicMessage<unknown>]>> {
  const target = new EventTarget();
  setMaxListeners(0, target);
  return target as PubSubEventTarget<Record<string, [TopicMessage<unknown>]>>;
}

export function createTopics(options: TopicsOptions = {}): Topics {
  const { lease, onError = () => undefined } = options;
  const leaseTtlMs = options.leaseTtlMs ?? TOPICS_DEFAULTS.leaseTtlMs;
  const maxTopics = options.maxTopics ?? TOPICS_DEFAULTS.maxTopics;
  const target = options.eventTarget ?? ownEventTarget();
  const pubsub = createPubSub<Record<string, [TopicMessage<unknown>]>>({ eventTarget: target });
  const entries = new Map<string, Entry>();
  const running = new Set<Promise<void>>();

  const startPoller = (entry: Entry): void => {
    const poller = new AbortController();
    entry.poller = poller;
    const publish = (items: readonly unknown[], calls: number): void => {
      if (!poller.signal.aborted && items.length > 0) pubsub.publish(entry.key, { items, calls });
    };
    const polling = entry.source.poll(poller.signal, publish, entry.last?.items).then(
      () => undefined,
      (error: unknown) => {
        if (poller.signal.aborted) return;
        const message = { error: serializeError(error) };
        pubsub.publish(entry.key, message);
        // A failed topic is done: its subscribers end on the error; a later one starts afresh.
        entry.fail(message);
      },
    );
    // A poller's clean-up after its abort (a webhook address given back) is awaited by `close()`.
    running.add(polling);
    void polling.finally(() => running.delete(polling));
  };

  const stopPoller = (entry: Entry): void => {
    entry.poller?.abort();
    delete entry.poller;
  };

  /** The lease loop of a topic on this replica: hold it and poll, or wait and listen. */
  const leaseLoop = async (entry: Entry, held: TopicLease): Promise<void> => {
    let holding = false;
    while (!entry.stop.signal.aborted) {
      try {
        holding = await held.hold(entry.key, leaseTtlMs);
      } catch (error) {
        onError(error, entry.key);
        holding = false;
      }
      if (entry.stop.signal.aborted) break;
      if (holding && !entry.poller) startPoller(entry);
      else if (!holding && entry.poller) stopPoller(entry);
      // A state topic's holder says the state again at each renewal: a replica whose subscription to the
      // event target came after the last change (Redis SUBSCRIBE is asynchronous) would otherwise wait for
      // the next change, which may never come. Subscribers drop what they have already seen.
      else if (holding && entry.source.replayLast && entry.last) pubsub.publish(entry.key, entry.last);
      try {
        await delay(leaseTtlMs / 3, undefined, { signal: entry.stop.signal });
      } catch {
        break;
      }
    }
    stopPoller(entry);
    if (holding) await held.release(entry.key).catch((error: unknown) => onError(error, entry.key));
  };

  const retire = (entry: Entry): void => {
    if (entry.stop.signal.aborted) return;
    entry.stop.abort();
    stopPoller(entry);
    if (entries.get(entry.key) === entry) entries.delete(entry.key);
    target.removeEventListener(entry.key, entry.onMessage);
  };

  const join = (source: TopicSource<unknown>): Entry => {
    const known = entries.get(source.key);
    if (known) {
      known.subscribers += 1;
      return known;
    }
    if (entries.size >= maxTopics) {
      throw codedError(ErrorCode.SERVER_BUSY, `Too many distinct subscription topics on this gateway (limit ${maxTopics}): retry later.`);
    }
    const entry: Entry = {
      key: source.key,
      source,
      stop: new AbortController(),
      subscribers: 1,
      onMessage: (event) => {
        if ('items' in event.detail) entry.last = event.detail;
        else entry.fail(event.detail);
      },
      waiting: new Set(),
      fail: (message) => {
        entry.failed ??= message;
        for (const wake of entry.waiting) wake(message);
        entry.waiting.clear();
        retire(entry);
      },
    };
    entries.set(source.key, entry);
    target.addEventListener(entry.key, entry.onMessage);
    if (lease) {
      const loop = leaseLoop(entry, lease);
      running.add(loop);
      void loop.finally(() => running.delete(loop));
    } else {
      startPoller(entry);
    }
    return entry;
  };

  const leave = (entry: Entry): void => {
    entry.subscribers -= 1;
    if (entry.subscribers <= 0) retire(entry);
  };

  return {
    subscribe<T>(source: TopicSource<T>, signal?: AbortSignal): AsyncIterableIterator<TopicMessage<T>> {
      const stream = pubsub.subscribe(source.key);
      const entry = join(source as TopicSource<unknown>);
      let started = false;
      let primed: Promise<IteratorResult<TopicMessage<unknown>>> | undefined;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        signal?.removeEventListener('abort', finish);
        leave(entry);
        void stream.return();
      };
      signal?.addEventListener('abort', finish, { once: true });
      if (signal?.aborted) finish();
      const iterator: AsyncIterableIterator<TopicMessage<T>> = {
        async next() {
          if (done) return { done: true, value: undefined };
          if (!started) {
            started = true;
            // The stream listens from its first next(); a state topic hands its last message over meanwhile.
            if (source.replayLast && entry.last) {
              const last = entry.last as TopicMessage<T>;
              primed = stream.next();
              return { done: false, value: last };
            }
          }
          const failed = entry.failed;
          const step: IteratorResult<TopicMessage<unknown>> = failed
            ? { done: false, value: failed }
            : await new Promise((resolve, reject) => {
                const wake = (value: TopicMessage<unknown>): void => resolve({ done: false, value });
                entry.waiting.add(wake);
                (primed ?? stream.next()).then(
                  (result) => {
                    entry.waiting.delete(wake);
                    resolve(result);
                  },
                  (error: unknown) => {
                    entry.waiting.delete(wake);
                    reject(error);
                  },
                );
              });
          primed = undefined;
          if (step.done || done) {
            finish();
            return { done: true, value: undefined };
          }
          return { done: false, value: step.value as TopicMessage<T> };
        },
        async return() {
          finish();
          return { done: true, value: undefined };
        },
        async throw(error?: unknown) {
          finish();
          throw error;
        },
        [Symbol.asyncIterator]: () => iterator,
      };
      return iterator;
    },
    publish(key, items) {
      if (items.length > 0) pubsub.publish(key, { items, calls: 0 });
    },
    stats() {
      let polling = 0;
      let subscribers = 0;
      for (const entry of entries.values()) {
        if (entry.poller) polling += 1;
        subscribers += entry.subscribers;
      }
      return { topics: entries.size, polling, subscribers };
    },
    async close() {
      for (const entry of [...entries.values()]) retire(entry);
      await Promise.all([...running]);
    },
  };
}

/** Where the gateway puts its topics in a request's context (`useTopics`); absent in contexts built without a gateway. */
export interface TopicsContext {
  readonly topics?: Topics;
}

/** The gateway's topics, if this context has them. */
export function topicsOf(ctx: LoaderContext): Topics | undefined {
  return (ctx as LoaderContext & TopicsContext).topics;
}

/** A topic name's suffix for a caller who sent their own Data API key (a digest, never the key), so callers with different keys never share a poller. */
export function callerScope(call: CallOptions): string {
  return call.apiKey ? `:k${shortDigest(call.apiKey, 16)}` : '';
}

/**
 * A loader context of a topic's poller: the subscriber's clients and key, but the poller's own
 * signal and budget (`limit` calls per poll, renewed at each poll by the poller). It outlives the
 * subscriber that started it. Upstream attempts are still reported to the gateway's observer.
 */
export function pollerContext(ctx: LoaderContext, signal: AbortSignal, limit: number): LoaderContext & { readonly upstreamCalls: UpstreamBudget } {
  const budget: UpstreamBudget = { count: 0, limit, refused: 0, retries: 0 };
  const observer = ctx.call.observer;
  const call: CallOptions = {
    signal,
    ...(ctx.call.apiKey ? { apiKey: ctx.call.apiKey } : {}),
    observer: {
      admit: ({ attempt }) => {
        if (attempt > 1) {
          budget.retries += 1;
          return true;
        }
        if (budget.count >= budget.limit) {
          budget.refused += 1;
          return false;
        }
        budget.count += 1;
        return true;
      },
      onAttempt: (info) => observer?.onAttempt(info),
    },
  };
  return { ...loaderContext(upstreamOf(ctx), call), upstreamCalls: budget };
}

/**
 * A subscriber's view of a topic: one item at a time, each poll's items in a new window of the
 * subscriber's budget charged with the calls the shared poll made (so `extensions.cost` and the
 * per-event budget read as when the subscriber polled alone), kept only when `keep` says so (each
 * subscriber drops what it has already seen). A poller's failure ends the stream with that error.
 * `return()` leaves the topic at once.
 */
export function delivered<T>(
  ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget },
  messages: AsyncIterableIterator<TopicMessage<T>>,
  keep: (item: T) => boolean = () => true,
): AsyncIterableIterator<T> {
  let pending: T[] = [];
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      while (pending.length === 0) {
        const step = await messages.next();
        if (step.done) return { done: true, value: undefined };
        const message = step.value;
        if ('error' in message) {
          await messages.return?.();
          throw reviveError(message.error);
        }
        const fresh = message.items.filter(keep);
        if (fresh.length === 0) continue;
        newBudgetWindow(ctx.upstreamCalls);
        if (ctx.upstreamCalls) ctx.upstreamCalls.count = message.calls;
        pending = fresh;
      }
      return { done: false, value: pending.shift() as T };
    },
    async return() {
      pending = [];
      await messages.return?.();
      return { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      pending = [];
      await messages.return?.();
      throw error;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

function serializeError(error: unknown): SerializedError {
  if (error instanceof UpstreamError) {
    return {
      message: error.message,
      upstream: error.upstream,
      kind: error.kind,
      operation: error.operation,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
    };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/** The error again, on whichever replica received it: an upstream error keeps its kind (and so its code). */
export function reviveError(error: SerializedError): Error {
  if (error.upstream && error.kind && error.operation) {
    return new UpstreamError(error.message, {
      upstream: error.upstream,
      kind: error.kind,
      operation: error.operation,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
    });
  }
  return new Error(error.message);
}

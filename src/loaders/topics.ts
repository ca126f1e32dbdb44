import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { createPubSub, type PubSubEventTarget } from '@graphql-yoga/subscription';
import { codedError, ErrorCode } from '../errors/graphql.ts';
import { budgetObserver, createBudget, newBudgetWindow, type UpstreamBudget } from './budget.ts';
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
 *
 * Topics are shared fairly: each client (the request context's `client`) holds at most
 * `maxTopicsPerClient` distinct topics and watches at most `maxWatchedKeysPerClient` across its
 * subscriptions, checked with the replica's `maxTopics` before any poller starts (SERVER_BUSY), on
 * every transport, since subscriptions take them here. A topic whose poller holds a registration
 * (`lingers`: a webhook) outlives its last subscriber by a grace (`lingerMs`), so closing and reopening
 * a subscription reuses it; lingering topics belong to no client and give their room up to new ones.
 * The shares and the grace are per replica.
 */

/** What a topic publishes: one poll's new items and the upstream calls it made, or why the poller stopped. */
export type TopicMessage<T> = { readonly items: readonly T[]; readonly calls: number; readonly computeUnits?: number } | { readonly error: SerializedError };

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
  /**
   * Most distinct topics one client holds at once in this process (`MAX_TOPICS_PER_CLIENT`), SERVER_BUSY
   * beyond: a topic the client subscribes to twice counts once (it is one poller, one registration).
   * Default a quarter of `maxTopics`.
   */
  maxTopicsPerClient?: number;
  /**
   * Most topics one client's live subscriptions watch at once in this process, counted per subscription
   * (`MAX_WATCHED_KEYS_PER_CLIENT`), SERVER_BUSY beyond: a live-activity subscription of 100 addresses
   * watches 100, a `blocks` subscription one, and the same address in two subscriptions counts twice
   * (each is a listener and a queue). Default twice `maxTopicsPerClient`.
   */
  maxWatchedKeysPerClient?: number;
  /**
   * How long a topic whose source `lingers` (a webhook registration) keeps its poller after its last
   * subscriber left, ms (`REGISTRATION_GRACE_MS`): a subscriber coming back meanwhile reuses it with no
   * upstream call. Lingering topics hold no client's share and make room, oldest first, for a new
   * topic at `maxTopics`, so they never refuse anyone. 0: stopped at once. Default 60000.
   */
  lingerMs?: number;
  /** Clock of the grace, ms (tests move it rather than wait). Default `Date.now`. */
  now?: () => number;
  /** Told about lease failures (Redis unreachable...). Default: ignored. */
  onError?: (error: unknown, topic: string) => void;
}

export const TOPICS_DEFAULTS = { leaseTtlMs: 10_000, maxTopics: 1000, lingerMs: 60_000 } as const;

/** A client's share of distinct topics when `maxTopicsPerClient` is not given: a quarter of `maxTopics`. */
export const topicsPerClientOf = (maxTopics: number): number => Math.max(1, Math.floor(maxTopics / 4));
/** A client's share of watched topics when `maxWatchedKeysPerClient` is not given: twice its share of distinct ones. */
export const watchedKeysPerClientOf = (maxTopicsPerClient: number): number => 2 * maxTopicsPerClient;

/** How often lingering topics are looked at (at most): their grace ends within this after it passed. */
const SWEEP_EVERY_MS = 1000;

/** A topic and how to poll it. */
export interface TopicSource<T> {
  /** The topic's name: what it polls, and a digest of the caller's own API key when there is one. */
  readonly key: string;
  /**
   * Polls until `signal` aborts, publishing each poll's new items (never an empty list) and the calls
   * it made. `last` is the last message this process saw on the topic, so a replica taking over carries on from it.
   */
  poll(signal: AbortSignal, publish: (items: readonly T[], calls: number, computeUnits?: number) => void, last: readonly T[] | undefined): Promise<void>;
  /** A new subscriber is handed the last message this process saw at once (a state, such as a health report). Default false. */
  readonly replayLast?: boolean;
  /**
   * The poller holds something worth keeping a while (a webhook registration): once its last subscriber
   * left, the topic lingers `lingerMs` before it is stopped. Default false: stopped at once (a poll loop).
   */
  readonly lingers?: boolean;
}

/** Options of {@link Topics.subscribeAll}. */
export interface SubscribeOptions {
  /** Ends the subscriptions when it aborts (the request's). */
  signal?: AbortSignal;
  /** Who holds them, for the per-client shares (the request context's `client`). Default: nobody's, no share applies. */
  client?: string;
  /**
   * Called once the pollers the subscription starts itself have been started (at once in process; after
   * their leases were asked together with a lease): what they do before it is on the subscriber's behalf.
   */
  opened?: () => void;
}

export interface TopicStats {
  /** Topics with subscribers in this process, and those lingering. */
  topics: number;
  /** Topics without subscribers kept for their grace (`lingerMs`). */
  lingering: number;
  /** Clients holding topics. */
  clients: number;
  /** Topics this process polls (holds the lease of). */
  polling: number;
  subscribers: number;
}

export interface Topics {
  /** The topic's messages from now on, until `return()` or `signal` aborts; the first subscriber starts its poller. */
  subscribe<T>(source: TopicSource<T>, signal?: AbortSignal): AsyncIterableIterator<TopicMessage<T>>;
  /**
   * Several topics at once, all or none: the client's shares and the replica's room are checked for
   * them together before any poller starts (SERVER_BUSY, nothing started, when one is short), then each
   * is subscribed as by `subscribe`. Pollers started together begin together (their leases asked at once).
   */
  subscribeAll<T>(sources: readonly TopicSource<T>[], options?: SubscribeOptions): AsyncIterableIterator<TopicMessage<T>>[];
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
  last?: { readonly items: readonly unknown[]; readonly calls: number; readonly computeUnits?: number };
  readonly onMessage: (event: CustomEvent<TopicMessage<unknown>>) => void;
  /** The poller's failure, once it failed: a subscriber that had not started listening yet still ends on it. */
  failed?: TopicMessage<unknown>;
  /** Subscribers waiting for a message, woken by a failure. */
  readonly waiting: Set<(message: TopicMessage<unknown>) => void>;
  /** While it lingers (no subscriber, `source.lingers`): when it is stopped, ms. */
  lingerUntil?: number;
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
  const maxTopicsPerClient = options.maxTopicsPerClient ?? topicsPerClientOf(maxTopics);
  const maxWatchedKeysPerClient = options.maxWatchedKeysPerClient ?? watchedKeysPerClientOf(maxTopicsPerClient);
  const lingerMs = options.lingerMs ?? TOPICS_DEFAULTS.lingerMs;
  const now = options.now ?? Date.now;
  const target = options.eventTarget ?? ownEventTarget();
  const pubsub = createPubSub<Record<string, [TopicMessage<unknown>]>>({ eventTarget: target });
  const entries = new Map<string, Entry>();
  const running = new Set<Promise<void>>();
  /** Entries without subscribers in their grace, oldest first (the order they are stopped and evicted in). */
  const lingering = new Map<string, Entry>();
  const shares = createClientShares(maxTopicsPerClient, maxWatchedKeysPerClient);
  let sweeper: NodeJS.Timeout | undefined;

  const startPoller = (entry: Entry): void => {
    const poller = new AbortController();
    entry.poller = poller;
    const publish = (items: readonly unknown[], calls: number, computeUnits = 0): void => {
      if (!poller.signal.aborted && items.length > 0) pubsub.publish(entry.key, { items, calls, computeUnits });
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

  /**
   * The lease loop of a topic on this replica: hold it and poll, or wait and listen. `first` is the
   * answer of its first hold when it was asked with others' (a subscription's topics start together).
   */
  const leaseLoop = async (entry: Entry, held: TopicLease, first?: boolean): Promise<void> => {
    // A lease taken for a topic retired meanwhile is still given back below.
    let holding = first === true;
    let known = first;
    while (!entry.stop.signal.aborted) {
      if (known !== undefined) {
        holding = known;
        known = undefined;
      } else if (!holding && lingering.get(entry.key) === entry) {
        // A lingering topic keeps a lease it holds, never takes one: nobody here needs it registered.
      } else {
        try {
          holding = await held.hold(entry.key, leaseTtlMs);
        } catch (error) {
          onError(error, entry.key);
          holding = false;
        }
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
    if (lingering.get(entry.key) === entry) lingering.delete(entry.key);
    target.removeEventListener(entry.key, entry.onMessage);
  };

  /** Stops the lingering topics whose grace is over; looks again while some linger. */
  const sweep = (): void => {
    const at = now();
    for (const entry of lingering.values()) {
      if ((entry.lingerUntil ?? 0) <= at) retire(entry);
    }
  };
  const scheduleSweep = (): void => {
    if (sweeper || lingering.size === 0) return;
    sweeper = setTimeout(() => {
      sweeper = undefined;
      sweep();
      scheduleSweep();
    }, Math.min(lingerMs, SWEEP_EVERY_MS));
    sweeper.unref();
  };

  /**
   * Room for `fresh` new topics (and the lingering `reviving` ones getting subscribers back), or
   * SERVER_BUSY: lingering topics not in `keep` are stopped for it, oldest first.
   */
  const makeRoom = (fresh: number, reviving: number, keep: ReadonlySet<string>): void => {
    if (entries.size - lingering.size + reviving + fresh > maxTopics) {
      throw codedError(ErrorCode.SERVER_BUSY, `Too many distinct subscription topics on this gateway (limit ${maxTopics}): retry later.`, { limits: { maxTopics } });
    }
    for (const entry of lingering.values()) {
      if (entries.size + fresh <= maxTopics) break;
      if (!keep.has(entry.key)) retire(entry);
    }
  };

  /** A subscriber more for `source`'s topic: its entry, and whether it was made now (its poller not started yet). */
  const join = (source: TopicSource<unknown>): { entry: Entry; fresh: boolean } => {
    const known = entries.get(source.key);
    if (known) {
      if (lingering.delete(known.key)) delete known.lingerUntil;
      known.subscribers += 1;
      return { entry: known, fresh: false };
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
    return { entry, fresh: true };
  };

  const runLeaseLoop = (entry: Entry, held: TopicLease, first?: boolean): void => {
    const loop = leaseLoop(entry, held, first);
    running.add(loop);
    void loop.finally(() => running.delete(loop));
  };

  /**
   * Starts the pollers of topics made together, then says so (`opened`): at once in process; with a
   * lease, once their first holds (asked together) answered, so the pollers this replica won start in
   * the same turn and what they register on the subscriber's behalf goes out together.
   */
  const start = (made: readonly Entry[], opened: (() => void) | undefined): void => {
    if (!lease) {
      // A topic already left (the request's signal had aborted) is not started: nothing of it is worth a grace.
      for (const entry of made) {
        if (lingering.has(entry.key)) retire(entry);
        else if (!entry.stop.signal.aborted) startPoller(entry);
      }
      opened?.();
      return;
    }
    if (made.length === 0) {
      opened?.();
      return;
    }
    const holds = made.map((entry) => lease.hold(entry.key, leaseTtlMs).catch((error: unknown) => {
      onError(error, entry.key);
      return false;
    }));
    void Promise.all(holds).then((won) => {
      made.forEach((entry, i) => {
        // Left before it started: stopped (its loop gives the lease back), as in process.
        if (lingering.has(entry.key)) retire(entry);
        runLeaseLoop(entry, lease, won[i] === true);
      });
      opened?.();
    });
  };

  const leave = (entry: Entry): void => {
    entry.subscribers -= 1;
    if (entry.subscribers > 0) return;
    if (entry.source.lingers && lingerMs > 0 && !entry.stop.signal.aborted) {
      entry.lingerUntil = now() + lingerMs;
      lingering.set(entry.key, entry);
      scheduleSweep();
    } else {
      retire(entry);
    }
  };

  /** One subscriber of `entry`: its messages until `return()` or `signal`; leaving gives the topic and the client's share back. */
  function streamOf<T>(source: TopicSource<T>, entry: Entry, signal: AbortSignal | undefined, client: string | undefined): AsyncIterableIterator<TopicMessage<T>> {
    const stream = pubsub.subscribe(source.key);
    let started = false;
    let primed: Promise<IteratorResult<TopicMessage<unknown>>> | undefined;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', finish);
      leave(entry);
      if (client !== undefined) shares.give(client, entry.key);
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
  }

  function subscribeAll<T>(sources: readonly TopicSource<T>[], options: SubscribeOptions = {}): AsyncIterableIterator<TopicMessage<T>>[] {
    const { signal, client } = options;
    const keys = sources.map((source) => source.key);
    const distinct = new Set(keys);
    // Every check before anything starts: a refused subscription costs no poll and no registration.
    if (client !== undefined) shares.check(client, keys, distinct);
    let fresh = 0;
    let reviving = 0;
    for (const key of distinct) {
      if (!entries.has(key)) fresh += 1;
      else if (lingering.has(key)) reviving += 1;
    }
    makeRoom(fresh, reviving, distinct);
    const made: Entry[] = [];
    const streams = sources.map((source) => {
      const { entry, fresh: isNew } = join(source as TopicSource<unknown>);
      if (isNew) made.push(entry);
      if (client !== undefined) shares.take(client, entry.key);
      return streamOf(source, entry, signal, client);
    });
    start(made, options.opened);
    return streams;
  }

  return {
    subscribe<T>(source: TopicSource<T>, signal?: AbortSignal): AsyncIterableIterator<TopicMessage<T>> {
      return subscribeAll([source], signal ? { signal } : {})[0] as AsyncIterableIterator<TopicMessage<T>>;
    },
    subscribeAll,
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
      return { topics: entries.size, lingering: lingering.size, clients: shares.clients(), polling, subscribers };
    },
    async close() {
      if (sweeper) clearTimeout(sweeper);
      sweeper = undefined;
      // Lingering topics too: what they registered is given back now.
      for (const entry of [...entries.values()]) retire(entry);
      await Promise.all([...running]);
    },
  };
}

/** Where the gateway puts its topics in a request's context (`useTopics`); absent in contexts built without a gateway. */
export interface TopicsContext {
  readonly topics?: Topics;
  /** Who the request's caller is for the per-client rules (the gateway's context sets it): who holds what it subscribes to. */
  readonly client?: string;
}

/**
 * The gateway's topics, if this context has them, held by the request's client: every subscription
 * through them (blocks, node health, live activity) counts against that client's shares, whatever
 * the transport, since they are taken here rather than at an edge.
 */
export function topicsOf(ctx: LoaderContext): Topics | undefined {
  const { topics, client } = ctx as LoaderContext & TopicsContext;
  return topics && typeof client === 'string' ? heldBy(topics, client) : topics;
}

/** `topics` with every subscription held by `client` (unless the subscriber names another). */
function heldBy(topics: Topics, client: string): Topics {
  return {
    subscribe: <T>(source: TopicSource<T>, signal?: AbortSignal) => topics.subscribeAll([source], { client, ...(signal ? { signal } : {}) })[0] as AsyncIterableIterator<TopicMessage<T>>,
    subscribeAll: (sources, options = {}) => topics.subscribeAll(sources, { client, ...options }),
    publish: (key, items) => topics.publish(key, items),
    stats: () => topics.stats(),
    close: () => topics.close(),
  };
}

/** What each client holds, against its shares (`maxTopicsPerClient`, `maxWatchedKeysPerClient`). */
interface ClientShares {
  /** Throws SERVER_BUSY when `client` may not take `keys` (its subscription's topics) on top of what it holds. */
  check(client: string, keys: readonly string[], distinct: ReadonlySet<string>): void;
  take(client: string, key: string): void;
  give(client: string, key: string): void;
  /** Clients holding anything. */
  clients(): number;
}

/**
 * Per client: the subscriptions it holds per topic. A topic counts once against its distinct-topic share
 * however many of its subscriptions watch it (one poller, one registration), and once per subscription
 * against its watched share. A client holding nothing is forgotten, so this holds only live clients.
 */
function createClientShares(maxTopics: number, maxWatched: number): ClientShares {
  const held = new Map<string, { readonly topics: Map<string, number>; watched: number }>();
  return {
    check(client, keys, distinct) {
      const mine = held.get(client);
      let added = 0;
      for (const key of distinct) if (!mine?.topics.has(key)) added += 1;
      const topics = (mine?.topics.size ?? 0) + added;
      if (added > 0 && topics > maxTopics) {
        throw codedError(
          ErrorCode.SERVER_BUSY,
          `This subscription would make your client hold ${topics} distinct subscription topics on this gateway, over its share of ${maxTopics} (MAX_TOPICS_PER_CLIENT; each watched address or node, and each chain's blocks, is a topic): close subscriptions you no longer read, or watch fewer addresses.`,
          { limits: { maxTopicsPerClient: maxTopics } },
        );
      }
      const watched = (mine?.watched ?? 0) + keys.length;
      if (watched > maxWatched) {
        throw codedError(
          ErrorCode.SERVER_BUSY,
          `This subscription would make your client's live subscriptions watch ${watched} topics on this gateway, over its share of ${maxWatched} (MAX_WATCHED_KEYS_PER_CLIENT; an address watched by two subscriptions counts twice): close subscriptions you no longer read, or share one subscription between readers.`,
          { limits: { maxWatchedKeysPerClient: maxWatched } },
        );
      }
    },
    take(client, key) {
      let mine = held.get(client);
      if (!mine) held.set(client, (mine = { topics: new Map(), watched: 0 }));
      mine.topics.set(key, (mine.topics.get(key) ?? 0) + 1);
      mine.watched += 1;
    },
    give(client, key) {
      const mine = held.get(client);
      if (!mine) return;
      const left = (mine.topics.get(key) ?? 1) - 1;
      if (left > 0) mine.topics.set(key, left);
      else mine.topics.delete(key);
      mine.watched -= 1;
      if (mine.watched <= 0) held.delete(client);
    },
    clients: () => held.size,
  };
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
  const budget = createBudget(limit);
  const observer = ctx.call.observer;
  const call: CallOptions = {
    signal,
    ...(ctx.call.apiKey ? { apiKey: ctx.call.apiKey } : {}),
    // Attempts still reach the gateway's observer (metrics), not the subscriber's budget: the poll has its own.
    observer: budgetObserver(budget, observer ? { onAttempt: (info) => observer.onAttempt(info) } : undefined),
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
        if (ctx.upstreamCalls) {
          ctx.upstreamCalls.count = message.calls;
          ctx.upstreamCalls.actualComputeUnits = message.computeUnits ?? 0;
        }
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

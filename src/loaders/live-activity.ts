/**
 * Live activity from the Data API's webhooks, with no polling: the subscriptions `addressActivity`
 * (an EVM chain), `primaryNetworkActivity` and `validatorActivity`.
 *
 * - **Topics.** Each watched key (an address of a chain, a primary-network address, a node) is a topic
 *   of src/loaders/topics.ts: its "poller" registers the key with the Data API when the topic gets its
 *   first subscriber and gives it back when its last one leaves, so keys are reference-counted by the
 *   topics themselves, in the process or, with Redis, across the fleet (one replica holds a topic's
 *   lease and so its registration). `MAX_TOPICS` bounds them, and each client's shares
 *   (`MAX_TOPICS_PER_CLIENT`, `MAX_WATCHED_KEYS_PER_CLIENT`), checked before any call. A topic lingers
 *   `REGISTRATION_GRACE_MS` after its last subscriber, so closing and reopening a subscription costs no call.
 * - **Webhooks.** The addresses of one EVM chain share one webhook of the server's own key, pointed
 *   at `WEBHOOK_PUBLIC_URL`: found among the key's active webhooks (looked through once per chain and
 *   process) or created on first need, then given addresses and relieved of them in batches (the
 *   changes asked while a call is in flight go in the next one), and deactivated when its last address
 *   goes, so on shutdown what chaingraph registered is deactivated. The primary-network addresses a
 *   subscription registers share one webhook, made with them (the spec's address changes are for EVM
 *   webhooks only) and deactivated when none of them is watched; a node has a webhook of its own (a
 *   validator webhook takes one key). Changes of a group's webhooks are serialised by a lock
 *   (fleet-wide with Redis, see {@link ActivityStore}).
 * - **Cost.** What a subscription's opening registers is charged to its request (its call options:
 *   budget and observer) and declared by its field ({@link ADDRESS_ACTIVITY_COST}...); what the shared
 *   registrations do later (a release after the grace, a lease taken over, shutdown) is the gateway's.
 * - **Deliveries.** Any replica may receive one (`receive`): it is authenticated by its signature
 *   (src/lib/webhook-signature.ts, the server's shared secret), dropped when its message id was seen
 *   (fleet-wide with Redis), and published on the topic of each watched key it touches; a subscriber
 *   watching several of them gets it once.
 * - **Replays.** A delivery is pushed at most once, a restart included, because its age is bounded by
 *   what the memory of message ids ({@link ActivityStore.firstSight}) can tell: its event time (the
 *   transaction's `blockTimestamp`, which the spec requires; the event's own for the other types) must
 *   be within `replayWindowMs` (24 h) of now, and not before the memory began: in process, this
 *   process's start; with Redis, the fleet's first replica's (or the moment Redis was found to have lost
 *   it); an id forgotten early (the in-process memory holds 100,000) moves that start up to its event. A
 *   delivery with no event time is refused, as its age cannot be told. What this costs: after a restart
 *   without Redis, the Data API's retries of events from before it are refused (409, which ends them); no
 *   subscriber of the new process asked for them, as subscriptions see events from when they start.
 *   Assumed: the gateway's clock is not behind the chain's by more than a restart takes.
 * - **Floods.** Verifying a delivery (parse, canonical form, HMAC) is CPU: at most `maxVerifying` (2) are
 *   verified at once, a few more wait (`maxVerifyWaiting`), the rest are answered 503; the canonical form
 *   is fed to the HMAC in slices with a turn of the event loop between them; what is cheap is checked
 *   first (the signature header's form before the body is read, the envelope and the event's age before
 *   the HMAC). The endpoint (src/gateway/plugins/use-webhook-deliveries.ts) adds a rate of refusals per
 *   source address.
 */
import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';
import * as v from 'valibot';
import { LRUCache } from 'lru-cache';
import { codedError, ErrorCode } from '../errors/graphql.ts';
import { newBudgetWindow, type UpstreamBudget } from './budget.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import type { DataApi, CallOptions, UpstreamObserver } from '../upstream/client-types.ts';
import { UpstreamError } from '../upstream/errors.ts';
import {
  describeWebhookEvents, READ, WebhookDelivery, type AddressActivityEvent, type PrimaryActivityEvent, type ValidatorActivityEvent, type Webhook,
  type WebhookEventType,
} from '../shapes/index.ts';
import { isWebhookSignature, verifyWebhookSignatureInSlices } from '../lib/webhook-signature.ts';
import { reviveError, topicsOf, type TopicMessage, type Topics, type TopicSource } from './topics.ts';
import type { LoaderContext } from './registry.ts';

// ---------------------------------------------------------------- what is watched

/** One group of watched keys: the keys that share a webhook. */
export type ActivityGroup =
  | { readonly kind: 'evm'; readonly chainId: string }
  | { readonly kind: 'primary'; readonly network: 'mainnet' | 'fuji'; readonly blockchainId: string }
  | { readonly kind: 'validator'; readonly network: 'mainnet' | 'fuji'; readonly nodeId: string };

/** What a subscriber receives: the delivery's ids and its event, read. */
export type ActivityItem =
  | { readonly kind: 'evm'; readonly messageId: string; readonly webhookId: string; readonly event: AddressActivityEvent }
  | { readonly kind: 'primary'; readonly messageId: string; readonly webhookId: string; readonly event: PrimaryActivityEvent }
  | { readonly kind: 'validator'; readonly messageId: string; readonly webhookId: string; readonly event: ValidatorActivityEvent };

/**
 * The last thing a subscription that failed gets (its key could not be registered): the field's
 * resolver throws it, so it reaches the client as a coded GraphQL error of the event; an error thrown by
 * the event stream itself would be masked. The stream ends after it.
 */
export interface ActivityFailure {
  readonly kind: 'failed';
  readonly error: unknown;
}

const EVENT_TYPE: Readonly<Record<ActivityGroup['kind'], WebhookEventType>> = {
  evm: 'address_activity',
  primary: 'primary_network_address_activity',
  validator: 'validator_activity',
};

/** The name of a group, in lock and store keys and topic names. */
export function groupName(group: ActivityGroup): string {
  switch (group.kind) {
    case 'evm':
      return `evm:${group.chainId}`;
    case 'primary':
      return `primary:${group.network}:${group.blockchainId}`;
    case 'validator':
      return `validator:${group.network}:${group.nodeId}`;
  }
}

/** EVM addresses are watched and matched in lowercase, primary addresses without their chain prefix (`P-`), node ids as written. */
const keyOf = (group: ActivityGroup, key: string): string => (group.kind === 'evm' ? key.toLowerCase() : group.kind === 'primary' ? key.replace(/^[PXC]-/, '') : key);

/** The topic of one watched key. */
export function activityTopic(group: ActivityGroup, key: string): string {
  return `activity:${groupName(group)}:${keyOf(group, key)}`;
}

// ---------------------------------------------------------------- the fleet's shared state

/**
 * What replicas share about live activity: in the process by default ({@link createMemoryActivityStore}),
 * through Redis with `REDIS_URL` (src/server/redis-activity.ts).
 */
export interface ActivityStore {
  /** Runs `work` while holding the lock named `name` (one holder at a time, fleet-wide when shared). */
  locked<T>(name: string, work: () => Promise<T>): Promise<T>;
  /**
   * What chaingraph registered, by name, if known: the webhook of an EVM chain (`evm:<chainId>`), the webhook
   * watching a primary-network address or a node (`<group>:<key>`), and how many keys a webhook of those watches
   * (`<group>#<webhookId>`).
   */
  webhookOf(group: string): Promise<string | undefined>;
  /** Remembers (or forgets, with undefined) what `webhookOf` answers for that name. */
  setWebhookOf(group: string, id: string | undefined): Promise<void>;
  /**
   * Takes one sight of a delivery whose event happened at `eventMs`: `first` the first time `messageId` is
   * seen, `repeat` after; `stale` when the event is older than this memory can tell (before it began, or
   * before an id it had to forget early), so a repeat could not be told from a first sight. An id is
   * remembered until `eventMs + windowMs`, when the age check refuses it anyway.
   */
  firstSight(messageId: string, eventMs: number, windowMs: number): Promise<Sighting>;
}

/** What the memory of message ids says of a delivery ({@link ActivityStore.firstSight}). */
export type Sighting = 'first' | 'repeat' | 'stale';

/** Message ids the in-process store remembers at most (about 100 bytes each). */
const SEEN_IN_PROCESS = 100_000;

/** Options of {@link createMemoryActivityStore}. */
export interface MemoryActivityStoreOptions {
  /** Clock, ms; the memory begins at its first reading. Default `Date.now`. */
  now?: () => number;
  /** Message ids remembered at most. Default 100,000. */
  maxSeen?: number;
}

export function createMemoryActivityStore(options: MemoryActivityStoreOptions = {}): ActivityStore {
  const now = options.now ?? Date.now;
  const tails = new Map<string, Promise<unknown>>();
  const webhooks = new Map<string, string>();
  // Events at or before `forgotten` cannot be told from a repeat: they predate this process (whose memory
  // begins empty), or an id evicted to make room.
  let forgotten = now() - 1;
  const seen = new LRUCache<string, number>({
    max: options.maxSeen ?? SEEN_IN_PROCESS,
    dispose: (eventMs, _id, reason) => {
      if (reason === 'evict') forgotten = Math.max(forgotten, eventMs);
    },
  });
  return {
    async locked(name, work) {
      const before = tails.get(name) ?? Promise.resolve();
      const run = before.then(work, work);
      const tail = run.then(() => undefined, () => undefined);
      tails.set(name, tail);
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name);
      });
      return run;
    },
    webhookOf: async (group) => webhooks.get(group),
    setWebhookOf: async (group, id) => void (id === undefined ? webhooks.delete(group) : webhooks.set(group, id)),
    async firstSight(messageId, eventMs, windowMs) {
      if (eventMs <= forgotten) return 'stale';
      if (seen.has(messageId)) return 'repeat';
      seen.set(messageId, eventMs, { ttl: Math.max(1, Math.ceil(eventMs + windowMs - now())) });
      return 'first';
    },
  };
}

// ---------------------------------------------------------------- the hub

/** Options of {@link createLiveActivity}. */
export interface LiveActivityOptions {
  /**
   * Where the Data API delivers (`WEBHOOK_PUBLIC_URL`): this gateway's delivery endpoint as the upstream
   * reaches it; a function when it is known only once the gateway listens (the built-in devnet on port 0).
   */
  publicUrl: string | (() => string);
  /** The delivery endpoint's path. Default: the public URL's (which must then be a string). */
  path?: string;
  dataApi: DataApi;
  topics: Topics;
  /** Default: in-process. */
  store?: ActivityStore;
  /** The key the webhooks belong to, when it is not the client's own (`DATA_API_KEY`): the built-in devnet's. */
  apiKey?: string;
  /** How long a message id is remembered, and how old a delivery may be; ms. Default 24 h. */
  replayWindowMs?: number;
  /** Deliveries verified at once (parse, canonical form, HMAC: CPU). Default 2. */
  maxVerifying?: number;
  /** Deliveries waiting for one of those; more are answered 503 (`busy`), which the Data API retries. Default 16. */
  maxVerifyWaiting?: number;
  /** Told about failures nobody waits for (giving a key back, a delivery refused). Default: ignored. */
  onError?: (error: unknown, what: string) => void;
  /**
   * Told about every attempt of the calls the shared registrations make on their own (a release after the grace,
   * a lease taken over, shutdown): the gateway's metrics, so those calls and their compute units are counted too.
   * Default none.
   */
  observer?: UpstreamObserver;
  /** Clock, ms. Default `Date.now`. */
  now?: () => number;
}

export const LIVE_ACTIVITY_DEFAULTS = {
  replayWindowMs: 24 * 60 * 60 * 1000,
  maxVerifying: 2,
  maxVerifyWaiting: 16,
  /** Keys one subscription may watch. */
  maxKeysPerSubscription: 100,
  /** Keys one webhook call adds or removes at most (the spec gives no bound; larger batches wait for the next call). */
  maxKeysPerCall: 500,
  /** Webhooks of the server's key looked through for one to reuse (pages of 100). */
  maxPagesSearched: 5,
  /** How long giving a key back may take at shutdown before it is left to the next replica. */
  releaseTimeoutMs: 5000,
  /** The shared secret is fetched again after a signature that does not match at most this often (a rotation). */
  secretRefreshMs: 30_000,
  /** After a failed read of the shared secret, the next is tried no sooner than this. */
  secretRetryMs: 5_000,
} as const;

/** How a delivery was taken: the HTTP status the endpoint answers and a word for the sender's logs. */
export interface DeliveryOutcome {
  readonly status: number;
  readonly outcome: 'accepted' | 'duplicate' | 'stale' | 'forged' | 'malformed' | 'unavailable' | 'busy';
  /** Topics the event was published on (accepted only). */
  readonly topics?: number;
}

export interface LiveActivityStats {
  accepted: number;
  duplicate: number;
  stale: number;
  forged: number;
  malformed: number;
  unavailable: number;
  /** Refused because `maxVerifying` were verified and `maxVerifyWaiting` waited. */
  busy: number;
  /** Deliveries being verified now, and the most ever at once (at most `maxVerifying`). */
  verifying: number;
  peakVerifying: number;
  /** Webhook calls made (find, create, add, remove, deactivate, secret). */
  calls: number;
}

export interface LiveActivity {
  /** The delivery endpoint's path (from the public URL). */
  readonly path: string;
  /** What can be refused before a delivery's body is read (its `x-signature` header has no signature's form), counted; undefined to read on. */
  screen(signature: string | undefined): DeliveryOutcome | undefined;
  /** Takes one delivery: its raw body and `x-signature` header. */
  receive(body: string, signature: string | undefined): Promise<DeliveryOutcome>;
  /** The events of `keys` in `group`, from now on, until `return()` or the request's signal. */
  subscribe(ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget }, group: ActivityGroup, keys: readonly string[]): AsyncIterableIterator<ActivityItem | ActivityFailure>;
  stats(): LiveActivityStats;
}

const EVENTS = describeWebhookEvents(READ);

/** Where a gateway puts its live activity in a request's context; absent when `WEBHOOK_PUBLIC_URL` is not set. */
export interface LiveActivityContext {
  readonly liveActivity?: LiveActivity;
}

/** The gateway's live activity, or the error that says how to turn it on. */
export function liveActivityOf(ctx: LoaderContext): LiveActivity {
  const live = (ctx as LoaderContext & LiveActivityContext).liveActivity;
  if (!live) {
    throw codedError(
      ErrorCode.LIVE_ACTIVITY_NOT_CONFIGURED,
      'Live activity is off on this gateway: set WEBHOOK_PUBLIC_URL to the address at which the Data API can reach it (for example https://gateway.example.com/webhooks/data-api), with DATA_API_KEY',
    );
  }
  return live;
}

// ---------------------------------------------------------------- what a subscription costs

/** Groups (chains, primary chains, nodes) whose leftover webhooks a process remembers having looked for. */
const GROUPS_LISTED = 4096;

/** A subscription's declared calls from its arguments: one parent's, times the parents (1 at the root). */
const perSubscription = (calls: (args: Readonly<Record<string, unknown>>) => number): FieldCost => ({
  calls: (input) => costs.perParent(calls(input.args)).calls(input),
});

/** Distinct keys of a list argument; the most a subscription watches when the argument is not known (a directive's default). */
const keysIn = (args: Readonly<Record<string, unknown>>, name: string): number => {
  const list = args[name];
  return Array.isArray(list) ? new Set(list).size : LIVE_ACTIVITY_DEFAULTS.maxKeysPerSubscription;
};

/**
 * The webhook calls one live-activity subscription makes at most over its life, declared as its field's
 * `upstreamCost`, so MAX_QUERY_COST and the per-event budget count them. At its opening, charged to its
 * request: the server key's webhooks looked through for leftovers, once per group and process (at most
 * `maxPagesSearched` pages), then its keys in one call (EVM: added to the chain's webhook, or a create,
 * plus a create when a known webhook turned out deleted; primary, validator: one create for its keys
 * together). At its close, after the grace and on the gateway's account: EVM, its addresses removed (one
 * call, two when a batch with others' splits them) and the webhook deactivated when empty; primary, a
 * deactivation per webhook its addresses were in (at most one each); validator, one. A registration
 * reused (within the grace, or another subscriber's) costs nothing.
 */
const LEFTOVER_PAGES = LIVE_ACTIVITY_DEFAULTS.maxPagesSearched;
const { listWebhooks, createWebhook, addWebhookAddresses, removeWebhookAddresses, deactivateWebhook } = ENDPOINTS;
export const ADDRESS_ACTIVITY_COST: FieldCost = weighing(costs.perParent(LEFTOVER_PAGES + 2 + 3), listWebhooks, createWebhook, addWebhookAddresses, removeWebhookAddresses, deactivateWebhook);
export const PRIMARY_ACTIVITY_COST: FieldCost = weighing(perSubscription((args) => LEFTOVER_PAGES + 1 + keysIn(args, 'addresses')), listWebhooks, createWebhook, deactivateWebhook);
export const VALIDATOR_ACTIVITY_COST: FieldCost = weighing(costs.perParent(LEFTOVER_PAGES + 1 + 1), listWebhooks, createWebhook, deactivateWebhook);

export function createLiveActivity(options: LiveActivityOptions): LiveActivity {
  const { dataApi, topics } = options;
  const now = options.now ?? Date.now;
  const store = options.store ?? createMemoryActivityStore({ now });
  const replayWindowMs = options.replayWindowMs ?? LIVE_ACTIVITY_DEFAULTS.replayWindowMs;
  const onError = options.onError ?? (() => undefined);
  const publicUrl = typeof options.publicUrl === 'string' ? () => options.publicUrl as string : options.publicUrl;
  const path = options.path ?? new URL(publicUrl()).pathname;
  const stats: LiveActivityStats = { accepted: 0, duplicate: 0, stale: 0, forged: 0, malformed: 0, unavailable: 0, busy: 0, verifying: 0, peakVerifying: 0, calls: 0 };
  const call = (): CallOptions => ({ ...(options.apiKey ? { apiKey: options.apiKey } : {}), ...(options.observer ? { observer: options.observer } : {}), timeoutMs: 10_000 });
  const counted = <T>(p: Promise<T>): Promise<T> => {
    stats.calls += 1;
    return p;
  };

  // ------------------------------------------------------------ the shared secret

  let secret: { value: Promise<string>; at: number } | undefined;
  const fetchSecret = (): Promise<string> => {
    const value = counted(dataApi.getWebhookSharedSecret(call())).then((answer) => answer.secret);
    const attempt = { value, at: now() };
    secret = attempt;
    // A failed read is kept a little (deliveries meanwhile answer 503 and are retried by the sender), so a flood
    // of deliveries, forged or not, never turns into one secret read each.
    value.catch(() => {
      setTimeout(() => {
        if (secret === attempt) secret = undefined;
      }, LIVE_ACTIVITY_DEFAULTS.secretRetryMs).unref();
    });
    return value;
  };
  const currentSecret = (): Promise<string> => secret?.value ?? fetchSecret();

  // ------------------------------------------------------------ webhook registration

  /**
   * Who pays for registering a subscription's keys: the subscription whose opening asked for it, through
   * its request's call options (its budget and observer count the calls, as any call of the request).
   * Only what its opening asks (`open`, until the pollers it starts itself have started) and only in one
   * run (`spent`): what the shared machinery does later (a lease taken over, a release after the grace,
   * shutdown) is the gateway's own.
   */
  interface Payer {
    readonly call: CallOptions;
    open: boolean;
    spent: boolean;
  }

  /** A run's calls: the server's key, charged to the paying subscription's request while that request is open. */
  const callFor = (payer: Payer | undefined): CallOptions => {
    const via = payer?.call;
    // Never the subscriber's signal: other subscribers may wait on the same registration.
    if (!via || via.signal?.aborted) return call();
    return { ...call(), ...(via.observer ? { observer: via.observer } : {}), ...(via.requestId ? { requestId: via.requestId } : {}) };
  };

  interface Change {
    readonly op: 'add' | 'remove';
    readonly payer?: Payer;
  }
  interface Waiter {
    readonly key: string;
    resolve(): void;
    reject(error: unknown): void;
  }
  interface Pending {
    readonly changes: Map<string, Change>;
    readonly waiters: Waiter[];
  }
  /** Per group, the changes asked while its lock was busy: they go in its next run, together. */
  const pending = new Map<string, Pending>();
  /** Groups whose webhooks this process has looked through for leftovers (bounded: one forgotten is looked through again). */
  const listed = new LRUCache<string, true>({ max: GROUPS_LISTED });

  /**
   * How a group's keys are watched. The addresses of one EVM chain share one webhook, which the spec lets
   * chaingraph add addresses to and remove them from (`addAddressesToWebhook`, `removeAddressesFromWebhook`:
   * "Only valid for EVM activity webhooks"). A primary-network webhook watches the addresses it was created
   * with (`PrimaryNetworkAddressActivityMetadata.keys`: "an array of multiple addresses can be provided";
   * `UpdateWebhookRequest` cannot change them), so the addresses a run registers share one new webhook,
   * deactivated once none of them is watched (the store counts its watched keys); a validator webhook
   * takes a single node (`ValidatorActivityMetadata.keys`: "will only accept a single key").
   */
  const keyName = (group: ActivityGroup, key: string): string => `${groupName(group)}:${keyOf(group, key)}`;
  const countName = (group: ActivityGroup, id: string): string => `${groupName(group)}#${id}`;

  /**
   * chaingraph's active webhooks of `group` among the server key's (up to `maxPagesSearched` pages), to
   * reuse what an earlier process left: read once per group and process, nothing after that (what this
   * process and the fleet register is in the store).
   */
  async function leftovers(group: ActivityGroup, via: CallOptions): Promise<Webhook[]> {
    const name = groupName(group);
    if (listed.has(name)) return [];
    const found: Webhook[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < LIVE_ACTIVITY_DEFAULTS.maxPagesSearched; page++) {
      const answer = await counted(dataApi.listWebhooks({ status: 'active', pageSize: 100, ...(pageToken ? { pageToken } : {}) }, via));
      found.push(...answer.webhooks.filter((hook) => ours(hook, group)));
      pageToken = answer.nextPageToken || undefined;
      if (!pageToken) break;
    }
    listed.set(name, true);
    return found;
  }

  function ours(hook: Webhook, group: ActivityGroup): boolean {
    if (hook.url !== publicUrl() || hook.eventType !== EVENT_TYPE[group.kind] || hook.status !== 'active') return false;
    switch (group.kind) {
      case 'evm':
        return hook.chainId === group.chainId;
      case 'primary':
        return hook.chainId === group.blockchainId;
      case 'validator':
        return hook.metadata.keys?.length === 1 && hook.metadata.keys[0] === group.nodeId;
    }
  }

  function createRequest(group: ActivityGroup, keys: readonly string[]) {
    const common = { url: publicUrl(), name: `chaingraph ${groupName(group)}`, description: 'Live activity for chaingraph subscribers; managed by chaingraph.' };
    switch (group.kind) {
      case 'evm':
        return { ...common, eventType: 'address_activity' as const, chainId: group.chainId, includeLogs: true, metadata: { addresses: [...keys] } };
      case 'primary':
        return {
          ...common, eventType: 'primary_network_address_activity' as const, network: group.network, chainId: group.blockchainId,
          metadata: { keyType: 'addresses' as const, keys: [...keys], subEvents: { addressActivitySubEvents: ['balance_change' as const, 'reward_distribution' as const] } },
        };
      case 'validator':
        return {
          ...common, eventType: 'validator_activity' as const, network: group.network,
          metadata: { keyType: 'nodeId' as const, keys: [group.nodeId], subEvents: { validatorActivitySubEvents: ['validator_stake' as const, 'delegator_stake' as const, 'reward_distribution' as const] } },
        };
    }
  }

  const isNotFound = (error: unknown): boolean => error instanceof UpstreamError && error.status === 404;
  const unlessNotFound = (error: unknown): undefined => {
    if (!isNotFound(error)) throw error;
    return undefined;
  };

  /** Puts EVM `adds` under watch: added to the chain's known webhook, else to one left over, else in a new one. */
  async function watchEvm(group: ActivityGroup, adds: string[], via: CallOptions): Promise<void> {
    const name = groupName(group);
    const id = await store.webhookOf(name);
    // A 404: it was deleted behind chaingraph's back, so start over.
    if (id !== undefined && (await counted(dataApi.addWebhookAddresses(id, { addresses: adds }, via)).catch(unlessNotFound))) return;
    const found = (await leftovers(group, via))[0];
    if (found) await counted(dataApi.addWebhookAddresses(found.id, { addresses: adds }, via));
    const hook = found ?? (await counted(dataApi.createWebhook(createRequest(group, adds), via)));
    await store.setWebhookOf(name, hook.id);
  }

  /** Stops watching EVM `removes`; the chain's webhook left without addresses is deactivated. */
  async function unwatchEvm(group: ActivityGroup, removes: string[]): Promise<void> {
    const name = groupName(group);
    const id = await store.webhookOf(name);
    if (id === undefined) return;
    const after = await counted(dataApi.removeWebhookAddresses(id, { addresses: removes }, call())).catch(unlessNotFound);
    if (after && (after.metadata.addresses ?? after.metadata.keys ?? []).length > 0) return;
    await counted(dataApi.deactivateWebhook(id, call())).catch(unlessNotFound);
    await store.setWebhookOf(name, undefined);
  }

  /** Puts primary or validator `adds` under watch: those watched are left, the others adopt a leftover webhook that has them, the rest share one new webhook. */
  async function watchFixed(group: ActivityGroup, adds: string[], via: CallOptions): Promise<void> {
    const known = await Promise.all(adds.map((key) => store.webhookOf(keyName(group, key))));
    const wanted = new Set(adds.filter((_key, i) => known[i] === undefined));
    if (wanted.size === 0) return;
    for (const hook of await leftovers(group, via)) {
      const adopted = (hook.metadata.keys ?? []).map((key) => keyOf(group, key)).filter((key) => wanted.delete(key));
      if (adopted.length > 0) await assign(group, hook.id, adopted);
    }
    if (wanted.size === 0) return;
    const keys = [...wanted];
    const hook = await counted(dataApi.createWebhook(createRequest(group, keys), via));
    await assign(group, hook.id, keys);
  }

  /** Records `keys` as watched by webhook `id`, and its count of watched keys. */
  async function assign(group: ActivityGroup, id: string, keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => store.setWebhookOf(keyName(group, key), id)));
    const before = Number((await store.webhookOf(countName(group, id))) ?? 0);
    await store.setWebhookOf(countName(group, id), String(before + keys.length));
  }

  /** Stops watching primary or validator `removes`; a webhook left watching none of its keys is deactivated. */
  async function unwatchFixed(group: ActivityGroup, removes: string[]): Promise<void> {
    const ids = await Promise.all(removes.map((key) => store.webhookOf(keyName(group, key))));
    const byHook = new Map<string, string[]>();
    removes.forEach((key, i) => {
      const id = ids[i];
      if (id !== undefined) byHook.set(id, [...(byHook.get(id) ?? []), key]);
    });
    for (const [id, keys] of byHook) {
      // No count: a webhook of its own key (as an earlier version registered them).
      const left = Number((await store.webhookOf(countName(group, id))) ?? keys.length) - keys.length;
      if (left > 0) await store.setWebhookOf(countName(group, id), String(left));
      else {
        // Deactivated first: if that fails, the store still says what is watched.
        await counted(dataApi.deactivateWebhook(id, call())).catch(unlessNotFound);
        await store.setWebhookOf(countName(group, id), undefined);
      }
      await Promise.all(keys.map((key) => store.setWebhookOf(keyName(group, key), undefined)));
    }
  }

  /**
   * Queues a change of a key; resolves once the run of its group carried it (the changes asked meanwhile
   * go in the same run). A change undoing one still waiting (added then given back, given back then
   * added again) cancels it: nothing is called for that key.
   */
  function change(group: ActivityGroup, key: string, op: 'add' | 'remove', payer?: Payer): Promise<void> {
    const name = groupName(group);
    let batch = pending.get(name);
    const first = !batch;
    batch ??= { changes: new Map(), waiters: [] };
    pending.set(name, batch);
    const waiting = batch.changes.get(key);
    if (waiting && waiting.op !== op) batch.changes.delete(key);
    else batch.changes.set(key, { op, ...(payer ? { payer } : {}) });
    const done = new Promise<void>((resolve, reject) => batch.waiters.push({ key, resolve, reject }));
    if (first) {
      void store.locked(`webhook:${name}`, () => run(group, name)).catch((error: unknown) => {
        // The lock itself failed (Redis away): everyone waiting hears it.
        const taken = pending.get(name);
        pending.delete(name);
        for (const w of taken?.waiters ?? []) w.reject(error);
      });
    }
    return done;
  }

  /**
   * One run of a group's waiting changes, under its lock: each paying subscription's keys in calls of
   * their own, charged to it (a failure fails its keys only); the keys added on the gateway's behalf
   * together; then every key given back, together.
   */
  async function run(group: ActivityGroup, name: string): Promise<void> {
    const taken = pending.get(name);
    pending.delete(name);
    if (!taken) return;
    const adds = new Map<Payer | undefined, string[]>();
    const removes: string[] = [];
    for (const [key, { op, payer }] of taken.changes) {
      if (op === 'remove') removes.push(key);
      else {
        const by = payer && !payer.spent ? payer : undefined;
        adds.set(by, [...(adds.get(by) ?? []), key]);
      }
    }
    for (const payer of adds.keys()) if (payer) payer.spent = true;
    const failed = new Map<string, unknown>();
    const inCalls = async (keys: string[], each: (slice: string[]) => Promise<void>): Promise<void> => {
      const per = LIVE_ACTIVITY_DEFAULTS.maxKeysPerCall;
      try {
        for (let i = 0; i < keys.length; i += per) await each(keys.slice(i, i + per));
      } catch (error) {
        for (const key of keys) failed.set(key, error);
      }
    };
    for (const [payer, keys] of adds) {
      const via = callFor(payer);
      await inCalls(keys, (slice) => (group.kind === 'evm' ? watchEvm(group, slice, via) : watchFixed(group, slice, via)));
    }
    await inCalls(removes, (slice) => (group.kind === 'evm' ? unwatchEvm(group, slice) : unwatchFixed(group, slice)));
    for (const w of taken.waiters) {
      if (failed.has(w.key)) w.reject(failed.get(w.key));
      else w.resolve();
    }
  }

  /**
   * The topic of one key: registered while it has subscribers (on the replica holding its lease), and for
   * the grace after (`lingers`), so a subscriber coming back reuses the registration.
   */
  function source(group: ActivityGroup, key: string, payer: Payer): TopicSource<ActivityItem> {
    return {
      key: activityTopic(group, key),
      lingers: true,
      async poll(signal) {
        await change(group, key, 'add', payer.open ? payer : undefined);
        await new Promise<void>((resolve) => {
          if (signal.aborted) resolve();
          else signal.addEventListener('abort', () => resolve(), { once: true });
        });
        // Given back even at shutdown, within a bound: a Data API that does not answer leaves it to the next replica.
        const released = change(group, key, 'remove').catch((error: unknown) => onError(error, `giving back ${activityTopic(group, key)}`));
        await Promise.race([released, delay(LIVE_ACTIVITY_DEFAULTS.releaseTimeoutMs, undefined, { ref: false })]);
      },
    };
  }

  // ------------------------------------------------------------ deliveries

  function refuse(outcome: Exclude<DeliveryOutcome['outcome'], 'accepted'>, status: number): DeliveryOutcome {
    stats[outcome] += 1;
    return { status, outcome };
  }

  /** The topics a delivery is published on: each watched key it touches. */
  function topicsOfEvent(delivery: WebhookDelivery, event: unknown): { item: ActivityItem; topics: string[] } | undefined {
    const base = { messageId: delivery.messageId, webhookId: delivery.webhookId };
    switch (delivery.eventType) {
      case 'address_activity': {
        const read = v.safeParse(EVENTS.AddressActivityEvent, event);
        if (!read.success) return undefined;
        const tx = read.output.transaction;
        const group: ActivityGroup = { kind: 'evm', chainId: tx.chainId };
        const touched = new Set<string>();
        const add = (a: string | undefined) => a && touched.add(a.toLowerCase());
        add(tx.from);
        add(tx.to);
        add(tx.contractAddress);
        for (const t of [...(tx.erc20Transfers ?? []), ...(tx.erc721Transfers ?? []), ...(tx.erc1155Transfers ?? [])]) {
          add(t.from);
          add(t.to);
          add(t.erc20Token?.address ?? t.erc721Token?.address ?? t.erc1155Token?.address);
        }
        for (const t of tx.internalTransactions ?? []) {
          add(t.from);
          add(t.to);
        }
        for (const log of read.output.logs ?? []) add(log.address);
        return { item: { kind: 'evm', ...base, event: read.output }, topics: [...touched].map((a) => activityTopic(group, a)) };
      }
      case 'primary_network_address_activity': {
        const read = v.safeParse(EVENTS.PrimaryActivityEvent, event);
        if (!read.success || !read.output.blockchainId || !isNetwork(read.output.network)) return undefined;
        const group: ActivityGroup = { kind: 'primary', network: read.output.network, blockchainId: read.output.blockchainId };
        return { item: { kind: 'primary', ...base, event: read.output }, topics: read.output.addresses.map((a) => activityTopic(group, a)) };
      }
      case 'validator_activity': {
        const read = v.safeParse(EVENTS.ValidatorActivityEvent, event);
        if (!read.success || !isNetwork(read.output.network)) return undefined;
        const group: ActivityGroup = { kind: 'validator', network: read.output.network, nodeId: read.output.nodeId };
        return { item: { kind: 'validator', ...base, event: read.output }, topics: [activityTopic(group, read.output.nodeId)] };
      }
    }
  }

  const maxVerifying = options.maxVerifying ?? LIVE_ACTIVITY_DEFAULTS.maxVerifying;
  const maxVerifyWaiting = options.maxVerifyWaiting ?? LIVE_ACTIVITY_DEFAULTS.maxVerifyWaiting;
  const verifyWaiters: (() => void)[] = [];

  /** A verification slot: at once, or after those waiting before; false when too many wait already. */
  async function enterVerifying(): Promise<boolean> {
    if (stats.verifying < maxVerifying) {
      stats.verifying += 1;
      stats.peakVerifying = Math.max(stats.peakVerifying, stats.verifying);
      return true;
    }
    if (verifyWaiters.length >= maxVerifyWaiting) return false;
    // The slot is handed over by the delivery leaving it (the count stays).
    await new Promise<void>((resolve) => verifyWaiters.push(resolve));
    return true;
  }

  function leaveVerifying(): void {
    const next = verifyWaiters.shift();
    if (next) next();
    else stats.verifying -= 1;
  }

  function screen(signature: string | undefined): DeliveryOutcome | undefined {
    return isWebhookSignature(signature) ? undefined : refuse('forged', 401);
  }

  async function receive(body: string, signature: string | undefined): Promise<DeliveryOutcome> {
    const screened = screen(signature);
    if (screened) return screened;
    // Read (once, shared) before a slot is taken: a slow Data API holds no slot.
    let key: string;
    try {
      key = await currentSecret();
    } catch (error) {
      onError(error, 'reading the webhook shared secret');
      return refuse('unavailable', 503);
    }
    if (!(await enterVerifying())) return refuse('busy', 503);
    try {
      return await judge(body, signature as string, key);
    } finally {
      leaveVerifying();
    }
  }

  /** One delivery, cheapest checks first; a turn of the event loop between the costly steps. */
  async function judge(body: string, signature: string, key: string): Promise<DeliveryOutcome> {
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      return refuse('malformed', 400);
    }
    const envelope = v.safeParse(WebhookDelivery, payload);
    if (!envelope.success) return refuse('malformed', 400);
    const eventMs = eventTimeOf(envelope.output);
    if (eventMs === 'malformed') return refuse('malformed', 400);
    // Without a time, or older than the ids remembered: a replay could not be told from a first sight.
    if (eventMs === undefined || eventMs < now() - replayWindowMs) return refuse('stale', 409);
    await nextTurn();
    if (!(await verifyWebhookSignatureInSlices(key, payload, signature))) {
      // The secret may have been rotated since it was read: read it again, at most every so often.
      const fresh = secret && now() - secret.at >= LIVE_ACTIVITY_DEFAULTS.secretRefreshMs ? await fetchSecret().catch(() => undefined) : undefined;
      if (fresh === undefined || fresh === key || !(await verifyWebhookSignatureInSlices(fresh, payload, signature))) return refuse('forged', 401);
    }
    await nextTurn();
    const routed = topicsOfEvent(envelope.output, envelope.output.event);
    if (!routed) return refuse('malformed', 400);
    let sighting: Sighting;
    try {
      sighting = await store.firstSight(`${envelope.output.webhookId}:${envelope.output.messageId}`, eventMs, replayWindowMs);
    } catch (error) {
      // Redis away: the sender retries a 503, and the delivery is judged again when the memory answers.
      onError(error, 'remembering a webhook delivery');
      return refuse('unavailable', 503);
    }
    if (sighting === 'repeat') return refuse('duplicate', 200);
    if (sighting === 'stale') return refuse('stale', 409);
    for (const topic of routed.topics.slice(0, 256)) topics.publish(topic, [routed.item]);
    stats.accepted += 1;
    return { status: 200, outcome: 'accepted', topics: Math.min(routed.topics.length, 256) };
  }

  // ------------------------------------------------------------ subscribers

  function subscribe(ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget }, group: ActivityGroup, keys: readonly string[]): AsyncIterableIterator<ActivityItem | ActivityFailure> {
    const shared = topicsOf(ctx) ?? topics;
    const distinct = [...new Set(keys.map((k) => keyOf(group, k)))];
    // What the opening registers is this request's; once its pollers started, later runs are the gateway's.
    const payer: Payer = { call: ctx.call, open: true, spent: false };
    // All keys or none, within the client's shares, checked before any call (SERVER_BUSY).
    const streams = shared.subscribeAll(distinct.map((key) => source(group, key, payer)), {
      ...(ctx.call.signal ? { signal: ctx.call.signal } : {}),
      opened: () => {
        payer.open = false;
      },
    });
    return merged(ctx, streams);
  }

  return { path, screen, receive, subscribe, stats: () => ({ ...stats }) };
}

const isNetwork = (n: string | undefined): n is 'mainnet' | 'fuji' => n === 'mainnet' || n === 'fuji';

/**
 * When a delivery's event happened, ms, read from the envelope before anything is verified: the
 * transaction's `blockTimestamp` for `address_activity` (required by the spec), the event's own for the
 * other types; seconds, as the spec's example has it. `malformed` when it is there but not a time.
 */
function eventTimeOf(delivery: WebhookDelivery): number | undefined | 'malformed' {
  const { event } = delivery;
  const holder = delivery.eventType === 'address_activity' ? event['transaction'] : event;
  if (holder === null || typeof holder !== 'object') return delivery.eventType === 'address_activity' ? 'malformed' : undefined;
  const seconds = (holder as Record<string, unknown>)['blockTimestamp'];
  if (seconds === undefined) return undefined;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 'malformed';
}

/** Message ids a subscriber remembers, to get a delivery touching several of its keys once. */
const SEEN_PER_SUBSCRIBER = 1024;
/** Events a subscriber may have waiting, unread, before its subscription ends (SERVER_BUSY). */
export const QUEUED_PER_SUBSCRIBER = 256;

/**
 * The subscriber's events from all its topics, each once, each in a new window of its budget. A
 * topic's failure (its key could not be registered) ends the subscription with that error.
 */
function merged(ctx: { readonly upstreamCalls?: UpstreamBudget }, streams: AsyncIterableIterator<TopicMessage<ActivityItem>>[]): AsyncIterableIterator<ActivityItem | ActivityFailure> {
  const seen = new LRUCache<string, true>({ max: SEEN_PER_SUBSCRIBER });
  const queue: ActivityItem[] = [];
  let opened = false;
  let failure: unknown;
  let done = false;
  let wake: (() => void) | undefined;
  const signal = (): void => {
    wake?.();
    wake = undefined;
  };
  const pump = async (stream: AsyncIterableIterator<TopicMessage<ActivityItem>>): Promise<void> => {
    while (!done) {
      const step = await stream.next().catch((error: unknown) => ({ done: true as const, value: undefined, error }));
      if (step.done) {
        // A stream ends when the request does: so does the subscription.
        if ('error' in step) failure ??= step.error;
        else done = true;
        signal();
        return;
      }
      const message = step.value;
      if ('error' in message) {
        failure ??= reviveError(message.error);
        signal();
        return;
      }
      for (const item of message.items) {
        const id = `${item.webhookId}:${item.messageId}`;
        if (seen.has(id)) continue;
        seen.set(id, true);
        // A subscriber that does not keep up is ended, loudly, rather than buffered without bound or skipped silently.
        if (queue.length >= QUEUED_PER_SUBSCRIBER) {
          failure ??= codedError(ErrorCode.SERVER_BUSY, `This subscription fell ${QUEUED_PER_SUBSCRIBER} events behind: subscribe again, and read events as they come`);
          break;
        }
        queue.push(item);
      }
      signal();
      if (failure !== undefined) return;
    }
  };
  for (const stream of streams) void pump(stream);
  const close = async (): Promise<void> => {
    done = true;
    signal();
    await Promise.all(streams.map((s) => s.return?.()));
  };
  const iterator: AsyncIterableIterator<ActivityItem | ActivityFailure> = {
    async next() {
      for (;;) {
        const item = queue.shift();
        if (item) {
          // An event costs no upstream call itself; what its fields link to is charged to its own window.
          // The first event's window also holds what the opening registered, so it reports those calls.
          if (opened) newBudgetWindow(ctx.upstreamCalls);
          opened = true;
          return { done: false, value: item };
        }
        if (failure !== undefined && !done) {
          await close();
          return { done: false, value: { kind: 'failed', error: failure } };
        }
        if (done) return { done: true, value: undefined };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async return() {
      await close();
      return { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      await close();
      throw error;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

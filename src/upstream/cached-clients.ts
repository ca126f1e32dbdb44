/**
 * Decorators that put a {@link ResponseCache} in front of the upstream clients.
 *
 * Reads are cached for a TTL that depends on how fast the resource changes
 * ({@link DEFAULT_CACHE_TTLS}); mutations, admin reads and export-operation status
 * are never cached. The cache key is the method and the canonical JSON of its
 * arguments (src/lib/canonical-json.ts: a null member counts as absent), plus the
 * node's name for node calls, never the signal. Identical
 * concurrent reads share one in-flight upstream call.
 *
 * Per-caller entries: a call made with a caller's own API key is cached and shared
 * only under that key (a SHA-256 of it, never the key itself), so the upstream sees,
 * checks and meters every key at least once per TTL, and an answer fetched with one
 * key is never served to a caller with another, a bogus or no key. Calls made with
 * the server's key (callers who send none) share one entry.
 *
 * Sharing and cancellation: the shared call runs without any one caller's signal
 * (the client's own deadline still bounds it), and each caller stops waiting on
 * its own abort. Only when every waiter has gone is the shared call cancelled.
 * The shared call carries the first caller's per-call observer, so a request's
 * upstream-call count grows only for calls that really went upstream (a miss it
 * started); a cache hit or a joined call counts nothing.
 *
 * Answers are read through their shapes once, by the client, when they come from
 * the upstream; the cache holds what was read, parsed and frozen, and every caller
 * shares that one value (nobody may change it: it throws). An answer with a broken
 * field (see `src/shapes/read.ts`) is handed to the callers that share its call,
 * each its own copy with the field that throws, and never stored.
 *
 * Each caller is told until when its answer may be reused (`CallOptions.onExpiry`):
 * the whole-response cache keeps a response no longer than the earliest of these.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { whenAborted } from '../lib/abort.ts';
import { canonicalJson } from '../lib/canonical-json.ts';
import { shortDigest } from '../lib/text.ts';
import { computeUnitsOf } from '../lib/compute-units.ts';
import type { CallOptions, DataApi, HealthGetResult, NodeClient } from './client-types.ts';
import type { ResponseCache } from './cache.ts';
import { ENDPOINT_NAMES, ENDPOINTS, operationOf, type CacheClass, type EndpointRow } from './endpoints.ts';
import { UpstreamError, type UpstreamName } from './errors.ts';
import {
  HEALTH_GET_PATHS, violationsOf, withViolations, type HealthPath, type NodeRpcMethod, type NodeRpcMethods, type RecordedViolation,
} from '../shapes/index.ts';

export type { CacheClass };

/**
 * Default TTLs, ms:
 * - `chains` 5 min: EVM chain list (E17);
 * - `subnets` 5 min: subnets and their blockchains (E7);
 * - `nodeFacts` 5 min: info.getNodeID, getNodeIP, getNodeVersion, getNetworkID, getNetworkName,
 *   getVMs, upgrades, getTxFee, getBlockchainID;
 * - `nodeStatus` 30 s: info.peers, info.acps, info.uptime;
 * - `bootstrapped` 5 s: info.isBootstrapped;
 * - `staking` 30 s: validators, delegators, historical and pending rewards (E8, E13, E11, E12);
 * - `activity` 15 s: ICM messages, transactions, balances, UTXOs, NFTs, deployments, aggregated
 *   signatures by tx hash (E2-E4, E6, E9, E10, E14, E16, E19, transaction lookup);
 * - `blocks` 2 s: blocks and vertices (E15, E18);
 * - `health` 2 s: health.health/readiness/liveness and the health GET endpoints.
 *
 * Never cached: E1 and E5 (mutations), every `admin.*` method (including the
 * read-only getChainAliases and getLoggerLevel, which admins expect to be live),
 * and export operation status (`getOperation`, which callers poll).
 */
export const DEFAULT_CACHE_TTLS: Readonly<Record<CacheClass, number>> = {
  chains: 300_000,
  subnets: 300_000,
  nodeFacts: 300_000,
  nodeStatus: 30_000,
  bootstrapped: 5_000,
  staking: 30_000,
  activity: 15_000,
  blocks: 2_000,
  health: 2_000,
};

/** Options of {@link withDataApiCache} and {@link withNodeCache}. */
export interface CachedClientOptions {
  /** Overrides of {@link DEFAULT_CACHE_TTLS}, ms. 0 turns a class off (no caching, no sharing). */
  ttlMs?: Partial<Record<CacheClass, number>>;
  /**
   * Names the Data API in every key ({@link upstreamScope} of its URL), so gateways in front of
   * different upstreams that share one Redis never read each other's answers. Node answers are
   * always scoped by their node's URL. Default none.
   */
  scope?: string;
  /**
   * Told of every call answered without reaching the upstream, with what it would have cost in the Data API's
   * compute units: `stored` for an answer the cache held, `joined` for a caller that joined an identical call in
   * flight (the metrics' compute units saved by each cache). Default none.
   */
  onSaved?: (source: 'stored' | 'joined', computeUnits: number) => void;
}

/** A short digest naming an upstream (its URL) in shared keys; never the URL itself, which may carry credentials. */
export function upstreamScope(url: string): string {
  return shortDigest(url, 12);
}

const NODE_METHOD_CLASSES: Record<NodeRpcMethod, CacheClass | null> = {
  'admin.alias': null,
  'admin.aliasChain': null,
  'admin.getChainAliases': null,
  'admin.getLoggerLevel': null,
  'admin.loadVMs': null,
  'admin.lockProfile': null,
  'admin.memoryProfile': null,
  'admin.setLoggerLevel': null,
  'admin.startCPUProfiler': null,
  'admin.stopCPUProfiler': null,
  'admin.getConfig': null,
  'admin.stacktrace': null,
  'admin.dbGet': null,
  'info.acps': 'nodeStatus',
  'info.isBootstrapped': 'bootstrapped',
  'info.getBlockchainID': 'nodeFacts',
  'info.getNetworkID': 'nodeFacts',
  'info.getNetworkName': 'nodeFacts',
  'info.getNodeID': 'nodeFacts',
  'info.getNodeIP': 'nodeFacts',
  'info.getNodeVersion': 'nodeFacts',
  'info.getTxFee': 'nodeFacts',
  'info.getVMs': 'nodeFacts',
  'info.peers': 'nodeStatus',
  'info.uptime': 'nodeStatus',
  'info.upgrades': 'nodeFacts',
  'health.health': 'health',
  'health.readiness': 'health',
  'health.liveness': 'health',
};

/** The Data API with cached reads; same interface, so nothing above the upstream layer changes. */
export function withDataApiCache(api: DataApi, cache: ResponseCache, options: CachedClientOptions = {}): DataApi {
  const cached = createCachedCalls(cache, options);
  const prefix = options.scope ? `data-api@${options.scope}` : 'data-api';
  const wrapped: Partial<Record<keyof DataApi, unknown>> = {};
  for (const name of ENDPOINT_NAMES) {
    const row: EndpointRow = ENDPOINTS[name];
    // The arguments before the `CallOptions` form the key.
    const optsIndex = row.args.length;
    const operation = operationOf(row);
    const computeUnits = computeUnitsOf(row.weight);
    const method = (api[name] as (...args: unknown[]) => Promise<unknown>).bind(api);
    wrapped[name] = (...args: unknown[]): Promise<unknown> => {
      const opts = args[optsIndex] as CallOptions | undefined;
      // Padded so `listChains()` and `listChains(undefined)` share a key.
      const keyArgs = Array.from({ length: optsIndex }, (_, i) => args[i]);
      return cached.run(
        { cacheClass: row.cache, key: `${prefix}:${name}:${canonicalJson(keyArgs)}`, upstream: 'data-api', operation, computeUnits },
        opts,
        (callOpts) => {
          const callArgs = keyArgs.slice();
          callArgs[optsIndex] = callOpts;
          return method(...callArgs);
        },
      );
    };
  }
  return wrapped as DataApi;
}

/** A node client with cached reads; the key includes the node's name. */
export function withNodeCache(client: NodeClient, cache: ResponseCache, options: CachedClientOptions = {}): NodeClient {
  const cached = createCachedCalls(cache, options);
  const upstream: UpstreamName = `node:${client.name}`;
  const prefix = `node:${client.name}@${upstreamScope(client.url)}`;
  return {
    name: client.name,
    url: client.url,
    call<M extends NodeRpcMethod>(method: M, params?: NodeRpcMethods[M]['params'], opts?: CallOptions): Promise<NodeRpcMethods[M]['result']> {
      return cached.run(
        { cacheClass: NODE_METHOD_CLASSES[method] ?? null, key: `${prefix}:${method}:${canonicalJson(params ?? {})}`, upstream, operation: method, computeUnits: 0 },
        opts,
        (callOpts) => client.call(method, params, callOpts),
      );
    },
    healthGet(path: HealthPath, tags?: string[], opts?: CallOptions): Promise<HealthGetResult> {
      return cached.run(
        { cacheClass: 'health', key: `${prefix}:GET ${HEALTH_GET_PATHS[path]}:${canonicalJson(tags ?? [])}`, upstream, operation: `GET ${HEALTH_GET_PATHS[path]}`, computeUnits: 0 },
        opts,
        (callOpts) => client.healthGet(path, tags, callOpts),
      );
    },
  };
}

interface CallSpec {
  cacheClass: CacheClass | null;
  key: string;
  upstream: UpstreamName;
  operation: string;
  /** What the call weighs in compute units (0 for node calls). */
  computeUnits: number;
}

/**
 * What a shared call hands each waiter: the answer (frozen once stored) and until when
 * it may be reused (0: never), or, for an answer with broken fields, its JSON and the
 * fields, so each waiter gets its own copy with the fields that throw.
 */
type Shared =
  | { value: unknown; expiresAt: number; violations?: undefined }
  | { json: string; violations: readonly RecordedViolation[]; expiresAt: 0 };

interface InFlight {
  promise: Promise<Shared>;
  /** Cancels the shared upstream call once nobody waits for it. */
  controller: AbortController;
  waiters: number;
  settled: boolean;
}

// Keys stay readable when short; long argument lists (UTXO address lists) are hashed.
const MAX_PLAIN_KEY = 1024;
// Bumped when the stored shape changes, so a shared Redis never serves an old format.
const KEY_VERSION = 'v3';

function createCachedCalls(cache: ResponseCache, options: CachedClientOptions) {
  const ttls: Record<CacheClass, number> = { ...DEFAULT_CACHE_TTLS, ...options.ttlMs };
  const inFlight = new Map<string, InFlight>();

  function run<T>(spec: CallSpec, opts: CallOptions | undefined, fetch: (opts: CallOptions | undefined) => Promise<T>, mayRejoin = true): Promise<T> {
    const ttl = spec.cacheClass === null ? 0 : ttls[spec.cacheClass];
    // Never cached: the raw client reports the answer as not reusable.
    if (!(ttl > 0)) return fetch(opts);
    // The same key for the store and for in-flight sharing: one caller's answer never reaches another.
    const key = storeKey(opts?.apiKey ? `${spec.key}|key:${callerKeyDigest(opts.apiKey)}` : spec.key);
    let entry = inFlight.get(key);
    const joined = entry !== undefined;
    if (!entry) {
      // The hot path: an answer held in this process, shared as it is (frozen), without a promise chain of its own.
      const held = cache.get(key);
      if (held !== undefined && !(held instanceof Promise)) {
        if (spec.computeUnits > 0) options.onSaved?.('stored', spec.computeUnits);
        opts?.onExpiry?.(held.expiresAt);
        return Promise.resolve(held.value as T);
      }
      const created: InFlight = { controller: new AbortController(), waiters: 0, settled: false, promise: Promise.resolve({ value: null, expiresAt: 0 }) };
      // Neither the first caller's signal nor its expiry callback: the shared call is everyone's.
      // Read whole: the answer is shared with requests whose operations read other parts.
      const { signal: _callerSignal, onExpiry: _callerExpiry, omit: _callerOmits, ...rest } = opts ?? {};
      const sharedOpts: CallOptions = { ...rest, signal: created.controller.signal };
      created.promise = (async (): Promise<Shared> => {
        // A cache is best effort: a store that throws anyway reads as a miss.
        const hit = held ? await held.catch(() => undefined) : undefined;
        if (hit !== undefined) {
          if (spec.computeUnits > 0) options.onSaved?.('stored', spec.computeUnits);
          return { value: hit.value, expiresAt: hit.expiresAt };
        }
        const value = await fetch(sharedOpts);
        const violations = violationsOf(value);
        if (violations) return { json: JSON.stringify(value) ?? 'null', violations, expiresAt: 0 };
        if (value === undefined) return { value: null, expiresAt: 0 };
        const expiresAt = Date.now() + ttl;
        await cache.set(key, value, ttl, expiresAt).catch(() => undefined);
        return { value, expiresAt };
      })();
      created.promise.then(
        () => settle(key, created),
        () => settle(key, created),
      );
      inFlight.set(key, created);
      entry = created;
    } else if (spec.computeUnits > 0) options.onSaved?.('joined', spec.computeUnits);
    return waitFor(entry, key, spec, opts?.signal).then(
      (shared) => {
        opts?.onExpiry?.(shared.expiresAt);
        return (shared.violations ? withViolations(JSON.parse(shared.json) as T, shared.violations) : shared.value) as T;
      },
      (error: unknown) => {
        // The shared call ran under its first caller's budget. When that budget refused it, a caller
        // who only joined has not been refused: it makes the call itself, under its own budget.
        if (joined && mayRejoin && error instanceof UpstreamError && error.kind === 'budget') return run(spec, opts, fetch, false);
        throw error;
      },
    );
  }

  function settle(flightKey: string, entry: InFlight): void {
    entry.settled = true;
    if (inFlight.get(flightKey) === entry) inFlight.delete(flightKey);
  }

  function waitFor(entry: InFlight, flightKey: string, spec: CallSpec, signal: AbortSignal | undefined): Promise<Shared> {
    if (signal?.aborted) return Promise.reject(abortedError(spec, signal));
    entry.waiters += 1;
    if (!signal) return entry.promise;
    return new Promise<Shared>((resolve, reject) => {
      const onAbort = (): void => {
        entry.waiters -= 1;
        if (entry.waiters === 0 && !entry.settled) {
          // Nobody is left to use the answer: stop the upstream work, and let the next caller start afresh.
          if (inFlight.get(flightKey) === entry) inFlight.delete(flightKey);
          entry.controller.abort(signal.reason);
        }
        reject(abortedError(spec, signal));
      };
      const unsubscribe = whenAborted(signal, onAbort);
      entry.promise.then(
        (value) => {
          unsubscribe();
          resolve(value);
        },
        (error: unknown) => {
          unsubscribe();
          reject(error);
        },
      );
    });
  }

  return { run };
}

function abortedError(spec: CallSpec, signal: AbortSignal): UpstreamError {
  return new UpstreamError(`${spec.upstream} ${spec.operation}: aborted by the caller`, {
    upstream: spec.upstream, kind: 'aborted', operation: spec.operation, cause: signal.reason,
  });
}

function storeKey(key: string): string {
  const versioned = `${KEY_VERSION}:${key}`;
  if (versioned.length <= MAX_PLAIN_KEY) return versioned;
  const head = key.slice(0, key.indexOf(':', key.indexOf(':') + 1));
  return `${KEY_VERSION}:${head}:#${digest(key)}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * What stands for a caller's key in cache keys: SHA-256 under a fixed label (so the
 * digest is not a plain hash of the key found elsewhere), 128 bits in base64url.
 * Shared by replicas through Redis, so it cannot be salted per process.
 */
function callerKeyDigest(apiKey: string): string {
  let digest = callerDigests.get(apiKey);
  if (digest === undefined) {
    digest = createHash('sha256').update('chaingraph-caller-key\n').update(apiKey).digest().subarray(0, 16).toString('base64url');
    callerDigests.set(apiKey, digest);
  }
  return digest;
}

/** The digests of the keys seen lately: a keyed request makes a dozen calls, each needing it (at most 1,024 keys, about 300 KB). */
const callerDigests = new LRUCache<string, string>({ max: 1024 });

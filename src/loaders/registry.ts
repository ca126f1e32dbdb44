import type DataLoader from 'dataloader';
import type { CallOptions, DataApi, NodeClient } from '../upstream/client-types.ts';
import type { NetworkId } from './types.ts';

/** The configured nodes, by name, in configuration order. */
export interface NodeDirectory {
  readonly list: readonly NodeClient[];
  /** The named node, or the first one when `name` is omitted; undefined when unknown. */
  get(name?: string | null): NodeClient | undefined;
  /**
   * The network id a node runs (`info.getNetworkID`). A node's network is fixed for
   * its lifetime, so it is learned once per process (and warmed at start-up) rather
   * than asked in every request, which would add a sequential round to links such
   * as `Validator.peer`. A failed lookup is not remembered.
   */
  networkIdOf(node: NodeClient, call?: CallOptions): Promise<number>;
}

/** The upstream clients a loader or service calls. */
export interface UpstreamClients {
  readonly dataApi: DataApi;
  readonly nodes: NodeDirectory;
}

/** Where a request's context keeps its clients: a key only this module holds. */
const UPSTREAM = Symbol('chaingraph.upstream');

/**
 * What loaders need from the request: the upstream clients (out of reach: see
 * `upstreamOf`), the call options (abort signal, caller's key, budget) every upstream
 * call of this request carries, and the request's loaders, created lazily in `loaders`.
 */
export interface LoaderContext {
  readonly [UPSTREAM]: UpstreamClients;
  readonly call: CallOptions;
  readonly loaders: Map<string, unknown>;
}

/** A request's loader context over `clients` (the gateway's context extends it). */
export function loaderContext(clients: UpstreamClients, call: CallOptions = {}): LoaderContext {
  return { [UPSTREAM]: clients, call, loaders: new Map() };
}

/**
 * The clients behind a request's context. Only src/loaders calls this (the lint rules
 * forbid it elsewhere): resolvers reach data through loaders and services, never the clients.
 */
export function upstreamOf(ctx: LoaderContext): UpstreamClients {
  return ctx[UPSTREAM];
}

/**
 * The request's loader for `key`, created on first use. Keys name the loader and
 * whatever scopes it (`nodeValidations:mainnet`), so each batch function sees
 * keys it can send in one upstream call.
 */
export function memoLoader<K, V, C = K>(ctx: LoaderContext, key: string, create: () => DataLoader<K, V, C>): DataLoader<K, V, C> {
  let loader = ctx.loaders.get(key) as DataLoader<K, V, C> | undefined;
  if (!loader) {
    loader = create();
    ctx.loaders.set(key, loader);
  }
  return loader;
}

/**
 * Loader keys of `name` per network, made once: a request asks for a per-network loader
 * once per parent, and a constant key saves building and hashing a new string each time.
 */
export function networkKeys(name: string): (network: NetworkId) => string {
  const mainnet = `${name}:mainnet`;
  const fuji = `${name}:fuji`;
  return (network) => (network === 'mainnet' ? mainnet : network === 'fuji' ? fuji : `${name}:${String(network)}`);
}

export function createNodeDirectory(clients: readonly NodeClient[]): NodeDirectory {
  const byName = new Map(clients.map((c) => [c.name, c]));
  const networkIds = new Map<string, Promise<number>>();
  return {
    list: clients,
    get: (name) => (name == null ? clients[0] : byName.get(name)),
    networkIdOf(node, call) {
      let known = networkIds.get(node.name);
      if (!known) {
        // Not tied to one request's signal: other requests may wait on the same lookup.
        known = node.call('info.getNetworkID', {}, call?.observer ? { observer: call.observer } : {}).then((r) => r.networkID);
        known.catch(() => networkIds.delete(node.name));
        networkIds.set(node.name, known);
      }
      return known;
    },
  };
}

/** Learns every node's network in the background, so the first requests need not wait for it. */
export function warmNodeDirectory(directory: NodeDirectory): void {
  for (const node of directory.list) directory.networkIdOf(node).catch(() => undefined);
}

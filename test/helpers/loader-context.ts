import type { Devnet } from '../../src/devnet/server.ts';
import { createNodeDirectory, loaderContext, type LoaderContext } from '../../src/loaders/registry.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient, type NodeClientHandle } from '../../src/upstream/node-client.ts';
import { createRoundTracker, measureOn, type Measured } from './rounds.ts';

/** One Data API method call as a loader made it (arguments as passed, call options included). */
export interface RecordedCall {
  method: keyof DataApi;
  args: unknown[];
}

/** A loader context over real HTTP clients of a devnet, plus what it takes to inspect and shut them down. */
export interface TestLoaderContext {
  ctx: LoaderContext;
  /** Every Data API call made through any context of this helper, oldest first. */
  readonly calls: RecordedCall[];
  /** The query params (second argument) of the recorded calls of `method`, e.g. `listDelegators`. */
  paramsOf(method: keyof DataApi): Record<string, unknown>[];
  /** A new request scope (empty loader map) over the same clients and node directory; `ctx` becomes it too. */
  fresh(): LoaderContext;
  /**
   * Runs `work` on clean devnet stats and a clean call record and reports what it cost
   * upstream: requests as the devnet served them, rounds as the loaders dispatched them.
   */
  measure<T>(work: () => Promise<T>): Promise<Measured<T>>;
  /** The Data API client itself, untracked: for a test's own reads. */
  dataApi: DataApiClient;
  /** The node clients the directory holds (tracked, so loaders handed one directly are counted too). */
  nodes: NodeClientHandle[];
  close(): Promise<void>;
}

/**
 * Builds what the gateway hands loaders for one request: a Data API client
 * (recorded, so tests can see the params loaders send) and a node directory
 * over the devnet's nodes (`mainnet` and `fuji` unless `nodeNames` picks some,
 * in that order), no call options, an empty loader map. Both go through a round
 * tracker (see `createRoundTracker`), which `measure` turns on.
 */
export function createLoaderContext(devnet: Devnet, nodeNames: readonly string[] = Object.keys(devnet.nodeUrls)): TestLoaderContext {
  const dataApi = createDataApiClient({ baseUrl: devnet.url });
  const tracker = createRoundTracker();
  const calls: RecordedCall[] = [];
  const recorded = new Proxy(tracker.dataApi(dataApi), {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'close') return value;
      return (...args: unknown[]) => {
        calls.push({ method: prop as keyof DataApi, args });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as DataApi;
  const nodes = nodeNames.map((name) => {
    const url = devnet.nodeUrls[name];
    if (!url) throw new Error(`the devnet has no node ${name}`);
    return tracker.node(createNodeClient({ name, url }));
  });
  const directory = createNodeDirectory(nodes);
  const helper: TestLoaderContext = {
    ctx: loaderContext({ dataApi: recorded, nodes: directory }),
    calls,
    paramsOf: (method) => calls.filter((c) => c.method === method).map((c) => (c.args[1] ?? {}) as Record<string, unknown>),
    fresh: () => {
      helper.ctx = loaderContext({ dataApi: recorded, nodes: directory });
      return helper.ctx;
    },
    measure: (work) => {
      calls.length = 0;
      return measureOn(devnet, tracker, work);
    },
    dataApi,
    nodes,
    close: async () => {
      await Promise.all([dataApi.close(), ...nodes.map((n) => n.close())]);
    },
  };
  return helper;
}

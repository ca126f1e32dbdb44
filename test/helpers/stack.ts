import { expect } from 'vitest';
import { startDevnet, type Devnet, type DevnetOptions } from '../../src/devnet/server.ts';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/gateway.ts';
import { configFromEnv, gatewayOptionsFrom } from '../../src/server/config.ts';
import { createTopics, type Topics } from '../../src/loaders/topics.ts';
import type { ResponseCache } from '../../src/upstream/cache.ts';
import type { DataApi, NodeClient } from '../../src/upstream/client-types.ts';
import { withDataApiCache, withNodeCache } from '../../src/upstream/cached-clients.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';
import { frozenDataApi, frozenNode } from './frozen.ts';
import { createRoundTracker, measureOn, type Measured } from './rounds.ts';

export interface GraphQLResponse<D = Record<string, unknown>> {
  data?: D | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  extensions?: Record<string, unknown>;
}

export interface TestStack {
  devnet: Devnet;
  gateway: Gateway;
  /** Runs one operation through `gateway.fetch` (in process; upstream calls go over real HTTP to the devnet). */
  query<D = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GraphQLResponse<D>>;
  /** Upstream requests the devnet has served since the last reset. */
  upstreamRequests(): number;
  /**
   * Runs `work` (one operation at a time) on clean devnet stats with the gateway's upstream
   * calls tracked: requests by route, and rounds as the loaders dispatched them (see `createRoundTracker`).
   */
  measure<T>(work: () => Promise<T>): Promise<Measured<T>>;
  /** Resolves once every upstream call sent so far has answered (the gateway warms its node directory at start). */
  upstreamSettled(): Promise<void>;
  /** The gateway's subscription pollers, one per topic: `stats().polling` is 0 once every poller was stopped. */
  topics: Topics;
  close(): Promise<void>;
}

/** A devnet on an ephemeral port and a gateway in front of it (mainnet and fuji nodes configured). */
export async function startStack(
  options: {
    devnet?: DevnetOptions;
    gateway?: GatewayOptions;
    /** A response cache in front of both clients. Default none, so call counts stay exact. */
    cache?: ResponseCache | false;
    /** Wraps each node client, e.g. to hold an answer back until the test has seen something happen first. Default none. */
    wrapNode?: (node: NodeClient) => NodeClient;
    /** Wraps the Data API client (inside the tracking), e.g. to see the options each call is made with. Default none. */
    wrapDataApi?: (api: DataApi) => DataApi;
    /** The Data API the gateway reads (a mock server generated from the spec, say). Default the devnet's. */
    dataApiUrl?: string;
  } = {},
): Promise<TestStack> {
  // On the wall clock, staking holds still at the stack's start: a test comparing the gateway's listing of
  // validators, delegators or rewards with the devnet's own reads the same records both times. A test that
  // pins the clock (or asks for `stakingNow`) moves staking with it.
  const startedAt = Date.now();
  const devnet = await startDevnet({ validators: 300, ...(options.devnet?.now ? {} : { stakingNow: () => startedAt }), ...options.devnet });
  // Configured as the server is, from its variables: the devnet's URLs, the server's own key, no cache
  // (the test chooses its cache, and call counts stay exact without one).
  const config = configFromEnv({
    DATA_API_URL: options.dataApiUrl ?? devnet.url,
    DATA_API_KEY: 'test-server-key',
    NODE_URLS: Object.entries(devnet.nodeUrls).map(([name, url]) => `${name}=${url}`).join(','),
    CACHE: 'off',
  });
  // Tracked under the cache, so a cache hit is no upstream call; untracked (a plain pass-through) outside `measure`.
  const tracker = createRoundTracker();
  const client = createDataApiClient({ baseUrl: config.dataApiUrl ?? devnet.url, ...(config.dataApiKey ? { apiKey: config.dataApiKey } : {}), apiKeyHeader: config.dataApiKeyHeader });
  const rawDataApi = tracker.dataApi(options.wrapDataApi ? options.wrapDataApi(client) : client);
  const wrapNode = options.wrapNode ?? ((node: NodeClient) => node);
  const rawNodes = config.nodes.map((node) => tracker.node(wrapNode(createNodeClient(node))));
  const cache = options.cache || undefined;
  // Without a cache, answers are still frozen as the cache hands them out (see frozen.ts).
  const dataApi = cache ? withDataApiCache(rawDataApi, cache) : frozenDataApi(rawDataApi);
  const nodes = cache ? rawNodes.map((node) => withNodeCache(node, cache)) : rawNodes.map(frozenNode);
  // The gateway's default (in-process pollers), made here so tests can see when a poller stops.
  const topics = createTopics();
  // The server's options, less its edge policy: the gateway makes one with the same defaults, naming
  // clients by the test's own `apiKeyHeader` and `rateLimit` when it overrides them.
  const { admission: _serverPolicy, ...production } = gatewayOptionsFrom(config);
  const gateway = createGateway({ ...production, graphiql: false, ...options.gateway }, { dataApi, nodes, topics });
  // The gateway asks each node its network id when it is made: wait for those calls and forget them, so a
  // test that counts upstream requests counts its own, however slow the machine (counted, not timed).
  const startupCalls = rawNodes.length;
  for (let waited = 0; (devnet.stats().byRoute['POST info.getNetworkID'] ?? 0) < startupCalls && waited < 10_000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  devnet.resetStats();
  return {
    devnet,
    gateway,
    async query(query, variables, headers) {
      const response = await gateway.fetch('http://chaingraph.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as GraphQLResponse<never>;
    },
    upstreamRequests: () => devnet.stats().requests,
    measure: (work) => measureOn(devnet, tracker, work),
    upstreamSettled: () => tracker.settled(),
    topics,
    close: async () => {
      await gateway.dispose();
      // Handed in, so the gateway leaves closing them to us.
      await topics.close();
      await devnet.close();
    },
  };
}

/** Runs an operation that must answer without errors (the errors are shown when it does not); its data. */
export async function dataOf<D = Record<string, unknown>>(stack: Pick<TestStack, 'query'>, query: string, variables?: Record<string, unknown>): Promise<D> {
  const res = await stack.query<D>(query, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data as D;
}

/** A devnet route read directly (it must answer 200), to compare with what the gateway serves. */
export async function devnetGet<T>(stack: Pick<TestStack, 'devnet'>, path: string): Promise<T> {
  const res = await fetch(stack.devnet.url + path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

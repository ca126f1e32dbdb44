import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, useReadinessCheck, type YogaServerInstance } from 'graphql-yoga';
import { createContext, type Context } from './context.ts';
import { createNodeDirectory, warmNodeDirectory } from './loaders/registry.ts';
import { useInputValidation } from './plugins/use-input-validation.ts';
import { useUpstreamErrors, type UpstreamErrorsOptions } from './plugins/use-upstream-errors.ts';
import { useOperationLimits, useQueryCost, type OperationLimitsOptions } from './plugins/use-query-cost.ts';
import { getSchema } from './schema/index.ts';
import type { ResponseCache } from './upstream/cache.ts';
import type { DataApi, NodeClient } from './upstream/client-types.ts';
import { exampleQueries } from './graphiql-examples.ts';

export interface GatewayOptions {
  /** Header carrying a caller's own Data API key (default `x-service-api-key`). */
  apiKeyHeader?: string;
  /** Enables admin mutations for callers sending `authorization: Bearer <token>`. */
  adminToken?: string;
  /** Serve GraphiQL at /graphql (default true). */
  graphiql?: boolean;
  /** Told about each upstream failure that reached a response (the server logs them at warn level). */
  onUpstreamError?: UpstreamErrorsOptions['onUpstreamError'];
  /** The operations GraphiQL opens with (default: `exampleQueries()` with placeholder ids). */
  exampleQueries?: string;
  /** Most estimated upstream calls per operation (`MAX_QUERY_COST`); QUERY_TOO_COSTLY above. Default 500. */
  maxQueryCost?: number;
  /** Most objects (connection items, list elements) one response may hold. Default 50000. */
  maxQueryNodes?: number;
  /** Depth, alias, token and directive limits (graphql-armor). Defaults in `OPERATION_LIMITS_DEFAULTS`. */
  operationLimits?: OperationLimitsOptions;
}

export interface GatewayDeps {
  dataApi: DataApi;
  nodes: readonly NodeClient[];
  /** The response cache in front of the clients, if any: its counters are reported on `/ready`. */
  cache?: Pick<ResponseCache, 'stats'>;
  /** What `/ready` asks; it must reach the Data API itself, not a cache. Default: `dataApi.listChains`. */
  readinessProbe?: () => Promise<unknown>;
}

export type Gateway = YogaServerInstance<Record<string, unknown>, Context>;

/**
 * The gateway as a yoga instance: listens on nothing, so tests call `gateway.fetch`
 * and `server.ts` mounts it on a socket.
 */
export function createGateway(options: GatewayOptions, deps: GatewayDeps): Gateway {
  const nodes = createNodeDirectory(deps.nodes);
  warmNodeDirectory(nodes);
  const contextDeps = {
    dataApi: deps.dataApi,
    nodes,
    apiKeyHeader: options.apiKeyHeader ?? 'x-service-api-key',
    ...(options.adminToken ? { adminToken: options.adminToken } : {}),
  };
  return createYoga<Record<string, unknown>, Context>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    context: (initial) => createContext(contextDeps, initial),
    graphiql: options.graphiql === false ? false : { title: 'chaingraph', defaultQuery: options.exampleQueries ?? exampleQueries() },
    // GraphiQL's assets are served by the gateway itself, not a CDN: it works offline and behind firewalls.
    renderGraphiQL,
    landingPage: false,
    // Upstream failures are mapped by useUpstreamErrors; what reaches masking is unexpected.
    maskedErrors: true,
    // Cost before input validation: its execute replacement yields to a BAD_USER_INPUT stop (see useQueryCost).
    plugins: [
      useOperationLimits(options.operationLimits),
      useQueryCost({
        ...(options.maxQueryCost !== undefined ? { maxCost: options.maxQueryCost } : {}),
        ...(options.maxQueryNodes !== undefined ? { maxNodes: options.maxQueryNodes } : {}),
        listSizes: { 'Query.avalancheNodes': deps.nodes.length },
      }),
      useInputValidation(),
      useUpstreamErrors(options.onUpstreamError ? { onUpstreamError: options.onUpstreamError } : {}),
      // GET /health says the process is up (yoga's own); GET /ready says it can serve: the Data API
      // answers (its cheapest call, the chain list). Nodes are optional parts: a node that is down
      // fails its own fields, not the replica.
      useReadinessCheck({
        endpoint: '/ready',
        check: async ({ fetchAPI }) => {
          try {
            await (deps.readinessProbe ? deps.readinessProbe() : deps.dataApi.listChains({}, { timeoutMs: 3000 }));
            const body = { ready: true, ...(deps.cache ? { cache: deps.cache.stats() } : {}) };
            return new fetchAPI.Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
          } catch {
            return new fetchAPI.Response(JSON.stringify({ ready: false, reason: 'the Data API does not answer' }), {
              status: 503,
              headers: { 'content-type': 'application/json' },
            });
          }
        },
      }),
    ],
  });
}

import { GraphQLError } from 'graphql';
import { createYoga, maskError as defaultMask, type YogaServerInstance } from 'graphql-yoga';
import { createContext, type Context } from './context.ts';
import { isUpstreamError, upstreamToGraphQLError } from './errors.ts';
import { createNodeDirectory } from './loaders/registry.ts';
import { useInputValidation } from './plugins/use-input-validation.ts';
import { getSchema } from './schema/index.ts';
import type { DataApi, NodeClient } from './upstream/client-types.ts';
import { EXAMPLE_QUERIES } from './graphiql-examples.ts';

export interface GatewayOptions {
  /** Header carrying a caller's own Data API key (default `x-service-api-key`). */
  apiKeyHeader?: string;
  /** Enables admin mutations for callers sending `authorization: Bearer <token>`. */
  adminToken?: string;
  /** Serve GraphiQL at /graphql (default true). */
  graphiql?: boolean;
}

export interface GatewayDeps {
  dataApi: DataApi;
  nodes: readonly NodeClient[];
}

export type Gateway = YogaServerInstance<Record<string, unknown>, Context>;

/**
 * The gateway as a yoga instance: listens on nothing, so tests call `gateway.fetch`
 * and `server.ts` mounts it on a socket.
 */
export function createGateway(options: GatewayOptions, deps: GatewayDeps): Gateway {
  const nodes = createNodeDirectory(deps.nodes);
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
    graphiql: options.graphiql === false ? false : { title: 'chaingraph', defaultQuery: EXAMPLE_QUERIES },
    landingPage: false,
    maskedErrors: {
      maskError(error, message, isDev) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (!isUpstreamError(original)) return defaultMask(error, message, isDev);
        const mapped = upstreamToGraphQLError(original);
        // Keep where it happened: the error belongs to the failed field only.
        return error instanceof GraphQLError
          ? new GraphQLError(mapped.message, { nodes: error.nodes, path: error.path, extensions: mapped.extensions })
          : mapped;
      },
    },
    plugins: [useInputValidation()],
  });
}

/**
 * A second real federation router for the tests: @apollo/gateway (Apollo's query planner), serving a
 * supergraph composed by @apollo/composition from the same subgraph SDLs. Where Hive Gateway and Apollo's
 * planner disagree on a plan, this tells whether chaingraph's SDL or one router is at fault.
 *
 * No HTTP server of its own: `ask` builds the request context the gateway's executor reads (the one
 * Apollo Server would build) and runs the query plan against the subgraphs' real ports.
 */
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { createHash } from 'node:crypto';
import { parse, type DocumentNode, type GraphQLError } from 'graphql';
import type { GraphQLResponse } from '../helpers/stack.ts';

export interface ApolloRouter {
  supergraphSdl: string;
  ask<D>(document: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<D>>;
  stop(): Promise<void>;
}

/** Composes `subgraphs` with Apollo's composition and loads them into an ApolloGateway; throws the composition errors. */
export async function startApolloGateway(subgraphs: readonly { name: string; typeDefs: DocumentNode; url: string }[]): Promise<ApolloRouter> {
  const composed = composeServices(subgraphs.map((s) => ({ name: s.name, typeDefs: s.typeDefs, url: s.url })));
  if (composed.errors) throw new Error(`Apollo composition: ${composed.errors.map((e: GraphQLError) => e.message).join('\n')}`);
  const supergraphSdl = composed.supergraphSdl;
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ url }) => new RemoteGraphQLDataSource({ url, fetcher: fetch as unknown as NonNullable<RemoteGraphQLDataSource['fetcher']> }),
  });
  const { executor } = await gateway.load();
  const logger = { debug() {}, info() {}, warn() {}, error() {} };
  return {
    supergraphSdl,
    async ask<D>(document: string, variables?: Record<string, unknown>) {
      const requestContext = {
        request: { query: document, variables },
        document: parse(document),
        queryHash: createHash('sha256').update(document).digest('hex'),
        operationName: null,
        context: {},
        logger,
        metrics: {},
        cache: undefined,
        overallCachePolicy: { replace() {}, restrict() {}, policyIfCacheable: () => null },
      } as unknown as Parameters<typeof executor>[0];
      const result = await executor(requestContext);
      return JSON.parse(JSON.stringify(result)) as GraphQLResponse<D>;
    },
    stop: () => gateway.stop(),
  };
}

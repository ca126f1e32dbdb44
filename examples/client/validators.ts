/**
 * A typed client with nothing but `fetch`: documents written with the client preset's `graphql()`
 * are typed documents, so variables and results are checked by tsc against chaingraph's schema.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { graphql } from './__generated__/gql/index.js';

export const ActiveValidatorsQuery = graphql(`
  query ActiveValidators($network: NetworkName!, $first: Int, $after: String) {
    network(name: $network) {
      validators(first: $first, after: $after, filter: { validationStatus: ACTIVE }) {
        pageInfo { hasNextPage endCursor }
        edges {
          node {
            id
            nodeId
            amountStaked
            startTimestamp
            startTime
            ... on ActiveValidator { uptimePerformance }
          }
        }
      }
    }
  }
`);

/** One GraphQL request; errors are thrown with their `extensions.code`. */
export async function execute<Result, Variables>(url: string, document: TypedDocumentNode<Result, Variables>, variables: Variables): Promise<Result> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await response.json()) as { data?: Result; errors?: { message: string; extensions?: { code?: string } }[] };
  const error = body.errors?.[0];
  if (error || !body.data) throw new Error(`${error?.extensions?.code ?? response.status}: ${error?.message ?? 'no data'}`);
  return body.data;
}

/** Every active validator of a network, page by page (`endCursor` as `after`). */
export async function* activeValidators(url: string, network: 'MAINNET' | 'FUJI') {
  let after: string | null | undefined;
  do {
    const { network: page } = await execute(url, ActiveValidatorsQuery, { network, first: 100, after });
    for (const { node } of page.validators.edges) {
      // UInt256 and UInt64 are strings (no precision lost); DateTime is an ISO 8601 string or null. Upstream
      // values are nullable: null (with an UPSTREAM_PROTOCOL_ERROR in `errors`) when the Data API sent one it cannot serve.
      const staked: bigint | null = node.amountStaked == null ? null : BigInt(node.amountStaked);
      const since: Date | null = node.startTime ? new Date(node.startTime) : null;
      yield { id: node.id, nodeId: node.nodeId, staked, since, uptime: 'uptimePerformance' in node ? node.uptimePerformance : undefined };
    }
    after = page.validators.pageInfo.hasNextPage ? page.validators.pageInfo.endCursor : undefined;
  } while (after);
}

/**
 * Apollo Client over chaingraph. `possibleTypes` (generated from the schema by codegen's
 * fragment-matcher plugin) tells the cache which concrete types implement `Node` and `Validator`:
 * without it, a `node(id:)` refetch with `... on Validator` fragments silently loses those fields.
 */
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { graphql } from './__generated__/gql/index.js';
import introspection from './__generated__/possible-types.js';

export const RefetchValidatorQuery = graphql(`
  query RefetchValidator($id: ID!) {
    node(id: $id) {
      id
      ... on Validator { nodeId amountStaked endTime delegators(first: 3) { edges { node { txHash amountDelegated } } } }
    }
  }
`);

export function createApolloClient(uri: string): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri }),
    cache: new InMemoryCache({ possibleTypes: introspection.possibleTypes }),
  });
}

/** A validator by its global id (from any `id` field), or null when it is gone. */
export async function refetchValidator(client: ApolloClient, id: string) {
  const { data } = await client.query({ query: RefetchValidatorQuery, variables: { id } });
  const node = data?.node;
  // Upstream values are nullable: null (with an UPSTREAM_PROTOCOL_ERROR in `errors`) when the Data API sent one it cannot serve.
  const staked = node && 'amountStaked' in node && node.amountStaked != null ? BigInt(node.amountStaked) : null;
  return node && 'nodeId' in node ? { nodeId: node.nodeId, staked, delegations: node.delegators?.edges.length ?? 0 } : null;
}

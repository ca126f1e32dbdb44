/**
 * Relay over chaingraph: a pagination fragment on `Network.validators` (`@connection` over
 * chaingraph's Relay connections, `@refetchable` through `node(id:)`, since `Network` implements
 * `Node`), and a `node(id:)` refetch. The Relay compiler checks these against the schema and
 * writes their types to `__generated__/` (`npx relay-compiler examples/relay.config.json`).
 * In an app the `graphql` tags are compiled away by babel-plugin-relay.
 */
import { Environment, Network, RecordSource, Store, fetchQuery, graphql, type FetchFunction } from 'relay-runtime';
import type { validatorsNodeQuery } from './__generated__/validatorsNodeQuery.graphql';
import type { validatorsRootQuery } from './__generated__/validatorsRootQuery.graphql';

export const validatorsFragment = graphql`
  fragment validators_network on Network
  @refetchable(queryName: "validatorsPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 10 }, after: { type: "String" }) {
    name
    validators(first: $first, after: $after) @connection(key: "validators_validators") {
      edges { node { id nodeId amountStaked startTime } }
    }
  }
`;

export const rootQuery = graphql`
  query validatorsRootQuery($network: NetworkName!) {
    network(name: $network) { ...validators_network }
  }
`;

export const nodeQuery = graphql`
  query validatorsNodeQuery($id: ID!) {
    node(id: $id) { id ... on Validator { nodeId amountStaked endTimestamp } }
  }
`;

export function createEnvironment(url: string): Environment {
  const fetchFn: FetchFunction = async (request, variables) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: request.text, variables }),
    });
    return response.json();
  };
  return new Environment({ network: Network.create(fetchFn), store: new Store(new RecordSource()) });
}

export function firstPage(environment: Environment, network: validatorsRootQuery['variables']['network']) {
  return fetchQuery<validatorsRootQuery>(environment, rootQuery, { network }).toPromise();
}

export async function validatorById(environment: Environment, id: string): Promise<string | null> {
  const data = await fetchQuery<validatorsNodeQuery>(environment, nodeQuery, { id }).toPromise();
  // endTimestamp is the seed's raw unix seconds: a UInt64, so a string.
  return data?.node?.nodeId ? `${data.node.nodeId} until ${data.node.endTimestamp ?? '?'}` : null;
}

import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { graphql } from './__generated__/gql/index.js';
import introspection from './__generated__/possible-types.js';

const client = new ApolloClient({
  link: new HttpLink({ uri: process.env.CHAINGRAPH_URL ?? 'http://127.0.0.1:4000/graphql' }),
  // possibleTypes: without them, fragments on an interface (`Node`, `Validator`) lose their fields.
  cache: new InMemoryCache({ possibleTypes: introspection.possibleTypes }),
  incrementalHandler: new Defer20220824Handler(),
});

const ValidatorsWithRewards = graphql(`
  query ValidatorsWithRewards($network: NetworkName!) {
    network(name: $network) {
      validators(first: 5, filter: { validationStatus: ACTIVE }) {
        edges { node { id nodeId amountStaked ...ValidatorRewards @defer } }
      }
    }
  }
  fragment ValidatorRewards on Validator {
    peer { nodeId version }
    pendingRewards(first: 2) { edges { node { txHash progress } } }
  }
`);

// `query` resolves once every deferred part has arrived (`watchQuery` shows each as it comes).
const { data } = await client.query({ query: ValidatorsWithRewards, variables: { network: 'MAINNET' } });
for (const { node } of data?.network.validators.edges ?? []) {
  console.log(node.nodeId, node.amountStaked, 'pendingRewards' in node ? node.pendingRewards?.edges.length : undefined);
}

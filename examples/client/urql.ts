import { Client, fetchExchange } from '@urql/core';
import { graphql } from './__generated__/gql/index.js';

// fetchExchange reads @defer's multipart/mixed answers itself: urql needs no incremental handler.
const client = new Client({ url: process.env.CHAINGRAPH_URL ?? 'http://127.0.0.1:4000/graphql', exchanges: [fetchExchange] });

const ValidatorPage = graphql(`
  query ValidatorPage($network: NetworkName!, $after: String) {
    network(name: $network) {
      validators(first: 10, after: $after, filter: { validationStatus: ACTIVE }) {
        pageInfo { hasNextPage endCursor }
        edges { node { id nodeId amountStaked } }
      }
    }
  }
`);

const { data, error } = await client.query(ValidatorPage, { network: 'FUJI' }).toPromise();
if (error) throw error;
const validators = data?.network.validators;
// UInt256 is a decimal string: BigInt keeps every digit. Upstream values are nullable.
for (const { node } of validators?.edges ?? []) console.log(node.nodeId, node.amountStaked == null ? null : BigInt(node.amountStaked));
// The next page: `after: endCursor`, while `hasNextPage` (a page may hold fewer edges than `first`).
console.log('next page:', validators?.pageInfo.hasNextPage ? validators.pageInfo.endCursor : 'none');

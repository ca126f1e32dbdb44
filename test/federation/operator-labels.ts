/**
 * A second, small federation subgraph for the tests: operator labels, as a team
 * beside chaingraph might publish them. It knows validators and chains only by their
 * keys and adds fields of its own:
 *
 * - `Validator` is chaingraph's entity interface; here it is an `@interfaceObject`
 *   keyed by the global `id`, adding `operatorLabel` and `operatorTags` to every
 *   validator type at once.
 * - `Chain` is an entity keyed by `chainId`, adding `operatorNote`.
 * - `labeledValidators(tag:)` starts a query here and hands the validators back to
 *   chaingraph (the gateway asks chaingraph's `_entities` for their own fields).
 *
 * Served by graphql-yoga on a real port; counts the requests it answers.
 */
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { serveCounting, type CountingServer } from './serve.ts';

export const operatorLabelsTypeDefs = parse(/* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@interfaceObject"])

  """A validator as the operator-labels subgraph knows it: by chaingraph's global id."""
  type Validator @key(fields: "id") @interfaceObject {
    id: ID!
    """The operator's display name for this validator, when one was registered."""
    operatorLabel: String
    """Free tags the operator attached (empty when none)."""
    operatorTags: [String!]!
  }

  """An EVM chain, by its chain id."""
  type Chain @key(fields: "chainId") {
    chainId: String!
    """The operator's note about this chain, when one was registered."""
    operatorNote: String
  }

  type Query {
    """Validators the operator tagged with \`tag\`, in registration order."""
    labeledValidators(tag: String!): [Validator!]!
  }
`);

export interface ValidatorLabel {
  label: string | null;
  tags: string[];
}

export type OperatorLabels = CountingServer;

/** Starts the subgraph on an ephemeral port with labels by validator global id and notes by chain id. */
export async function startOperatorLabels(data: {
  validators: ReadonlyMap<string, ValidatorLabel>;
  chains: ReadonlyMap<string, string>;
}): Promise<OperatorLabels> {
  const validator = (id: string) => ({ id, operatorLabel: data.validators.get(id)?.label ?? null, operatorTags: data.validators.get(id)?.tags ?? [] });
  const schema = buildSubgraphSchema({
    typeDefs: operatorLabelsTypeDefs,
    resolvers: {
      Query: {
        labeledValidators: (_: unknown, { tag }: { tag: string }) =>
          [...data.validators].filter(([, label]) => label.tags.includes(tag)).map(([id]) => validator(id)),
      },
      Validator: { __resolveReference: (ref: { id: string }) => validator(ref.id) },
      Chain: { __resolveReference: (ref: { chainId: string }) => ({ chainId: ref.chainId, operatorNote: data.chains.get(ref.chainId) ?? null }) },
    },
  });
  const yoga = createYoga({ schema, graphqlEndpoint: '/graphql', logging: false, maskedErrors: false });
  return serveCounting((request) => yoga.fetch(request));
}

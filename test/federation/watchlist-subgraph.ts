/**
 * A third federation subgraph for the tests: a watchlist, as a team that stores the ids the ecosystem
 * uses (a `0x...` address and its chain id, a `NodeID-...` and its network) would publish it. It never
 * learns a chaingraph global id: it references chaingraph's addresses and validators by their natural keys.
 *
 * - `Address` is an entity keyed by `address chainId`, adding `watchNote`.
 * - `Validator` is chaingraph's entity interface; here an `@interfaceObject` keyed by `nodeId network`
 *   (the watchlist does not know a validation's status, so not its concrete type), adding `watchNote`.
 * - `watchedAddresses` and `watchedValidators` start a query here; the router asks chaingraph's `_entities`
 *   for the rest, with representations that hold the natural key only.
 *
 * `examples/stitching` is the same idea behind a schema-stitching gateway, referencing addresses by global id.
 *
 * Served by graphql-yoga on a real port; counts the requests it answers.
 */
import { buildSubgraphSchema } from '@apollo/subgraph';
import { GraphQLScalarType, parse } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { serveCounting, type CountingServer } from './serve.ts';

export const watchlistTypeDefs = parse(/* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@interfaceObject"])

  scalar EvmAddress

  """An address as the watchlist stores it: by itself and its EVM chain id."""
  type Address @key(fields: "address chainId") {
    address: EvmAddress
    chainId: String
    """The note the watcher wrote, when the watchlist holds this address."""
    watchNote: String
  }

  """A validator as the watchlist stores it: by its node id and network."""
  type Validator @key(fields: "nodeId network") @interfaceObject {
    nodeId: String!
    network: String!
    """The note the watcher wrote, when the watchlist holds this node."""
    watchNote: String
  }

  type Query {
    """The watched addresses, in the order they were added."""
    watchedAddresses: [Address!]!
    """The watched validators, in the order they were added."""
    watchedValidators: [Validator!]!
  }
`);

export interface WatchlistData {
  /** Addresses watched (lowercase), with their chain id and note. */
  addresses: readonly { address: string; chainId: string; note: string }[];
  /** Nodes watched, with their network (`fuji`, `mainnet`) and note. */
  validators?: readonly { nodeId: string; network: string; note: string }[];
}

/** Starts the subgraph on an ephemeral port. */
export async function startWatchlistSubgraph(data: WatchlistData): Promise<CountingServer> {
  const notes = new Map(data.addresses.map((a) => [`${a.chainId}|${a.address}`, a.note]));
  const address = (key: { address: string; chainId: string }) => ({ ...key, watchNote: notes.get(`${key.chainId}|${key.address.toLowerCase()}`) ?? null });
  const validatorNotes = new Map((data.validators ?? []).map((v) => [`${v.network}|${v.nodeId}`, v.note]));
  const validator = (key: { nodeId: string; network: string }) => ({ ...key, watchNote: validatorNotes.get(`${key.network}|${key.nodeId}`) ?? null });
  const schema = buildSubgraphSchema({
    typeDefs: watchlistTypeDefs,
    resolvers: {
      EvmAddress: new GraphQLScalarType({ name: 'EvmAddress' }),
      Query: {
        watchedAddresses: () => data.addresses.map(address),
        watchedValidators: () => (data.validators ?? []).map(validator),
      },
      Address: { __resolveReference: address },
      Validator: { __resolveReference: validator },
    },
  });
  const yoga = createYoga({ schema, graphqlEndpoint: '/graphql', logging: false, maskedErrors: false });
  return serveCounting((request) => yoga.fetch(request));
}

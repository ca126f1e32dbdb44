/**
 * A third federation subgraph for the tests: a watchlist, as a team that stores the ids the ecosystem
 * uses (a `0x...` address and its chain id) would publish it. It never learns a chaingraph global id:
 * it references chaingraph's addresses by their natural key.
 *
 * - `Address` is an entity keyed by `address chainId`, adding `watchNote`.
 * - `watchedAddresses` starts a query here; the router asks chaingraph's `_entities` for the rest, with
 *   representations that hold the natural key only.
 *
 * Validators are not here: they are entities by `id` only (see `src/schema/federation.ts` for why).
 * `examples/stitching` is the same idea behind a schema-stitching gateway, referencing addresses by global id.
 *
 * Served by graphql-yoga on a real port; counts the requests it answers.
 */
import { buildSubgraphSchema } from '@apollo/subgraph';
import { GraphQLScalarType, parse } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { serveCounting, type CountingServer } from './serve.ts';

export const watchlistTypeDefs = parse(/* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key"])

  scalar EvmAddress

  """An address as the watchlist stores it: by itself and its EVM chain id."""
  type Address @key(fields: "address chainId") {
    address: EvmAddress
    chainId: String
    """The note the watcher wrote, when the watchlist holds this address."""
    watchNote: String
  }

  type Query {
    """The watched addresses, in the order they were added."""
    watchedAddresses: [Address!]!
  }
`);

export interface WatchlistData {
  /** Addresses watched (lowercase), with their chain id and note. */
  addresses: readonly { address: string; chainId: string; note: string }[];
}

/** Starts the subgraph on an ephemeral port. */
export async function startWatchlistSubgraph(data: WatchlistData): Promise<CountingServer> {
  const notes = new Map(data.addresses.map((a) => [`${a.chainId}|${a.address}`, a.note]));
  const address = (key: { address: string; chainId: string }) => ({ ...key, watchNote: notes.get(`${key.chainId}|${key.address.toLowerCase()}`) ?? null });
  const schema = buildSubgraphSchema({
    typeDefs: watchlistTypeDefs,
    resolvers: {
      EvmAddress: new GraphQLScalarType({ name: 'EvmAddress' }),
      Query: {
        watchedAddresses: () => data.addresses.map(address),
      },
      Address: { __resolveReference: address },
    },
  });
  const yoga = createYoga({ schema, graphqlEndpoint: '/graphql', logging: false, maskedErrors: false });
  return serveCounting((request) => yoga.fetch(request));
}

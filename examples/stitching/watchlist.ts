/**
 * A small second service for the stitched gateway (`./gateway.ts`): a watchlist whose items each
 * reference one of chaingraph's addresses by its natural key, the `address` and `chainId` every wallet
 * and explorer writes (no chaingraph id is stored). Its `Address` is an object type with those two
 * fields, typed as chaingraph types them: the gateway merges in every other field through chaingraph's
 * `addresses(keys:)`.
 *
 * Like chaingraph, it publishes its SDL at `Query._sdl` for the gateway.
 */
import { createSchema, createYoga } from 'graphql-yoga';

/** What the gateway stitches: the watchlist's types, without `_sdl` (which is for the gateway only). */
export const WATCHLIST_SDL = /* GraphQL */ `
  """An EVM address, as chaingraph types it."""
  scalar EvmAddress

  """One of chaingraph's addresses, by its natural key: the gateway merges in the rest."""
  type Address {
    address: EvmAddress
    chainId: String
  }

  """An address someone watches, with their note."""
  type WatchItem {
    note: String!
    address: Address!
  }

  type Query {
    """The watched items, in the order they were added."""
    watchlist: [WatchItem!]!
  }
`;

/** An item of the watchlist: a note and an address on an EVM chain (`chainId` as `43114`). */
export interface WatchItem {
  note: string;
  address: string;
  chainId: string;
}

/** The watchlist service over `items` (a yoga instance: serve its `fetch` at `/graphql`). */
export function createWatchlist(items: readonly WatchItem[]) {
  const schema = createSchema({
    typeDefs: [WATCHLIST_SDL, 'extend type Query { _sdl: String! }'],
    resolvers: {
      Query: {
        watchlist: () => items.map((item) => ({ note: item.note, address: { address: item.address, chainId: item.chainId } })),
        _sdl: () => WATCHLIST_SDL,
      },
    },
  });
  return createYoga({ schema, graphqlEndpoint: '/graphql', logging: false });
}

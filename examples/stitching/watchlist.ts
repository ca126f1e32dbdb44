/**
 * A small second service for the stitched gateway (`./gateway.ts`): a watchlist whose items each
 * reference one of chaingraph's addresses. It knows an `Address` only by chaingraph's global `id`
 * (an object type with that one field): the gateway merges in every other field through chaingraph's
 * `nodes(ids:)`. It cannot declare a `Node` interface of its own: stitching refuses to merge an
 * interface in one service with an object of the same name in another.
 *
 * Like chaingraph, it publishes its SDL at `Query._sdl` for the gateway.
 */
import { createSchema, createYoga } from 'graphql-yoga';

/** What the gateway stitches: the watchlist's types, without `_sdl` (which is for the gateway only). */
export const WATCHLIST_SDL = /* GraphQL */ `
  """One of chaingraph's addresses, by its global id: the gateway merges in the rest."""
  type Address {
    id: ID!
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

/** An item of the watchlist: a note and the global id of a chaingraph `Address`. */
export interface WatchItem {
  note: string;
  addressId: string;
}

/** The watchlist service over `items` (a yoga instance: serve its `fetch` at `/graphql`). */
export function createWatchlist(items: readonly WatchItem[]) {
  const schema = createSchema({
    typeDefs: [WATCHLIST_SDL, 'extend type Query { _sdl: String! }'],
    resolvers: {
      Query: {
        watchlist: () => items.map((item) => ({ note: item.note, address: { id: item.addressId } })),
        _sdl: () => WATCHLIST_SDL,
      },
    },
  });
  return createYoga({ schema, graphqlEndpoint: '/graphql', logging: false });
}

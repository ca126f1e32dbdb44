/** A page as loaders hand it to connections (see `src/schema/connection.ts`). */
export interface UpstreamPageLike<T> {
  items: T[];
  nextPageToken?: string | undefined;
  /** Known to have more items though no token says so (cut from a packed listing). */
  hasMore?: boolean;
}

/** The devnet and real networks the primary-network endpoints take (`testnet` is sent as `fuji`). */
export type NetworkId = 'mainnet' | 'fuji';

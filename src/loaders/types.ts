/** A page as loaders hand it to connections: the one page type of src/lib/pages.ts (`UpstreamPageLike` is its old name). */
export type { UpstreamPage, UpstreamPage as UpstreamPageLike } from '../lib/pages.ts';

/** The devnet and real networks the primary-network endpoints take (`testnet` is sent as `fuji`). */
export type NetworkId = 'mainnet' | 'fuji';

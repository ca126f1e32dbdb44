/** The devnet and real networks the primary-network endpoints take (`testnet` is sent as `fuji`). */
export type NetworkId = 'mainnet' | 'fuji';

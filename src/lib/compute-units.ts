/**
 * The Data API's own currency: compute units (CUs). Every key is billed and rate limited in CUs per
 * minute and per day, and each operation weighs a fixed number of them, given by its tier in the
 * public spec (`x-execution-weight`). One table here, read by the client (what a call costs), the
 * estimator (what an operation may cost) and the devnet (what it bills each key).
 */

/** The weight tiers of the spec's `x-execution-weight`, in compute units per call. */
export const WEIGHT_TIERS = { free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200 } as const;

export type WeightTier = keyof typeof WEIGHT_TIERS;

export const isWeightTier = (value: unknown): value is WeightTier => typeof value === 'string' && Object.hasOwn(WEIGHT_TIERS, value);

/**
 * The operations the spec leaves without `x-execution-weight`, and the tier chaingraph charges them, each
 * by the weighted operation nearest in what it does, never below it (an estimate may overstate the bill,
 * never understate it):
 * - the two health checks read no indexed data: `free`, as `supportedChains`;
 * - `getContractMetadata` is one lookup by address: `medium`, as `getTokenDetails` and `getTransaction`;
 * - `listAddressChains` finds the chains an address is active on: `xl`, as its primary-network twin
 *   `getChainIdsForAddresses`;
 * - the listings across all chains: `medium`, as `listLatestTransactions` (one chain's), not `small` as
 *   `getLatestBlocks` (they read every chain).
 */
export const UNWEIGHTED_OPERATIONS: Readonly<Record<string, WeightTier>> = {
  'data-health-check': 'free',
  'live-check': 'free',
  getContractMetadata: 'medium',
  listAddressChains: 'xl',
  listLatestBlocksAllChains: 'medium',
  listLatestTransactionsAllChains: 'medium',
};

/** A node JSON-RPC call: the nodes are the operator's own and bill nothing. */
export const NODE_CALL_COMPUTE_UNITS = 0;

/**
 * Whether an answer with this status is billed: the call was served (2xx), or refused for what it asked
 * (a 4xx such as 400 or 404: the Data API did the work of reading it, and its usage reports count such
 * calls' units as spent). Not billed: a 429 (refused for the limit, before any work), a 401 or 403 (no key
 * the upstream accepts to bill), a 5xx (the upstream's own failure).
 */
export const isBilledStatus = (status: number): boolean => (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429);

/** Compute units of one call of a tier. */
export const computeUnitsOf = (tier: WeightTier): number => WEIGHT_TIERS[tier];

import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { PAGES, withFields, type LastActivityTimestamp, type ListAssetTransactionsParams } from '../shapes/index.ts';
import { settle } from './evm.ts';
import { nullOnNotFound } from './not-found.ts';
import type { FetchChainPage, PrimaryChain } from './primary-chain.ts';
import type { XChainTransactionOnChain } from './primary-tx.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/**
 * Primary-network reads keyed by addresses, and an asset's transactions:
 * - the chains each address is active on (getChainIdsForAddresses), batched: the
 *   addresses asked in one tick go in one call, {@link CHAIN_IDS_PER_CALL} at a time;
 * - the last activity of a set of addresses on a chain (getLastActivityTimestampByAddresses):
 *   the API answers one activity for the whole set, so each set (each address, when
 *   asked per address) is one call, memoised per request. The GET carries the addresses
 *   in the URL; a set whose list is longer than {@link LAST_ACTIVITY_GET_CHARS} goes by
 *   POST (the V2 form, addresses in the body), which no URL length limits;
 * - an asset's X-chain transactions (listAssetTransactions) as pages.
 */

/** Addresses per getChainIdsForAddresses call: the gateway's cap on one address list (the spec gives none). */
export const CHAIN_IDS_PER_CALL = 64;

/** Longest comma-joined address list sent in a GET's query; longer lists go by POST. */
export const LAST_ACTIVITY_GET_CHARS = 1024;

/** The primary chains an address is active on, as blockchain ids (possibly none). */
export function activeChainIds(ctx: LoaderContext, network: NetworkId, address: string): Promise<string[]> {
  const loader = memoLoader(ctx, `chainIdsForAddresses:${network}`, () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, string[]>(
      async (addresses) => {
        const answer = await dataApi.getChainIdsForAddresses(network, { addresses: [...addresses] }, ctx.call);
        // The answer names each address as it was sent: matched exactly, in key order; one it left out is active nowhere.
        const byAddress = new Map(answer.addresses.map((a) => [a.address, a.blockchainIds.map(String)]));
        return addresses.map((a) => byAddress.get(a) ?? []);
      },
      { maxBatchSize: CHAIN_IDS_PER_CALL },
    );
  });
  return loader.load(address);
}
/** Batched: ceil(addresses / {@link CHAIN_IDS_PER_CALL}) calls per request. */
export const ACTIVE_CHAINS_COST: FieldCost = weighing(costs.batched(CHAIN_IDS_PER_CALL), ENDPOINTS.getChainIdsForAddresses);

export type LastActivityOnChain = LastActivityTimestamp & PrimaryChain;

/** The latest UTXO created or consumed for these addresses on this chain, or null when they have none. */
export function lastActivity(ctx: LoaderContext, chain: PrimaryChain, addresses: readonly string[]): Promise<LastActivityOnChain | null> {
  const loader = memoLoader(ctx, `lastActivity:${chain.network}:${chain.blockchainId}`, () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, LastActivityOnChain | null>(
      // One call per address set: the API answers one activity for all the addresses it is given.
      async (sets) =>
        settle(
          sets.map(async (set) => {
            const params = { addresses: set.split(',') };
            const call = set.length <= LAST_ACTIVITY_GET_CHARS
              ? dataApi.getLastActivity(chain.network, chain.blockchainId, params, ctx.call)
              : dataApi.getLastActivityByPost(chain.network, chain.blockchainId, params, ctx.call);
            const found = await nullOnNotFound(call);
            return found ? withFields(found, { network: chain.network, blockchainId: chain.blockchainId }) : null;
          }),
        ),
      { maxBatchSize: 100 },
    );
  });
  // The same set in another order is the same question.
  return loader.load([...new Set(addresses)].sort().join(','));
}
/** One call per address set (per address when asked per address): the API cannot split one answer by address. */
export const LAST_ACTIVITY_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getLastActivity, ENDPOINTS.getLastActivityByPost);

export type AssetTransactionFilter = Omit<ListAssetTransactionsParams, 'pageSize' | 'pageToken'>;

/** listAssetTransactions as pages: the X-chain transactions that move an asset, newest first. */
export function assetTransactionPages(ctx: LoaderContext, chain: PrimaryChain, assetId: string, filter: AssetTransactionFilter): FetchChainPage<XChainTransactionOnChain> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listAssetTransactions(chain.network, assetId, { ...filter, pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
    const items = page.transactions.map((tx) => withFields(tx, { network: chain.network, blockchainId: chain.blockchainId, chainAlias: 'x-chain' as const }) as XChainTransactionOnChain);
    return { items, nextPageToken: page.nextPageToken, chainInfo: page.chainInfo };
  };
}
/** One listing per asset (and one more to continue from a cursor). */
export const ASSET_TRANSACTION_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.assetTransactions), ENDPOINTS.listAssetTransactions);

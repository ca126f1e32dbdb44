import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, pageOf, type FieldCost, weighing } from '../lib/cost.ts';
import {
  PAGES, PRIMARY_CHAIN_IDS, withFields, type AssetDetails, type CChainAtomicTransaction, type ListPrimaryTransactionsParams,
  type PChainTransaction, type PrimaryBalancesByChain, type PrimaryChainAlias, type XChainTransaction,
} from '../shapes/index.ts';
import { settle } from './evm.ts';
import { nullOnNotFound } from './not-found.ts';
import type { FetchChainPage, PrimaryChain } from './primary-chain.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/**
 * Primary-network transactions (getTxByHash, the latest and the active staking
 * listings), balances (getBalancesByAddresses) and assets (getAssetDetails), each
 * item with the chain it came from. None of these endpoints takes a list of ids, so
 * lookups by id are one call per distinct id, memoized per request (a DataLoader per
 * network and chain deduplicates the ids of one tick and keeps their answers).
 */

/** The chain alias a primary chain is asked with; undefined for other blockchain ids. */
export function chainAliasOf(chain: PrimaryChain): PrimaryChainAlias | undefined {
  const ids = PRIMARY_CHAIN_IDS[chain.network];
  return chain.blockchainId === ids.p ? 'p-chain' : chain.blockchainId === ids.x ? 'x-chain' : chain.blockchainId === ids.c ? 'c-chain' : undefined;
}

interface ChainFields extends PrimaryChain {
  /** Which of the spec's shapes the transaction has. */
  chainAlias: PrimaryChainAlias;
}
export type PChainTransactionOnChain = PChainTransaction & ChainFields & { chainAlias: 'p-chain' };
export type XChainTransactionOnChain = XChainTransaction & ChainFields & { chainAlias: 'x-chain' };
export type CChainTransactionOnChain = CChainAtomicTransaction & ChainFields & { chainAlias: 'c-chain' };
export type PrimaryTransactionOnChain = PChainTransactionOnChain | XChainTransactionOnChain | CChainTransactionOnChain;

type TxOf<C extends PrimaryChainAlias> = Extract<PrimaryTransactionOnChain, { chainAlias: C }>;

function onChain<C extends PrimaryChainAlias>(chain: PrimaryChain, alias: C, tx: object): TxOf<C> {
  // The transaction was read with this alias's shape (the client picks the shape by the alias).
  return withFields(tx, { network: chain.network, blockchainId: chain.blockchainId, chainAlias: alias }) as TxOf<C>;
}

// ---------------------------------------------------------------- by hash

const txLoader = (ctx: LoaderContext, chain: PrimaryChain, alias: PrimaryChainAlias) =>
  memoLoader(ctx, `primaryTx:${chain.network}:${alias}`, () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, PrimaryTransactionOnChain | null>(
      // Settled one by one: a block's transaction id the client will not send fails its own key only.
      async (hashes) =>
        settle(
          hashes.map(async (hash) => {
            const tx = await nullOnNotFound(dataApi.getPrimaryTransaction(chain.network, alias, hash, ctx.call));
            return tx ? onChain(chain, alias, tx) : null;
          }),
        ),
      { maxBatchSize: 100 },
    );
  });

/** A transaction by hash on a primary chain (getTxByHash), or null; memoized per request. */
export function primaryTransaction(ctx: LoaderContext, chain: PrimaryChain, txHash: string): Promise<PrimaryTransactionOnChain | null> {
  const alias = chainAliasOf(chain);
  return alias ? txLoader(ctx, chain, alias).load(txHash) : Promise.resolve(null);
}
/** One lookup per parent (a distinct hash at most once per request). */
export const PRIMARY_TX_LOOKUP_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getPrimaryTransaction);

/** Most transactions `Block.transactionDetails` resolves per block, and its default. */
export const BLOCK_TX_LINK = { defaultSize: 10, maxSize: 100 } as const;
/** A block's transactions: one lookup per transaction id it resolves (`first`, by default 10), per block. */
export const BLOCK_TX_LINK_COST: FieldCost = weighing({
  calls: ({ parents, args }) => parents * pageOf(args, BLOCK_TX_LINK),
  size: (args) => pageOf(args, BLOCK_TX_LINK),
}, ENDPOINTS.getPrimaryTransaction);

// ---------------------------------------------------------------- listings

export type TransactionFilter = Omit<ListPrimaryTransactionsParams, 'pageSize' | 'pageToken'>;

const pageParams = (pageToken: string | undefined, pageSize: number) => ({ pageSize, ...(pageToken ? { pageToken } : {}) });

/** listLatestPrimaryNetworkTransactions as pages (`PrimaryBlockchain.transactions`). */
export function transactionPages(ctx: LoaderContext, chain: PrimaryChain, filter: TransactionFilter): FetchChainPage<PrimaryTransactionOnChain> {
  const { dataApi } = upstreamOf(ctx);
  const alias = chainAliasOf(chain);
  return async (pageToken, pageSize) => {
    if (!alias) return { items: [] };
    const page = await dataApi.listPrimaryTransactions(chain.network, alias, { ...filter, ...pageParams(pageToken, pageSize) }, ctx.call);
    const items: PrimaryTransactionOnChain[] = [];
    for (const tx of page.transactions) items.push(onChain(chain, alias, tx));
    return { items, nextPageToken: page.nextPageToken, chainInfo: page.chainInfo };
  };
}
export const TRANSACTION_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.primaryTransactions), ENDPOINTS.listPrimaryTransactions);

/** listActivePrimaryNetworkStakingTransactions as pages (`PrimaryBlockchain.stakingTransactions`, P-chain). */
export function stakingTransactionPages(ctx: LoaderContext, chain: PrimaryChain, filter: TransactionFilter): FetchChainPage<PChainTransactionOnChain> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listStakingTransactions(chain.network, { ...filter, ...pageParams(pageToken, pageSize) }, ctx.call);
    return { items: page.transactions.map((tx) => onChain(chain, 'p-chain', tx)), nextPageToken: page.nextPageToken, chainInfo: page.chainInfo };
  };
}
export const STAKING_TRANSACTION_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.stakingTransactions), ENDPOINTS.listStakingTransactions);

// ---------------------------------------------------------------- balances and assets

export type BalancesOnChain = { [C in PrimaryChainAlias]: PrimaryBalancesByChain[C] & ChainFields & { chainAlias: C } }[PrimaryChainAlias];

/** getBalancesByAddresses: the addresses' balances on this chain (at `blockTimestamp`, default now). */
export async function primaryBalances(ctx: LoaderContext, chain: PrimaryChain, addresses: string[], blockTimestamp?: number): Promise<BalancesOnChain | null> {
  const alias = chainAliasOf(chain);
  if (!alias) return null;
  const answer = await upstreamOf(ctx).dataApi.getPrimaryBalances(chain.network, alias, { addresses, ...(blockTimestamp !== undefined ? { blockTimestamp } : {}) }, ctx.call);
  return withFields(answer, { network: chain.network, blockchainId: chain.blockchainId, chainAlias: alias }) as BalancesOnChain;
}
export const BALANCES_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getPrimaryBalances);

export type AssetOnNetwork = AssetDetails & { network: NetworkId };

/** An asset by id (getAssetDetails, asked on the X-chain where assets are made), or null; memoized per request and network. */
export function assetById(ctx: LoaderContext, network: NetworkId, assetId: string): Promise<AssetOnNetwork | null> {
  const loader = memoLoader(ctx, `asset:${network}`, () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, AssetOnNetwork | null>(
      // Settled one by one: an asset id (read from a UTXO or a balance) the client will not send fails its own key only.
      async (ids) =>
        settle(
          ids.map(async (id) => {
            const asset = await nullOnNotFound(dataApi.getAssetDetails(network, id, ctx.call));
            return asset ? withFields(asset, { network }) : null;
          }),
        ),
      { maxBatchSize: 100 },
    );
  });
  return loader.load(assetId);
}
/**
 * Asset links: one getAssetDetails per distinct asset id of the request. The estimate
 * counts one per parent (the upper bound: every parent could hold another asset).
 */
export const ASSET_LINK_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getAssetDetails);

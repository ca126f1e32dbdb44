import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import type { FetchPage } from '../lib/pages.ts';
import { PAGES, type EvmBlock, type NativeTransaction, type TransactionStatus } from '../shapes/index.ts';
import { settle } from './evm.ts';
import { nullOnNotFound } from './not-found.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';

/**
 * The blocks of an EVM chain (getLatestBlocks, getBlock), the transactions of one
 * block (getTransactionsForBlock) and the latest transactions of a chain
 * (listLatestTransactions). No endpoint takes several blocks, so a block is read
 * once per request however many transactions link to it, and every block a
 * listing returned is put in the request's loader under its number and its hash:
 * a transaction of a listed block links to it without a call.
 */

/** A block of one chain, by number (decimal) or hash (0x + 64 hex digits). */
export interface BlockKey {
  chainId: string;
  blockId: string;
}

const blockKey = (k: BlockKey): string => `${k.chainId}|${k.blockId.toLowerCase()}`;

const pageParams = (pageToken: string | undefined, pageSize: number) => ({ pageSize, ...(pageToken ? { pageToken } : {}) });

/** getBlock: each (chain, number or hash) fetched once per request; null when the chain or block does not exist. */
export function blockById(ctx: LoaderContext): DataLoader<BlockKey, EvmBlock | null, string> {
  return memoLoader(ctx, 'evmBlockById', () => {
    const { dataApi } = upstreamOf(ctx);
    const loader: DataLoader<BlockKey, EvmBlock | null, string> = new DataLoader<BlockKey, EvmBlock | null, string>(
      async (keys) => {
        const blocks = await settle(keys.map((k) => nullOnNotFound(dataApi.getBlock(k.chainId, k.blockId, ctx.call))));
        // The other name of each block found (its hash when asked by number, its number when asked by hash).
        for (const [i, block] of blocks.entries()) if (block && !(block instanceof Error)) primeBlock(loader, (keys[i] as BlockKey).chainId, block);
        return blocks;
      },
      { cacheKeyFn: blockKey },
    );
    return loader;
  });
}

function primeBlock(loader: DataLoader<BlockKey, EvmBlock | null, string>, chainId: string, block: EvmBlock): void {
  loader.prime({ chainId, blockId: block.blockNumber }, block);
  loader.prime({ chainId, blockId: block.blockHash }, block);
}

/** A link to a block: one lookup per parent at most (listed blocks and blocks already read cost none). */
export const BLOCK_LOOKUP_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getBlock);

/** getLatestBlocks as pages (`Chain.blocks`), newest first; each block is remembered for the request's block links. */
export function latestBlockPages(ctx: LoaderContext, chainId: string): FetchPage<EvmBlock> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.getLatestBlocks(chainId, pageParams(pageToken, pageSize), ctx.call);
    const loader = blockById(ctx);
    for (const block of page.blocks) primeBlock(loader, chainId, block);
    return { items: page.blocks, nextPageToken: page.nextPageToken };
  };
}
export const LATEST_BLOCK_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.evmBlocks), ENDPOINTS.getLatestBlocks);

/** getTransactionsForBlock as pages (`EvmBlock.transactions`), in block order. */
export function blockTransactionPages(ctx: LoaderContext, chainId: string, blockId: string): FetchPage<NativeTransaction> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.getTransactionsForBlock(chainId, blockId, pageParams(pageToken, pageSize), ctx.call);
    return { items: page.transactions, nextPageToken: page.nextPageToken };
  };
}
/** One listing per parent block: the endpoint takes one block. */
export const BLOCK_TRANSACTION_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.evmBlockTransactions), ENDPOINTS.getTransactionsForBlock);

/** listLatestTransactions as pages (`Chain.latestTransactions`), newest first, optionally of one status. */
export function latestTransactionPages(ctx: LoaderContext, chainId: string, status?: TransactionStatus): FetchPage<NativeTransaction> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listLatestTransactions(chainId, { ...pageParams(pageToken, pageSize), ...(status ? { status } : {}) }, ctx.call);
    return { items: page.transactions, nextPageToken: page.nextPageToken };
  };
}
export const LATEST_TRANSACTION_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.latestTransactions), ENDPOINTS.listLatestTransactions);

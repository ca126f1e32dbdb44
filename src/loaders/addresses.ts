import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import type { FetchPage } from '../lib/pages.ts';
import {
  PAGES, type CurrencyCode, type Erc1155TokenBalance, type ListAddressTransactionsParams, type ListErc1155BalancesParams,
  type ListNativeTransactionsParams, type NativeTokenBalance, type NativeTransaction, type TransactionDetails, withFields,
} from '../shapes/index.ts';
import { settle, type WithChain } from './evm.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';

/**
 * The services of an address on one EVM chain: its listings (E3, E9, E10) as page
 * readers for the schema's connections, its native balance (E14), and what each costs.
 * Each parent reads its own listing: no endpoint takes several addresses.
 */

/** One item of E3 plus the chain it was listed on. */
export type AddressTransaction = WithChain<TransactionDetails>;

/** A listing's filters: everything but the page token and size, which the connection sets. */
type Filters<P> = Omit<P, 'pageToken' | 'pageSize'>;

const pageParams = (pageToken: string | undefined, pageSize: number) => ({ pageSize, ...(pageToken ? { pageToken } : {}) });

/** E3 as pages (`Address.transactions`): transactions involving the address, each with its chain. */
export function addressTransactionPages(
  ctx: LoaderContext,
  chainId: string,
  address: string,
  params: Filters<ListAddressTransactionsParams>,
): FetchPage<AddressTransaction> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listAddressTransactions(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
    return { items: page.transactions.map((x) => withFields(x, { chainId })), nextPageToken: page.nextPageToken };
  };
}
export const ADDRESS_TRANSACTION_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.addressTransactions), ENDPOINTS.listAddressTransactions, ENDPOINTS.listAddressTransactionsV2);

/** E9 as pages (`Address.nativeTransactions`): transactions the address sent or received, without logs. */
export function nativeTransactionPages(
  ctx: LoaderContext,
  chainId: string,
  address: string,
  params: Filters<ListNativeTransactionsParams>,
): FetchPage<NativeTransaction> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listNativeTransactions(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
    return { items: page.transactions, nextPageToken: page.nextPageToken };
  };
}
export const NATIVE_TRANSACTION_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.nativeTransactions), ENDPOINTS.listNativeTransactions);

/** E10 as pages, and the native balance every page of it carries. */
export interface Erc1155BalancePages {
  fetchPage: FetchPage<Erc1155TokenBalance>;
  /** The native token balance at the same block, from the first page read (undefined before any). */
  nativeTokenBalance(): NativeTokenBalance | undefined;
}

/** E10 as pages (`Address.erc1155Balances`): ERC-1155 balances, with the native balance the listing returns alongside. */
export function erc1155BalancePages(
  ctx: LoaderContext,
  chainId: string,
  address: string,
  params: Filters<ListErc1155BalancesParams>,
): Erc1155BalancePages {
  const { dataApi } = upstreamOf(ctx);
  let native: NativeTokenBalance | undefined;
  return {
    fetchPage: async (pageToken, pageSize) => {
      const page = await dataApi.listErc1155Balances(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
      native ??= page.nativeTokenBalance;
      return { items: page.erc1155TokenBalances, nextPageToken: page.nextPageToken };
    },
    nativeTokenBalance: () => native,
  };
}
export const ERC1155_BALANCE_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.erc1155Balances), ENDPOINTS.listErc1155Balances);

/** An address's native balance at a block (latest when omitted), priced in a currency. */
export interface NativeBalanceKey {
  chainId: string;
  address: string;
  blockNumber?: string | undefined;
  currency?: CurrencyCode | undefined;
}

/** E14: each (chain, address, block, currency) fetched once per request, however many fields ask. */
export function nativeBalanceOf(ctx: LoaderContext): DataLoader<NativeBalanceKey, NativeTokenBalance, string> {
  return memoLoader(ctx, 'nativeBalanceOf', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<NativeBalanceKey, NativeTokenBalance, string>(
      (keys) =>
        settle(
          keys.map(async (k) => {
            const params: { blockNumber?: string; currency?: CurrencyCode } = {};
            if (k.blockNumber !== undefined) params.blockNumber = k.blockNumber;
            if (k.currency !== undefined) params.currency = k.currency;
            return (await dataApi.getNativeBalance(k.chainId, k.address, params, ctx.call)).nativeTokenBalance;
          }),
        ),
      { cacheKeyFn: (k) => `${k.chainId}|${k.address.toLowerCase()}|${k.blockNumber ?? ''}|${k.currency ?? ''}` },
    );
  });
}

/** E14: one lookup per parent address (the loader only dedupes). */
export const NATIVE_BALANCE_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getNativeBalance);

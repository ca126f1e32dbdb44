import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import type { FetchPage } from '../lib/pages.ts';
import {
  PAGES, withFields, type AddressErc1155Transfer, type AddressErc20Transfer, type AddressErc721Transfer,
  type AddressInternalTransaction, type CollectibleBalance, type Erc1155TokenBalance, type Erc20TokenBalance,
  type Erc721TokenBalance, type ListAddressTransfersParams, type ListErc20BalancesParams, type ListNftBalancesParams,
  type NativeTokenBalance,
} from '../shapes/index.ts';
import type { WithChain } from './evm.ts';
import { upstreamOf, type LoaderContext } from './registry.ts';

/**
 * The token side of an address on one EVM chain, from the public spec: its ERC-20 and
 * ERC-721 balances and collectibles, and its ERC-20/721/1155 transfers and internal
 * transactions, as page readers for the schema's connections, with what each costs.
 * Each parent reads its own listing: none of these endpoints takes several addresses.
 * Transfer items come back with their chain, so their `transaction` link can find it.
 */

/** A listing's filters: everything but the page token and size, which the connection sets. */
type Filters<P> = Omit<P, 'pageToken' | 'pageSize'>;

const pageParams = (pageToken: string | undefined, pageSize: number) => ({ pageSize, ...(pageToken ? { pageToken } : {}) });

/** A balance listing as pages, and the native balance every page of it carries. */
export interface BalancePages<T> {
  fetchPage: FetchPage<T>;
  /** The native token balance at the same block, from the first page read (undefined before any). */
  nativeTokenBalance(): NativeTokenBalance | undefined;
}

/** listErc20Balances as pages (`Address.erc20Balances`), with the native balance the listing returns alongside. */
export function erc20BalancePages(
  ctx: LoaderContext,
  chainId: string,
  address: string,
  params: Filters<ListErc20BalancesParams>,
): BalancePages<Erc20TokenBalance> {
  const { dataApi } = upstreamOf(ctx);
  let native: NativeTokenBalance | undefined;
  return {
    fetchPage: async (pageToken, pageSize) => {
      const page = await dataApi.listErc20Balances(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
      native ??= page.nativeTokenBalance;
      return { items: page.erc20TokenBalances, nextPageToken: page.nextPageToken };
    },
    nativeTokenBalance: () => native,
  };
}
export const ERC20_BALANCE_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.erc20Balances), ENDPOINTS.listErc20Balances);

/** listErc721Balances as pages (`Address.erc721Balances`), with the native balance the listing returns alongside. */
export function erc721BalancePages(
  ctx: LoaderContext,
  chainId: string,
  address: string,
  params: Filters<ListNftBalancesParams>,
): BalancePages<Erc721TokenBalance> {
  const { dataApi } = upstreamOf(ctx);
  let native: NativeTokenBalance | undefined;
  return {
    fetchPage: async (pageToken, pageSize) => {
      const page = await dataApi.listErc721Balances(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
      native ??= page.nativeTokenBalance;
      return { items: page.erc721TokenBalances, nextPageToken: page.nextPageToken };
    },
    nativeTokenBalance: () => native,
  };
}
export const ERC721_BALANCE_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.erc721Balances), ENDPOINTS.listErc721Balances);

/** One collectible: an ERC-721 token held, or an ERC-1155 balance. */
export type Collectible = Erc721TokenBalance | Erc1155TokenBalance;

/**
 * Which member of the spec's oneOf a collectible is: its `ercType`, else its fields
 * (only ERC-1155 balances carry `balance`; only ERC-721 ones a collection `name`).
 */
export function isErc1155Collectible(item: Collectible | CollectibleBalance): boolean {
  if (item.ercType === 'ERC-1155') return true;
  if (item.ercType === 'ERC-721') return false;
  return 'balance' in item && !('name' in item);
}

/**
 * The item itself, typed as its member, not a copy (a copy would read, and so throw, its
 * broken fields): a field the member requires but the answer left out fails alone, when
 * its GraphQL field reads it.
 */
function collectibleOf(item: CollectibleBalance): Collectible {
  return isErc1155Collectible(item) ? (item as Erc1155TokenBalance) : (item as Erc721TokenBalance);
}

/** listCollectibleBalances as pages (`Address.collectibleBalances`): ERC-721 and ERC-1155 holdings together. */
export function collectiblePages(ctx: LoaderContext, chainId: string, address: string, params: Filters<ListNftBalancesParams>): FetchPage<Collectible> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listCollectibleBalances(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
    return { items: page.collectibleBalances.map(collectibleOf), nextPageToken: page.nextPageToken };
  };
}
export const COLLECTIBLE_BALANCE_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.collectibleBalances), ENDPOINTS.listCollectibleBalances);

// ---------------------------------------------------------------- transfers

export type ChainErc20Transfer = WithChain<AddressErc20Transfer>;
export type ChainErc721Transfer = WithChain<AddressErc721Transfer>;
export type ChainErc1155Transfer = WithChain<AddressErc1155Transfer>;
export type ChainInternalTransaction = WithChain<AddressInternalTransaction>;

type TransferFilters = Filters<ListAddressTransfersParams>;

/** listErc20Transactions as pages (`Address.erc20Transfers`), each transfer with its chain. */
export function erc20TransferPages(ctx: LoaderContext, chainId: string, address: string, params: TransferFilters): FetchPage<ChainErc20Transfer> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listErc20Transfers(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
    return { items: page.transactions.map((x) => withFields(x, { chainId })), nextPageToken: page.nextPageToken };
  };
}
export const ERC20_TRANSFER_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.erc20Transfers), ENDPOINTS.listErc20Transfers);

/** listErc721Transactions as pages (`Address.erc721Transfers`), each transfer with its chain. */
export function erc721TransferPages(ctx: LoaderContext, chainId: string, address: string, params: TransferFilters): FetchPage<ChainErc721Transfer> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listErc721Transfers(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
    return { items: page.transactions.map((x) => withFields(x, { chainId })), nextPageToken: page.nextPageToken };
  };
}
export const ERC721_TRANSFER_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.erc721Transfers), ENDPOINTS.listErc721Transfers);

/** listErc1155Transactions as pages (`Address.erc1155Transfers`), each transfer with its chain. */
export function erc1155TransferPages(ctx: LoaderContext, chainId: string, address: string, params: TransferFilters): FetchPage<ChainErc1155Transfer> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listErc1155Transfers(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
    return { items: page.transactions.map((x) => withFields(x, { chainId })), nextPageToken: page.nextPageToken };
  };
}
export const ERC1155_TRANSFER_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.erc1155Transfers), ENDPOINTS.listErc1155Transfers);

/** listInternalTransactions as pages (`Address.internalTransactions`), each with its chain. */
export function internalTransactionPages(
  ctx: LoaderContext,
  chainId: string,
  address: string,
  params: TransferFilters,
): FetchPage<ChainInternalTransaction> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listInternalTransactions(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
    return { items: page.transactions.map((x) => withFields(x, { chainId })), nextPageToken: page.nextPageToken };
  };
}
export const INTERNAL_TRANSACTION_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.internalTransactions), ENDPOINTS.listInternalTransactions);

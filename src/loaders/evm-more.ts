import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import type { FetchPage } from '../lib/pages.ts';
import {
  PAGES, withFields, type EvmBlock, type ListAddressChainsResponse, type ListAddressTransactionsV2Params, type NativeTransaction,
  type Network, type TransactionDetailsV2, type TransactionStatus,
} from '../shapes/index.ts';
import type { ChainContract } from './contracts.ts';
import { contractByAddress } from './contracts.ts';
import type { ChainNftToken, WithChain } from './evm.ts';
import { nftTokenById } from './evm.ts';
import { blockById } from './evm-blocks.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';
import { MAX_CHAINS } from './chains.ts';

/**
 * The EVM operations beside the per-chain ones: the latest blocks and transactions of
 * every chain of a network (listLatestBlocksAllChains, listLatestTransactionsAllChains),
 * the chains an address is active on (listAddressChains), the contracts an address
 * deployed (listContractDeployments), E3 with token reputations (listTransactionsV2),
 * an NFT collection's tokens (listTokens) and the reindexing of one token (reindexNft).
 *
 * None of these takes several parents in one call, so a link costs one call per
 * distinct parent; what a listing returns is put in the request's loaders (blocks,
 * contracts, NFTs), so the links from those items to them cost nothing more.
 */

/** One item of listTransactionsV2 plus the chain it was listed on. */
export type AddressTransactionV2 = WithChain<TransactionDetailsV2>;

const pageParams = (pageToken: string | undefined, pageSize: number) => ({ pageSize, ...(pageToken ? { pageToken } : {}) });

/** listLatestBlocksAllChains as pages (`Query.latestBlocks`): every chain's newest blocks, merged; each remembered for block links. */
export function allChainsBlockPages(ctx: LoaderContext, network: Network | undefined): FetchPage<EvmBlock> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listLatestBlocksAllChains({ ...pageParams(pageToken, pageSize), ...(network ? { network } : {}) }, ctx.call);
    const loader = blockById(ctx);
    for (const block of page.blocks) {
      loader.prime({ chainId: block.chainId, blockId: block.blockNumber }, block);
      loader.prime({ chainId: block.chainId, blockId: block.blockHash }, block);
    }
    return { items: page.blocks, nextPageToken: page.nextPageToken };
  };
}
export const ALL_CHAINS_BLOCK_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.allChainsBlocks), ENDPOINTS.listLatestBlocksAllChains);

/** listLatestTransactionsAllChains as pages (`Query.latestTransactions`), optionally of one status. */
export function allChainsTransactionPages(ctx: LoaderContext, network: Network | undefined, status: TransactionStatus | undefined): FetchPage<NativeTransaction> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const params = { ...pageParams(pageToken, pageSize), ...(network ? { network } : {}), ...(status ? { status } : {}) };
    const page = await dataApi.listLatestTransactionsAllChains(params, ctx.call);
    return { items: page.transactions, nextPageToken: page.nextPageToken };
  };
}
export const ALL_CHAINS_TRANSACTION_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.allChainsTransactions), ENDPOINTS.listLatestTransactionsAllChains);

/**
 * listAddressChains, once per distinct address per request: the endpoint is not by
 * chain, so the same address on several chains shares one call. It takes one address.
 */
export function addressChains(ctx: LoaderContext): DataLoader<string, ListAddressChainsResponse> {
  return memoLoader(ctx, 'addressChains', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, ListAddressChainsResponse>((addresses) =>
      Promise.all(addresses.map((a) => dataApi.listAddressChains(a, ctx.call).catch((error: unknown) => error as Error))),
    );
  });
}
/**
 * `Address.chains`: one call per distinct address of the parents; each answer a subset of the chain
 * list, so up to {@link MAX_CHAINS} chains for what is asked under it (as `chains` itself counts them).
 */
export const ADDRESS_CHAINS_COST: FieldCost = weighing({ ...costs.perParent(), size: () => MAX_CHAINS }, ENDPOINTS.listAddressChains);

/** listContractDeployments as pages (`Address.deployedContracts`); each contract is remembered for `contract` links. */
export function deployedContractPages(ctx: LoaderContext, chainId: string, deployer: string): FetchPage<ChainContract> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listContractDeployments(chainId, deployer, pageParams(pageToken, pageSize), ctx.call);
    const loader = contractByAddress(ctx);
    for (const contract of page.contracts) loader.prime({ chainId, address: contract.address.toLowerCase() }, contract);
    return { items: page.contracts.map((c) => withFields(c, { chainId })), nextPageToken: page.nextPageToken };
  };
}
/** One listing per parent address. */
export const DEPLOYED_CONTRACT_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.contractDeployments), ENDPOINTS.listContractDeployments);

/** listTransactionsV2 as pages (`Address.transactions(filterSpamTokens:)`). */
export function addressTransactionV2Pages(
  ctx: LoaderContext,
  chainId: string,
  address: string,
  params: Omit<ListAddressTransactionsV2Params, 'pageToken' | 'pageSize'>,
): FetchPage<AddressTransactionV2> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listAddressTransactionsV2(chainId, address, { ...pageParams(pageToken, pageSize), ...params }, ctx.call);
    return { items: page.transactions.map((x) => withFields(x, { chainId })), nextPageToken: page.nextPageToken };
  };
}

/** listTokens as pages (`tokens` of an NFT collection); each token is remembered for NFT lookups. */
export function collectionTokenPages(ctx: LoaderContext, chainId: string, address: string): FetchPage<ChainNftToken> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listCollectionTokens(chainId, address, pageParams(pageToken, pageSize), ctx.call);
    const loader = nftTokenById(ctx);
    for (const token of page.tokens) loader.prime({ chainId, address: address.toLowerCase(), tokenId: token.tokenId }, token);
    return { items: page.tokens.map((t) => withFields(t, { chainId })), nextPageToken: page.nextPageToken };
  };
}
/** One listing per parent collection. */
export const COLLECTION_TOKEN_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.collectionTokens), ENDPOINTS.listCollectionTokens);

/** reindexNft: asks the Data API to fetch a token's metadata again (accepted: 201, no body). Never cached. */
export async function reindexNftToken(ctx: LoaderContext, chainId: string, address: string, tokenId: string): Promise<void> {
  await upstreamOf(ctx).dataApi.reindexNft(chainId, address.toLowerCase(), tokenId, ctx.call);
  // What this request read of the token is stale now.
  nftTokenById(ctx).clear({ chainId, address: address.toLowerCase(), tokenId });
}
export const REINDEX_NFT_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.reindexNft);

import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import type { CurrencyCode, FullTransaction, NftToken } from '../shapes/index.ts';
import { withFields } from '../shapes/index.ts';
import { nullOnNotFound } from './not-found.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';

/**
 * The EVM lookups by identity: a transaction (`GET /v1/chains/{chainId}/transactions/{txHash}`),
 * the transaction that deployed a contract (E6) and an NFT (E19). None has a batch
 * form, so the loaders' job is to fetch each key once per request however many
 * parents link to it; each answer comes back with the chain it was read from.
 */

/** An upstream object plus the EVM chain it was read from (the upstream objects do not always say). */
export type WithChain<T> = T & { chainId: string };
/** The complete view of one transaction, on its chain. */
export type ChainTransaction = WithChain<FullTransaction>;
/** One NFT, on its chain. */
export type ChainNftToken = WithChain<NftToken>;

/** A transaction of one EVM chain. */
export interface TxKey {
  chainId: string;
  txHash: string;
}

/** An NFT of one collection on one EVM chain. */
export interface NftKey {
  chainId: string;
  address: string;
  tokenId: string;
}

/** Settles each lookup on its own, so one failure fails only its key. */
export function settle<T>(lookups: Promise<T>[]): Promise<(T | Error)[]> {
  return Promise.all(lookups.map((p) => p.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))));
}

/**
 * The complete view of a transaction, null when it does not exist, each (chain, hash)
 * fetched once per request (an address listing, its native transactions, ICM
 * messages and `Chain.transaction` may all link to it).
 */
export function transactionByHash(ctx: LoaderContext): DataLoader<TxKey, FullTransaction | null, string> {
  return memoLoader(ctx, 'transactionByHash', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<TxKey, FullTransaction | null, string>(
      (keys) => settle(keys.map((k) => nullOnNotFound(dataApi.getTransaction(k.chainId, k.txHash, ctx.call)))),
      { cacheKeyFn: (k) => `${k.chainId}|${k.txHash.toLowerCase()}` },
    );
  });
}

/** A transaction of `chainId` through the request's loader; null when it does not exist. */
export async function transactionOf(ctx: LoaderContext, chainId: string, txHash: string): Promise<ChainTransaction | null> {
  const tx = await transactionByHash(ctx).load({ chainId, txHash });
  return tx ? withFields(tx, { chainId }) : null;
}

/** A link to a transaction: one lookup per parent (no batch form; the loader only dedupes). */
export const TRANSACTION_LOOKUP_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getTransaction);

/** E6: the transaction that deployed the contract at `address`; null when there is none on this chain. */
export async function deploymentOf(ctx: LoaderContext, chainId: string, address: string, currency?: CurrencyCode): Promise<ChainTransaction | null> {
  const { dataApi } = upstreamOf(ctx);
  const tx = await nullOnNotFound(dataApi.getDeploymentTransaction(chainId, address, currency ? { currency } : {}, ctx.call));
  return tx ? withFields(tx, { chainId }) : null;
}

/** E6: one lookup per parent chain. */
export const DEPLOYMENT_LOOKUP_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getDeploymentTransaction);

/** E19: one NFT, null when the chain, collection or token id is unknown; each key fetched once per request. */
export function nftTokenById(ctx: LoaderContext): DataLoader<NftKey, NftToken | null, string> {
  return memoLoader(ctx, 'nftTokenById', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<NftKey, NftToken | null, string>(
      (keys) => settle(keys.map((k) => nullOnNotFound(dataApi.getNftToken(k.chainId, k.address, k.tokenId, ctx.call)))),
      { cacheKeyFn: (k) => `${k.chainId}|${k.address.toLowerCase()}|${k.tokenId}` },
    );
  });
}

/** E19 through the request's loader (the address lowercased); null when the token does not exist. */
export async function nftTokenOf(ctx: LoaderContext, chainId: string, address: string, tokenId: string): Promise<ChainNftToken | null> {
  const token = await nftTokenById(ctx).load({ chainId, address: address.toLowerCase(), tokenId });
  return token ? withFields(token, { chainId }) : null;
}

/** E19: one lookup per parent chain. */
export const NFT_TOKEN_LOOKUP_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getNftToken);

import DataLoader from 'dataloader';
import { UpstreamError } from '../upstream/errors.ts';
import type { CurrencyCode, FullTransaction, NativeTokenBalance, NftToken } from '../shapes/index.ts';
import { memoLoader, type LoaderContext } from './registry.ts';

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

/** Resolves a lookup, turning the upstream's 404 into null (the thing does not exist). */
async function orNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof UpstreamError && error.isNotFound) return null;
    throw error;
  }
}

/** Settles each lookup on its own, so one failure fails only its key. */
function settle<T>(lookups: Promise<T>[]): Promise<(T | Error)[]> {
  return Promise.all(lookups.map((p) => p.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))));
}

/**
 * The complete view of a transaction (`GET /v1/chains/{chainId}/transactions/{txHash}`),
 * null when it does not exist. The API has no batch form, so this loader's job is
 * to fetch each (chain, hash) once per request however many parents link to it
 * (an address listing, its native transactions, ICM messages, `Chain.transaction`).
 */
export function transactionByHash(ctx: LoaderContext): DataLoader<TxKey, FullTransaction | null, string> {
  return memoLoader(ctx, 'transactionByHash', () =>
    new DataLoader<TxKey, FullTransaction | null, string>(
      (keys) => settle(keys.map((k) => orNull(ctx.dataApi.getTransaction(k.chainId, k.txHash, ctx.call)))),
      { cacheKeyFn: (k) => `${k.chainId}|${k.txHash.toLowerCase()}` },
    ),
  );
}

/** E19: one NFT, null when the chain, collection or token id is unknown; each key fetched once per request. */
export function nftTokenById(ctx: LoaderContext): DataLoader<NftKey, NftToken | null, string> {
  return memoLoader(ctx, 'nftTokenById', () =>
    new DataLoader<NftKey, NftToken | null, string>(
      (keys) => settle(keys.map((k) => orNull(ctx.dataApi.getNftToken(k.chainId, k.address, k.tokenId, ctx.call)))),
      { cacheKeyFn: (k) => `${k.chainId}|${k.address.toLowerCase()}|${k.tokenId}` },
    ),
  );
}

/** An address's native balance at a block (latest when omitted), priced in a currency. */
export interface NativeBalanceKey {
  chainId: string;
  address: string;
  blockNumber?: string | undefined;
  currency?: CurrencyCode | undefined;
}

/** E14: each (chain, address, block, currency) fetched once per request, however many fields ask. */
export function nativeBalanceOf(ctx: LoaderContext): DataLoader<NativeBalanceKey, NativeTokenBalance, string> {
  return memoLoader(ctx, 'nativeBalanceOf', () =>
    new DataLoader<NativeBalanceKey, NativeTokenBalance, string>(
      (keys) =>
        settle(
          keys.map(async (k) => {
            const params: { blockNumber?: string; currency?: CurrencyCode } = {};
            if (k.blockNumber !== undefined) params.blockNumber = k.blockNumber;
            if (k.currency !== undefined) params.currency = k.currency;
            return (await ctx.dataApi.getNativeBalance(k.chainId, k.address, params, ctx.call)).nativeTokenBalance;
          }),
        ),
      { cacheKeyFn: (k) => `${k.chainId}|${k.address.toLowerCase()}|${k.blockNumber ?? ''}|${k.currency ?? ''}` },
    ),
  );
}

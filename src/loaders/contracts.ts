import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { codedError, ErrorCode } from '../errors/graphql.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import type { FetchPage } from '../lib/pages.ts';
import { PAGES, withFields, type ContractMetadata, type ContractTransfer, type ListContractTransfersParams } from '../shapes/index.ts';
import { settle, type WithChain } from './evm.ts';
import { nullOnNotFound } from './not-found.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';

/**
 * Contract metadata (getContractMetadata) and a token contract's transfers
 * (listTransfers). Every token reference (ERC-20/721/1155 tokens in transfers and
 * balances, NFTs) links to its contract: the endpoint takes one address, so the
 * request's loader reads each distinct (chain, address) once, however many
 * references share it, and at most {@link MAX_CONTRACTS_PER_REQUEST} of them.
 */

/** A contract's metadata plus the EVM chain it was read from. */
export type ChainContract = WithChain<ContractMetadata>;
/** One transfer of a token contract plus the chain it was listed on. */
export type ChainContractTransfer = WithChain<ContractTransfer>;

/**
 * Distinct contracts one request reads at most. Beyond it a `contract` answers
 * QUERY_TOO_COSTLY: the bound is what lets the cost estimate count a link by the
 * contracts it may read rather than by its parents (a block's transfers name a
 * handful of tokens many times).
 */
export const MAX_CONTRACTS_PER_REQUEST = 50;

interface ContractKey {
  chainId: string;
  address: string;
  /** Read for an address's own `contract` (charged per parent, so outside the request's cap on token contracts). */
  uncapped?: boolean;
}

/** The refusals of token contracts past the cap: an address's own link, which is not capped, reads past them. */
const capRefusals = new WeakSet<object>();

/** getContractMetadata: each (chain, address) once per request, null when there is no contract there. */
export function contractByAddress(ctx: LoaderContext): DataLoader<ContractKey, ContractMetadata | null, string> {
  return memoLoader(ctx, 'contractByAddress', () => {
    const { dataApi } = upstreamOf(ctx);
    let read = 0;
    const loader: DataLoader<ContractKey, ContractMetadata | null, string> = new DataLoader<ContractKey, ContractMetadata | null, string>(
      (keys) =>
        settle(
          keys.map((k) => {
            if (!k.uncapped) read += 1;
            if (!k.uncapped && read > MAX_CONTRACTS_PER_REQUEST) {
              const refusal = codedError(ErrorCode.QUERY_TOO_COSTLY, `This request links more than ${MAX_CONTRACTS_PER_REQUEST} distinct contracts; ask for fewer.`);
              capRefusals.add(refusal);
              // Not kept: a later load of the same contract for an address's own link reads it.
              loader.clear(k);
              return Promise.reject(refusal);
            }
            return nullOnNotFound(dataApi.getContractMetadata(k.chainId, k.address, ctx.call));
          }),
        ),
      { cacheKeyFn: (k) => `${k.chainId}|${k.address}` },
    );
    return loader;
  });
}

/**
 * A contract through the request's loader (the address lowercased); null when there is none. A token's
 * contract counts against the request's {@link MAX_CONTRACTS_PER_REQUEST}; an address's own (`uncapped`)
 * does not: its link is charged one call per parent ({@link ADDRESS_CONTRACT_COST}), which its estimate
 * already bounds, and a cap the estimate did not count would fail an operation it accepted.
 */
export async function contractOf(ctx: LoaderContext, chainId: string, address: string, uncapped = false): Promise<ChainContract | null> {
  const loader = contractByAddress(ctx);
  const key: ContractKey = { chainId, address: address.toLowerCase(), ...(uncapped ? { uncapped } : {}) };
  let contract: ContractMetadata | null;
  try {
    contract = await loader.load(key);
  } catch (error) {
    // The loader's entries are by chain and address alone: the same contract, asked for in the same batch as
    // a token's contract past the cap, shared its refusal. The refusal left the cache, so this reads it (once,
    // however many address links ask at the same time).
    if (!uncapped || !(error instanceof Object) || !capRefusals.has(error)) throw error;
    contract = await loader.load(key);
  }
  return contract ? withFields(contract, { chainId }) : null;
}

/** `Address.contract`: the contract at each parent address, at most one call per parent (addresses are mostly distinct; no shared cap). */
export const ADDRESS_CONTRACT_COST: FieldCost = weighing({ calls: ({ parents }) => parents }, ENDPOINTS.getContractMetadata);

/**
 * A `contract` link: one call per distinct (chain, address), which is at most the
 * parents and at most {@link MAX_CONTRACTS_PER_REQUEST} for the whole request.
 */
export const CONTRACT_LOOKUP_COST: FieldCost = weighing({ calls: ({ parents }) => Math.min(parents, MAX_CONTRACTS_PER_REQUEST) }, ENDPOINTS.getContractMetadata);

/** listTransfers as pages (`Contract.transfers`): the token's transfers, newest first. */
export function contractTransferPages(
  ctx: LoaderContext,
  chainId: string,
  address: string,
  params: Omit<ListContractTransfersParams, 'pageToken' | 'pageSize'>,
): FetchPage<ChainContractTransfer> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listTransfers(chainId, address, { pageSize, ...(pageToken ? { pageToken } : {}), ...params }, ctx.call);
    return { items: page.transfers.map((t) => withFields(t, { chainId })), nextPageToken: page.nextPageToken };
  };
}
/** One listing per parent contract. */
export const CONTRACT_TRANSFER_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.contractTransfers), ENDPOINTS.listTransfers);

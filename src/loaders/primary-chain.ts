import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import type { UpstreamPage } from '../lib/pages.ts';
import {
  PAGES, type Block, type ChainInfo, type ListBlocksParams, type ListUtxosParams, type Utxo, type Vertex, withFields,
} from '../shapes/index.ts';
import type { CallOptions } from '../upstream/client-types.ts';
import { upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/**
 * The listings of a primary-network chain (P, X or C): blocks (E15), X-chain
 * vertices (E18) and UTXOs (E4) as page readers for the schema's connections, the
 * refetch scans behind `node(id:)` (none of these endpoints looks one item up), and
 * what each costs. Every item comes back with the chain it was listed on.
 */

/** A primary-network chain: its network and canonical blockchain id (aliases resolved). */
export interface PrimaryChain {
  network: NetworkId;
  blockchainId: string;
}

/** An upstream item plus the chain it was listed on (the upstream objects do not say). */
export type OnChain<T> = T & PrimaryChain;
export type BlockOnChain = OnChain<Block>;
export type VertexOnChain = OnChain<Vertex>;
export type UtxoOnChain = OnChain<Utxo>;

export const onChain = <T extends object>(chain: PrimaryChain, item: T): OnChain<T> =>
  withFields(item, { network: chain.network, blockchainId: chain.blockchainId });

/** A page of a chain listing, with the `chainInfo` the upstream sent with it. */
export type ChainPage<T> = UpstreamPage<T> & { chainInfo?: ChainInfo | undefined };
/** Reads one page of a chain listing (see `FetchPage`). */
export type FetchChainPage<T> = (pageToken: string | undefined, pageSize: number) => Promise<ChainPage<T>>;

const pageParams = (pageToken: string | undefined, pageSize: number) => ({ pageSize, ...(pageToken ? { pageToken } : {}) });

// ---------------------------------------------------------------- listings

/** What a block listing may be narrowed to (E15's query parameters besides the page). */
export type BlockFilter = Omit<ListBlocksParams, 'pageSize' | 'pageToken'>;

/**
 * E15 as pages (`PrimaryBlockchain.blocks`): the latest blocks, newest first. `call`
 * replaces the request's call options (the block poller's own abort signal).
 */
export function blockPages(ctx: LoaderContext, chain: PrimaryChain, filter: BlockFilter = {}, call: CallOptions = ctx.call): FetchChainPage<BlockOnChain> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listBlocks(chain.network, chain.blockchainId, { ...filter, ...pageParams(pageToken, pageSize) }, call);
    return { items: page.blocks.map((b) => onChain(chain, b)), nextPageToken: page.nextPageToken, chainInfo: page.chainInfo };
  };
}
export const BLOCK_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.blocks), ENDPOINTS.listBlocks);

/** E18 as pages (`PrimaryBlockchain.vertices`, X-chain only): the latest vertices, newest first. */
export function vertexPages(ctx: LoaderContext, chain: PrimaryChain): FetchChainPage<VertexOnChain> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listVertices(chain.network, chain.blockchainId, pageParams(pageToken, pageSize), ctx.call);
    return { items: page.vertices.map((v) => onChain(chain, v)), nextPageToken: page.nextPageToken, chainInfo: page.chainInfo };
  };
}
export const VERTEX_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.vertices), ENDPOINTS.listVertices);

/** What a UTXO listing asks for (E4's parameters besides the page). */
export type UtxoQuery = Omit<ListUtxosParams, 'pageSize' | 'pageToken'>;

/** Longest comma-joined address list a UTXO listing sends in a GET's query; longer lists go by POST. */
export const UTXO_GET_ADDRESS_CHARS = 1024;

/**
 * E4 as pages (`PrimaryBlockchain.utxos`): the UTXOs of some addresses on this chain.
 * Both forms of the listing answer the same: the GET (getUtxosByAddresses) when the
 * page fits its bound (100) and the addresses a short query, so the answer is a plain
 * cacheable GET; the POST (getUtxosByAddressesV2) otherwise, for pages up to 1024 and
 * address lists no URL could carry.
 */
export function utxoPages(ctx: LoaderContext, chain: PrimaryChain, query: UtxoQuery): FetchChainPage<UtxoOnChain> {
  const { dataApi } = upstreamOf(ctx);
  const shortList = query.addresses.join(',').length <= UTXO_GET_ADDRESS_CHARS;
  return async (pageToken, pageSize) => {
    const params = { ...query, ...pageParams(pageToken, pageSize) };
    const page = shortList && pageSize <= PAGES.utxosByGet.maxSize
      ? await dataApi.listUtxosByGet(chain.network, chain.blockchainId, params, ctx.call)
      : await dataApi.listUtxos(chain.network, chain.blockchainId, params, ctx.call);
    return { items: page.utxos.map((u) => onChain(chain, u)), nextPageToken: page.nextPageToken, chainInfo: page.chainInfo };
  };
}
export const UTXO_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.utxos), ENDPOINTS.listUtxos, ENDPOINTS.listUtxosByGet);

// ---------------------------------------------------------------- refetch scans (node(id:), _entities)

// A refetch lists the owner's UTXOs (spent ones too) and matches the id, at most this many pages.
const UTXO_REFETCH_PAGES = 5;

/** A UTXO by its id and an owner's address, or null: the owner's UTXOs, spent ones included, read to {@link UTXO_REFETCH_PAGES} pages. */
export async function utxoById(ctx: LoaderContext, chain: PrimaryChain, utxo: { address: string; utxoId: string }): Promise<UtxoOnChain | null> {
  const read = utxoPages(ctx, chain, { addresses: [utxo.address], includeSpent: true });
  let pageToken: string | undefined;
  for (let pages = 0; pages < UTXO_REFETCH_PAGES; pages++) {
    const page = await read(pageToken, PAGES.utxos.maxSize);
    const found = page.items.find((u) => u.utxoId === utxo.utxoId);
    if (found) return found;
    pageToken = page.nextPageToken;
    if (!pageToken) break;
  }
  return null;
}
/** Calls refetching these UTXOs makes at most: {@link UTXO_REFETCH_PAGES} per UTXO. */
export const utxoRefetchCalls = (ids: readonly unknown[]): number => ids.length * UTXO_REFETCH_PAGES;

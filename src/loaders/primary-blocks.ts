import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { PAGES, type SortOrder } from '../shapes/index.ts';
import { settle } from './evm.ts';
import { nullOnNotFound } from './not-found.ts';
import { onChain, type BlockFilter, type BlockOnChain, type FetchChainPage, type PrimaryChain, type VertexOnChain } from './primary-chain.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';

/**
 * Primary-network blocks and vertices by id (getBlockById, getVertexByHash), the
 * vertices at one height (getVertexByHeight) and the blocks one node proposed
 * (listPrimaryNetworkBlocksByNodeId). No endpoint takes several ids, so a block or a
 * vertex is read at most once per request, and a block the request already holds
 * (listed, or read as another block's parent) answers its id without a call: the
 * parents of a page of listed blocks are the next blocks of that page, so the page's
 * parents cost one call, for the oldest block's parent.
 */

/** A block of one primary chain, by height (decimal) or hash. */
export interface PrimaryBlockKey extends PrimaryChain {
  blockId: string;
}

const keyOf = (k: PrimaryBlockKey): string => `${k.network}|${k.blockchainId}|${k.blockId}`;

const pageParams = (pageToken: string | undefined, pageSize: number) => ({ pageSize, ...(pageToken ? { pageToken } : {}) });

// A request remembers at most this many blocks for its links; past it, a link reads its block.
const MAX_REMEMBERED_BLOCKS = 4096;

/** The blocks a request holds, by (network, chain, hash) and (network, chain, height). */
function remembered(ctx: LoaderContext): Map<string, BlockOnChain> {
  let seen = ctx.loaders.get('primaryBlocksSeen') as Map<string, BlockOnChain> | undefined;
  if (!seen) {
    seen = new Map();
    ctx.loaders.set('primaryBlocksSeen', seen);
  }
  return seen;
}

/**
 * Remembers blocks the request holds, so a link to one of them (a parent) makes no call.
 * Called for the child before its parent is asked: the loader looks at what was
 * remembered when it dispatches, after every sibling of the tick has remembered itself.
 */
export function rememberBlock(ctx: LoaderContext, block: BlockOnChain): void {
  const seen = remembered(ctx);
  if (seen.size >= MAX_REMEMBERED_BLOCKS) return;
  seen.set(keyOf({ ...block, blockId: block.blockHash }), block);
  seen.set(keyOf({ ...block, blockId: block.blockNumber }), block);
}

/** getBlockById: each (network, chain, height or hash) once per request, blocks already held for free; null when there is no such block (yet). */
export function primaryBlockById(ctx: LoaderContext): DataLoader<PrimaryBlockKey, BlockOnChain | null, string> {
  return memoLoader(ctx, 'primaryBlockById', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<PrimaryBlockKey, BlockOnChain | null, string>(
      (keys) => {
        const seen = remembered(ctx);
        return settle(
          keys.map(async (k) => {
            const held = seen.get(keyOf(k));
            if (held) return held;
            const block = await nullOnNotFound(dataApi.getPrimaryBlock(k.network, k.blockchainId, k.blockId, ctx.call));
            if (!block) return null;
            const found = onChain(k, block);
            rememberBlock(ctx, found);
            return found;
          }),
        );
      },
      { cacheKeyFn: keyOf },
    );
  });
}

/** A block by id (`PrimaryBlockchain.block`, `Block.parent`): one lookup per parent at most (blocks the request holds cost none). */
export const PRIMARY_BLOCK_LOOKUP_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getPrimaryBlock);

/** listPrimaryNetworkBlocksByNodeId as pages: the blocks of this chain `nodeId` proposed, newest first. */
export function nodeBlockPages(ctx: LoaderContext, chain: PrimaryChain, nodeId: string, filter: BlockFilter = {}): FetchChainPage<BlockOnChain> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listBlocksByNode(chain.network, chain.blockchainId, nodeId, { ...filter, ...pageParams(pageToken, pageSize) }, ctx.call);
    return { items: page.blocks.map((b) => onChain(chain, b)), nextPageToken: page.nextPageToken, chainInfo: page.chainInfo };
  };
}
/** One listing per parent (a node, a block's proposer): the endpoint takes one node. */
export const NODE_BLOCK_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.nodeBlocks), ENDPOINTS.listBlocksByNode);

// ---------------------------------------------------------------- vertices (X-chain)

/** getVertexByHash: each (network, chain, hash) once per request; null when there is no such vertex. */
export function vertexByHashLoader(ctx: LoaderContext): DataLoader<{ chain: PrimaryChain; hash: string }, VertexOnChain | null, string> {
  return memoLoader(ctx, 'primaryVertexByHash', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<{ chain: PrimaryChain; hash: string }, VertexOnChain | null, string>(
      (keys) =>
        settle(
          keys.map(async ({ chain, hash }) => {
            const vertex = await nullOnNotFound(dataApi.getVertex(chain.network, chain.blockchainId, hash, ctx.call));
            return vertex ? onChain(chain, vertex) : null;
          }),
        ),
      { cacheKeyFn: ({ chain, hash }) => `${chain.network}|${chain.blockchainId}|${hash}` },
    );
  });
}
/** A vertex by hash: one lookup per parent at most. */
export const VERTEX_LOOKUP_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getVertex);

/** getVertexByHeight as pages (`PrimaryBlockchain.verticesAtHeight`): the vertices at one DAG height. */
export function verticesAtHeightPages(ctx: LoaderContext, chain: PrimaryChain, vertexHeight: number, sortOrder?: SortOrder): FetchChainPage<VertexOnChain> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listVerticesByHeight(chain.network, chain.blockchainId, { vertexHeight, ...(sortOrder ? { sortOrder } : {}), ...pageParams(pageToken, pageSize) }, ctx.call);
    return { items: page.vertices.map((v) => onChain(chain, v)), nextPageToken: page.nextPageToken, chainInfo: page.chainInfo };
  };
}
export const VERTICES_AT_HEIGHT_COST: FieldCost = weighing(costs.listing(PAGES.verticesByHeight), ENDPOINTS.listVerticesByHeight);

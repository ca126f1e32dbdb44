import type { ArgBuilder } from '@pothos/core';
import { builder, type BuilderTypes } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import { isCb58Id, isEvmHash } from '../lib/ids.ts';
import type { FieldCost } from '../lib/cost.ts';
import { acrossNodeNetworks, ownNodeId, throughOwnNodeId } from '../loaders/nodes.ts';
import {
  NODE_BLOCK_LISTING_COST, nodeBlockPages, PRIMARY_BLOCK_LOOKUP_COST, primaryBlockById, rememberBlock, VERTEX_LOOKUP_COST, vertexByHashLoader,
  VERTICES_AT_HEIGHT_COST, verticesAtHeightPages,
} from '../loaders/primary-blocks.ts';
import type { BlockFilter, PrimaryChain } from '../loaders/primary-chain.ts';
import { BLOCK_TX_LINK, BLOCK_TX_LINK_COST, primaryTransaction } from '../loaders/primary-tx.ts';
import type { NetworkId } from '../loaders/types.ts';
import { BlockConnection, BlockRef } from './blocks.ts';
import { between, grammar } from './bounds.ts';
import { checkAfter, pageArgs, type ConnectionArgs } from './connection.ts';
import type { Context } from './context.ts';
import { SortOrderEnum } from './enums.ts';
import { BOUNDS, exactUInt64 } from './input-checks.ts';
import { NetworkNameEnum, networkId } from './network.ts';
import { AvalancheNodeRef } from './node.ts';
import { PAGES, type PageSpec } from './pagination.ts';
import { isXChain, PrimaryBlockchainRef, resolveChainConnection, resolvePrimaryChain } from './primary-chain.ts';
import { PrimaryTransactionInterface } from './primary-tx.ts';
import { ValidatorInterface } from './validators.ts';
import { VertexConnection, VertexRef } from './vertices.ts';

/**
 * Primary-network blocks and vertices by id, and the blocks a node proposed:
 * `PrimaryBlockchain.block`, `.vertex`, `.verticesAtHeight`, a block's `parent` and
 * `proposerBlocks`, `proposedBlocks` on `Validator` and `AvalancheNode`, and a vertex's
 * transactions.
 */

const isHeight = (v: string): boolean => /^[0-9]{1,16}$/.test(v) && Number.isSafeInteger(Number(v));

/** `PrimaryBlockchain.block(id:)`: a height, or a block hash as the chain writes it, refused before any call otherwise. */
const PRIMARY_BLOCK_ID = grammar(
  `A block height (decimal, at most ${Number.MAX_SAFE_INTEGER}) or a block hash: cb58 of 32 bytes on the P- and X-chain, 0x and 64 hex digits on the C-chain.`,
  'a block height or a block hash (cb58 of 32 bytes, or 0x and 64 hex digits)',
  (v) => isHeight(v) || isCb58Id(v) || isEvmHash(v),
);

/** A block id as sent upstream: a height without leading zeros, a C-chain hash in lowercase, a cb58 hash as it is. */
const blockIdOf = (id: string): string => (isHeight(id) ? String(Number(id)) : isEvmHash(id) ? id.toLowerCase() : id);

/** The time window of a block listing, as its arguments. */
const windowArgs = (t: ArgBuilder<BuilderTypes>) => ({
  startTimestamp: t({ type: 'UInt64', description: 'Only blocks at or after this time.', bound: BOUNDS.unixSeconds }),
  endTimestamp: t({ type: 'UInt64', description: 'Only blocks at or before this time.', bound: BOUNDS.unixSeconds }),
});

interface WindowArgs extends ConnectionArgs {
  startTimestamp?: string | number | bigint | null;
  endTimestamp?: string | number | bigint | null;
}

function checkWindow(args: WindowArgs, page: PageSpec): void {
  checkAfter(args, page);
  const { startTimestamp, endTimestamp } = args;
  if (startTimestamp != null && endTimestamp != null && Number(startTimestamp) > Number(endTimestamp)) throw badInput('startTimestamp', 'must not be after endTimestamp');
}

// Within 2^53 - 1 (the bound), so the numbers are exact.
const filterOf = (args: WindowArgs): BlockFilter => ({
  ...(args.startTimestamp != null ? { startTimestamp: Number(args.startTimestamp) } : {}),
  ...(args.endTimestamp != null ? { endTimestamp: Number(args.endTimestamp) } : {}),
});

/** The blocks of `chain` that `nodeId` proposed, as a connection (listPrimaryNetworkBlocksByNodeId). */
function nodeBlocks(ctx: Context, chain: PrimaryChain, nodeId: string, args: WindowArgs) {
  return resolveChainConnection({
    ctx,
    page: PAGES.nodeBlocks,
    args,
    parent: { network: chain.network, blockchainId: chain.blockchainId, nodeId },
    fetchPage: nodeBlockPages(ctx, chain, nodeId, filterOf(args)),
  });
}

const PROPOSED_BLOCKS = 'One listPrimaryNetworkBlocksByNodeId call per parent: the API takes one node id.';

// ---------------------------------------------------------------- a chain's block and vertices by id

builder.objectFields(PrimaryBlockchainRef, (t) => ({
  block: t.field({
    type: BlockRef,
    nullable: true,
    description: 'One block by height or hash (getBlockById); null when the chain has no such block (yet). Read once per request.',
    args: { id: t.arg.string({ required: true, description: 'A block height (decimal) or a block hash.', bound: PRIMARY_BLOCK_ID }) },
    upstreamCost: PRIMARY_BLOCK_LOOKUP_COST,
    resolve: (b, args, ctx) => primaryBlockById(ctx).load({ network: b.network, blockchainId: b.blockchainId, blockId: blockIdOf(args.id) }),
  }),
  vertex: t.field({
    type: VertexRef,
    nullable: true,
    description: 'One vertex by hash (getVertexByHash); null when there is none. X-chain only: its DAG before the Cortina linearization.',
    args: { hash: t.arg.string({ required: true, description: 'The vertex hash.', bound: BOUNDS.cb58Id }) },
    upstreamCost: VERTEX_LOOKUP_COST,
    resolve: (b, args, ctx) => {
      if (!isXChain(b)) throw badInput('hash', 'vertices exist only on the X-chain (x-chain)');
      return vertexByHashLoader(ctx).load({ chain: { network: b.network, blockchainId: b.blockchainId }, hash: args.hash });
    },
  }),
  verticesAtHeight: t.field({
    type: VertexConnection,
    nullable: false,
    description: 'The vertices at one DAG height (getVertexByHeight). X-chain only.',
    args: {
      height: t.arg({ type: 'UInt64', required: true, description: 'The vertex height.', bound: exactUInt64('A vertex height', 'a height') }),
      sortOrder: t.arg({ type: SortOrderEnum, description: 'Order of the vertices (by time); default: the upstream\'s.' }),
      ...pageArgs(t.arg, PAGES.verticesByHeight),
    },
    checkArgs: (args) => checkAfter(args, PAGES.verticesByHeight),
    upstreamCost: VERTICES_AT_HEIGHT_COST,
    resolve: (b, args, ctx) => {
      if (!isXChain(b)) throw badInput('height', 'vertices exist only on the X-chain (x-chain)');
      const chain = { network: b.network, blockchainId: b.blockchainId };
      return resolveChainConnection({
        ctx,
        page: PAGES.verticesByHeight,
        args,
        parent: chain,
        fetchPage: verticesAtHeightPages(ctx, chain, Number(args.height), args.sortOrder ?? undefined),
      });
    },
  }),
}));

builder.objectFields(VertexRef, (t) => ({
  transactionDetails: t.field({
    type: [PrimaryTransactionInterface],
    nullable: { list: true, items: true },
    description: 'The first `first` of `transactions` as X-chain transactions (getTxByHash, one lookup per id, memoized per request); an id the upstream does not know is null.',
    args: { first: t.arg.int({ description: `How many of the vertex's transactions to resolve (default ${BLOCK_TX_LINK.defaultSize}).`, bound: between(0, BLOCK_TX_LINK.maxSize) }) },
    upstreamCost: BLOCK_TX_LINK_COST,
    // One promise per item: a lookup that fails nulls its item alone.
    resolve: (v, args, ctx) => v.transactions.slice(0, args.first ?? BLOCK_TX_LINK.defaultSize).map((hash) => primaryTransaction(ctx, v, hash)),
  }),
}));

// ---------------------------------------------------------------- a block's parent and its proposer's blocks

builder.objectFields(BlockRef, (t) => ({
  parent: t.field({
    type: BlockRef,
    nullable: true,
    description:
      'The parent block (getBlockById by `parentHash`); null for the first block. Blocks the request already holds cost no call: the parents of a page of listed blocks cost one lookup, for the oldest.',
    upstreamCost: PRIMARY_BLOCK_LOOKUP_COST,
    resolve: (b, _args, ctx) => {
      // Remembered before asking, so a sibling whose parent this block is finds it without a call.
      rememberBlock(ctx, b);
      if (b.blockNumber === '0') return null;
      return primaryBlockById(ctx).load({ network: b.network, blockchainId: b.blockchainId, blockId: b.parentHash });
    },
  }),
  proposerBlocks: t.field({
    type: BlockConnection,
    nullable: true,
    description: `The blocks of this chain its proposer (\`proposerDetails.proposerNodeId\`) proposed, newest first; null when the block names no proposer. ${PROPOSED_BLOCKS}`,
    args: { ...pageArgs(t.arg, PAGES.nodeBlocks), ...windowArgs(t.arg) },
    checkArgs: (args) => checkWindow(args, PAGES.nodeBlocks),
    upstreamCost: NODE_BLOCK_LISTING_COST,
    resolve: (b, args, ctx) => {
      const nodeId = b.proposerDetails?.proposerNodeId;
      return nodeId ? nodeBlocks(ctx, b, nodeId, args) : null;
    },
  }),
}));

// ---------------------------------------------------------------- a node's proposed blocks

const chainArg = (t: ArgBuilder<BuilderTypes>) =>
  t.string({ required: true, description: 'The primary-network chain whose blocks to list.', bound: BOUNDS.primaryChainId });

builder.interfaceFields(ValidatorInterface, (t) => ({
  proposedBlocks: t.field({
    type: BlockConnection,
    nullable: true,
    description: `The blocks of a primary-network chain this validator's node proposed, newest first. ${PROPOSED_BLOCKS}`,
    args: { chain: chainArg(t.arg), ...pageArgs(t.arg, PAGES.nodeBlocks), ...windowArgs(t.arg) },
    checkArgs: (args) => checkWindow(args, PAGES.nodeBlocks),
    upstreamCost: NODE_BLOCK_LISTING_COST,
    resolve: (v, args, ctx) => {
      const network: NetworkId = v.network;
      return nodeBlocks(ctx, resolvePrimaryChain('chain', network, args.chain), v.nodeId, args);
    },
  }),
}));

/** info.getNodeID (and the node's network) first, then one listing. */
const NODE_PROPOSED_BLOCKS_COST: FieldCost = { ...NODE_BLOCK_LISTING_COST, calls: throughOwnNodeId(acrossNodeNetworks(NODE_BLOCK_LISTING_COST)).calls };

builder.objectFields(AvalancheNodeRef, (t) => ({
  proposedBlocks: t.field({
    type: BlockConnection,
    nullable: true,
    description: `The blocks of a primary-network chain this node proposed, by its own node id (info.getNodeID), newest first. ${PROPOSED_BLOCKS}`,
    args: {
      chain: chainArg(t.arg),
      network: t.arg({ type: NetworkNameEnum, description: "Network to look in; default: the node's own network (MAINNET when it is neither mainnet nor fuji)." }),
      ...pageArgs(t.arg, PAGES.nodeBlocks),
      ...windowArgs(t.arg),
    },
    checkArgs: (args) => checkWindow(args, PAGES.nodeBlocks),
    upstreamCost: NODE_PROPOSED_BLOCKS_COST,
    resolve: async (n, args, ctx) => {
      const { nodeId, network } = await ownNodeId(ctx, n.name, args.network == null ? undefined : networkId(args.network));
      return nodeBlocks(ctx, resolvePrimaryChain('chain', network, args.chain), nodeId, args);
    },
  }),
}));

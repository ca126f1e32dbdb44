import type { ArgBuilder } from '@pothos/core';
import { builder, type BuilderTypes } from './builder.ts';
import type { Context } from './context.ts';
import { badInput } from '../errors/graphql.ts';
import { BLOCK_LISTING_COST, blockPages, type BlockOnChain, type PrimaryChain } from '../loaders/primary-chain.ts';
import { primaryBlockById, PRIMARY_BLOCK_LOOKUP_COST } from '../loaders/primary-blocks.ts';
import { validatorLinkCost } from '../loaders/validators.ts';
import { validationOfBlock } from '../loaders/validation-links.ts';
import type { ProposerDetails } from '../shapes/index.ts';
import { pageArgs } from './connection.ts';
import { BOUNDS } from './input-checks.ts';
import { PAGES } from './pagination.ts';
import { chainInfoField, isNetwork, PrimaryBlockchainRef, resolveChainConnection } from './primary-chain.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { loadNodeValidation, ValidatorInterface } from './validators.ts';
import { unixSecondsToDate } from './scalars.ts';

// The other types rooted at PrimaryBlockchain, for the modules that list every entity (federation).

/** A block as the upstream returns it, plus the chain it was listed on. */
export type BlockShape = BlockOnChain;

const ProposerDetailsRef = builder.objectRef<ProposerDetails>('ProposerDetails').implement({
  description: 'Snowman++ proposer data of a block (who proposed it and at which P-chain height).',
  fields: (t) => ({
    proposerId: t.exposeString('proposerId', { nullable: true, description: 'Id of the proposer block wrapping this block.' }),
    proposerParentId: t.exposeString('proposerParentId', { nullable: true, description: 'Id of the parent proposer block.' }),
    proposerNodeId: t.exposeString('proposerNodeId', { nullable: true, description: 'The proposing node, `NodeID-...`.' }),
    proposerPChainHeight: t.expose('proposerPChainHeight', { type: 'UInt64', nullable: true, description: 'P-chain height the proposer referenced.' }),
    proposerTimestamp: t.expose('proposerTimestamp', { type: 'UInt64', nullable: true, description: 'Proposer timestamp, unix seconds.' }),
    proposerTime: t.field({ type: 'DateTime', nullable: true, description: 'Proposer timestamp: `proposerTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.proposerTimestamp) }),
  }),
});

const blockIdParts = (b: BlockShape) => [b.network, b.blockchainId, () => b.blockNumber, () => b.blockTimestamp, () => b.blockHash];

export const BlockRef = builder.objectRef<BlockShape>('Block').implement({
  description: 'A block of a primary-network chain (P, X or C) as the Data API indexes it.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'blockHash' in value && 'parentHash' in value,
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (b) => encodeGlobalId('Block', blockIdParts(b)) }),
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (b) => b.network }),
    blockchainId: t.exposeString('blockchainId', { description: 'The chain the block belongs to.' }),
    blockNumber: t.field({ type: 'UInt256', description: 'Height.', resolve: (b) => b.blockNumber }),
    blockHash: t.exposeString('blockHash', { description: 'Block hash (id).' }),
    parentHash: t.exposeString('parentHash', { description: "Parent block's hash." }),
    blockType: t.exposeString('blockType', { description: 'Block type as the upstream names it (e.g. a P-chain block kind).' }),
    blockTimestamp: t.expose('blockTimestamp', { type: 'UInt64', description: 'When the block was accepted, unix seconds.' }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'When the block was accepted: `blockTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.blockTimestamp) }),
    txCount: t.exposeInt('txCount', { description: 'Number of transactions.' }),
    transactions: t.exposeStringList('transactions', { description: 'Transaction ids.' }),
    blockSizeBytes: t.exposeInt('blockSizeBytes', { description: 'Size, bytes.' }),
    l1ValidatorsAccruedFees: t.field({
      type: 'UInt256',
      nullable: true,
      description: 'Fees accrued by L1 validators so far, nano-AVAX (P-chain, after Etna).',
      resolve: (b) => b.l1ValidatorsAccruedFees ?? null,
    }),
    activeL1Validators: t.exposeInt('activeL1Validators', { nullable: true, description: 'Active L1 validators at this block (P-chain, after Etna).' }),
    currentSupply: t.field({ type: 'UInt256', nullable: true, description: 'AVAX supply at this block, nano-AVAX.', resolve: (b) => b.currentSupply ?? null }),
    proposerDetails: t.field({ type: ProposerDetailsRef, nullable: true, description: 'Proposer data.', resolve: (b) => b.proposerDetails ?? null }),
    proposer: t.field({
      type: ValidatorInterface,
      nullable: true,
      description:
        "The proposing node's primary-network validation at the time of the block (`proposerDetails.proposerNodeId`'s validation whose period holds `blockTimestamp`; a node validates again and again, each time its own record). Null when the node had none then.",
      upstreamCost: validatorLinkCost,
      resolve: (b, _args, ctx) => {
        const nodeId = b.proposerDetails?.proposerNodeId;
        return nodeId ? loadNodeValidation(ctx, b.network, nodeId, (own) => validationOfBlock(own, b)) : null;
      },
    }),
  }),
});

registerNodeFamily('Block', {
  refetchComputeUnits: PRIMARY_BLOCK_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.network, ID_PARTS.primaryChain, ID_PARTS.decimal, ID_PARTS.uint, ID_PARTS.blockHash],
  // getBlockById by the block's hash (its number and time stay in the id, which older ids carry too).
  load: async (ctx, [network, blockchainId, _blockNumber, _timestamp, blockHash]) => {
    if (!isNetwork(network) || !blockchainId || !blockHash) return null;
    return primaryBlockById(ctx).load({ network, blockchainId, blockId: blockHash });
  },
  typeOf: () => 'Block',
  refetchCalls: (ids) => ids.length,
});

export const BlockConnection = builder.connectionObject(
  { type: BlockRef, name: 'BlockConnection', description: 'A page of blocks, newest first.', fields: (t) => ({ chainInfo: chainInfoField(t) }) },
  { name: 'BlockEdge', description: 'A block and its cursor.' },
);

/** The block listing's time range, checked before any call. */
interface BlockRangeArgs {
  readonly startTimestamp?: bigint | number | string | null;
  readonly endTimestamp?: bigint | number | string | null;
}

/** The arguments of a block listing: its page and its time range. */
export const blockListArgs = (arg: ArgBuilder<BuilderTypes>) => ({
  ...pageArgs(arg, PAGES.blocks),
  startTimestamp: arg({ type: 'UInt64', description: 'Only blocks at or after this time.', bound: BOUNDS.unixSeconds }),
  endTimestamp: arg({ type: 'UInt64', description: 'Only blocks at or before this time.', bound: BOUNDS.unixSeconds }),
});

export function checkBlockRange({ startTimestamp, endTimestamp }: BlockRangeArgs): void {
  if (startTimestamp != null && endTimestamp != null && Number(startTimestamp) > Number(endTimestamp)) throw badInput('startTimestamp', 'must not be after endTimestamp');
}

/** One page of a chain's block listing, newest first (listLatestPrimaryNetworkBlocks). */
export function resolveBlockListing(ctx: Context, chain: PrimaryChain, args: BlockRangeArgs & Parameters<typeof resolveChainConnection>[0]['args']) {
  return resolveChainConnection({
    ctx,
    page: PAGES.blocks,
    args,
    parent: chain,
    fetchPage: blockPages(ctx, chain, {
      // Within 2^53 - 1 (the bound), so the numbers are exact.
      ...(args.startTimestamp != null ? { startTimestamp: Number(args.startTimestamp) } : {}),
      ...(args.endTimestamp != null ? { endTimestamp: Number(args.endTimestamp) } : {}),
    }),
  });
}

builder.objectFields(PrimaryBlockchainRef, (t) => ({
  blocks: t.field({
    type: BlockConnection,
    nullable: false,
    description: 'Latest blocks, newest first.',
    args: blockListArgs(t.arg),
    checkArgs: checkBlockRange,
    upstreamCost: BLOCK_LISTING_COST,
    resolve: (b, args, ctx) => resolveBlockListing(ctx, { network: b.network, blockchainId: b.blockchainId }, args),
  }),
}));


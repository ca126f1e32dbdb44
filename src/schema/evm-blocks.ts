import { builder } from './builder.ts';
import { isEvmHash } from '../lib/ids.ts';
import { chainById, CHAIN_LOOKUP_COST } from '../loaders/chains.ts';
import {
  blockById, blockTransactionPages, latestBlockPages, latestTransactionPages, BLOCK_LOOKUP_COST, BLOCK_TRANSACTION_LISTING_COST,
  LATEST_BLOCK_LISTING_COST, LATEST_TRANSACTION_LISTING_COST, type BlockKey,
} from '../loaders/evm-blocks.ts';
import type { EvmBlock, NativeTransaction, TransactionStatus } from '../shapes/index.ts';
import { grammar } from './bounds.ts';
import { ChainRef } from './chains.ts';
import type { Context } from './context.ts';
import { checkAfter, pageArgs, resolvePageConnection } from './connection.ts';
import { upstreamEnum } from './enums.ts';
import { PAGES } from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { unixSecondsToDate } from './scalars.ts';
import { FullNativeTransactionRef, NativeTransactionConnection, NativeTransactionRef } from './transactions.ts';

/**
 * EVM blocks (getLatestBlocks, getBlock), a block's transactions
 * (getTransactionsForBlock) and a chain's latest transactions (listLatestTransactions).
 * A transaction links to its block and a block to its transactions, both ways.
 */

const isBlockNumber = (v: string): boolean => /^[0-9]{1,16}$/.test(v) && Number.isSafeInteger(Number(v));

/** `Chain.block(id:)`: a block number or a block hash, refused before any call otherwise. */
const BLOCK_ID = grammar(
  `A block number (decimal, at most ${Number.MAX_SAFE_INTEGER}) or a block hash (0x and 64 hex digits).`,
  'a block number or a 0x block hash of 64 hex digits',
  (v) => isBlockNumber(v) || isEvmHash(v),
);

/** A block id as sent upstream: a number without leading zeros, a hash in lowercase. */
const blockIdOf = (id: string): string => (isBlockNumber(id) ? String(Number(id)) : id.toLowerCase());

/** The loader key of a block of `chainId` by number or hash (checked before): one key, one getBlock per request. */
export const evmBlockKey = (chainId: string, id: string): BlockKey => ({ chainId, blockId: blockIdOf(id) });

/** A block by number or hash, as `Chain.block(id:)` and the `_entities` natural keys read it; null when unknown. */
export const loadEvmBlock = (ctx: Context, chainId: string, id: string): Promise<EvmBlock | null> => blockById(ctx).load(evmBlockKey(chainId, id));

export const TransactionStatusEnum = upstreamEnum('TransactionStatus', 'The receipt status of an EVM transaction.', {
  SUCCESS: { value: 'success', description: 'Executed (receipt status 1).' },
  FAILED: { value: 'failed', description: 'Reverted (receipt status 0).' },
});

export const LatestTransactionFilter = builder.inputType('LatestTransactionFilter', {
  description: "Filters of a chain's latest transactions; names are the upstream query parameters.",
  fields: (t) => ({
    status: t.field({ type: TransactionStatusEnum.ref, description: 'Only transactions with this receipt status.', bound: TransactionStatusEnum.bound }),
  }),
});

/** A status filter as sent upstream (UNKNOWN, output only, is refused by the bound before this). */
export const statusOf = (status: string | null | undefined): TransactionStatus | undefined =>
  status === 'success' || status === 'failed' ? status : undefined;

// ---------------------------------------------------------------- EvmBlock

export const EvmBlockRef = builder.objectRef<EvmBlock>('EvmBlock');

EvmBlockRef.implement({
  description: 'A block of an EVM chain (the C-chain or an L1 chain): its header figures, and its transactions.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (b) => encodeGlobalId('EvmBlock', [b.chainId, () => b.blockNumber]) }),
    chainId: t.exposeString('chainId', { description: 'EVM chain id.' }),
    chain: t.field({ type: ChainRef, nullable: true, description: 'The chain.', upstreamCost: CHAIN_LOOKUP_COST, resolve: (b, _args, ctx) => chainById(ctx).load(b.chainId) }),
    blockNumber: t.field({ type: 'UInt64', description: 'Block number.', resolve: (b) => b.blockNumber }),
    blockTimestamp: t.field({ type: 'UInt64', description: 'When the block was proposed, unix seconds.', resolve: (b) => b.blockTimestamp }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'When the block was proposed: `blockTimestamp` as a DateTime.', resolve: (b) => unixSecondsToDate(b.blockTimestamp) }),
    blockTimestampMilliseconds: t.field({
      type: 'UInt64',
      nullable: true,
      description: 'When the block was proposed, unix milliseconds (chains past the Granite upgrade only).',
      resolve: (b) => b.blockTimestampMilliseconds ?? null,
    }),
    blockMinDelayExcess: t.float({ nullable: true, description: 'Minimum block delay excess, milliseconds (chains past the Granite upgrade only).', resolve: (b) => b.blockMinDelayExcess ?? null }),
    blockHash: t.field({ type: 'Hash', description: 'Block hash.', resolve: (b) => b.blockHash }),
    parentHash: t.field({ type: 'Hash', description: 'Hash of the parent block.', resolve: (b) => b.parentHash }),
    parent: t.field({
      type: EvmBlockRef,
      nullable: true,
      description: 'The parent block; null for the genesis block.',
      upstreamCost: BLOCK_LOOKUP_COST,
      resolve: (b, _args, ctx) => (b.blockNumber === '0' ? null : blockById(ctx).load({ chainId: b.chainId, blockId: b.parentHash })),
    }),
    txCount: t.exposeInt('txCount', { description: 'Transactions in the block.' }),
    cumulativeTransactions: t.field({ type: 'UInt64', description: 'Transactions of the chain up to and including this block.', resolve: (b) => b.cumulativeTransactions }),
    baseFee: t.field({ type: 'UInt256', description: 'Base fee per gas, wei.', resolve: (b) => b.baseFee }),
    gasUsed: t.field({ type: 'UInt256', description: 'Gas used by the transactions of the block.', resolve: (b) => b.gasUsed }),
    gasLimit: t.field({ type: 'UInt256', description: 'Gas limit of the block.', resolve: (b) => b.gasLimit }),
    gasCost: t.field({ type: 'UInt256', description: 'Gas cost of the block, wei, as the Data API reports it.', resolve: (b) => b.gasCost }),
    feesSpent: t.field({ type: 'UInt256', description: 'Fees spent (burned) by the transactions of the block, wei.', resolve: (b) => b.feesSpent }),
    transactions: t.field({
      type: NativeTransactionConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description: 'The transactions of the block, in block order (without logs; `transaction` on each is the complete view).',
      args: pageArgs(t.arg, PAGES.evmBlockTransactions),
      checkArgs: (args) => checkAfter(args, PAGES.evmBlockTransactions),
      upstreamCost: BLOCK_TRANSACTION_LISTING_COST,
      resolve: (b, args, ctx) =>
        resolvePageConnection({
          ctx,
          page: PAGES.evmBlockTransactions,
          args,
          parent: { chainId: b.chainId, blockNumber: b.blockNumber },
          fetchPage: blockTransactionPages(ctx, b.chainId, b.blockNumber),
        }),
    }),
  }),
});

registerNodeFamily('EvmBlock', {
  refetchComputeUnits: BLOCK_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.chainId, ID_PARTS.uint],
  load: async (ctx, [chainId, blockNumber]) => (chainId && blockNumber ? loadEvmBlock(ctx, chainId, blockNumber) : null),
  typeOf: () => 'EvmBlock',
});

export const EvmBlockConnection = builder.connectionObject(
  { type: EvmBlockRef, name: 'EvmBlockConnection', description: 'A page of EVM blocks, newest first.' },
  { name: 'EvmBlockEdge', description: 'A block and its cursor.' },
);

// ---------------------------------------------------------------- a transaction's block

for (const ref of [NativeTransactionRef, FullNativeTransactionRef] as const) {
  builder.objectFields(ref, (t) => ({
    block: t.field({
      type: EvmBlockRef,
      nullable: true,
      description: 'The block the transaction is in (one read per block per request; blocks already listed cost none).',
      upstreamCost: BLOCK_LOOKUP_COST,
      resolve: (x: NativeTransaction, _args, ctx) => blockById(ctx).load({ chainId: x.chainId, blockId: x.blockNumber }),
    }),
  }));
}

// ---------------------------------------------------------------- a chain's blocks and latest transactions

builder.objectFields(ChainRef, (t) => ({
  blocks: t.field({
    type: EvmBlockConnection,
    // An upstream failure here fails this field only, not the whole list it sits in.
    nullable: true,
    description: 'The latest blocks of the chain, newest first.',
    args: pageArgs(t.arg, PAGES.evmBlocks),
    checkArgs: (args) => checkAfter(args, PAGES.evmBlocks),
    upstreamCost: LATEST_BLOCK_LISTING_COST,
    resolve: (c, args, ctx) =>
      resolvePageConnection({ ctx, page: PAGES.evmBlocks, args, parent: { chainId: c.chainId }, fetchPage: latestBlockPages(ctx, c.chainId) }),
  }),
  block: t.field({
    type: EvmBlockRef,
    nullable: true,
    description: 'One block by number or hash; null when the chain has no such block (yet).',
    args: { id: t.arg.string({ required: true, description: 'A block number (decimal) or a block hash (0x hex).', bound: BLOCK_ID }) },
    upstreamCost: BLOCK_LOOKUP_COST,
    resolve: (c, args, ctx) => loadEvmBlock(ctx, c.chainId, args.id),
  }),
  latestTransactions: t.field({
    type: NativeTransactionConnection,
    // An upstream failure here fails this field only, not the whole list it sits in.
    nullable: true,
    description: 'The latest transactions of the chain, newest first (without logs; `transaction` on each is the complete view).',
    args: {
      ...pageArgs(t.arg, PAGES.latestTransactions),
      filter: t.arg({ type: LatestTransactionFilter, description: 'Only transactions matching this.' }),
    },
    checkArgs: (args) => checkAfter(args, PAGES.latestTransactions),
    upstreamCost: LATEST_TRANSACTION_LISTING_COST,
    resolve: (c, args, ctx) =>
      resolvePageConnection({
        ctx,
        page: PAGES.latestTransactions,
        args,
        parent: { chainId: c.chainId },
        fetchPage: latestTransactionPages(ctx, c.chainId, statusOf(args.filter?.status)),
      }),
  }),
}));

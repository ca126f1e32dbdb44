import { builder } from './builder.ts';
import { BLOCK_POLL_COST, blockPolling, subscribeBlocks } from '../loaders/block-poller.ts';
import { BlockRef, type BlockShape } from './blocks.ts';
import { BOUNDS } from './input-checks.ts';
import { NetworkNameEnum, networkId } from './network.ts';
import { resolvePrimaryChain } from './primary-chain.ts';

builder.subscriptionField('blocks', (t) =>
  t.field({
    type: BlockRef,
    nullable: false,
    description: `Each new block of a primary-network chain, oldest first, as the Data API indexes it (polled every ${blockPolling.intervalMs / 1000} s). Starts with the first block after subscribing.`,
    args: {
      network: t.arg({ type: NetworkNameEnum, required: true, description: 'MAINNET, FUJI or TESTNET.' }),
      blockchainId: t.arg.string({ required: true, description: 'The chain.', bound: BOUNDS.primaryChainId }),
    },
    upstreamCost: BLOCK_POLL_COST,
    subscribe: (_root, args, ctx) => subscribeBlocks(ctx, resolvePrimaryChain('blockchainId', networkId(args.network), args.blockchainId)),
    resolve: (block: BlockShape) => block,
  }),
);

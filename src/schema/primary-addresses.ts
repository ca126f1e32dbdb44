import { builder } from './builder.ts';
import {
  ACTIVE_CHAINS_COST, activeChainIds, ASSET_TRANSACTION_LISTING_COST, assetTransactionPages, LAST_ACTIVITY_COST, lastActivity, type LastActivityOnChain,
} from '../loaders/primary-addresses.ts';
import { primaryTransaction, PRIMARY_TX_LOOKUP_COST } from '../loaders/primary-tx.ts';
import type { NetworkId } from '../loaders/types.ts';
import { PRIMARY_CHAIN_IDS, PRIMARY_NETWORK_TX_TYPES } from '../shapes/index.ts';
import { badInput } from '../errors/graphql.ts';
import { AssetRef } from './assets.ts';
import { both, listOf } from './bounds.ts';
import { pageArgs } from './connection.ts';
import { BOUNDS, checkAddressesOnNetwork, primaryChainOf } from './input-checks.ts';
import { NetworkRef } from './network.ts';
import { PAGES } from './pagination.ts';
import { PrimaryBlockchainRef, resolveChainConnection, resolvePrimaryChain, type PrimaryBlockchainShape } from './primary-chain.ts';
import { PrimaryNetworkTxTypeEnum, PrimaryTransactionConnection, PrimaryTransactionInterface } from './primary-tx.ts';
import { unixSecondsToDate } from './scalars.ts';

/**
 * The primary-network address side: `Network.primaryAddresses` gives each P/X address
 * the chains it is active on (getChainIdsForAddresses, the addresses of a request
 * batched into one call) and its last activity on a chain
 * (getLastActivityTimestampByAddresses, one call per address: the API answers one
 * activity for all the addresses it is given); `PrimaryBlockchain.lastActivity` asks
 * for a whole set at once. `Asset.transactions` lists the X-chain transactions that
 * move an asset (listAssetTransactions).
 */

/** A primary-network address of a network, as the caller wrote it. */
export interface PrimaryAddressShape {
  network: NetworkId;
  address: string;
}

const chainShape = (network: NetworkId, blockchainId: string): PrimaryBlockchainShape | null => {
  const letter = primaryChainOf(network, blockchainId);
  return letter ? { network, blockchainId: PRIMARY_CHAIN_IDS[network][letter], alias: `${letter}-chain` } : null;
};

export const PrimaryLastActivityRef = builder.objectRef<LastActivityOnChain>('PrimaryLastActivity').implement({
  description: 'The latest UTXO created or consumed for some addresses on a primary chain.',
  fields: (t) => ({
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (a) => a.network }),
    blockchainId: t.exposeString('blockchainId', { description: 'The chain asked.' }),
    timestamp: t.expose('timestamp', { type: 'UInt64', description: 'When it happened, unix seconds.' }),
    time: t.field({ type: 'DateTime', nullable: true, description: '`timestamp` as a DateTime.', resolve: (a) => unixSecondsToDate(a.timestamp) }),
    blockNumber: t.field({ type: 'UInt256', description: 'Height of the block it happened in.', resolve: (a) => a.blockNumber }),
    txHash: t.exposeString('txHash', { description: 'The transaction that created or consumed the UTXO.' }),
    utxoId: t.exposeString('utxoId', { description: 'The UTXO created or consumed.' }),
    isConsumed: t.exposeBoolean('isConsumed', { description: 'True when the activity spent the UTXO, false when it created it.' }),
    chainName: t.string({ description: 'The chain as the upstream names it (`p-chain`, `x-chain`, `c-chain`).', resolve: (a) => a.chainName }),
    transaction: t.field({
      type: PrimaryTransactionInterface,
      nullable: true,
      description: 'The transaction itself (getTxByHash on this chain): one lookup per distinct hash and request.',
      upstreamCost: PRIMARY_TX_LOOKUP_COST,
      resolve: (a, _args, ctx) => primaryTransaction(ctx, a, a.txHash),
    }),
  }),
});

export const PrimaryAddressRef = builder.objectRef<PrimaryAddressShape>('PrimaryAddress').implement({
  description: 'A P-, X- or C-chain (atomic) address of the primary network, and where it has been active.',
  fields: (t) => ({
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (a) => a.network }),
    address: t.exposeString('address', { description: 'The address as given (`avax1...`/`fuji1...`, possibly `P-`/`X-`/`C-` prefixed).' }),
    activeBlockchainIds: t.stringList({
      nullable: true,
      description: 'Blockchain ids of the primary chains this address has activity on (getChainIdsForAddresses). The addresses of one request are asked together, 64 per call.',
      upstreamCost: ACTIVE_CHAINS_COST,
      resolve: (a, _args, ctx) => activeChainIds(ctx, a.network, a.address),
    }),
    activeChains: t.field({
      type: [PrimaryBlockchainRef],
      nullable: true,
      description: 'The primary chains this address has activity on, to walk on to their UTXOs, balances and transactions. Same call as `activeBlockchainIds`.',
      upstreamCost: ACTIVE_CHAINS_COST,
      resolve: async (a, _args, ctx) => (await activeChainIds(ctx, a.network, a.address)).flatMap((id) => chainShape(a.network, id) ?? []),
    }),
    lastActivity: t.field({
      type: PrimaryLastActivityRef,
      nullable: true,
      description:
        'This address\'s latest UTXO created or consumed on a chain; null without any. One call per address (the API answers one activity for a whole set; ask `PrimaryBlockchain.lastActivity` for a set\'s).',
      args: { chain: t.arg.string({ required: true, description: 'The chain: `p-chain`, `x-chain`, `c-chain` or its blockchain id.', bound: BOUNDS.primaryChainId }) },
      upstreamCost: LAST_ACTIVITY_COST,
      resolve: (a, args, ctx) => lastActivity(ctx, resolvePrimaryChain('chain', a.network, args.chain), [a.address]),
    }),
  }),
});

builder.objectFields(NetworkRef, (t) => ({
  primaryAddresses: t.field({
    type: [PrimaryAddressRef],
    nullable: false,
    description: 'Primary-network addresses of this network, to ask where each was active. Resolving them makes no upstream call.',
    args: { addresses: t.arg.stringList({ required: true, description: 'The addresses.', bound: BOUNDS.utxoAddresses }) },
    resolve: (n, args) => {
      checkAddressesOnNetwork('addresses', args.addresses, n.network);
      return [...new Set(args.addresses)].map((address) => ({ network: n.network, address }));
    },
  }),
}));

builder.objectFields(PrimaryBlockchainRef, (t) => ({
  lastActivity: t.field({
    type: PrimaryLastActivityRef,
    nullable: true,
    description:
      'The latest UTXO created or consumed for any of these addresses on this chain (getLastActivityTimestampByAddresses); null without any. One call: a GET, or for a list longer than 1024 characters the POST form.',
    args: { addresses: t.arg.stringList({ required: true, description: 'The addresses.', bound: BOUNDS.utxoAddresses }) },
    upstreamCost: LAST_ACTIVITY_COST,
    resolve: (b, args, ctx) => {
      checkAddressesOnNetwork('addresses', args.addresses, b.network);
      return lastActivity(ctx, b, args.addresses);
    },
  }),
}));

builder.objectFields(AssetRef, (t) => ({
  transactions: t.field({
    type: PrimaryTransactionConnection,
    nullable: true,
    description: 'X-chain transactions that move this asset (listAssetTransactions), newest first.',
    args: {
      ...pageArgs(t.arg, PAGES.assetTransactions),
      txTypes: t.arg({
        type: [PrimaryNetworkTxTypeEnum.ref],
        description: 'Only these types.',
        bound: both(listOf({ max: PRIMARY_NETWORK_TX_TYPES.length }), PrimaryNetworkTxTypeEnum.bound),
      }),
      startTimestamp: t.arg({ type: 'UInt64', description: 'Only transactions at or after this time.', bound: BOUNDS.unixSeconds }),
      endTimestamp: t.arg({ type: 'UInt64', description: 'Only transactions at or before this time.', bound: BOUNDS.unixSeconds }),
    },
    upstreamCost: ASSET_TRANSACTION_LISTING_COST,
    resolve: (a, args, ctx) => {
      if (args.startTimestamp != null && args.endTimestamp != null && BigInt(args.startTimestamp) > BigInt(args.endTimestamp)) throw badInput('startTimestamp', 'must not be after endTimestamp');
      const chain = { network: a.network, blockchainId: PRIMARY_CHAIN_IDS[a.network].x };
      return resolveChainConnection({
        ctx,
        page: PAGES.assetTransactions,
        args,
        parent: { network: a.network, assetId: a.assetId },
        fetchPage: assetTransactionPages(ctx, chain, a.assetId, {
          ...(args.txTypes?.length ? { txTypes: args.txTypes } : {}),
          // Within 2^53 - 1 (the bound), so the numbers are exact.
          ...(args.startTimestamp != null ? { startTimestamp: Number(args.startTimestamp) } : {}),
          ...(args.endTimestamp != null ? { endTimestamp: Number(args.endTimestamp) } : {}),
        }),
      });
    },
  }),
}));

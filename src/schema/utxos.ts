import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import { UTXO_LISTING_COST, utxoById, utxoPages, utxoRefetchCalls, type UtxoOnChain } from '../loaders/primary-chain.ts';
import { AssetAmountRef } from './common.ts';
import { pageArgs } from './connection.ts';
import { openEnumField, SortOrderEnum } from './enums.ts';
import { BOUNDS, checkAddressesOnNetwork, exactUInt64 } from './input-checks.ts';
import { PAGES } from './pagination.ts';
import { chainInfoField, isNetwork, isXChain, PrimaryBlockchainRef, resolveChainConnection } from './primary-chain.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, optional, registerNodeFamily } from './relay-node.ts';
import { RewardType } from './rewards.ts';
import { unixSecondsToDate } from './scalars.ts';

/** A UTXO as the upstream returns it, plus the chain it was listed on. */
export type UtxoShape = UtxoOnChain;

export const UtxoSortByEnum = builder.enumType('UtxoSortBy', {
  description: 'Sort key of a UTXO listing.',
  values: {
    TIMESTAMP: { value: 'timestamp', description: 'Creation time (default).' },
    AMOUNT: { value: 'amount', description: 'Amount.' },
  } as const,
});

export const UtxoRef = builder.objectRef<UtxoShape>('Utxo').implement({
  description: 'An unspent (or, with `includeSpent`, spent) transaction output on the P-, X- or C-chain.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'utxoId' in value && 'createdOnChainId' in value,
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (u) => encodeGlobalId('Utxo', [u.network, u.blockchainId, () => u.addresses[0] ?? '', () => u.utxoId]) }),
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (u) => u.network }),
    blockchainId: t.exposeString('blockchainId', { description: 'The chain the UTXO was listed on.' }),
    utxoId: t.exposeString('utxoId', { description: 'The UTXO id.' }),
    addresses: t.exposeStringList('addresses', { description: 'Addresses that own it.' }),
    asset: t.field({ type: AssetAmountRef, description: 'Asset and amount.', resolve: (u) => u.asset }),
    amount: t.field({ type: 'UInt256', description: 'Amount in the smallest unit (deprecated upstream: use `asset.amount`).', resolve: (u) => u.amount }),
    assetId: t.exposeString('assetId', { description: 'Asset id (deprecated upstream: use `asset.assetId`).' }),
    consumedOnChainId: t.exposeString('consumedOnChainId', { description: 'Chain on which it is (or will be) consumed.' }),
    createdOnChainId: t.exposeString('createdOnChainId', { description: 'Chain on which it was created.' }),
    txHash: t.exposeString('txHash', { description: 'The creating transaction.' }),
    consumingTxHash: t.exposeString('consumingTxHash', { nullable: true, description: 'The spending transaction, if spent.' }),
    utxoBytes: t.exposeString('utxoBytes', { nullable: true, description: 'The serialized UTXO, hex.' }),
    outputIndex: t.exposeInt('outputIndex', { description: 'Output index in the creating transaction.' }),
    blockNumber: t.field({ type: 'UInt256', nullable: true, description: 'Height of the creating block.', resolve: (u) => u.blockNumber ?? null }),
    blockTimestamp: t.expose('blockTimestamp', { type: 'UInt64', description: 'When it was created, unix seconds.' }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'When it was created: `blockTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.blockTimestamp) }),
    consumingBlockNumber: t.field({ type: 'UInt256', nullable: true, description: 'Height of the spending block, if spent.', resolve: (u) => u.consumingBlockNumber ?? null }),
    consumingBlockTimestamp: t.expose('consumingBlockTimestamp', { type: 'UInt64', nullable: true, description: 'When it was spent, unix seconds.' }),
    consumingBlockTime: t.field({ type: 'DateTime', nullable: true, description: 'When it was spent: `consumingBlockTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.consumingBlockTimestamp) }),
    platformLocktime: t.expose('platformLocktime', { type: 'UInt64', nullable: true, description: 'Locked until, unix seconds (0 = unlocked).' }),
    platformLockedUntil: t.field({ type: 'DateTime', nullable: true, description: 'Locked until (0 = unlocked): `platformLocktime` as a DateTime.', resolve: (p) => unixSecondsToDate(p.platformLocktime) }),
    stakeableLocktime: t.expose('stakeableLocktime', { type: 'UInt64', nullable: true, description: 'Stakeable lock until, unix seconds (P-chain).' }),
    stakeableLockedUntil: t.field({ type: 'DateTime', nullable: true, description: 'Stakeable lock until (P-chain): `stakeableLocktime` as a DateTime.', resolve: (p) => unixSecondsToDate(p.stakeableLocktime) }),
    threshold: t.expose('threshold', { type: 'UInt64', nullable: true, description: 'Signatures needed to spend it.' }),
    ...openEnumField(t, 'rewardType', RewardType, { description: 'For reward outputs: what the reward paid for.', value: (u) => u.rewardType }),
    staked: t.exposeBoolean('staked', { nullable: true, description: 'True while staked (P-chain).' }),
    utxoStartTimestamp: t.expose('utxoStartTimestamp', { type: 'UInt64', nullable: true, description: 'Start of the staking period for staked outputs, unix seconds.' }),
    utxoStartTime: t.field({ type: 'DateTime', nullable: true, description: 'Start of the staking period for staked outputs: `utxoStartTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.utxoStartTimestamp) }),
    utxoEndTimestamp: t.expose('utxoEndTimestamp', { type: 'UInt64', nullable: true, description: 'End of the staking period for staked outputs, unix seconds.' }),
    utxoEndTime: t.field({ type: 'DateTime', nullable: true, description: 'End of the staking period for staked outputs: `utxoEndTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.utxoEndTimestamp) }),
    utxoType: t.exposeString('utxoType', { description: 'Output kind as the upstream names it (e.g. STAKE, TRANSFER).' }),
  }),
});

/** A refetch lists the owner's UTXOs (spent ones too) and matches the id (`utxoById`). */
registerNodeFamily('Utxo', {
  refetchComputeUnits: UTXO_LISTING_COST.computeUnits ?? 0,
  parts: [ID_PARTS.network, ID_PARTS.primaryChain, optional(ID_PARTS.primaryAddress), ID_PARTS.cb58Id],
  load: async (ctx, [network, blockchainId, address, utxoId]) =>
    isNetwork(network) && blockchainId && address && utxoId ? utxoById(ctx, { network, blockchainId }, { address, utxoId }) : null,
  typeOf: () => 'Utxo',
  refetchCalls: utxoRefetchCalls,
});

export const UtxoConnection = builder.connectionObject(
  { type: UtxoRef, name: 'UtxoConnection', description: 'A page of UTXOs.', fields: (t) => ({ chainInfo: chainInfoField(t) }) },
  { name: 'UtxoEdge', description: 'A UTXO and its cursor.' },
);

builder.objectFields(PrimaryBlockchainRef, (t) => ({
  utxos: t.field({
    type: UtxoConnection,
    nullable: false,
    description: 'UTXOs owned by some addresses on this chain.',
    args: {
      addresses: t.arg.stringList({ required: true, description: 'The owners.', bound: BOUNDS.utxoAddresses }),
      ...pageArgs(t.arg, PAGES.utxos),
      assetId: t.arg.string({ description: 'Only this asset. X-chain only.', bound: BOUNDS.assetId }),
      minUtxoAmount: t.arg({ type: 'UInt64', description: 'Only UTXOs of at least this amount.', bound: exactUInt64('Nano-units', 'nano-units') }),
      includeSpent: t.arg.boolean({ description: 'Include spent UTXOs (default false).' }),
      sortBy: t.arg({ type: UtxoSortByEnum, description: 'Sort key (default TIMESTAMP).' }),
      sortOrder: t.arg({ type: SortOrderEnum, description: 'Sort direction.' }),
    },
    upstreamCost: UTXO_LISTING_COST,
    resolve: (b, args, ctx) => {
      if (args.assetId != null && !isXChain(b)) throw badInput('assetId', 'is only supported on the X-chain');
      checkAddressesOnNetwork('addresses', args.addresses, b.network);
      return resolveChainConnection({
        ctx,
        page: PAGES.utxos,
        args,
        parent: { network: b.network, blockchainId: b.blockchainId },
        fetchPage: utxoPages(ctx, b, {
          addresses: args.addresses,
          ...(args.assetId != null ? { assetId: args.assetId } : {}),
          ...(args.minUtxoAmount != null ? { minUtxoAmount: Number(args.minUtxoAmount) } : {}),
          ...(args.includeSpent != null ? { includeSpent: args.includeSpent } : {}),
          ...(args.sortBy ? { sortBy: args.sortBy } : {}),
          ...(args.sortOrder ? { sortOrder: args.sortOrder } : {}),
        }),
      });
    },
  }),
}));

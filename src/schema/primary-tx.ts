import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import {
  BALANCES_COST, BLOCK_TX_LINK, BLOCK_TX_LINK_COST, primaryBalances, primaryTransaction, PRIMARY_TX_LOOKUP_COST,
  STAKING_TRANSACTION_LISTING_COST, stakingTransactionPages, TRANSACTION_LISTING_COST, transactionPages,
  type BalancesOnChain, type CChainTransactionOnChain, type PChainTransactionOnChain, type PrimaryTransactionOnChain,
  type TransactionFilter, type XChainTransactionOnChain,
} from '../loaders/primary-tx.ts';
import { onChain, type PrimaryChain } from '../loaders/primary-chain.ts';
import { validatorLinkCost } from '../loaders/validators.ts';
import { validationOfTransaction } from '../loaders/validation-links.ts';
import { PRIMARY_NETWORK_TX_TYPES, type AssetAmount, type Utxo, type WideInteger } from '../shapes/index.ts';
import { AssetBalanceRef, AssetRef, type AssetBalanceShape } from './assets.ts';
import { BlockRef } from './blocks.ts';
import { AssetAmountRef, ChainInfoRef } from './common.ts';
import { pageArgs } from './connection.ts';
import { openEnumInterfaceField, openEnumField, SortOrderEnum, upstreamEnum } from './enums.ts';
import { between, both, grammar, listOf } from './bounds.ts';
import { BOUNDS, checkAddressesOnNetwork } from './input-checks.ts';
import { isCb58Id, isEvmHash } from '../lib/ids.ts';
import { PAGES } from './pagination.ts';
import { chainInfoField, isNetwork, PrimaryBlockchainRef, resolveChainConnection } from './primary-chain.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { unixSecondsToDate } from './scalars.ts';
import { UtxoRef } from './utxos.ts';
import { loadNodeValidation, ValidatorInterface } from './validators.ts';

/**
 * Primary-network transactions (getTxByHash, listLatestPrimaryNetworkTransactions,
 * listActivePrimaryNetworkStakingTransactions) as the `PrimaryTransaction` interface
 * with one type per chain shape, their root fields on `PrimaryBlockchain`, the
 * `Block.transactionDetails` link, and the balances (getBalancesByAddresses) of each chain.
 */

const SCREAMING = (name: string): string => name.replace(/Tx$/, '_TX').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

export const PrimaryNetworkTxTypeEnum = upstreamEnum(
  'PrimaryNetworkTxType',
  'Type of a P- or X-chain transaction, as the Data API names them (C-chain atomic transactions are IMPORT_TX or EXPORT_TX).',
  Object.fromEntries(PRIMARY_NETWORK_TX_TYPES.filter((type) => type !== 'UNKNOWN').map((type) => [SCREAMING(type), { value: type, description: `\`${type}\`.` }])),
);

type TxShape = PrimaryTransactionOnChain;

/** A P/X-chain transaction id (cb58 of 32 bytes) or a 0x hash (C-chain atomic transactions as some answers write them). */
const TX_HASH = grammar('A transaction id: cb58 of 32 bytes, or 0x and 64 hex digits.', 'a transaction id', (v) => isCb58Id(v) || isEvmHash(v));

const timestampOf = (tx: TxShape): WideInteger => (tx.chainAlias === 'p-chain' ? tx.blockTimestamp : tx.timestamp);
const withChain = (tx: TxShape, utxos: readonly Utxo[] | undefined) => (utxos ?? []).map((u) => onChain(tx, u));

export const PrimaryTransactionInterface = builder.interfaceRef<TxShape>('PrimaryTransaction').implement({
  description: 'A transaction of a primary-network chain: a P-chain transaction, an X-chain transaction or a C-chain atomic (import/export) transaction.',
  interfaces: [NodeInterface],
  resolveType: (tx) => (tx.chainAlias === 'p-chain' ? 'PChainTransaction' : tx.chainAlias === 'x-chain' ? 'XChainTransaction' : 'CChainAtomicTransaction'),
  fields: (t) => ({
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (tx) => tx.network }),
    blockchainId: t.string({ description: 'The chain it was read on.', resolve: (tx) => tx.blockchainId }),
    txHash: t.string({ description: 'The transaction id (cb58; the devnet and some C-chain answers use 0x hashes).', resolve: (tx) => tx.txHash }),
    ...openEnumInterfaceField(t, 'txType', PrimaryNetworkTxTypeEnum, { description: 'Transaction type.', value: (tx) => tx.txType }),
    timestamp: t.field({ type: 'UInt64', description: 'When it was accepted, unix seconds (`blockTimestamp` on the P-chain).', resolve: (tx) => timestampOf(tx) }),
    time: t.field({ type: 'DateTime', nullable: true, description: 'When it was accepted: `timestamp` as a DateTime.', resolve: (tx) => unixSecondsToDate(timestampOf(tx)) }),
    blockHash: t.string({ nullable: true, description: 'Hash of its block (null for X-chain transactions from before Cortina, which lie in vertices).', resolve: (tx) => tx.blockHash ?? null }),
    memo: t.string({ nullable: true, description: 'Memo, hex.', resolve: (tx) => tx.memo ?? null }),
    sourceChain: t.string({ nullable: true, description: 'For imports and exports: the chain the funds leave.', resolve: (tx) => tx.sourceChain ?? null }),
    destinationChain: t.string({ nullable: true, description: 'For imports and exports: the chain the funds reach.', resolve: (tx) => tx.destinationChain ?? null }),
    consumedUtxos: t.field({ type: [UtxoRef], description: 'UTXOs it spent.', resolve: (tx) => withChain(tx, tx.consumedUtxos) }),
    emittedUtxos: t.field({ type: [UtxoRef], description: 'UTXOs it created (none for a C-chain import, whose outputs are EVM balances).', resolve: (tx) => withChain(tx, 'emittedUtxos' in tx ? tx.emittedUtxos : undefined) }),
  }),
});

const amounts = (list: readonly AssetAmount[] | undefined): readonly AssetAmount[] => list ?? [];
const idOf = (tx: TxShape) => encodeGlobalId('PrimaryTransaction', [tx.network, tx.blockchainId, () => tx.txHash]);

export const PChainTransactionRef = builder.objectRef<PChainTransactionOnChain>('PChainTransaction').implement({
  description: 'A P-chain transaction: staking (validators, delegators, rewards), subnets and L1s, imports, exports and transfers.',
  interfaces: [NodeInterface, PrimaryTransactionInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: idOf }),
    ...openEnumField(t, 'txType', PrimaryNetworkTxTypeEnum, { description: 'Transaction type.', value: (tx) => tx.txType }),
    blockNumber: t.field({ type: 'UInt256', description: 'Height of its block.', resolve: (tx) => tx.blockNumber }),
    blockTimestamp: t.expose('blockTimestamp', { type: 'UInt64', description: 'When its block was accepted, unix seconds.' }),
    value: t.field({ type: [AssetAmountRef], description: 'Value moved, per asset.', resolve: (tx) => amounts(tx.value) }),
    amountBurned: t.field({ type: [AssetAmountRef], description: 'Fees burned, per asset.', resolve: (tx) => amounts(tx.amountBurned) }),
    amountStaked: t.field({ type: [AssetAmountRef], description: 'Stake locked, per asset.', resolve: (tx) => amounts(tx.amountStaked) }),
    amountL1ValidatorBalanceBurned: t.field({ type: [AssetAmountRef], description: 'L1 validator balance burned, per asset.', resolve: (tx) => amounts(tx.amountL1ValidatorBalanceBurned) }),
    startTimestamp: t.expose('startTimestamp', { type: 'UInt64', nullable: true, description: 'Staking: start of the period, unix seconds.' }),
    startTime: t.field({ type: 'DateTime', nullable: true, description: 'Staking: `startTimestamp` as a DateTime.', resolve: (tx) => unixSecondsToDate(tx.startTimestamp) }),
    endTimestamp: t.expose('endTimestamp', { type: 'UInt64', nullable: true, description: 'Staking: end of the period, unix seconds.' }),
    endTime: t.field({ type: 'DateTime', nullable: true, description: 'Staking: `endTimestamp` as a DateTime.', resolve: (tx) => unixSecondsToDate(tx.endTimestamp) }),
    delegationFeePercent: t.exposeString('delegationFeePercent', { nullable: true, description: 'Validator: its delegation fee, percent (a decimal string).' }),
    nodeId: t.exposeString('nodeId', { nullable: true, description: 'Staking: the validating node.' }),
    subnetId: t.exposeString('subnetId', { nullable: true, description: 'Staking and subnet transactions: the subnet.' }),
    estimatedReward: t.field({ type: 'UInt256', nullable: true, description: 'Staking: the reward expected, nano-AVAX.', resolve: (tx) => tx.estimatedReward ?? null }),
    rewardTxHash: t.exposeString('rewardTxHash', { nullable: true, description: 'Staking: the transaction that paid the reward, once paid.' }),
    rewardAddresses: t.exposeStringList('rewardAddresses', { nullable: true, description: 'Staking: where rewards go.' }),
    stakingTxHash: t.exposeString('stakingTxHash', { nullable: true, description: 'Reward transactions: the staking transaction rewarded.' }),
    validator: t.field({
      type: ValidatorInterface,
      nullable: true,
      description:
        "Staking: the primary-network validation of `nodeId` this transaction belongs to (a node validates again and again, each time its own record): for a transaction adding a validator, the validation it adds (the one whose `txHash` is this transaction's); for a reward, the validation it rewards; for a delegation (or another staking transaction with a period), the validation whose period holds its `startTimestamp`; else the one whose period holds the transaction's time. Null when the node has no such validation.",
      upstreamCost: validatorLinkCost,
      resolve: (tx, _args, ctx) => (tx.nodeId ? loadNodeValidation(ctx, tx.network, tx.nodeId, (own) => validationOfTransaction(own, tx)) : null),
    }),
  }),
});

const TransactionVertexRef = builder.objectRef<{ hash: string; height: WideInteger; timestamp: WideInteger }>('TransactionVertex').implement({
  description: 'A vertex holding an X-chain transaction from before Cortina.',
  fields: (t) => ({
    hash: t.exposeString('hash', { description: 'Vertex hash.' }),
    height: t.expose('height', { type: 'UInt64', description: 'Vertex height.' }),
    timestamp: t.expose('timestamp', { type: 'UInt64', description: 'When it was accepted, unix seconds.' }),
  }),
});

export const XChainTransactionRef = builder.objectRef<XChainTransactionOnChain>('XChainTransaction').implement({
  description: 'An X-chain transaction: in a block (`chainFormat` linear, since Cortina) or in vertices (non-linear, before).',
  interfaces: [NodeInterface, PrimaryTransactionInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: idOf }),
    ...openEnumField(t, 'txType', PrimaryNetworkTxTypeEnum, { description: 'Transaction type.', value: (tx) => tx.txType }),
    chainFormat: t.exposeString('chainFormat', { description: '`linear` (in a block) or `non-linear` (in vertices).' }),
    blockHeight: t.expose('blockHeight', { type: 'UInt64', nullable: true, description: 'Height of its block (linear transactions).' }),
    vertices: t.field({ type: [TransactionVertexRef], nullable: true, description: 'Its vertices (non-linear transactions).', resolve: (tx) => tx.vertices ?? null }),
    amountUnlocked: t.field({ type: [AssetAmountRef], description: 'Amounts its inputs unlocked, per asset.', resolve: (tx) => amounts(tx.amountUnlocked) }),
    amountCreated: t.field({ type: [AssetAmountRef], description: 'Amounts its outputs created, per asset.', resolve: (tx) => amounts(tx.amountCreated) }),
    assetCreated: t.field({ type: AssetRef, nullable: true, description: 'CreateAssetTx: the asset created.', resolve: (tx) => (tx.assetCreated ? { ...tx.assetCreated, network: tx.network } : null) }),
  }),
});

const EvmInputRef = builder.objectRef<{ fromAddress: string; asset: AssetAmount }>('AtomicEvmInput').implement({
  description: 'An EVM account debited by a C-chain export.',
  fields: (t) => ({
    fromAddress: t.field({ type: 'EvmAddress', description: 'The account.', resolve: (i) => i.fromAddress }),
    asset: t.field({ type: AssetAmountRef, description: 'What it paid.', resolve: (i) => i.asset }),
  }),
});
const EvmOutputRef = builder.objectRef<{ toAddress: string; asset: AssetAmount }>('AtomicEvmOutput').implement({
  description: 'An EVM account credited by a C-chain import.',
  fields: (t) => ({
    toAddress: t.field({ type: 'EvmAddress', description: 'The account.', resolve: (o) => o.toAddress }),
    asset: t.field({ type: AssetAmountRef, description: 'What it received.', resolve: (o) => o.asset }),
  }),
});

export const CChainAtomicTransactionRef = builder.objectRef<CChainTransactionOnChain>('CChainAtomicTransaction').implement({
  description: 'A C-chain atomic transaction: an export to (or an import from) the P- or X-chain.',
  interfaces: [NodeInterface, PrimaryTransactionInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: idOf }),
    ...openEnumField(t, 'txType', PrimaryNetworkTxTypeEnum, { description: 'IMPORT_TX or EXPORT_TX.', value: (tx) => tx.txType }),
    blockHeight: t.expose('blockHeight', { type: 'UInt64', nullable: true, description: 'Height of its C-chain block.' }),
    amountUnlocked: t.field({ type: [AssetAmountRef], description: 'Amounts unlocked, per asset.', resolve: (tx) => amounts(tx.amountUnlocked) }),
    amountCreated: t.field({ type: [AssetAmountRef], description: 'Amounts created, per asset.', resolve: (tx) => amounts(tx.amountCreated) }),
    evmInputs: t.field({ type: [EvmInputRef], description: 'Exports: the accounts debited.', resolve: (tx) => tx.evmInputs ?? [] }),
    evmOutputs: t.field({ type: [EvmOutputRef], description: 'Imports: the accounts credited.', resolve: (tx) => tx.evmOutputs ?? [] }),
  }),
});

registerNodeFamily('PrimaryTransaction', {
  refetchComputeUnits: PRIMARY_TX_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.network, ID_PARTS.primaryChain, ID_PARTS.blockHash],
  load: async (ctx, [network, blockchainId, txHash]) =>
    isNetwork(network) && blockchainId && txHash ? primaryTransaction(ctx, { network, blockchainId }, txHash) : null,
  typeOf: (tx) => (tx.chainAlias === 'p-chain' ? 'PChainTransaction' : tx.chainAlias === 'x-chain' ? 'XChainTransaction' : 'CChainAtomicTransaction'),
});

// ---------------------------------------------------------------- listings

export const PrimaryTransactionConnection = builder.connectionObject(
  { type: PrimaryTransactionInterface, name: 'PrimaryTransactionConnection', description: 'A page of primary-network transactions.', fields: (t) => ({ chainInfo: chainInfoField(t) }) },
  { name: 'PrimaryTransactionEdge', description: 'A transaction and its cursor.' },
);

export const PrimaryTransactionFilter = builder.inputType('PrimaryTransactionFilter', {
  description: 'Filters of a primary-network transaction listing; names are the upstream query parameters.',
  fields: (t) => ({
    addresses: t.stringList({
      description: 'Only transactions of these addresses (`avax1...`/`fuji1...`, optionally `P-`/`X-`/`C-` prefixed), all of this network; at most 64.',
      bound: BOUNDS.rewardAddresses,
    }),
    txTypes: t.field({
      type: [PrimaryNetworkTxTypeEnum.ref],
      description: 'Only these types.',
      bound: both(listOf({ max: PRIMARY_NETWORK_TX_TYPES.length }), PrimaryNetworkTxTypeEnum.bound),
    }),
    startTimestamp: t.field({ type: 'UInt64', description: 'Only transactions at or after this time.', bound: BOUNDS.unixSeconds }),
    endTimestamp: t.field({ type: 'UInt64', description: 'Only transactions at or before this time.', bound: BOUNDS.unixSeconds }),
  }),
});

interface FilterArgs {
  filter?: { addresses?: string[] | null; txTypes?: string[] | null; startTimestamp?: string | null; endTimestamp?: string | null } | null;
  sortOrder?: 'asc' | 'desc' | null;
}

function filterOf(chain: PrimaryChain, args: FilterArgs): TransactionFilter {
  const f = args.filter ?? {};
  checkAddressesOnNetwork('filter.addresses', f.addresses, chain.network);
  if (f.startTimestamp != null && f.endTimestamp != null && BigInt(f.startTimestamp) > BigInt(f.endTimestamp)) throw badInput('filter.startTimestamp', 'must not be after endTimestamp');
  return {
    ...(f.addresses?.length ? { addresses: f.addresses } : {}),
    ...(f.txTypes?.length ? { txTypes: f.txTypes } : {}),
    // Within 2^53 - 1 (the bound), so the numbers are exact.
    ...(f.startTimestamp != null ? { startTimestamp: Number(f.startTimestamp) } : {}),
    ...(f.endTimestamp != null ? { endTimestamp: Number(f.endTimestamp) } : {}),
    ...(args.sortOrder ? { sortOrder: args.sortOrder } : {}),
  };
}

const isPChain = (b: PrimaryChain & { alias: string | null }): boolean => b.alias === 'p-chain';

builder.objectFields(PrimaryBlockchainRef, (t) => ({
  transaction: t.field({
    type: PrimaryTransactionInterface,
    nullable: true,
    description: 'A transaction of this chain by hash (getTxByHash); null when unknown. C-chain: atomic transactions only.',
    args: { txHash: t.arg.string({ required: true, description: 'The transaction id (cb58, or a 0x hash).', bound: TX_HASH }) },
    upstreamCost: PRIMARY_TX_LOOKUP_COST,
    resolve: (b, args, ctx) => primaryTransaction(ctx, b, args.txHash),
  }),
  transactions: t.field({
    type: PrimaryTransactionConnection,
    nullable: false,
    description: 'Latest transactions of this chain (listLatestPrimaryNetworkTransactions), newest first by default; C-chain: atomic transactions.',
    args: {
      ...pageArgs(t.arg, PAGES.primaryTransactions),
      filter: t.arg({ type: PrimaryTransactionFilter, description: 'Filters.' }),
      sortOrder: t.arg({ type: SortOrderEnum, description: 'Sort direction (default DESC).' }),
      l1ValidationId: t.arg.string({
        description: 'P-chain only: just the transactions of this L1 validation (its `validationId`, cb58), e.g. the one that registered it and those that changed its balance or weight.',
        bound: BOUNDS.cb58Id,
      }),
    },
    upstreamCost: TRANSACTION_LISTING_COST,
    resolve: (b, args, ctx) => {
      // Only the P-chain holds L1 validations: elsewhere the filter could match nothing, so it is refused before any call.
      if (args.l1ValidationId != null && !isPChain(b)) throw badInput('l1ValidationId', 'filters P-chain transactions only (p-chain)');
      const filter = { ...filterOf(b, args), ...(args.l1ValidationId != null ? { l1ValidationId: args.l1ValidationId } : {}) };
      return resolveChainConnection({ ctx, page: PAGES.primaryTransactions, args, parent: { network: b.network, blockchainId: b.blockchainId }, fetchPage: transactionPages(ctx, b, filter) });
    },
  }),
  stakingTransactions: t.field({
    type: PrimaryTransactionConnection,
    nullable: false,
    description: 'Staking transactions of validations and delegations active now (listActivePrimaryNetworkStakingTransactions). P-chain only.',
    args: {
      ...pageArgs(t.arg, PAGES.stakingTransactions),
      filter: t.arg({ type: PrimaryTransactionFilter, description: 'Filters.' }),
      sortOrder: t.arg({ type: SortOrderEnum, description: 'Sort direction (default DESC).' }),
    },
    upstreamCost: STAKING_TRANSACTION_LISTING_COST,
    resolve: (b, args, ctx) => {
      if (!isPChain(b)) throw badInput('stakingTransactions', 'staking transactions exist only on the P-chain (p-chain)');
      return resolveChainConnection({ ctx, page: PAGES.stakingTransactions, args, parent: { network: b.network, blockchainId: b.blockchainId }, fetchPage: stakingTransactionPages(ctx, b, filterOf(b, args)) });
    },
  }),
  balances: t.field({
    type: PrimaryBalancesInterface,
    nullable: true,
    description: 'Balances of some addresses on this chain, summed from their UTXOs (getBalancesByAddresses).',
    args: {
      addresses: t.arg.stringList({ required: true, description: 'The addresses whose balances to read.', bound: BOUNDS.utxoAddresses }),
      blockTimestamp: t.arg({ type: 'UInt64', description: 'Balances at this instant (default now).', bound: BOUNDS.unixSeconds }),
    },
    upstreamCost: BALANCES_COST,
    resolve: (b, args, ctx) => {
      checkAddressesOnNetwork('addresses', args.addresses, b.network);
      return primaryBalances(ctx, b, args.addresses, args.blockTimestamp != null ? Number(args.blockTimestamp) : undefined);
    },
  }),
}));

builder.objectFields(BlockRef, (t) => ({
  transactionDetails: t.field({
    type: [PrimaryTransactionInterface],
    nullable: { list: true, items: true },
    description: 'The first `first` of `transactions` as transactions (getTxByHash, one lookup per id, memoized per request); an id the upstream does not know is null. C-chain blocks list EVM transactions: only atomic ones resolve here.',
    args: { first: t.arg.int({ description: `How many of the block's transactions to resolve (default ${BLOCK_TX_LINK.defaultSize}).`, bound: between(0, BLOCK_TX_LINK.maxSize) }) },
    upstreamCost: BLOCK_TX_LINK_COST,
    // One promise per item: a lookup that fails (an id the upstream sent and our grammar refuses) nulls its item alone.
    resolve: (b, args, ctx) => b.transactions.slice(0, args.first ?? BLOCK_TX_LINK.defaultSize).map((hash) => primaryTransaction(ctx, b, hash)),
  }),
}));

// ---------------------------------------------------------------- balances

const assetBalances = (balances: BalancesOnChain, list: readonly object[] | undefined): AssetBalanceShape[] =>
  (list ?? []).map((a) => ({ ...(a as AssetBalanceShape), network: balances.network }));

export const PrimaryBalancesInterface = builder.interfaceRef<BalancesOnChain>('PrimaryBalances').implement({
  description: 'Balances of some addresses on one primary-network chain, per asset; each chain splits them its own way.',
  resolveType: (b) => (b.chainAlias === 'p-chain' ? 'PChainBalances' : b.chainAlias === 'x-chain' ? 'XChainBalances' : 'CChainBalances'),
  fields: (t) => ({
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (b) => b.network }),
    blockchainId: t.string({ description: 'The chain.', resolve: (b) => b.blockchainId }),
    chainInfo: t.field({ type: ChainInfoRef, nullable: true, description: 'Which chain and network the upstream says it read.', resolve: (b) => b.chainInfo ?? null }),
    atomicMemoryUnlocked: t.field({ type: [AssetBalanceRef], description: 'Unlocked UTXOs in atomic memory, shared with another chain (exported, not imported yet).', resolve: (b) => assetBalances(b, b.balances.atomicMemoryUnlocked) }),
    atomicMemoryLocked: t.field({ type: [AssetBalanceRef], description: 'Locked UTXOs in atomic memory.', resolve: (b) => assetBalances(b, b.balances.atomicMemoryLocked) }),
  }),
});

type Of<C extends BalancesOnChain['chainAlias']> = Extract<BalancesOnChain, { chainAlias: C }>;
const list = <C extends BalancesOnChain['chainAlias']>(description: string, pick: (b: Of<C>) => readonly object[] | undefined) =>
  ({ description, pick });

builder.objectRef<Of<'p-chain'>>('PChainBalances').implement({
  description: 'P-chain balances: unlocked, staked, locked and pending, per asset.',
  interfaces: [PrimaryBalancesInterface],
  fields: (t) => {
    const field = (spec: ReturnType<typeof list<'p-chain'>>) => t.field({ type: [AssetBalanceRef], description: spec.description, resolve: (b) => assetBalances(b, spec.pick(b)) });
    return {
      unlockedUnstaked: field(list('Spendable now.', (b) => b.balances.unlockedUnstaked)),
      unlockedStaked: field(list('Staked in a validation or delegation that has started.', (b) => b.balances.unlockedStaked)),
      lockedPlatform: field(list('Locked by a platform locktime.', (b) => b.balances.lockedPlatform)),
      lockedStakeable: field(list('Locked, but usable for staking.', (b) => b.balances.lockedStakeable)),
      lockedStaked: field(list('Locked and staked.', (b) => b.balances.lockedStaked)),
      pendingStaked: field(list('Staked in a validation or delegation that has not started.', (b) => b.balances.pendingStaked)),
    };
  },
});

builder.objectRef<Of<'x-chain'>>('XChainBalances').implement({
  description: 'X-chain balances, per asset.',
  interfaces: [PrimaryBalancesInterface],
  fields: (t) => ({
    locked: t.field({ type: [AssetBalanceRef], description: 'Locked by a locktime.', resolve: (b) => assetBalances(b, b.balances.locked) }),
    unlocked: t.field({ type: [AssetBalanceRef], description: 'Spendable now.', resolve: (b) => assetBalances(b, b.balances.unlocked) }),
  }),
});

builder.objectRef<Of<'c-chain'>>('CChainBalances').implement({
  description: 'C-chain atomic balances: UTXOs exported to the C-chain and not imported yet (EVM balances are `Address.nativeBalance`).',
  interfaces: [PrimaryBalancesInterface],
  fields: () => ({}),
});


/**
 * Primary-network transactions, balances and assets (public spec only; the seed has
 * none of them): getTxByHash, listLatestPrimaryNetworkTransactions,
 * listActivePrimaryNetworkStakingTransactions, getBalancesByAddresses and
 * getAssetDetails.
 *
 * The spec answers these with a different shape per chain and no discriminator, so
 * the client asks with the chain's alias (`p-chain`, `x-chain`, `c-chain`) and reads
 * the answer with that chain's description ({@link PRIMARY_CHAIN_ALIASES}). Outputs of
 * X- and C-chain transactions may come in the spec's X/C `Utxo` form; they are read
 * by the UTXO description of `blocks.ts`, which maps that form onto the seed's.
 */
import * as v from 'valibot';
import { describeBlocks } from './blocks.ts';
import { describeCommon, pageOf, type PageParams, type SortOrder } from './common.ts';
import { perKit, type Kit, type Leaf } from './kit.ts';

/** The chains these operations are asked on, by the alias the spec's `BlockchainId` takes. */
export const PRIMARY_CHAIN_ALIASES = ['p-chain', 'x-chain', 'c-chain'] as const;
export type PrimaryChainAlias = (typeof PRIMARY_CHAIN_ALIASES)[number];

/** The spec's `PrimaryNetworkTxType`: every P- and X-chain transaction type (the `txTypes` filter). */
export const PRIMARY_NETWORK_TX_TYPES = [
  'AddValidatorTx', 'AddSubnetValidatorTx', 'AddDelegatorTx', 'CreateChainTx', 'CreateSubnetTx', 'ImportTx', 'ExportTx',
  'AdvanceTimeTx', 'RewardValidatorTx', 'RemoveSubnetValidatorTx', 'TransformSubnetTx', 'AddPermissionlessValidatorTx',
  'AddPermissionlessDelegatorTx', 'BaseTx', 'TransferSubnetOwnershipTx', 'ConvertSubnetToL1Tx', 'RegisterL1ValidatorTx',
  'SetL1ValidatorWeightTx', 'DisableL1ValidatorTx', 'IncreaseL1ValidatorBalanceTx', 'UNKNOWN', 'CreateAssetTx', 'OperationTx',
] as const;
export type PrimaryNetworkTxType = (typeof PRIMARY_NETWORK_TX_TYPES)[number];

export const PRIMARY_ASSET_TYPES = ['secp256k1', 'nft'] as const;
export const PRIMARY_ASSET_CAPS = ['fixed', 'variable'] as const;
export const X_CHAIN_FORMATS = ['non-linear', 'linear'] as const;
export const C_CHAIN_ATOMIC_TX_TYPES = ['ExportTx', 'ImportTx'] as const;

export const describePrimaryTx = perKit((k: Kit) => {
  const { AssetAmount, ChainInfo } = describeCommon(k);
  const { Utxo } = describeBlocks(k);
  const assets = v.array(AssetAmount);

  /** The spec's XChainAssetDetails (getAssetDetails, and `assetCreated` of a CreateAssetTx). */
  const AssetDetails = v.object({
    assetId: k.string,
    name: k.string,
    symbol: k.string,
    denomination: k.int32,
    type: k.openEnum(PRIMARY_ASSET_TYPES),
    createdAtTimestamp: k.wideInteger,
    cap: k.openEnum(PRIMARY_ASSET_CAPS),
  });

  const BlsCredentials = v.object({ publicKey: k.string, proofOfPossession: k.string });
  const SubnetOwnershipInfo = v.object({ locktime: k.wideInteger, threshold: k.wideInteger, addresses: v.array(k.string) });

  /** The spec's PChainTransaction; its four amount lists are required there, read as optional (older answers lack the L1 one). */
  const PChainTransaction = k.requires(v.object({
    txHash: k.string,
    txType: k.openEnum(PRIMARY_NETWORK_TX_TYPES),
    blockTimestamp: k.wideInteger,
    blockNumber: k.decimal,
    blockHash: k.string,
    consumedUtxos: v.array(Utxo),
    emittedUtxos: v.array(Utxo),
    sourceChain: v.optional(k.string),
    destinationChain: v.optional(k.string),
    value: v.optional(assets),
    amountBurned: v.optional(assets),
    amountStaked: v.optional(assets),
    amountL1ValidatorBalanceBurned: v.optional(assets),
    startTimestamp: v.optional(k.wideInteger),
    endTimestamp: v.optional(k.wideInteger),
    /** A decimal percentage, e.g. "2.0000". */
    delegationFeePercent: v.optional(k.string),
    nodeId: v.optional(k.string),
    subnetId: v.optional(k.string),
    estimatedReward: v.optional(k.decimal),
    rewardTxHash: v.optional(k.string),
    rewardAddresses: v.optional(v.array(k.string)),
    memo: v.optional(k.string),
    stakingTxHash: v.optional(k.string),
    subnetOwnershipInfo: v.optional(SubnetOwnershipInfo),
    blsCredentials: v.optional(BlsCredentials),
  }), ['value', 'amountBurned', 'amountStaked', 'amountL1ValidatorBalanceBurned']);

  const TransactionVertex = v.object({ hash: k.string, height: k.wideInteger, timestamp: k.wideInteger });

  /** The spec's XChainLinearTransaction and XChainNonLinearTransaction, told apart by `chainFormat`. */
  const XChainTransaction = k.requires(v.object({
    txHash: k.string,
    chainFormat: k.openEnum(X_CHAIN_FORMATS),
    timestamp: k.wideInteger,
    txType: k.openEnum(PRIMARY_NETWORK_TX_TYPES),
    memo: v.optional(k.string),
    consumedUtxos: v.array(Utxo),
    emittedUtxos: v.array(Utxo),
    amountUnlocked: v.optional(assets),
    amountCreated: v.optional(assets),
    sourceChain: v.optional(k.string),
    destinationChain: v.optional(k.string),
    assetCreated: v.optional(AssetDetails),
    blockHeight: v.optional(k.wideInteger),
    blockHash: v.optional(k.string),
    vertices: v.optional(v.array(TransactionVertex)),
  }), { tag: 'chainFormat', byValue: { linear: ['memo', 'amountUnlocked', 'amountCreated', 'blockHeight', 'blockHash'], 'non-linear': ['memo', 'amountUnlocked', 'amountCreated', 'vertices'] } });

  const EvmInput = v.object({ fromAddress: k.string, asset: AssetAmount });
  const EvmOutput = v.object({ toAddress: k.string, asset: AssetAmount });

  /** The spec's CChainExportTransaction and CChainImportTransaction, told apart by `txType`. */
  const CChainAtomicTransaction = k.requires(v.object({
    txHash: k.string,
    blockHeight: k.wideInteger,
    blockHash: k.string,
    timestamp: k.wideInteger,
    memo: v.optional(k.string),
    amountUnlocked: v.optional(assets),
    amountCreated: v.optional(assets),
    sourceChain: k.string,
    destinationChain: k.string,
    txType: k.openEnum(C_CHAIN_ATOMIC_TX_TYPES),
    evmInputs: v.optional(v.array(EvmInput)),
    emittedUtxos: v.optional(v.array(Utxo)),
    evmOutputs: v.optional(v.array(EvmOutput)),
    consumedUtxos: v.optional(v.array(Utxo)),
  }), { tag: 'txType', byValue: { ExportTx: ['memo', 'amountUnlocked', 'amountCreated', 'evmInputs', 'emittedUtxos'], ImportTx: ['memo', 'amountUnlocked', 'amountCreated', 'evmOutputs', 'consumedUtxos'] } });

  const txPage = <T extends v.GenericSchema<unknown, unknown>>(tx: T) =>
    k.requires(pageOf(k, { transactions: v.array(tx), chainInfo: v.optional(ChainInfo) }), ['chainInfo']);

  /** An asset's total over some UTXOs (the spec's AggregatedAssetAmount). */
  const AggregatedAssetAmount = v.object({
    assetId: k.string,
    name: k.string,
    symbol: k.string,
    denomination: k.int32,
    type: k.string,
    amount: k.decimal,
    utxoCount: k.int32,
  });
  /** The same in atomic memory, shared with another chain (`status` only on the P-chain). */
  const SharedAssetAmount = v.object({
    ...AggregatedAssetAmount.entries,
    sharedWithChainId: k.string,
    status: v.optional(k.string),
  });
  const aggregated = v.array(AggregatedAssetAmount);
  const shared = v.array(SharedAssetAmount);
  // Every list is required by the spec; read as optional so a missing one is an empty list, not a broken answer.
  const PChainBalances = k.requires(v.object({
    unlockedUnstaked: v.optional(aggregated),
    unlockedStaked: v.optional(aggregated),
    lockedPlatform: v.optional(aggregated),
    lockedStakeable: v.optional(aggregated),
    lockedStaked: v.optional(aggregated),
    pendingStaked: v.optional(aggregated),
    atomicMemoryUnlocked: v.optional(shared),
    atomicMemoryLocked: v.optional(shared),
  }), ['unlockedUnstaked', 'unlockedStaked', 'lockedPlatform', 'lockedStakeable', 'lockedStaked', 'pendingStaked', 'atomicMemoryUnlocked', 'atomicMemoryLocked']);
  const XChainBalances = k.requires(v.object({
    locked: v.optional(aggregated),
    unlocked: v.optional(aggregated),
    atomicMemoryUnlocked: v.optional(shared),
    atomicMemoryLocked: v.optional(shared),
  }), ['locked', 'unlocked', 'atomicMemoryUnlocked', 'atomicMemoryLocked']);
  const CChainBalances = k.requires(v.object({
    atomicMemoryUnlocked: v.optional(shared),
    atomicMemoryLocked: v.optional(shared),
  }), ['atomicMemoryUnlocked', 'atomicMemoryLocked']);
  const balancesOf = <T extends v.GenericSchema<unknown, unknown>>(balances: T) =>
    k.requires(v.object({ balances, chainInfo: v.optional(ChainInfo) }), ['chainInfo']);

  return {
    AssetDetails,
    PChainTransaction,
    XChainTransaction,
    CChainAtomicTransaction,
    ListPChainTransactionsResponse: txPage(PChainTransaction),
    ListXChainTransactionsResponse: txPage(XChainTransaction),
    ListCChainAtomicTransactionsResponse: txPage(CChainAtomicTransaction),
    AggregatedAssetAmount,
    SharedAssetAmount,
    ListPChainBalancesResponse: balancesOf(PChainBalances),
    ListXChainBalancesResponse: balancesOf(XChainBalances),
    ListCChainAtomicBalancesResponse: balancesOf(CChainBalances),
  };
});

type PrimaryTxShapes = ReturnType<typeof describePrimaryTx>;

export type AssetDetails = v.InferOutput<PrimaryTxShapes['AssetDetails']>;
export type PChainTransaction = v.InferOutput<PrimaryTxShapes['PChainTransaction']>;
export type XChainTransaction = v.InferOutput<PrimaryTxShapes['XChainTransaction']>;
export type CChainAtomicTransaction = v.InferOutput<PrimaryTxShapes['CChainAtomicTransaction']>;
export type AggregatedAssetAmount = v.InferOutput<PrimaryTxShapes['AggregatedAssetAmount']>;
export type SharedAssetAmount = v.InferOutput<PrimaryTxShapes['SharedAssetAmount']>;
export type ListPChainBalancesResponse = v.InferOutput<PrimaryTxShapes['ListPChainBalancesResponse']>;
export type ListXChainBalancesResponse = v.InferOutput<PrimaryTxShapes['ListXChainBalancesResponse']>;
export type ListCChainAtomicBalancesResponse = v.InferOutput<PrimaryTxShapes['ListCChainAtomicBalancesResponse']>;

/** A transaction of each chain, by the alias it was asked with. */
export interface PrimaryTransactionByChain {
  'p-chain': PChainTransaction;
  'x-chain': XChainTransaction;
  'c-chain': CChainAtomicTransaction;
}
/** A page of transactions of each chain. */
export interface PrimaryTransactionPageByChain {
  'p-chain': v.InferOutput<PrimaryTxShapes['ListPChainTransactionsResponse']>;
  'x-chain': v.InferOutput<PrimaryTxShapes['ListXChainTransactionsResponse']>;
  'c-chain': v.InferOutput<PrimaryTxShapes['ListCChainAtomicTransactionsResponse']>;
}
/** The balances of each chain. */
export interface PrimaryBalancesByChain {
  'p-chain': ListPChainBalancesResponse;
  'x-chain': ListXChainBalancesResponse;
  'c-chain': ListCChainAtomicBalancesResponse;
}
export type ListPChainTransactionsResponse = PrimaryTransactionPageByChain['p-chain'];

/** The read shapes of each chain's answers, by the alias asked with (mapped, so a generic alias picks its own type). */
export interface PrimaryTxReadShapes {
  transaction: { [C in PrimaryChainAlias]: Leaf<PrimaryTransactionByChain[C]> };
  page: { [C in PrimaryChainAlias]: Leaf<PrimaryTransactionPageByChain[C]> };
  balances: { [C in PrimaryChainAlias]: Leaf<PrimaryBalancesByChain[C]> };
}

/** The shapes of each chain's answers, for the client. */
export function primaryTxShapesOf(shapes: PrimaryTxShapes): PrimaryTxReadShapes {
  return {
    transaction: { 'p-chain': shapes.PChainTransaction, 'x-chain': shapes.XChainTransaction, 'c-chain': shapes.CChainAtomicTransaction },
    page: { 'p-chain': shapes.ListPChainTransactionsResponse, 'x-chain': shapes.ListXChainTransactionsResponse, 'c-chain': shapes.ListCChainAtomicTransactionsResponse },
    balances: { 'p-chain': shapes.ListPChainBalancesResponse, 'x-chain': shapes.ListXChainBalancesResponse, 'c-chain': shapes.ListCChainAtomicBalancesResponse },
  };
}

/** listLatestPrimaryNetworkTransactions' and listActivePrimaryNetworkStakingTransactions' query parameters. */
export interface ListPrimaryTransactionsParams extends PageParams {
  /** Sent as a comma-separated list (the spec declares a string). */
  addresses?: string[];
  /** Sent as a repeated parameter, `txTypes=A&txTypes=B` (the spec declares an array, form style). */
  txTypes?: string[];
  startTimestamp?: number;
  endTimestamp?: number;
  sortOrder?: SortOrder;
  /** listLatestPrimaryNetworkTransactions on the P-chain only: the transactions of this L1 validation (cb58 id). */
  l1ValidationId?: string;
}

/** getBalancesByAddresses' query parameters. */
export interface GetPrimaryBalancesParams {
  /** Sent as a comma-separated list. */
  addresses: string[];
  /** Balances at this instant, unix seconds (default now). */
  blockTimestamp?: number;
}

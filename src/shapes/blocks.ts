/**
 * Primary-network chain data: blocks (E15), X-chain vertices (E18) and UTXOs (E4).
 */
import * as v from 'valibot';
import { describeCommon, pageOf, type PageParams, type SortOrder } from './common.ts';
import { isObject, perKit, type Kit } from './kit.ts';

export const UTXO_SORT_BY = ['timestamp', 'amount'] as const;
export type UtxoSortBy = (typeof UTXO_SORT_BY)[number];

/**
 * The spec has two UTXO shapes with no discriminator: the P-chain's (the seed's
 * shape) and the X/C-chain `Utxo` with `creationTxHash`, `timestamp`, `locktime`,
 * `consumingTxTimestamp` and a string `outputIndex`. The latter is mapped onto the
 * seed's names; `blockNumber` has no counterpart there and stays absent.
 */
function fromXcChainUtxo(raw: unknown): unknown {
  if (!isObject(raw) || (typeof raw.creationTxHash !== 'string' && typeof raw.outputIndex !== 'string')) return raw;
  const { creationTxHash, timestamp, locktime, consumingTxTimestamp, ...mapped } = raw;
  const asset = isObject(mapped.asset) ? mapped.asset : undefined;
  if (mapped.txHash === undefined && creationTxHash !== undefined) mapped.txHash = creationTxHash;
  if (mapped.blockTimestamp === undefined && timestamp !== undefined) mapped.blockTimestamp = timestamp;
  if (mapped.platformLocktime === undefined && locktime !== undefined) mapped.platformLocktime = locktime;
  if (mapped.consumingBlockTimestamp === undefined && consumingTxTimestamp !== undefined) {
    mapped.consumingBlockTimestamp = consumingTxTimestamp;
  }
  if (typeof mapped.outputIndex === 'string' && /^\d+$/.test(mapped.outputIndex)) mapped.outputIndex = Number(mapped.outputIndex);
  if (mapped.amount === undefined && asset?.amount !== undefined) mapped.amount = asset.amount;
  if (mapped.assetId === undefined && asset?.assetId !== undefined) mapped.assetId = asset.assetId;
  return mapped;
}

export const describeBlocks = perKit((k: Kit) => {
  const { AssetAmount, ChainInfo } = describeCommon(k);

  const ProposerDetails = v.object({
    proposerId: v.optional(k.string),
    proposerParentId: v.optional(k.string),
    proposerNodeId: v.optional(k.string),
    proposerPChainHeight: v.optional(k.wideInteger),
    proposerTimestamp: v.optional(k.wideInteger),
  });

  /** The P-chain facts (`l1ValidatorsAccruedFees`, `activeL1Validators`, `currentSupply`, the proposer) are optional elsewhere. */
  const Block = v.object({
    blockNumber: k.decimal,
    blockHash: k.string,
    parentHash: k.string,
    blockType: k.string,
    blockTimestamp: k.wideInteger,
    txCount: k.int32,
    transactions: v.array(k.string),
    blockSizeBytes: k.int32,
    l1ValidatorsAccruedFees: v.optional(k.wideInteger256),
    activeL1Validators: v.optional(k.int32),
    currentSupply: v.optional(k.decimal),
    proposerDetails: v.optional(ProposerDetails),
  });

  const Vertex = v.object({
    vertexHash: k.string,
    parentHashes: v.array(k.string),
    vertexHeight: k.wideInteger,
    vertexIndex: k.wideInteger,
    vertexTimestamp: k.wideInteger,
    txCount: k.int32,
    transactions: v.array(k.string),
    vertexSizeBytes: k.int32,
  });

  /** The seed's single UTXO shape (the spec's PChainUtxo, which fixes the optional fields). */
  const Utxo = k.variant(fromXcChainUtxo, k.requires(v.object({
    addresses: v.array(k.string),
    asset: AssetAmount,
    consumedOnChainId: k.string,
    createdOnChainId: k.string,
    consumingTxHash: v.optional(k.string),
    txHash: k.string,
    utxoId: k.string,
    utxoBytes: v.optional(k.string),
    amount: k.decimal,
    assetId: k.string,
    /** Absent in the public spec's X/C-chain UTXO shape; the seed has it. */
    blockNumber: v.optional(k.decimal),
    consumingBlockNumber: v.optional(k.decimal),
    blockTimestamp: k.wideInteger,
    consumingBlockTimestamp: v.optional(k.wideInteger),
    platformLocktime: v.optional(k.wideInteger),
    stakeableLocktime: v.optional(k.wideInteger),
    outputIndex: k.int32,
    threshold: v.optional(k.wideInteger),
    rewardType: v.optional(k.string),
    staked: v.optional(k.boolean),
    utxoStartTimestamp: v.optional(k.wideInteger),
    utxoEndTimestamp: v.optional(k.wideInteger),
    utxoType: k.string,
  }), ['blockNumber']));

  return {
    ProposerDetails,
    Block,
    Vertex,
    Utxo,
    // The seed's primary-network listings carry chainInfo; the public spec's may not.
    ListUtxosResponse: k.requires(pageOf(k, { utxos: v.array(Utxo), chainInfo: v.optional(ChainInfo) }), ['chainInfo']),
    ListBlocksResponse: k.requires(pageOf(k, { blocks: v.array(Block), chainInfo: v.optional(ChainInfo) }), ['chainInfo']),
    ListVerticesResponse: k.requires(pageOf(k, { vertices: v.array(Vertex), chainInfo: v.optional(ChainInfo) }), ['chainInfo']),
  };
});

type Blocks = ReturnType<typeof describeBlocks>;

export type ProposerDetails = v.InferOutput<Blocks['ProposerDetails']>;
export type Block = v.InferOutput<Blocks['Block']>;
export type Vertex = v.InferOutput<Blocks['Vertex']>;
export type Utxo = v.InferOutput<Blocks['Utxo']>;
export type ListUtxosResponse = v.InferOutput<Blocks['ListUtxosResponse']>;
export type ListBlocksResponse = v.InferOutput<Blocks['ListBlocksResponse']>;
export type ListVerticesResponse = v.InferOutput<Blocks['ListVerticesResponse']>;

export interface ListUtxosParams extends PageParams {
  /** Sent in the JSON body as a comma-separated string. */
  addresses: string[];
  assetId?: string;
  minUtxoAmount?: number;
  includeSpent?: boolean;
  sortBy?: UtxoSortBy;
  sortOrder?: SortOrder;
}

export interface ListBlocksParams extends PageParams {
  startTimestamp?: number;
  endTimestamp?: number;
}

/** getVertexByHeight: the vertices at one DAG height (the X-chain before Cortina). */
export interface ListVerticesByHeightParams extends PageParams {
  vertexHeight: number;
  sortOrder?: SortOrder;
}

/**
 * The public shapes of the primary dataset: query arguments of the list
 * methods, pages, fixtures, and what callers pass in and get back about
 * subnet chains. Kept apart so routes and tests can import types only.
 */

import type { DelegationStatus, SortOrder, UtxoSortBy, ValidationStatus, ValidatorSortBy } from '../../../shapes/index.ts';
import type { DevnetNetwork } from '../../node-view.ts';

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** Inclusive bounds of a numeric filter; only present when the caller gave one of them. */
export type Range = readonly [number, number];

export interface ValidatorQuery {
  nodeIds?: string[];
  sortBy: ValidatorSortBy;
  sortOrder: SortOrder;
  validationStatus?: ValidationStatus;
  subnetId?: string;
  /** nAVAX. */
  delegationCapacity?: Range;
  /** Seconds. */
  timeRemaining?: Range;
  /** Percent. */
  feePercentage?: Range;
  /** Percent. */
  uptimePerformance?: Range;
}

export interface DelegatorQuery {
  nodeIds?: string[];
  /** Address bodies (`avax1...`), without chain prefix. */
  rewardAddresses?: string[];
  delegationStatus?: DelegationStatus;
  sortOrder: SortOrder;
}

export interface RewardQuery {
  /** Address bodies (`avax1...`), without chain prefix. */
  addresses?: string[];
  nodeIds?: string[];
  sortOrder: SortOrder;
}

export interface UtxoQuery {
  /** Address bodies (`avax1...`), without chain prefix. */
  addresses: string[];
  assetId?: string;
  minUtxoAmount?: number;
  includeSpent: boolean;
  sortBy: UtxoSortBy;
  sortOrder: SortOrder;
}

export interface BlockQuery {
  startTimestamp?: number;
  endTimestamp?: number;
}

/** Sample identifiers of the primary network with data behind them (merged into `/__devnet/fixtures`). */
export interface PrimaryFixtures {
  /** `P-` + an address with staked and unstaked, spent and unspent P-chain UTXOs, historical and pending rewards. */
  pChainAddress: string;
  /** `X-` + an address with X-chain UTXOs (AVAX and another asset, spent and unspent). */
  xChainAddress: string;
  /** The same address without a chain prefix (delegators `rewardAddresses`). */
  rewardAddress: string;
  /** An active primary-network validator with active and completed delegators and rewards of both kinds. */
  nodeId: string;
  /** An active validator with more than 300 delegators. */
  busyNodeId: string;
  /** A node whose latest validation is completed, with delegators. */
  completedNodeId: string;
  /** A node that validated several times: its latest validation is active, an earlier completed one had delegators. */
  revalidatedNodeId: string;
  pendingNodeId: string;
  /** A removed (permissioned subnet) validator. */
  removedNodeId: string;
  /** An active validator of a non-primary subnet. */
  subnetValidatorNodeId: string;
  /** A subnet with an EVM blockchain and validators. */
  subnetId: string;
  l1SubnetId: string;
  /** The add-validator tx of `nodeId`. */
  pChainTxHash: string;
  /** An active delegation to `nodeId`. */
  delegationTxHash: string;
  avaxAssetId: string;
  /** A non-AVAX X-chain asset held by `xChainAddress`. */
  xAssetId: string;
  /** Paid by a new P-chain transaction every few blocks after the devnet started (and reward address of the new delegations to `nodeId`). */
  activityPChainAddress: string;
  /** Paid by a new X-chain transaction every few blocks after the devnet started. */
  activityXChainAddress: string;
}

/** A blockchain of a (non-primary) subnet, as the EVM dataset and the node need it. */
export interface SubnetChain {
  blockchainId: string;
  subnetId: string;
  vmId: string;
  name: string;
  /** Set for EVM chains. */
  evmChainId?: number;
}

export interface PrimaryDataInput {
  network: DevnetNetwork;
  seed: number;
  /** Validations on the network, primary and subnet together. */
  validators: number;
  now: () => number;
  /** The clock the staking records move by (validations and delegations starting and ending); default `now`. */
  stakingNow?: () => number;
  /** EVM chain ids already taken; shared by both networks so `/v1/chains/{id}` stays unambiguous. */
  usedEvmChainIds: Set<number>;
}


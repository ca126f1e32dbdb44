/**
 * Staking on the primary network: validators (E8), delegators (E13), historical
 * and pending rewards (E11, E12).
 *
 * The seed has one flat validator and one flat delegator; the public spec splits
 * each by status and leaves some fields out of some statuses. The read build takes
 * the union of both (status-specific fields optional, the spec's extras optional);
 * the strict build requires what the spec requires for the item's status.
 */
import * as v from 'valibot';
import { describeCommon, pageOf, type CurrencyCode, type PageParams, type SortOrder } from './common.ts';
import { isObject, perKit, type Kit } from './kit.ts';

export const VALIDATION_STATUSES = ['completed', 'active', 'pending', 'removed'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];
export const DELEGATION_STATUSES = ['completed', 'active', 'pending'] as const;
export type DelegationStatus = (typeof DELEGATION_STATUSES)[number];
export const VALIDATOR_SORT_BY = [
  'blockIndex', 'delegationCapacity', 'timeRemaining', 'delegationFee', 'uptimePerformance',
] as const;
export type ValidatorSortBy = (typeof VALIDATOR_SORT_BY)[number];

/**
 * The spec's active validators carry `potentialRewards` instead of `rewards`; both
 * are kept, and `rewards` is filled from `potentialRewards` when missing.
 */
function fillRewards(raw: unknown): unknown {
  if (isObject(raw) && raw.rewards === undefined && raw.potentialRewards !== undefined) raw.rewards = raw.potentialRewards;
  return raw;
}

export const describeStaking = perKit((k: Kit) => {
  const { AssetAmount, Price } = describeCommon(k);

  const ValidatorRewards = v.object({
    validationRewardAmount: k.decimal,
    delegationRewardAmount: k.decimal,
    rewardAddresses: v.optional(v.array(k.string)),
    rewardTxHash: v.optional(k.string),
  });

  /**
   * The seed's flat validator plus the spec's status-specific extras (active:
   * uptime, stake share, health, geolocation, capacity; removed: the removal tx).
   */
  const Validator = k.variant(fillRewards, k.requires(v.object({
    txHash: k.string,
    nodeId: k.string,
    subnetId: k.string,
    amountStaked: k.decimal,
    delegationFee: v.optional(k.string),
    amountDelegated: v.optional(k.decimal),
    startTimestamp: k.wideInteger,
    endTimestamp: k.wideInteger,
    blsCredentials: v.optional(v.object({ publicKey: k.string, proofOfPossession: k.string })),
    delegatorCount: v.optional(k.int32),
    rewards: v.optional(ValidatorRewards),
    validationStatus: k.mayBeAbsent(k.openEnum(VALIDATION_STATUSES)),
    // public-spec extras
    stakePercentage: v.optional(k.number),
    uptimePerformance: v.optional(k.number),
    potentialRewards: v.optional(ValidatorRewards),
    validatorHealth: v.optional(v.object({
      reachabilityPercent: k.number,
      benchedPChainRequestsPercent: k.number,
      benchedXChainRequestsPercent: k.number,
      benchedCChainRequestsPercent: k.number,
    })),
    geolocation: v.optional(v.nullable(v.object({
      city: k.string,
      country: k.string,
      countryCode: k.string,
      latitude: k.number,
      longitude: k.number,
    }))),
    avalancheGoVersion: v.optional(k.string),
    delegationCapacity: v.optional(k.decimal),
    removeTxHash: v.optional(k.string),
    removeTimestamp: v.optional(k.wideInteger),
  }), { tag: 'validationStatus', byValue: { completed: ['delegatorCount', 'rewards'], active: ['delegatorCount'] } }));

  /** Completed delegations carry gross/net rewards; the spec's active and pending ones `estimated*` instead. */
  const Delegator = k.requires(v.object({
    txHash: k.string,
    nodeId: k.string,
    rewardAddresses: v.array(k.string),
    amountDelegated: k.decimal,
    delegationFee: k.string,
    grossReward: v.optional(k.decimal),
    netReward: v.optional(k.decimal),
    estimatedGrossReward: v.optional(k.decimal),
    estimatedNetReward: v.optional(k.decimal),
    startTimestamp: k.wideInteger,
    endTimestamp: k.wideInteger,
    delegationStatus: k.mayBeAbsent(k.openEnum(DELEGATION_STATUSES)),
  }), { tag: 'delegationStatus', byValue: { completed: ['grossReward', 'netReward'] } });

  /** What both reward listings say of the staking tx a reward is for. */
  const rewardBase = {
    addresses: v.array(k.string),
    txHash: k.string,
    amountStaked: k.decimal,
    nodeId: k.string,
    startTimestamp: k.wideInteger,
    endTimestamp: k.wideInteger,
    rewardType: k.mayBeAbsent(k.string),
  };

  const HistoricalReward = v.object({
    ...rewardBase,
    utxoId: k.string,
    outputIndex: k.int32,
    reward: v.object({ ...AssetAmount.entries, historicalPrice: v.optional(Price) }),
    rewardTxHash: k.string,
  });

  const PendingReward = v.object({
    ...rewardBase,
    progress: k.number,
    estimatedReward: AssetAmount,
  });

  return {
    ValidatorRewards,
    Validator,
    Delegator,
    HistoricalReward,
    PendingReward,
    ListValidatorsResponse: pageOf(k, { validators: v.array(Validator) }),
    ListDelegatorsResponse: pageOf(k, { delegators: v.array(Delegator) }),
    ListHistoricalRewardsResponse: pageOf(k, { historicalRewards: v.array(HistoricalReward) }),
    ListPendingRewardsResponse: pageOf(k, { pendingRewards: v.array(PendingReward) }),
  };
});

type Staking = ReturnType<typeof describeStaking>;

export type ValidatorRewards = v.InferOutput<Staking['ValidatorRewards']>;
export type Validator = v.InferOutput<Staking['Validator']>;
export type Delegator = v.InferOutput<Staking['Delegator']>;
export type HistoricalReward = v.InferOutput<Staking['HistoricalReward']>;
export type PendingReward = v.InferOutput<Staking['PendingReward']>;
export type ListValidatorsResponse = v.InferOutput<Staking['ListValidatorsResponse']>;
export type ListDelegatorsResponse = v.InferOutput<Staking['ListDelegatorsResponse']>;
export type ListHistoricalRewardsResponse = v.InferOutput<Staking['ListHistoricalRewardsResponse']>;
export type ListPendingRewardsResponse = v.InferOutput<Staking['ListPendingRewardsResponse']>;

export interface ListValidatorsParams extends PageParams {
  nodeIds?: string[];
  sortBy?: ValidatorSortBy;
  sortOrder?: SortOrder;
  validationStatus?: ValidationStatus;
  minDelegationCapacity?: string;
  maxDelegationCapacity?: string;
  minTimeRemaining?: number;
  maxTimeRemaining?: number;
  minFeePercentage?: number;
  maxFeePercentage?: number;
  minUptimePerformance?: number;
  maxUptimePerformance?: number;
  subnetId?: string;
}

export interface ListDelegatorsParams extends PageParams {
  rewardAddresses?: string[];
  sortOrder?: SortOrder;
  delegationStatus?: DelegationStatus;
  nodeIds?: string[];
}

export interface ListRewardsParams extends PageParams {
  addresses?: string[];
  nodeIds?: string[];
  sortOrder?: SortOrder;
}

export interface ListHistoricalRewardsParams extends ListRewardsParams {
  currency?: CurrencyCode;
}

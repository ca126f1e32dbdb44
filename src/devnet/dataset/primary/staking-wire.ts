/**
 * Wire objects of the staking records: validators, delegators, historical and
 * pending rewards, built from the compact records only when a page is served.
 * Everything not stored (BLS keys, health, location, tx hashes) is derived
 * from hashed labels, so it is the same on every request.
 */

import {
  approximately,
  type CurrencyCode,
  type Delegator,
  type HistoricalReward,
  type PendingReward,
  type Validator,
  type ValidatorRewards,
} from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { CITIES } from './constants.ts';
import { avaxAmount } from './context.ts';
import type { PrimaryRecords } from './generate.ts';
import { hexOf, id32 } from './ids.ts';
import { avaxPrice, feeString, round } from './math.ts';
import {
  delegationFee,
  delegationGross,
  delegationRewardTx,
  delegationStatus,
  delegationTxOf,
  KIND_DELEGATOR,
  KIND_VALIDATOR,
  rewardUtxoId,
  validatorRewardTx,
  type ValidatorRecord,
} from './staking.ts';

export function toValidator({ ctx, addresses, staking }: PrimaryRecords, i: number): Validator {
  const v = staking.validators[i] as ValidatorRecord;
  const rewardAddresses = [addresses.list[v.rewardAddr] as string];
  const rewards: ValidatorRewards = {
    validationRewardAmount: String(v.status === 'completed' || v.status === 'active' ? v.validationReward : 0),
    delegationRewardAmount: String(v.status === 'completed' || v.status === 'active' ? v.delegationReward : 0),
    rewardAddresses,
  };
  if (v.status === 'completed' && v.primary) rewards.rewardTxHash = validatorRewardTx(ctx, i);
  const out: Validator = {
    txHash: v.txHash,
    nodeId: v.nodeId,
    subnetId: v.subnetId,
    amountStaked: String(v.stake),
    // A subnet validation's fee is null: the field is left out.
    ...(v.feeBps >= 0 ? { delegationFee: feeString(v.feeBps) } : {}),
    amountDelegated: String(v.delegated),
    startTimestamp: v.start,
    endTimestamp: v.end,
    blsCredentials: {
      publicKey: `0x${hexOf(`${ctx.tag}:bls-pk:${v.nodeId}`, 48)}`,
      proofOfPossession: `0x${hexOf(`${ctx.tag}:bls-pop:${v.nodeId}`, 96)}`,
    },
    delegatorCount: v.delegators.length,
    rewards,
    validationStatus: v.status,
  };
  if (v.status === 'active') {
    const r = new Rng(`${ctx.tag}:active:${v.nodeId}`);
    out.stakePercentage = v.stakePercentage;
    out.uptimePerformance = v.uptime;
    out.potentialRewards = { ...rewards };
    out.validatorHealth = {
      reachabilityPercent: round(Math.min(100, 90 + r.next() * 10.5), 2),
      benchedPChainRequestsPercent: r.bool(0.9) ? 0 : round(r.next() * 5, 2),
      benchedXChainRequestsPercent: r.bool(0.9) ? 0 : round(r.next() * 5, 2),
      benchedCChainRequestsPercent: r.bool(0.9) ? 0 : round(r.next() * 5, 2),
    };
    out.geolocation = r.bool(0.9) ? { ...r.pick(CITIES) } : null;
    out.avalancheGoVersion = `avalanchego/1.13.${r.int(0, 5)}`;
    if (v.capacity >= 0) out.delegationCapacity = String(v.capacity);
  }
  if (v.status === 'removed') {
    out.removeTxHash = id32(`${ctx.tag}:remove:${v.nodeId}`);
    out.removeTimestamp = v.removeTimestamp;
  }
  return out;
}

export function toDelegator({ ctx, addresses, staking }: PrimaryRecords, d: number): Delegator {
  const t = staking.delegations;
  const v = staking.validators[t.validator[d] as number] as ValidatorRecord;
  const status = delegationStatus(t, d);
  const gross = delegationGross(t, d);
  const net = gross - delegationFee(staking, d);
  const out: Delegator = {
    txHash: delegationTxOf(ctx, staking, d),
    nodeId: v.nodeId,
    rewardAddresses: [addresses.list[t.addr[d] as number] as string],
    amountDelegated: String(t.amount[d]),
    delegationFee: feeString(v.feeBps),
    grossReward: String(gross),
    netReward: String(net),
    startTimestamp: t.start[d] as number,
    endTimestamp: t.end[d] as number,
    delegationStatus: status,
  };
  if (status !== 'completed') {
    out.estimatedGrossReward = out.grossReward;
    out.estimatedNetReward = out.netReward;
  }
  return out;
}

/** The fields historical and pending rewards share, in wire order. */
type RewardBase = Pick<HistoricalReward & PendingReward, 'addresses' | 'txHash' | 'amountStaked' | 'nodeId' | 'startTimestamp' | 'endTimestamp' | 'rewardType'>;

/**
 * What a reward code (see `KIND_VALIDATOR`) stands for: the staking it rewards,
 * who receives it and how much (nAVAX).
 */
function rewardOf({ ctx, addresses, staking }: PrimaryRecords, code: number): { base: RewardBase; amount: number } {
  const t = staking.delegations;
  const idx = Math.floor(code / 4);
  const kind = code % 4;
  if (kind === KIND_VALIDATOR) {
    const v = staking.validators[idx] as ValidatorRecord;
    const base: RewardBase = {
      addresses: [addresses.list[v.rewardAddr] as string],
      txHash: v.txHash,
      amountStaked: String(v.stake),
      nodeId: v.nodeId,
      startTimestamp: v.start,
      endTimestamp: v.end,
      rewardType: 'VALIDATOR',
    };
    return { base, amount: v.validationReward };
  }
  const v = staking.validators[t.validator[idx] as number] as ValidatorRecord;
  const base: RewardBase = {
    addresses: [addresses.list[kind === KIND_DELEGATOR ? (t.addr[idx] as number) : v.rewardAddr] as string],
    txHash: delegationTxOf(ctx, staking, idx),
    amountStaked: String(t.amount[idx]),
    nodeId: v.nodeId,
    startTimestamp: t.start[idx] as number,
    endTimestamp: t.end[idx] as number,
    rewardType: kind === KIND_DELEGATOR ? 'DELEGATOR' : 'VALIDATOR_FEE',
  };
  const fee = delegationFee(staking, idx);
  return { base, amount: kind === KIND_DELEGATOR ? delegationGross(t, idx) - fee : fee };
}

/** A historical reward by its code, priced in `currency` at its end. */
export function toHistoricalReward(data: PrimaryRecords, code: number, currency: CurrencyCode): HistoricalReward {
  const { ctx } = data;
  const idx = Math.floor(code / 4);
  const kind = code % 4;
  const { base, amount } = rewardOf(data, code);
  return {
    ...base,
    utxoId: rewardUtxoId(ctx, code),
    outputIndex: kind === KIND_DELEGATOR ? 1 : 0,
    reward: { ...avaxAmount(ctx, amount), historicalPrice: { currencyCode: currency, value: avaxPrice(approximately(base.endTimestamp), currency) } },
    // One RewardValidatorTx pays the delegator and the validator's fee.
    rewardTxHash: kind === KIND_VALIDATOR ? validatorRewardTx(ctx, idx) : delegationRewardTx(ctx, idx),
  };
}

/** A pending reward (of an active validation or delegation) by its code, with its progress at `nowSec`. */
export function toPendingReward(data: PrimaryRecords, code: number, nowSec: number): PendingReward {
  const { base, amount } = rewardOf(data, code);
  const [start, end] = [approximately(base.startTimestamp), approximately(base.endTimestamp)];
  const span = Math.max(1, end - start);
  const progress = round(Math.min(100, Math.max(0, ((nowSec - start) / span) * 100)), 2);
  return { ...base, progress, estimatedReward: avaxAmount(data.ctx, amount) };
}

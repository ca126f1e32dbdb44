/**
 * Network-wide figures of the devnet, derived from its staking data so they agree
 * with what the listings serve: the network details (getNetworkDetails) sum the
 * active primary-network validations and delegations, and the AVAX supply
 * (getAvaxSupply, mainnet) reports their stake as `totalStaked`. Computed once per
 * network (the validations are fixed at generation) and kept beside the data.
 */
import { PRIMARY_NETWORK_ID, type AvaxSupply, type NetworkDetails } from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { NANO } from './constants.ts';
import type { PrimaryData } from './index.ts';

/** The whole listing in one page: the summary reads every active validation and delegation once. */
const ALL = Number.MAX_SAFE_INTEGER;

interface Summary {
  details: NetworkDetails;
  /** Active stake of validators and delegators, nAVAX. */
  activeStake: bigint;
  supply: AvaxSupply;
}

const summaries = new WeakMap<PrimaryData, Summary>();

/** `nano` nAVAX as a decimal AVAX string ("1234.5"), exact. */
export function avaxOf(nano: bigint): string {
  const unit = BigInt(NANO);
  const whole = nano / unit;
  const fraction = (nano % unit).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

function summarize(data: PrimaryData): Summary {
  const validators = data.listValidators(
    { subnetId: PRIMARY_NETWORK_ID, validationStatus: 'active', sortBy: 'blockIndex', sortOrder: 'asc' },
    0,
    ALL,
  ).items;
  const delegators = data.listDelegators({ delegationStatus: 'active', sortOrder: 'asc' }, 0, ALL).items;

  let validatorStake = 0n;
  let rewards = 0n;
  const byVersion = new Map<string, { amountStaked: bigint; validatorCount: number }>();
  for (const v of validators) {
    const stake = BigInt(v.amountStaked);
    validatorStake += stake;
    rewards += BigInt(v.potentialRewards?.validationRewardAmount ?? '0');
    const version = v.avalancheGoVersion ?? 'unknown';
    const entry = byVersion.get(version) ?? { amountStaked: 0n, validatorCount: 0 };
    entry.amountStaked += stake;
    entry.validatorCount += 1;
    byVersion.set(version, entry);
  }
  let delegatorStake = 0n;
  for (const d of delegators) {
    delegatorStake += BigInt(d.amountDelegated);
    // A delegation's gross reward holds the validator's fee: validation rewards plus these are everything paid.
    rewards += BigInt(d.estimatedGrossReward ?? d.grossReward ?? '0');
  }
  const activeStake = validatorStake + delegatorStake;

  const rng = new Rng(`${data.network}:avax-supply`);
  const unit = BigInt(NANO);
  const nanoOf = (avax: number): bigint => BigInt(Math.floor(avax)) * unit + BigInt(rng.int(0, NANO - 1));
  const genesisUnlock = 360_000_000n * unit;
  const totalLocked = nanoOf(30_000_000 + rng.int(0, 9_000_000));
  // Large enough for the stake of any validator count, so the staking ratio stays below 1.
  const baseline = 450_000_000n * unit + BigInt(rng.int(0, 9_000_000)) * unit;
  const floor = ((activeStake + totalLocked) * 5n) / 3n;
  const totalSupply = baseline > floor ? baseline : floor;
  const ratio = Number((activeStake * 1_000_000n) / totalSupply) / 1_000_000;

  const details: NetworkDetails = {
    validatorDetails: {
      validatorCount: validators.length,
      totalAmountStaked: validatorStake.toString(),
      estimatedAnnualStakingReward: rewards.toString(),
      stakingDistributionByVersion: [...byVersion.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([version, e]) => ({ version, amountStaked: e.amountStaked.toString(), validatorCount: e.validatorCount })),
      stakingRatio: ratio.toFixed(6),
    },
    delegatorDetails: { delegatorCount: delegators.length, totalAmountStaked: delegatorStake.toString() },
  };
  const supply: AvaxSupply = {
    circulatingSupply: avaxOf(totalSupply - totalLocked),
    totalSupply: avaxOf(totalSupply),
    totalPBurned: avaxOf(nanoOf(15_000 + rng.int(0, 900))),
    totalCBurned: avaxOf(nanoOf(4_800_000 + rng.int(0, 90_000))),
    totalXBurned: avaxOf(nanoOf(45_000 + rng.int(0, 900))),
    totalStaked: avaxOf(activeStake),
    totalLocked: avaxOf(totalLocked),
    totalRewards: avaxOf(nanoOf(99_000_000 + rng.int(0, 900_000))),
    lastUpdated: new Date(data.generatedAt * 1000).toISOString(),
    genesisUnlock: avaxOf(genesisUnlock),
    l1ValidatorFees: avaxOf(nanoOf(6_700 + rng.int(0, 90))),
  };
  return { details, activeStake, supply };
}

function summaryOf(data: PrimaryData): Summary {
  let summary = summaries.get(data);
  if (!summary) {
    summary = summarize(data);
    summaries.set(data, summary);
  }
  return summary;
}

/** getNetworkDetails: the active primary-network validations and delegations of `data`, summed. */
export function networkDetailsOf(data: PrimaryData): NetworkDetails {
  return summaryOf(data).details;
}

/** getAvaxSupply: the supply of `data`'s network; `totalStaked` is the active stake of its listings. */
export function avaxSupplyOf(data: PrimaryData): AvaxSupply {
  return summaryOf(data).supply;
}

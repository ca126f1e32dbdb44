/**
 * Validators, delegators and rewards: their compact records and how they are
 * generated. Validators are plain records; delegations live in typed arrays
 * (their ids are hashes of their index); rewards are codes pointing at
 * validations and delegations. Per-key lists are built here, once, so that
 * queries (staking-queries.ts) and wire objects (staking-wire.ts) stay cheap.
 */

import { PRIMARY_NETWORK_ID } from '../../../shapes/index.ts';
import type { DelegationStatus, Subnet, ValidationStatus } from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { pickAddress, type AddressBook } from './addresses.ts';
import { DAY, MAX_WEIGHT_AVAX, NANO } from './constants.ts';
import type { NetworkContext } from './context.ts';
import { id32, nodeIdOf } from './ids.ts';
import { grossReward, normal, round, uniform } from './math.ts';
import { keyIndex, pushTo, type KeyIndex } from './paging.ts';
import { chainRevalidations } from './revalidation.ts';

// ------------------------------------------------------------------ records

export interface ValidatorRecord {
  nodeId: string;
  txHash: string;
  subnetId: string;
  primary: boolean;
  status: ValidationStatus;
  start: number;
  end: number;
  /** nAVAX for primary validators, weight for subnet validators. */
  stake: number;
  /** Hundredths of a percent; -1 for subnet validators (their fee is null). */
  feeBps: number;
  rewardAddr: number;
  /** Delegator indices, in start order. */
  delegators: number[];
  delegated: number;
  /** -1 unless active. */
  uptime: number;
  /** nAVAX; -1 unless active on the primary network. */
  capacity: number;
  stakePercentage: number;
  validationReward: number;
  delegationReward: number;
  removeTimestamp: number;
  whale: boolean;
}

/** A delegation's status is stored as its index here. */
export const STATUS_CODES: readonly DelegationStatus[] = ['completed', 'active', 'pending'];

/** Delegations as a struct of arrays; index order = start order. */
export interface DelegationTable {
  /** Index of the validator delegated to. */
  readonly validator: Int32Array;
  /** nAVAX. */
  readonly amount: Float64Array;
  readonly start: Uint32Array;
  readonly end: Uint32Array;
  /** Index into `STATUS_CODES`. */
  readonly status: Uint8Array;
  /** Index of the reward address. */
  readonly addr: Int32Array;
}

/**
 * A reward code is `index * 4 + kind`: a validation's own reward (index of the
 * validator), or a delegation's reward or the validator's fee on it (index of the delegation).
 */
export const KIND_VALIDATOR = 0;
export const KIND_DELEGATOR = 1;
export const KIND_FEE = 2;

/** Reward codes, time-ordered; the per-key lists hold positions in `codes`. */
export interface RewardIndex {
  readonly codes: Int32Array;
  readonly byAddr: KeyIndex;
  readonly byValidator: KeyIndex;
}

export interface Staking {
  /** Index order = block order (start order). */
  readonly validators: readonly ValidatorRecord[];
  /** Each node's validations, in block order: a node may have validated several times (see revalidation.ts). */
  readonly validationsByNodeId: ReadonlyMap<string, readonly number[]>;
  /** Primary-network validations per reward address. */
  readonly validationsByAddr: KeyIndex;
  readonly delegations: DelegationTable;
  readonly delegationsByStatus: ReadonlyMap<DelegationStatus, Int32Array>;
  readonly delegationsByAddr: KeyIndex;
  /** Completed validations, completed delegations and the validators' fees on them; ordered by end. */
  readonly historical: RewardIndex;
  /** Active validations and delegations; ordered by start. */
  readonly pending: RewardIndex;
  /** The tx of each delegation made after generation (live.ts), by its index; seeded ones hash their index. */
  readonly liveDelegationTx?: (d: number) => string | undefined;
}

/** The records the derived amounts below are computed from. */
export type StakingRecords = Pick<Staking, 'validators' | 'delegations'>;

export function delegationStatus(t: DelegationTable, d: number): DelegationStatus {
  return STATUS_CODES[t.status[d] as number] as DelegationStatus;
}

export function delegationGross(t: DelegationTable, d: number): number {
  return grossReward(t.amount[d] as number, t.start[d] as number, t.end[d] as number);
}

/** The validator's share of a delegation's reward. */
export function delegationFee(s: StakingRecords, d: number): number {
  const v = s.validators[s.delegations.validator[d] as number] as ValidatorRecord;
  return Math.floor((delegationGross(s.delegations, d) * v.feeBps) / 10_000);
}

export function rewardAddrOf(s: StakingRecords, code: number): number {
  const idx = Math.floor(code / 4);
  const kind = code % 4;
  if (kind === KIND_VALIDATOR) return (s.validators[idx] as ValidatorRecord).rewardAddr;
  if (kind === KIND_DELEGATOR) return s.delegations.addr[idx] as number;
  return (s.validators[s.delegations.validator[idx] as number] as ValidatorRecord).rewardAddr;
}

export function rewardValidatorOf(s: StakingRecords, code: number): number {
  const idx = Math.floor(code / 4);
  return code % 4 === KIND_VALIDATOR ? idx : (s.delegations.validator[idx] as number);
}

// ------------------------------------------------------------------ derived ids

export function validatorRewardTx(ctx: NetworkContext, i: number): string {
  return id32(`${ctx.tag}:validator-reward-tx:${i}`);
}

export function delegationTxHash(ctx: NetworkContext, d: number): string {
  return id32(`${ctx.tag}:delegation:${d}`);
}

/** A delegation's tx: a live one's own, else the hash of its index. */
export function delegationTxOf(ctx: NetworkContext, s: Pick<Staking, 'liveDelegationTx'>, d: number): string {
  return s.liveDelegationTx?.(d) ?? delegationTxHash(ctx, d);
}

export function delegationRewardTx(ctx: NetworkContext, d: number): string {
  return id32(`${ctx.tag}:delegation-reward-tx:${d}`);
}

export function rewardUtxoId(ctx: NetworkContext, code: number): string {
  return id32(`${ctx.tag}:reward-utxo:${code}`);
}

// ------------------------------------------------------------------ generation

/**
 * `total` validations (primary and subnet), their delegations and rewards.
 * Each concern draws from its own fork of `root`, so its stream is stable no
 * matter how much the others draw.
 */
export function generateStaking(
  ctx: NetworkContext,
  addresses: AddressBook,
  subnets: readonly Subnet[],
  root: Rng,
  total: number,
): Staking {
  const validators = generateValidators(ctx, addresses, subnets, root.fork('validators'), total);
  const validationsByNodeId = new Map<string, number[]>();
  validators.forEach((v, i) => {
    const own = validationsByNodeId.get(v.nodeId);
    if (own) own.push(i);
    else validationsByNodeId.set(v.nodeId, [i]);
  });
  const { delegations, delegationsByStatus, delegationsByAddr } = generateDelegations(ctx, addresses, validators, root.fork('delegators'));
  const records: StakingRecords = { validators, delegations };
  finishValidators(ctx, records);
  const validationsByAddr = keyIndex(addresses.list.length);
  validators.forEach((v, i) => {
    if (v.primary) pushTo(validationsByAddr, v.rewardAddr, i);
  });
  const { historical, pending } = buildRewards(records, addresses.list.length);
  return {
    validators,
    validationsByNodeId,
    validationsByAddr,
    delegations,
    delegationsByStatus,
    delegationsByAddr,
    historical,
    pending,
  };
}

/** Start/end of a validation of the given status, relative to the generation instant. */
function validationTimes(ctx: NetworkContext, rng: Rng, status: ValidationStatus): [number, number] {
  const now = ctx.generatedAt;
  switch (status) {
    case 'active': {
      // At least a day left so the dataset stays plausible while the devnet runs.
      const remaining = rng.int(DAY, 360 * DAY);
      const elapsed = Math.max(rng.int(3600, 365 * DAY - remaining), 14 * DAY - remaining);
      return [now - elapsed, now + remaining];
    }
    case 'completed': {
      const end = now - rng.int(DAY, 1000 * DAY);
      return [end - rng.int(14 * DAY, 365 * DAY), end];
    }
    case 'pending': {
      const start = now + rng.int(3600, 14 * DAY);
      return [start, start + rng.int(14 * DAY, 365 * DAY)];
    }
    case 'removed': {
      const start = now - rng.int(30 * DAY, 400 * DAY);
      return [start, start + 365 * DAY];
    }
  }
}

/**
 * 80% primary-network validations, the rest spread over the subnets; in block
 * (start) order. About a third of the primary-network nodes validated several times.
 */
function generateValidators(
  ctx: NetworkContext,
  addresses: AddressBook,
  subnets: readonly Subnet[],
  rng: Rng,
  total: number,
): ValidatorRecord[] {
  const p = ctx.profile;
  const primaryCount = Math.max(1, Math.round(total * 0.8));
  const subnetCount = total - primaryCount;
  const records: ValidatorRecord[] = [];
  const make = (subnetId: string, primary: boolean, status: ValidationStatus, serial: number): ValidatorRecord => {
    const [start, end] = validationTimes(ctx, rng, status);
    let stake: number;
    let feeBps = -1;
    if (primary) {
      const avax = Math.min(MAX_WEIGHT_AVAX, p.minStakeAvax * Math.exp(Math.abs(normal(rng)) * 1.5));
      stake = Math.round(avax * 1000) * 1_000_000;
      feeBps = rng.bool(0.55) ? 200 : rng.bool(0.7) ? rng.int(200, 1000) : rng.int(1000, 10000);
    } else {
      stake = rng.int(20, 1_000_000);
    }
    return {
      nodeId: nodeIdOf(`${ctx.tag}:node:${serial}`),
      txHash: id32(`${ctx.tag}:validation:${serial}`),
      subnetId,
      primary,
      status,
      start,
      end,
      stake,
      feeBps,
      rewardAddr: pickAddress(addresses, rng, 0.2),
      delegators: [],
      delegated: 0,
      uptime: -1,
      capacity: -1,
      stakePercentage: 0,
      validationReward: 0,
      delegationReward: 0,
      removeTimestamp: 0,
      whale: false,
    };
  };
  const forcedPrimary: ValidationStatus[] = ['active', 'completed', 'pending'];
  for (let i = 0; i < primaryCount; i++) {
    const r = rng.next();
    const status = forcedPrimary[i] ?? (r < 0.6 ? 'active' : r < 0.95 ? 'completed' : 'pending');
    records.push(make(PRIMARY_NETWORK_ID, true, status, i));
  }
  const others = subnets.slice(1);
  const l1s = others.filter((s) => s.isL1);
  const plain = others.filter((s) => !s.isL1);
  // Subnets with chains attract most validators; a few subnets keep none.
  const weights = others.map((s) => (s.blockchains.length > 0 ? 1 + rng.next() * 4 : rng.next() * 0.3));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const pickSubnet = (): Subnet => {
    let x = rng.next() * weightSum;
    for (let k = 0; k < others.length; k++) {
      x -= weights[k] as number;
      if (x <= 0) return others[k] as Subnet;
    }
    return others[others.length - 1] as Subnet;
  };
  const forcedSubnet: ValidationStatus[] = ['active', 'completed', 'pending', 'removed'];
  for (let i = 0; i < subnetCount; i++) {
    let subnet = pickSubnet();
    let status: ValidationStatus | undefined = forcedSubnet[i];
    // Removal is how permissioned (L1) validator sets shrink; completion is for plain subnets.
    if (status === 'removed' && l1s[0]) subnet = l1s[0];
    if (status === 'completed' && plain[0]) subnet = plain[0];
    if (!status) {
      const r = rng.next();
      status = subnet.isL1 ? (r < 0.7 ? 'active' : r < 0.8 ? 'pending' : 'removed') : r < 0.6 ? 'active' : r < 0.9 ? 'completed' : 'pending';
    }
    const v = make(subnet.subnetId, false, status, primaryCount + i);
    if (status === 'removed') v.removeTimestamp = uniform(rng, v.start + 3600, ctx.generatedAt - 60);
    records.push(v);
  }
  // Index order = block order: validations enter the chain in start order.
  records.sort((a, b) => a.start - b.start || (a.txHash < b.txHash ? -1 : 1));
  // Last, so the draws above are the same with or without it.
  chainRevalidations(records, rng);
  return records;
}

/**
 * Delegations to primary-network validators (a few "whales" among the active
 * ones get hundreds); fills each validator's `delegators` list.
 */
function generateDelegations(
  ctx: NetworkContext,
  addresses: AddressBook,
  validators: readonly ValidatorRecord[],
  rng: Rng,
): Pick<Staking, 'delegations' | 'delegationsByStatus' | 'delegationsByAddr'> {
  const p = ctx.profile;
  const now = ctx.generatedAt;
  const active = validators.map((v, i) => [v, i] as const).filter(([v]) => v.primary && v.status === 'active');
  const whales = Math.min(active.length, Math.max(p.minWhales, Math.round(active.length * p.whaleShare)));
  // Spread whales over the set instead of taking the oldest validators.
  for (let k = 0; k < whales; k++) {
    const entry = active[Math.floor(((k + 0.5) * active.length) / whales)];
    if (!entry) continue;
    entry[0].whale = true;
    // Big staking services: large self-stake, low fee.
    entry[0].stake = Math.round(rng.int(200_000, 1_000_000) * NANO);
    entry[0].feeBps = rng.int(200, 500);
  }
  const vIdx: number[] = [];
  const amount: number[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const status: number[] = [];
  const addr: number[] = [];
  const lognormal = (mu: number): number => Math.floor(Math.exp(mu + p.delegatorSigma * normal(rng)));
  validators.forEach((v, i) => {
    if (!v.primary) return;
    let count: number;
    if (v.status === 'active') count = v.whale ? rng.int(301, 1400) : Math.min(2000, lognormal(p.delegatorMu));
    else if (v.status === 'completed') count = Math.min(500, lognormal(p.delegatorMu - 0.8));
    else count = rng.int(0, 2);
    for (let k = 0; k < count; k++) {
      let st: DelegationStatus;
      let s: number;
      let e: number;
      if (v.status === 'active') {
        const r = rng.next();
        st = r < 0.2 && now - v.start > 2 * 3600 ? 'completed' : r > 0.95 ? 'pending' : 'active';
        if (st === 'completed') {
          s = uniform(rng, v.start, v.start + (now - v.start) * 0.7);
          e = uniform(rng, s + 3600, now - 60);
        } else if (st === 'active') {
          s = uniform(rng, v.start, now - 60);
          e = uniform(rng, now + 3600, v.end);
        } else {
          s = uniform(rng, now + 60, Math.min(now + 14 * DAY, v.end - 7200));
          e = uniform(rng, s + 3600, v.end);
        }
      } else {
        st = v.status === 'completed' ? 'completed' : 'pending';
        s = uniform(rng, v.start, v.end - 7200);
        e = uniform(rng, s + 3600, v.end);
      }
      const avax = Math.min(1_000_000, p.minDelegationAvax * Math.exp(Math.abs(normal(rng)) * 1.6));
      vIdx.push(i);
      amount.push(Math.round(avax * 1000) * 1_000_000);
      start.push(s);
      end.push(e);
      status.push(STATUS_CODES.indexOf(st));
      addr.push(pickAddress(addresses, rng, 0.35));
    }
  });
  // Index order = start order (ties by generation order), via packed numeric keys.
  const n = vIdx.length;
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) keys[k] = (start[k] as number) * 2 ** 21 + k;
  keys.sort();
  const t = {
    validator: new Int32Array(n),
    amount: new Float64Array(n),
    start: new Uint32Array(n),
    end: new Uint32Array(n),
    status: new Uint8Array(n),
    addr: new Int32Array(n),
  };
  const byStatus: number[][] = [[], [], []];
  const byAddr = keyIndex(addresses.list.length);
  for (let j = 0; j < n; j++) {
    const k = (keys[j] as number) % 2 ** 21;
    t.validator[j] = vIdx[k] as number;
    t.amount[j] = amount[k] as number;
    t.start[j] = start[k] as number;
    t.end[j] = end[k] as number;
    t.status[j] = status[k] as number;
    t.addr[j] = addr[k] as number;
    (validators[vIdx[k] as number] as ValidatorRecord).delegators.push(j);
    (byStatus[status[k] as number] as number[]).push(j);
    pushTo(byAddr, addr[k] as number, j);
  }
  const delegationsByStatus = new Map<DelegationStatus, Int32Array>();
  STATUS_CODES.forEach((s, k) => delegationsByStatus.set(s, Int32Array.from(byStatus[k] as number[])));
  return { delegations: t, delegationsByStatus, delegationsByAddr: byAddr };
}

/** Uptime, stake share, delegated amount, rewards and capacity of each validator, once its delegations exist. */
function finishValidators(ctx: NetworkContext, s: StakingRecords): void {
  const rng = new Rng(`${ctx.tag}:finish`);
  for (const v of s.validators) {
    if (v.status === 'active') v.uptime = round(Math.max(50, 100 - Math.abs(normal(rng)) * 2.5), 4);
  }
  deriveStakeShares(s);
  deriveAmounts(s);
}

/** Each active validator's share of its subnet's active stake (others keep theirs). */
export function deriveStakeShares(s: StakingRecords): void {
  const activeStake = new Map<string, number>();
  for (const v of s.validators) {
    if (v.status === 'active') activeStake.set(v.subnetId, (activeStake.get(v.subnetId) ?? 0) + v.stake);
  }
  for (const v of s.validators) {
    if (v.status === 'active') v.stakePercentage = round((v.stake / (activeStake.get(v.subnetId) ?? v.stake)) * 100, 6);
  }
}

/** Delegated amount, rewards and capacity of each primary validator, from its status and its delegations' statuses. */
export function deriveAmounts(s: StakingRecords): void {
  const t = s.delegations;
  for (const v of s.validators) {
    if (!v.primary) continue;
    v.validationReward = grossReward(v.stake, v.start, v.end);
    let delegated = 0;
    let fees = 0;
    for (const d of v.delegators) {
      const st = delegationStatus(t, d);
      const fee = delegationFee(s, d);
      if (v.status === 'active') {
        if (st === 'active') delegated += t.amount[d] as number;
        if (st !== 'completed') fees += fee;
      } else {
        delegated += t.amount[d] as number;
        fees += fee;
      }
    }
    v.delegated = delegated;
    v.delegationReward = fees;
    v.capacity = -1;
    if (v.status === 'active') {
      const maxWeight = Math.min(v.stake * 5, MAX_WEIGHT_AVAX * NANO);
      v.capacity = Math.max(0, maxWeight - v.stake - delegated);
    }
  }
}

/**
 * Historical: completed validations (VALIDATOR), completed delegations (DELEGATOR)
 * and the validator's fee on each completed delegation (VALIDATOR_FEE).
 * Pending: active validations and delegations.
 */
export function buildRewards(s: StakingRecords, addressCount: number): { historical: RewardIndex; pending: RewardIndex } {
  const t = s.delegations;
  const hist: number[] = [];
  const histEnd: number[] = [];
  const pend: number[] = [];
  const pendStart: number[] = [];
  s.validators.forEach((v, i) => {
    if (!v.primary) return;
    if (v.status === 'completed') {
      hist.push(i * 4 + KIND_VALIDATOR);
      histEnd.push(v.end);
    } else if (v.status === 'active') {
      pend.push(i * 4 + KIND_VALIDATOR);
      pendStart.push(v.start);
    }
  });
  for (let d = 0; d < t.status.length; d++) {
    const st = delegationStatus(t, d);
    if (st === 'completed') {
      hist.push(d * 4 + KIND_DELEGATOR);
      histEnd.push(t.end[d] as number);
      if (delegationFee(s, d) > 0) {
        hist.push(d * 4 + KIND_FEE);
        histEnd.push(t.end[d] as number);
      }
    } else if (st === 'active') {
      pend.push(d * 4 + KIND_DELEGATOR);
      pendStart.push(t.start[d] as number);
    }
  }
  const index = (codes: Int32Array): RewardIndex => {
    const byAddr = keyIndex(addressCount);
    const byValidator = keyIndex(s.validators.length);
    codes.forEach((code, pos) => {
      pushTo(byAddr, rewardAddrOf(s, code), pos);
      pushTo(byValidator, rewardValidatorOf(s, code), pos);
    });
    return { codes, byAddr, byValidator };
  };
  return { historical: index(timeOrdered(hist, histEnd)), pending: index(timeOrdered(pend, pendStart)) };
}

/** `codes` sorted by `times` (ties by position), via packed numeric keys. */
function timeOrdered(codes: number[], times: number[]): Int32Array {
  const keys = new Float64Array(codes.length);
  for (let k = 0; k < codes.length; k++) keys[k] = (times[k] as number) * 2 ** 21 + k;
  keys.sort();
  return Int32Array.from(keys, (key) => codes[key % 2 ** 21] as number);
}

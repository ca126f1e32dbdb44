/**
 * The staking records at an instant: the seeded ones as generated, their statuses moved by the clock
 * (a pending validation or delegation is active once its start has passed, an active one completed once
 * its end has), plus the validations and delegations added after generation (live.ts) from the block
 * that carries them. At or before `generatedAt` the answer is the seeded records themselves.
 *
 * Everything the listings show is derived again from those statuses (delegated amounts, capacity,
 * stake shares, the reward lists), so every endpoint agrees. A snapshot is rebuilt only when the
 * instant passes a transition (a start, an end, a new block with a live validation or delegation):
 * `version` counts the transitions passed, and the routes' page cache keys on it so that no cached
 * page outlives the list it was cut from.
 */

import { PRIMARY_NETWORK_ID, type DelegationStatus, type ValidationStatus } from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import type { AddressBook } from './addresses.ts';
import type { PrimaryRecords } from './generate.ts';
import type { LiveActivity, LiveDelegation, LiveValidation } from './live.ts';
import { normal, round } from './math.ts';
import { keyIndex, pushTo } from './paging.ts';
import {
  buildRewards, deriveAmounts, deriveStakeShares, STATUS_CODES, type DelegationTable, type Staking, type ValidatorRecord,
} from './staking.ts';

export interface StakingSnapshot {
  /** Transitions passed since generation (0: the seeded records). */
  readonly version: number;
  readonly records: PrimaryRecords;
}

export class StakingTimeline {
  /** Starts and ends of seeded validations and delegations after generation, ascending. */
  private readonly seededTimes: Float64Array;
  /** The address book with the activity address appended (the live delegations' reward address). */
  private readonly book: AddressBook;
  private readonly liveAddrIndex: number;
  private memo: { second: number; version: number } | undefined;
  private snapshot: StakingSnapshot;

  constructor(
    private readonly base: PrimaryRecords,
    private readonly live: LiveActivity,
    /** The P-chain's latest height at an instant (seconds). */
    private readonly latestHeight: (nowSec: number) => number,
  ) {
    const gen = base.ctx.generatedAt;
    const times: number[] = [];
    for (const v of base.staking.validators) {
      if (v.status === 'removed') continue;
      if (v.start > gen) times.push(v.start);
      if (v.end > gen) times.push(v.end);
    }
    const t = base.staking.delegations;
    for (let d = 0; d < t.status.length; d++) {
      if ((t.start[d] as number) > gen) times.push(t.start[d] as number);
      if ((t.end[d] as number) > gen) times.push(t.end[d] as number);
    }
    this.seededTimes = Float64Array.from(times).sort();
    const { addresses } = base;
    this.liveAddrIndex = addresses.list.length;
    this.book = {
      list: [...addresses.list, live.address],
      indexOf: new Map([...addresses.indexOf, [live.address, this.liveAddrIndex]]),
      hot: addresses.hot,
    };
    this.snapshot = { version: 0, records: base };
  }

  /** How many transitions `nowSec` has passed (memoised per second). */
  version(nowSec: number): number {
    if (this.memo?.second === nowSec) return this.memo.version;
    let version = 0;
    if (nowSec > this.base.ctx.generatedAt) {
      version = upperBound(this.seededTimes, nowSec);
      const height = this.latestHeight(nowSec);
      for (const v of this.live.validationsThrough(height)) version += 1 + Number(v.start <= nowSec) + Number(v.end <= nowSec);
      for (const d of this.live.delegationsThrough(height)) version += 1 + Number(d.start <= nowSec) + Number(d.end <= nowSec);
    }
    this.memo = { second: nowSec, version };
    return version;
  }

  /** The records as of `nowSec`, rebuilt when a transition has passed since the last call. */
  at(nowSec: number): StakingSnapshot {
    const version = this.version(nowSec);
    if (version === this.snapshot.version) return this.snapshot;
    this.snapshot = {
      version,
      records: version === 0 ? this.base : { ...this.base, addresses: this.book, staking: this.stakingAt(nowSec) },
    };
    return this.snapshot;
  }

  private stakingAt(now: number): Staking {
    const { ctx, staking: seeded } = this.base;
    const height = this.latestHeight(now);
    const liveValidations = this.live.validationsThrough(height);
    const liveDelegations = this.live.delegationsThrough(height);
    const validators: ValidatorRecord[] = seeded.validators.map((v) => moved(ctx.tag, v, now));
    for (const lv of liveValidations) validators.push(liveRecord(ctx.tag, lv, now));
    const delegations = this.delegationsAt(seeded.delegations, liveDelegations, validators, now);
    const validationsByNodeId = new Map<string, number[]>();
    const validationsByAddr = keyIndex(this.book.list.length);
    validators.forEach((v, i) => {
      const own = validationsByNodeId.get(v.nodeId);
      if (own) own.push(i);
      else validationsByNodeId.set(v.nodeId, [i]);
      if (v.primary) pushTo(validationsByAddr, v.rewardAddr, i);
    });
    const delegationsByAddr = keyIndex(this.book.list.length);
    const byStatus: number[][] = [[], [], []];
    for (let d = 0; d < delegations.status.length; d++) {
      (validators[delegations.validator[d] as number] as ValidatorRecord).delegators.push(d);
      (byStatus[delegations.status[d] as number] as number[]).push(d);
      pushTo(delegationsByAddr, delegations.addr[d] as number, d);
    }
    const delegationsByStatus = new Map<DelegationStatus, Int32Array>();
    STATUS_CODES.forEach((s, k) => delegationsByStatus.set(s, Int32Array.from(byStatus[k] as number[])));
    const records = { validators, delegations };
    deriveStakeShares(records);
    deriveAmounts(records);
    const { historical, pending } = buildRewards(records, this.book.list.length);
    const seededCount = seeded.delegations.status.length;
    const liveDelegationTx = (d: number): string | undefined => {
      const live = liveDelegations[d - seededCount];
      return live && this.live.delegationTx(live.height);
    };
    return {
      validators, validationsByNodeId, validationsByAddr, delegations, delegationsByStatus, delegationsByAddr, historical, pending, liveDelegationTx,
    };
  }

  /** The seeded delegations with their statuses at `now`, then the live ones (each to its validation's index). */
  private delegationsAt(seeded: DelegationTable, live: readonly LiveDelegation[], validators: readonly ValidatorRecord[], now: number): DelegationTable {
    const n = seeded.status.length;
    const total = n + live.length;
    const t = {
      validator: new Int32Array(total),
      amount: new Float64Array(total),
      start: new Uint32Array(total),
      end: new Uint32Array(total),
      status: new Uint8Array(total),
      addr: new Int32Array(total),
    };
    t.validator.set(seeded.validator);
    t.amount.set(seeded.amount);
    t.start.set(seeded.start);
    t.end.set(seeded.end);
    t.addr.set(seeded.addr);
    for (let d = 0; d < n; d++) t.status[d] = STATUS_CODES.indexOf(statusAt(seeded.start[d] as number, seeded.end[d] as number, now));
    const byTx = new Map<string, number>();
    validators.forEach((v, i) => {
      if (v.nodeId === this.live.nodeId) byTx.set(v.txHash, i);
    });
    live.forEach((d, k) => {
      const j = n + k;
      t.validator[j] = byTx.get(d.validationTx) as number;
      t.amount[j] = d.amount;
      t.start[j] = d.start;
      t.end[j] = d.end;
      t.status[j] = STATUS_CODES.indexOf(statusAt(d.start, d.end, now));
      t.addr[j] = this.liveAddrIndex;
    });
    return t;
  }
}

function statusAt(start: number, end: number, now: number): 'pending' | 'active' | 'completed' {
  return start > now ? 'pending' : end <= now ? 'completed' : 'active';
}

/** A seeded validation as of `now` (a copy; its delegators are listed again by the caller). */
function moved(tag: string, v: ValidatorRecord, now: number): ValidatorRecord {
  const status: ValidationStatus = v.status === 'removed' ? 'removed' : statusAt(v.start, v.end, now);
  const out = { ...v, status, delegators: [] };
  if (status === v.status) return out;
  out.uptime = status === 'active' ? uptimeOf(tag, v.txHash) : -1;
  if (status !== 'active') out.stakePercentage = 0;
  return out;
}

/** Uptime of a validation that became active after generation: drawn from its own label. */
function uptimeOf(tag: string, txHash: string): number {
  return round(Math.max(50, 100 - Math.abs(normal(new Rng(`${tag}:uptime:${txHash}`))) * 2.5), 4);
}

function liveRecord(tag: string, lv: LiveValidation, now: number): ValidatorRecord {
  const status = statusAt(lv.start, lv.end, now);
  return {
    nodeId: lv.nodeId, txHash: lv.txHash, subnetId: PRIMARY_NETWORK_ID, primary: true, status, start: lv.start, end: lv.end,
    stake: lv.stake, feeBps: lv.feeBps, rewardAddr: lv.rewardAddr, delegators: [], delegated: 0,
    uptime: status === 'active' ? uptimeOf(tag, lv.txHash) : -1, capacity: -1, stakePercentage: 0,
    validationReward: 0, delegationReward: 0, removeTimestamp: 0, whale: false,
  };
}

/** How many of the ascending `xs` are at most `x`. */
function upperBound(xs: Float64Array, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

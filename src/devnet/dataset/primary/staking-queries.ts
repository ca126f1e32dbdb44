/**
 * Answers to the staking list queries (validators, delegators, historical and
 * pending rewards) over the generated records. Validator orders for every sort
 * key are built once, at construction, so no request pays for sorting; node-id
 * filters use a sorted copy of the ids.
 */

import { VALIDATOR_SORT_BY } from '../../../shapes/index.ts';
import type {
  CurrencyCode,
  Delegator,
  HistoricalReward,
  PendingReward,
  SortOrder,
  Subnet,
  ValidationStatus,
  Validator,
  ValidatorSortBy,
} from '../../../shapes/index.ts';
import type { PrimaryRecords } from './generate.ts';
import { emptyPage, pageOf, sortedUnion, type List } from './paging.ts';
import { rewardValidatorOf, STATUS_CODES, type RewardIndex, type Staking, type ValidatorRecord } from './staking.ts';
import { toDelegator, toHistoricalReward, toPendingReward, toValidator } from './staking-wire.ts';
import type { DelegatorQuery, Page, RewardQuery, ValidatorQuery } from './types.ts';

export class StakingQueries {
  private readonly staking: Staking;
  private readonly addressIndex: ReadonlyMap<string, number>;
  private readonly nodeIdsSorted: string[];
  /** Validator index of each entry of `nodeIdsSorted`. */
  private readonly nodeIdsSortedIdx: Int32Array;
  private readonly orderCache = new Map<string, Int32Array>();
  private readonly rankCache = new Map<string, Int32Array>();

  /**
   * `nowSec` is the clock (seconds) time-dependent filters and progress use. `prewarm` builds every
   * sorted order now; the records the clock moves (timeline.ts) are replaced often, so theirs are built
   * on first use instead.
   */
  constructor(
    private readonly data: PrimaryRecords,
    private readonly subnetById: ReadonlyMap<string, Subnet>,
    private readonly nowSec: () => number,
    prewarm = true,
  ) {
    this.staking = data.staking;
    this.addressIndex = data.addresses.indexOf;
    const sorted = this.staking.validators.map((v, i) => [v.nodeId, i] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.nodeIdsSorted = sorted.map((e) => e[0]);
    this.nodeIdsSortedIdx = Int32Array.from(sorted, (e) => e[1]);
    // Sorted orders are built now so that no request pays for them.
    if (prewarm) for (const sortBy of VALIDATOR_SORT_BY) {
      this.rank(sortBy, 'asc');
      this.rank(sortBy, 'desc');
    }
  }

  // ---------------------------------------------------------------- validator orders

  private sortKey(sortBy: ValidatorSortBy, v: ValidatorRecord, i: number): number | undefined {
    switch (sortBy) {
      case 'blockIndex':
        return i;
      case 'timeRemaining':
        return v.end;
      case 'delegationCapacity':
        return v.capacity >= 0 ? v.capacity : undefined;
      case 'delegationFee':
        return v.feeBps >= 0 ? v.feeBps : undefined;
      case 'uptimePerformance':
        return v.uptime >= 0 ? v.uptime : undefined;
    }
  }

  /**
   * All validators in the order of `sortBy`. Validators without that value
   * (capacity and uptime exist only for active ones) come last in both directions,
   * so the list is (present, ascending or descending) + (missing, in block order
   * or reversed).
   */
  private fullOrder(sortBy: ValidatorSortBy, order: SortOrder): Int32Array {
    const key = `${sortBy}|${order}`;
    const cached = this.orderCache.get(key);
    if (cached) return cached;
    const present: number[] = [];
    const keys = new Float64Array(this.staking.validators.length);
    const missing: number[] = [];
    this.staking.validators.forEach((v, i) => {
      const k = this.sortKey(sortBy, v, i);
      if (k === undefined) missing.push(i);
      else {
        present.push(i);
        keys[i] = k;
      }
    });
    present.sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b);
    const asc = Int32Array.from([...present, ...missing]);
    const desc = Int32Array.from([...present.reverse(), ...missing.reverse()]);
    this.orderCache.set(`${sortBy}|asc`, asc);
    this.orderCache.set(`${sortBy}|desc`, desc);
    return order === 'asc' ? asc : desc;
  }

  /** `fullOrder` restricted to a subnet and/or status, memoised (only known subnets reach here). */
  private filteredOrder(sortBy: ValidatorSortBy, order: SortOrder, subnetId?: string, status?: ValidationStatus): Int32Array {
    const full = this.fullOrder(sortBy, order);
    if (subnetId === undefined && status === undefined) return full;
    const key = `${sortBy}|${order}|${subnetId ?? '*'}|${status ?? '*'}`;
    const cached = this.orderCache.get(key);
    if (cached) return cached;
    const out = full.filter((i) => {
      const v = this.staking.validators[i] as ValidatorRecord;
      return (subnetId === undefined || v.subnetId === subnetId) && (status === undefined || v.status === status);
    });
    this.orderCache.set(key, out);
    return out;
  }

  private rank(sortBy: ValidatorSortBy, order: SortOrder): Int32Array {
    const key = `${sortBy}|${order}`;
    const cached = this.rankCache.get(key);
    if (cached) return cached;
    const full = this.fullOrder(sortBy, order);
    const rank = new Int32Array(full.length);
    full.forEach((i, pos) => {
      rank[i] = pos;
    });
    this.rankCache.set(key, rank);
    return rank;
  }

  /**
   * Validators whose node id contains any of `needles`. A needle that starts with
   * `NodeID-` can only occur at the start of a node id (`-` is not base58), so it is
   * a prefix search on the sorted ids; other needles scan the ids.
   */
  private matchNodeIds(needles: readonly string[]): number[] {
    const found = new Set<number>();
    for (const needle of needles) {
      if (needle.startsWith('NodeID-')) {
        let lo = 0;
        let hi = this.nodeIdsSorted.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if ((this.nodeIdsSorted[mid] as string) < needle) lo = mid + 1;
          else hi = mid;
        }
        for (let k = lo; k < this.nodeIdsSorted.length && (this.nodeIdsSorted[k] as string).startsWith(needle); k++) {
          found.add(this.nodeIdsSortedIdx[k] as number);
        }
      } else {
        this.staking.validators.forEach((v, i) => {
          if (v.nodeId.includes(needle)) found.add(i);
        });
      }
    }
    return [...found];
  }

  // ---------------------------------------------------------------- lists

  /**
   * Filters: fee percentage applies to primary-network validations only (a subnet
   * validation's fee is null, so any fee filter excludes it, as the seed says).
   * Uptime and delegation capacity exist only for active validations: when such a
   * filter is given, validations without the value do not match. The public spec's
   * documented defaults (uptime 90-100, fee 2-100) are NOT applied when a parameter
   * is absent, since that would hide every non-active validator from a plain listing.
   * Time remaining is `max(0, end - now)` for every status, so a completed
   * validation has 0 left.
   */
  listValidators(q: ValidatorQuery, offset: number, limit: number): Page<Validator> {
    if (q.subnetId !== undefined && !this.subnetById.has(q.subnetId)) return emptyPage();
    const now = this.nowSec();
    let list: List;
    if (q.nodeIds) {
      // Few matches, usually: order them by their position in the precomputed order.
      const rank = this.rank(q.sortBy, q.sortOrder);
      list = Int32Array.from(this.matchNodeIds(q.nodeIds)).sort((a, b) => (rank[a] as number) - (rank[b] as number));
    } else {
      list = this.filteredOrder(q.sortBy, q.sortOrder, q.subnetId, q.validationStatus);
    }
    const accept = (i: number): boolean => {
      const v = this.staking.validators[i] as ValidatorRecord;
      if (q.subnetId !== undefined && v.subnetId !== q.subnetId) return false;
      if (q.validationStatus !== undefined && v.status !== q.validationStatus) return false;
      if (q.feePercentage && (v.feeBps < 0 || v.feeBps / 100 < q.feePercentage[0] || v.feeBps / 100 > q.feePercentage[1])) return false;
      if (q.uptimePerformance && (v.uptime < 0 || v.uptime < q.uptimePerformance[0] || v.uptime > q.uptimePerformance[1])) return false;
      if (q.delegationCapacity && (v.capacity < 0 || v.capacity < q.delegationCapacity[0] || v.capacity > q.delegationCapacity[1])) return false;
      if (q.timeRemaining) {
        const left = Math.max(0, v.end - now);
        if (left < q.timeRemaining[0] || left > q.timeRemaining[1]) return false;
      }
      return true;
    };
    // Lists are already in the requested order, so walk them forwards.
    return pageOf(list, 'asc', accept, offset, limit, (i) => toValidator(this.data, i));
  }

  listDelegators(q: DelegatorQuery, offset: number, limit: number): Page<Delegator> {
    const t = this.staking.delegations;
    let list: List;
    let addrFilter: Set<number> | undefined;
    const addrIdx = q.rewardAddresses?.map((a) => this.addressIndex.get(a)).filter((a): a is number => a !== undefined);
    if (q.nodeIds) {
      const validators = this.matchNodeIds(q.nodeIds);
      list = sortedUnion(validators.map((i) => (this.staking.validators[i] as ValidatorRecord).delegators));
      if (addrIdx) addrFilter = new Set(addrIdx);
    } else if (addrIdx) {
      list = sortedUnion(addrIdx.map((a) => this.staking.delegationsByAddr[a]));
    } else if (q.delegationStatus) {
      list = this.staking.delegationsByStatus.get(q.delegationStatus) ?? new Int32Array(0);
    } else {
      list = t.status.length;
    }
    const wanted = q.delegationStatus === undefined ? -1 : STATUS_CODES.indexOf(q.delegationStatus);
    const accept = (d: number): boolean =>
      (wanted < 0 || t.status[d] === wanted) && (!addrFilter || addrFilter.has(t.addr[d] as number));
    return pageOf(list, q.sortOrder, accept, offset, limit, (d) => toDelegator(this.data, d));
  }

  /** Positions in `rewards.codes` matching `q`, by address and/or validator. */
  private rewardPositions(q: RewardQuery, { codes, byAddr, byValidator }: RewardIndex): { list: List; accept: (pos: number) => boolean } {
    // Every validation of each node: a node's rewards span all the times it validated.
    const validatorIdx = q.nodeIds?.flatMap((n) => this.staking.validationsByNodeId.get(n) ?? []);
    if (q.addresses) {
      const addrIdx = q.addresses.map((a) => this.addressIndex.get(a)).filter((a): a is number => a !== undefined);
      const list = sortedUnion(addrIdx.map((a) => byAddr[a]));
      if (!validatorIdx) return { list, accept: () => true };
      const wanted = new Set(validatorIdx);
      return { list, accept: (pos) => wanted.has(rewardValidatorOf(this.staking, codes[pos] as number)) };
    }
    return { list: sortedUnion((validatorIdx ?? []).map((i) => byValidator[i])), accept: () => true };
  }

  /** Both `addresses` and `nodeIds` narrow the result when both are given. Newest `endTimestamp` first by default. */
  listHistoricalRewards(q: RewardQuery, currency: CurrencyCode, offset: number, limit: number): Page<HistoricalReward> {
    const { codes } = this.staking.historical;
    const { list, accept } = this.rewardPositions(q, this.staking.historical);
    return pageOf(list, q.sortOrder, accept, offset, limit, (pos) => toHistoricalReward(this.data, codes[pos] as number, currency));
  }

  /** Ordered by `startTimestamp`. */
  listPendingRewards(q: RewardQuery, offset: number, limit: number): Page<PendingReward> {
    const now = this.nowSec();
    const { codes } = this.staking.pending;
    const { list, accept } = this.rewardPositions(q, this.staking.pending);
    return pageOf(list, q.sortOrder, accept, offset, limit, (pos) => toPendingReward(this.data, codes[pos] as number, now));
  }
}

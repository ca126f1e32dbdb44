/**
 * Nodes that validated more than once. On mainnet a node re-validates again and
 * again over the years, and each time is a separate validation record: its own
 * add-validator tx, period, stake, fee, delegations and rewards. A gateway that
 * links a delegation or a reward to "the node's validation" picks the wrong record
 * unless the data has such nodes, so the devnet has them too.
 *
 * Generation first makes every validation with a node of its own; this module then
 * hands earlier completed validations to the node of a later one, each ending
 * before the next starts (mostly within days, as validators re-stake; sometimes
 * after a pause of months). Only the owner of a record changes: the number of
 * records, their statuses, periods and every other draw stay as generated, so
 * `validators` keeps meaning validation records and the other streams are unmoved.
 */

import type { ValidationStatus } from '../../../shapes/index.ts';
import type { Rng } from '../../rng.ts';
import { DAY } from './constants.ts';

/** What this module reads and changes of a validation record. */
export interface Revalidatable {
  nodeId: string;
  primary: boolean;
  status: ValidationStatus;
  start: number;
  end: number;
}

/**
 * Chance that the node of a validation has validated before, by the status of its
 * latest validation; with the earlier validations handed over, about a third of the
 * primary-network nodes end up with several records.
 */
const HAS_HISTORY: Readonly<Record<ValidationStatus, number>> = { active: 0.55, pending: 0.55, completed: 0.2, removed: 0 };
/** After each earlier validation, the chance of one more before it (at most `MAX_EARLIER`). */
const ONE_MORE = 0.4;
const MAX_EARLIER = 4;

/**
 * Hands earlier completed primary-network validations to the nodes of later ones.
 * A node's validations never overlap: each earlier one ends at least an hour before
 * the next one starts, so a delegation's period (always within its validation's)
 * lies within exactly one validation of its node.
 */
export function chainRevalidations(records: readonly Revalidatable[], rng: Rng): void {
  const primary = records.filter((v) => v.primary);
  // Donors: completed validations by end, oldest first; `free` finds the latest unused one at or before an index.
  const donors = primary.filter((v) => v.status === 'completed').sort((a, b) => a.end - b.end);
  const donorIndex = new Map(donors.map((v, i) => [v, i] as const));
  const parent = Int32Array.from(donors, (_, i) => i);
  const free = (i: number): number => {
    let root = i;
    while (root >= 0 && parent[root] !== root) root = parent[root] as number;
    // Path compression keeps later look-ups short.
    for (let k = i; k >= 0 && parent[k] !== k; ) {
      const next = parent[k] as number;
      parent[k] = root;
      k = next;
    }
    return root;
  };
  const take = (i: number): void => {
    parent[i] = i - 1;
  };
  /** Index of the last donor ending at or before `t`, or -1. */
  const lastEndingBy = (t: number): number => {
    let lo = 0;
    let hi = donors.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((donors[mid] as Revalidatable).end <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  };

  for (const head of shuffled(primary, rng)) {
    const own = donorIndex.get(head);
    // Already handed to another node, as one of its earlier validations.
    if (own !== undefined && free(own) !== own) continue;
    if (!rng.bool(HAS_HISTORY[head.status])) continue;
    // A completed validation that heads a node's history is no longer anyone's earlier one.
    if (own !== undefined) take(own);
    let earlier = 1;
    while (earlier < MAX_EARLIER && rng.bool(ONE_MORE)) earlier++;
    let cursor = head.start;
    for (let k = 0; k < earlier; k++) {
      // Most validators re-stake within days of the end; some come back after a pause.
      const gap = rng.bool(0.8) ? rng.int(3600, 10 * DAY) : rng.int(30 * DAY, 300 * DAY);
      const found = free(lastEndingBy(cursor - gap));
      if (found < 0) break;
      const donor = donors[found] as Revalidatable;
      take(found);
      donor.nodeId = head.nodeId;
      cursor = donor.start;
    }
  }
}

/** A copy of `items` in a random order (Fisher-Yates). */
function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

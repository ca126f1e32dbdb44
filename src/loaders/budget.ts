import type { UpstreamObserver } from '../upstream/client-types.ts';
import { isBilledStatus } from '../lib/compute-units.ts';

/**
 * The upstream calls of one operation, or of one event of a subscription (its
 * window), counted twice: in calls and in the Data API's compute units (CUs, each
 * call its endpoint's weight). Calls are counted when they are admitted, before they
 * are sent, so calls started together cannot overshoot the limits together; a call
 * past either limit is refused unsent and its field fails with QUERY_TOO_COSTLY. The
 * budget counts calls, not attempts: a retry of an admitted call (429, 5xx, a dropped
 * connection) is let through and tallied in `retries`, since refusing it would turn
 * a passing upstream hiccup into a cost error; the retry policy bounds them (2 per
 * call by default). Cache hits and shared in-flight calls this request joined never
 * reach the HTTP layer and cost nothing.
 */
export interface UpstreamBudget {
  /** Calls admitted in the current window (first attempts; see `retries`). */
  count: number;
  /** Most calls admitted per window. Infinity until `useQueryCost` sets it from the estimate. */
  limit: number;
  /** Calls refused because the window's budget was spent. */
  refused: number;
  /** Retries made (attempts after the first of a call): admitted outside the budget, bounded by the retry policy. */
  retries: number;
  /** Compute units of the calls admitted in the current window (their endpoints' weights). */
  computeUnits?: number;
  /** Most compute units admitted per window. Infinity (or absent) until `useQueryCost` sets it from the estimate. */
  computeUnitLimit?: number;
  /** Compute units of the Data API calls of this window the upstream bills (answered 2xx, or refused 4xx for what they asked: `isBilledStatus`). */
  actualComputeUnits?: number;
}

/** A new budget: nothing admitted, no limit yet. */
export function createBudget(limit = Infinity): UpstreamBudget {
  return { count: 0, limit, refused: 0, retries: 0, computeUnits: 0, computeUnitLimit: Infinity, actualComputeUnits: 0 };
}

/** Starts a new window: a subscription's next poll or event gets its whole budget again. */
export function newBudgetWindow(budget: UpstreamBudget | undefined): void {
  if (!budget) return;
  budget.count = 0;
  budget.computeUnits = 0;
  budget.actualComputeUnits = 0;
}

/**
 * The observer that keeps `budget`: admits each first attempt while both limits have room (retries
 * always, tallied), and adds the weight of every Data API attempt the upstream bills to `actualComputeUnits`.
 * Every attempt is passed on to `forward` (the gateway's metrics, the client identity).
 */
export function budgetObserver(budget: UpstreamBudget, forward?: UpstreamObserver): UpstreamObserver {
  return {
    admit: ({ attempt, computeUnits = 0 }) => {
      if (attempt > 1) {
        budget.retries += 1;
        return true;
      }
      const spent = budget.computeUnits ?? 0;
      if (budget.count >= budget.limit || spent + computeUnits > (budget.computeUnitLimit ?? Infinity)) {
        budget.refused += 1;
        return false;
      }
      budget.count += 1;
      budget.computeUnits = spent + computeUnits;
      return true;
    },
    onAttempt: (info) => {
      if (info.computeUnits && info.status !== undefined && isBilledStatus(info.status)) {
        budget.actualComputeUnits = (budget.actualComputeUnits ?? 0) + info.computeUnits;
      }
      forward?.onAttempt(info);
    },
  };
}

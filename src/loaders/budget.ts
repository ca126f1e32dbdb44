/**
 * The upstream calls of one operation, or of one event of a subscription (its
 * window). Calls are counted when they are admitted, before they are sent, so
 * calls started together cannot overshoot the limit together; a call past the
 * limit is refused unsent and its field fails with QUERY_TOO_COSTLY. The budget
 * counts calls, not attempts: a retry of an admitted call (429, 5xx, a dropped
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
}

/** Starts a new window: a subscription's next poll or event gets its whole budget again. */
export function newBudgetWindow(budget: UpstreamBudget | undefined): void {
  if (budget) budget.count = 0;
}

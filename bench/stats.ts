/** Value at percentile `p` of an ascending list (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[rank] as number) * 100) / 100;
}

/**
 * Sequential rounds in a request log: a request belongs to a new round when it
 * started after some request of the current round had already finished (it
 * could have depended on it). Parallel requests share a round. Read from wall-clock
 * overlap, so it is for benchmark reports only: on a loaded machine it counts more
 * rounds than there are. Tests count rounds from dispatch (test/helpers/rounds.ts).
 */
export function countRounds(log: readonly { start: number; end: number }[]): number {
  const sorted = [...log].sort((a, b) => a.start - b.start);
  let rounds = 0;
  let earliestEnd = -Infinity;
  for (const entry of sorted) {
    if (rounds === 0 || entry.start >= earliestEnd) {
      rounds++;
      earliestEnd = entry.end;
    } else {
      earliestEnd = Math.min(earliestEnd, entry.end);
    }
  }
  return rounds;
}

/** Median of a list in any order (the mean of the middle two for an even count); 0 when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * The upstream critical path of one query: the length of the union of its request
 * intervals, i.e. the time with at least one upstream request outstanding. Whatever
 * else the query's wall time holds is the gateway's (and the loopback's) own.
 */
export function busyTime(log: readonly { start: number; end: number }[]): number {
  const sorted = [...log].sort((a, b) => a.start - b.start);
  let total = 0;
  let from = -Infinity;
  let to = -Infinity;
  for (const { start, end } of sorted) {
    if (start > to) {
      if (to > from) total += to - from;
      from = start;
      to = end;
    } else if (end > to) {
      to = end;
    }
  }
  if (to > from) total += to - from;
  return total;
}

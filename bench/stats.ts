/** Value at percentile `p` of an ascending list (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[rank] as number) * 100) / 100;
}

/**
 * Sequential rounds in a request log: a request belongs to a new round when it
 * started after some request of the current round had already finished (it
 * could have depended on it). Parallel requests share a round.
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

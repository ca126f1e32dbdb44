// Two implementations timed side by side (bench/lib-*.ts): rounds interleaved so that whatever else
// the machine does falls on both alike, the median round of each reported, in µs per call.
import { median } from './stats.ts';

/** µs per call of `fn` over `n` calls. */
function time(fn: (i: number) => unknown, n: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn(i);
  return Number(process.hrtime.bigint() - start) / 1000 / n;
}

/** µs per call of `fn` over `n` calls, each awaited before the next. */
async function timeAsync(fn: (i: number) => Promise<unknown>, n: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn(i);
  return Number(process.hrtime.bigint() - start) / 1000 / n;
}

/** Median µs per call of `a` and of `b` (one warm-up round each, then `rounds` interleaved). */
export function measurePair(a: (i: number) => unknown, b: (i: number) => unknown, n: number, rounds = 15): [number, number] {
  time(a, n);
  time(b, n);
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < rounds; r++) {
    ta.push(time(a, n));
    tb.push(time(b, n));
  }
  return [median(ta), median(tb)];
}

/** {@link measurePair} for calls that complete later (a request, a socket). */
export async function measurePairAsync(a: (i: number) => Promise<unknown>, b: (i: number) => Promise<unknown>, n: number, rounds = 9): Promise<[number, number]> {
  await timeAsync(a, n);
  await timeAsync(b, n);
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < rounds; r++) {
    ta.push(await timeAsync(a, n));
    tb.push(await timeAsync(b, n));
  }
  return [median(ta), median(tb)];
}

import { approximately, type SortOrder, type WideInteger } from '../shapes/index.ts';

/**
 * Time facts about staking items (validations, delegations, rewards) that the
 * staking loaders decide by: when an item starts and ends, and whether a listing
 * ordered by time has gone past a period. Reading a timestamp never throws: an
 * upstream value that broke its field (see `src/shapes/kit.ts`) fails that field
 * when a resolver reads it, and here it only means "unknown".
 */

/** A period in unix seconds, both ends included. */
export interface Period {
  start: number;
  end: number;
}

/** What a staking item carries about its period. */
export interface Timed {
  startTimestamp: WideInteger;
  endTimestamp: WideInteger;
}

/** A timestamp as a number, or undefined when the answer broke it (or it is not a finite number). */
export function timeOf(read: () => WideInteger): number | undefined {
  try {
    const t = approximately(read());
    return Number.isFinite(t) ? t : undefined;
  } catch {
    return undefined;
  }
}

/** The item's period, or undefined when either end is unreadable. */
export function periodOf(item: Timed): Period | undefined {
  const start = timeOf(() => item.startTimestamp);
  const end = timeOf(() => item.endTimestamp);
  return start === undefined || end === undefined ? undefined : { start, end };
}

/**
 * The order of a page of a listing "sorted by timestamp" (the public spec's words,
 * without saying which: start or end): `desc` when the items never get later by
 * their start or never by their end, `asc` for the converse, undefined when the page
 * says neither (too few items, equal times, no order, an unreadable time).
 */
export function timeOrderOf(items: readonly Timed[]): SortOrder | undefined {
  const periods: Period[] = [];
  for (const item of items) {
    const p = periodOf(item);
    if (!p) return undefined;
    periods.push(p);
  }
  let startUp = true;
  let startDown = true;
  let endUp = true;
  let endDown = true;
  for (let i = 1; i < periods.length; i++) {
    const a = periods[i - 1] as Period;
    const b = periods[i] as Period;
    if (b.start < a.start) startUp = false;
    if (b.start > a.start) startDown = false;
    if (b.end < a.end) endUp = false;
    if (b.end > a.end) endDown = false;
  }
  // Constant in a key says nothing about the direction of that key.
  const down = (startDown && !startUp) || (endDown && !endUp);
  const up = (startUp && !startDown) || (endUp && !endDown);
  if (down === up) return undefined;
  return down ? 'desc' : 'asc';
}

/**
 * Whether `page`, the start of a listing sorted by time, already holds every item
 * within `period` (an item lies within it when it starts and ends inside it): its
 * last item ended before the period starts (descending) or started after it ends
 * (ascending). That holds whether the listing sorts by start or by end, since an
 * item starts before it ends. The page's own order must agree with `order` (when
 * one was asked for): a page in no time order tells nothing.
 */
export function passedPeriod(page: readonly Timed[], period: Period, order: SortOrder | undefined): boolean {
  const seen = timeOrderOf(page);
  if (seen === undefined || (order !== undefined && seen !== order)) return false;
  const last = periodOf(page[page.length - 1] as Timed);
  if (!last) return false;
  return seen === 'desc' ? last.end < period.start : last.start > period.end;
}

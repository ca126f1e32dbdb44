/**
 * Paging over compact index lists, and the per-key index lists the dataset
 * builds once at generation so that a page costs little more than its items.
 */

import type { SortOrder } from '../../../shapes/index.ts';
import type { Page } from './types.ts';

/** Indices to page through: an array of them, or the count `n` for all of `0..n-1`. */
export type List = ArrayLike<number> | number;

export function emptyPage<T>(): Page<T> {
  return { items: [], hasMore: false };
}

/**
 * Pages through `list` (in the given order), keeping items `accept` lets through:
 * skips `offset` of them, returns up to `limit`, and says whether one more exists.
 */
export function pageOf<T>(
  list: List,
  order: SortOrder,
  accept: (index: number) => boolean,
  offset: number,
  limit: number,
  materialize: (index: number) => T,
): Page<T> {
  const items: T[] = [];
  let seen = 0;
  const n = typeof list === 'number' ? list : list.length;
  for (let k = 0; k < n; k++) {
    const at = order === 'asc' ? k : n - 1 - k;
    const index = typeof list === 'number' ? at : (list[at] as number);
    if (!accept(index)) continue;
    if (seen++ < offset) continue;
    if (items.length === limit) return { items, hasMore: true };
    items.push(materialize(index));
  }
  return { items, hasMore: false };
}

export function sortedUnion(lists: readonly (readonly number[] | undefined)[]): Int32Array {
  let size = 0;
  for (const l of lists) size += l?.length ?? 0;
  const out = new Int32Array(size);
  let k = 0;
  for (const l of lists) if (l) for (const v of l) out[k++] = v;
  out.sort();
  // Remove duplicates (the same key given twice).
  let w = 0;
  for (let r = 0; r < out.length; r++) if (r === 0 || out[r] !== out[r - 1]) out[w++] = out[r] as number;
  return out.subarray(0, w);
}

/** Per key (an address or validator index), the list of item indices or positions under it. */
export type KeyIndex = (number[] | undefined)[];

/** A key -> list index; pre-filled so that sparse writes do not turn the array into a dictionary. */
export function keyIndex(size: number): KeyIndex {
  return new Array<number[] | undefined>(size).fill(undefined);
}

export function pushTo(index: KeyIndex, key: number, value: number): void {
  const list = index[key];
  if (list) list.push(value);
  else index[key] = [value];
}

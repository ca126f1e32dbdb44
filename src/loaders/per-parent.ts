import type { UpstreamPage } from '../lib/pages.ts';

/** One parent's request for the first page of its list (e.g. a validator's delegators). */
export interface PerParentKey {
  parentId: string;
  /** Items wanted (the connection's `first`). */
  first: number;
  /** How many items the parent is expected to have, when the parent says (e.g. `delegatorCount`). */
  expected?: number | undefined;
}

export interface PerParentPlan<T> {
  /** Largest page the endpoint serves. */
  maxPageSize: number;
  /** One upstream listing for these parents (a comma list) with this page size. */
  fetch(parentIds: string[], pageSize: number): Promise<UpstreamPage<T>>;
  /** Which parent an item belongs to (exact, even when the upstream filter matches substrings). */
  parentOf(item: T): string;
}

/**
 * Plans the first pages of many parents' lists in as few upstream calls as the
 * API allows, all in parallel:
 * - parents whose whole list fits in one upstream page (by `expected`) are packed into
 *   shared listings of at most `maxPageSize` items, then split per parent: each gets its
 *   first `first` items and knows whether more exist. The listing's order is the
 *   per-parent order, so these are exactly the items of that parent's own first page;
 * - parents with longer (or unknown) lists get their own listing with `pageSize = first`,
 *   whose `nextPageToken` is then exactly that parent's next page.
 * A packed listing that still comes back with a next page (the hint was stale) is
 * re-planned as individual listings for its parents: a second round, never a wrong answer.
 */
export async function loadFirstPages<T>(keys: readonly PerParentKey[], plan: PerParentPlan<T>): Promise<UpstreamPage<T>[]> {
  const results = new Array<UpstreamPage<T> | undefined>(keys.length);
  const solo: number[] = [];
  const groups: number[][] = [];
  let group: number[] = [];
  let groupSize = 0;

  // Pack the smallest lists first so groups fill evenly.
  const order = keys.map((_, i) => i).sort((a, b) => (keys[a]?.expected ?? Infinity) - (keys[b]?.expected ?? Infinity));
  for (const i of order) {
    const key = keys[i] as PerParentKey;
    const expected = key.expected;
    if (expected === undefined || expected > plan.maxPageSize) {
      solo.push(i);
      continue;
    }
    if (expected === 0) {
      results[i] = { items: [] };
      continue;
    }
    if (groupSize + expected > plan.maxPageSize) {
      groups.push(group);
      group = [];
      groupSize = 0;
    }
    group.push(i);
    groupSize += expected;
  }
  if (group.length > 0) groups.push(group);

  const loadSolo = async (i: number): Promise<void> => {
    const key = keys[i] as PerParentKey;
    const page = await plan.fetch([key.parentId], Math.min(key.first, plan.maxPageSize));
    results[i] = { items: page.items.filter((item) => plan.parentOf(item) === key.parentId), nextPageToken: page.nextPageToken };
  };

  const loadGroup = async (members: number[]): Promise<void> => {
    const ids = [...new Set(members.map((i) => (keys[i] as PerParentKey).parentId))];
    const page = await plan.fetch(ids, plan.maxPageSize);
    if (page.nextPageToken) {
      await Promise.all(members.map(loadSolo));
      return;
    }
    const byParent = new Map<string, T[]>();
    for (const item of page.items) {
      const parent = plan.parentOf(item);
      let list = byParent.get(parent);
      if (!list) byParent.set(parent, (list = []));
      list.push(item);
    }
    for (const i of members) {
      const key = keys[i] as PerParentKey;
      const items = byParent.get(key.parentId) ?? [];
      results[i] = { items: items.slice(0, key.first), hasMore: items.length > key.first };
    }
  };

  await Promise.all([...solo.map(loadSolo), ...groups.map(loadGroup)]);
  return results.map((r) => r ?? { items: [] });
}

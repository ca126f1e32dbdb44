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
  /**
   * Whether a packed listing that goes on (it has a next page), holding `held` items of
   * `parentId`, already holds that parent's whole list: e.g. a listing ordered by time
   * that has gone past the parent's period. Without it, such a listing holds only the
   * start of each parent's list.
   */
  complete?(parentId: string, page: UpstreamPage<T>, held: number): boolean;
  /**
   * The upstream list a parent's list is part of, when several parents share one (the
   * validations of one node share that node's listing): such parents pack together,
   * so a listing that holds one of them holds the others' items too.
   */
  unitOf?(parentId: string): string | undefined;
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
 * A packed listing that comes back with a next page holds the start of each parent's
 * list (it is a prefix of each parent's own list, in order): a parent with more than
 * `first` items in it, or whose whole list `complete` says it holds, is answered from
 * it. The others:
 * - when the listing is full of parents' items only, a hint was stale: they are
 *   re-planned as individual listings, a second round, never a wrong answer;
 * - when it is short (the upstream answered fewer items than asked, as the spec allows)
 *   or also holds items that are no parent's (a listing by node holds every time the
 *   node validated, not only the validations asked for), each gets what it holds (up to
 *   `first`) and `hasMore`, so its connection answers a page that may be short, with a
 *   cursor that goes on in that parent's own listing, and no call is made that the cost
 *   model (`costs.packedListing`) did not count.
 */
export async function loadFirstPages<T>(keys: readonly PerParentKey[], plan: PerParentPlan<T>): Promise<UpstreamPage<T>[]> {
  const results = new Array<UpstreamPage<T> | undefined>(keys.length);
  const solo: number[] = [];
  const groups: number[][] = [];
  let group: number[] = [];
  let groupSize = 0;

  // Parents sharing an upstream list pack as one unit (in the order of their first key), when
  // their lists fit one page together; otherwise each packs alone.
  const units: { members: number[]; expected: number | undefined }[] = [];
  const byUnit = new Map<string, { members: number[]; expected: number | undefined }>();
  keys.forEach((key, i) => {
    if (key.expected === 0) {
      results[i] = { items: [] };
      return;
    }
    const name = plan.unitOf?.(key.parentId);
    const shared = name === undefined ? undefined : byUnit.get(name);
    if (shared) {
      shared.members.push(i);
      shared.expected = shared.expected === undefined || key.expected === undefined ? undefined : shared.expected + key.expected;
      return;
    }
    const unit = { members: [i], expected: key.expected };
    if (name !== undefined) byUnit.set(name, unit);
    units.push(unit);
  });
  const packable = units.flatMap((u) =>
    u.members.length === 1 || (u.expected !== undefined && u.expected <= plan.maxPageSize)
      ? [u]
      : u.members.map((i) => ({ members: [i], expected: keys[i]?.expected })),
  );
  // Pack the smallest lists first so groups fill evenly.
  packable.sort((a, b) => (a.expected ?? Infinity) - (b.expected ?? Infinity));
  for (const { members, expected } of packable) {
    if (expected === undefined || expected > plan.maxPageSize) {
      solo.push(...members);
      continue;
    }
    if (groupSize + expected > plan.maxPageSize) {
      groups.push(group);
      group = [];
      groupSize = 0;
    }
    group.push(...members);
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
    // Without a token the listing held every member's whole list; with one, only their starts.
    const cut = Boolean(page.nextPageToken);
    const memberIds = new Set(ids);
    const byParent = new Map<string, T[]>();
    let foreign = false;
    for (const item of page.items) {
      const parent = plan.parentOf(item);
      if (!memberIds.has(parent)) foreign = true;
      let list = byParent.get(parent);
      if (!list) byParent.set(parent, (list = []));
      list.push(item);
    }
    // Full of the members' own items and still going on: a hint was stale.
    const stale = cut && !foreign && page.items.length >= plan.maxPageSize;
    const unsettled: number[] = [];
    for (const i of members) {
      const key = keys[i] as PerParentKey;
      const items = byParent.get(key.parentId) ?? [];
      const whole = !cut || plan.complete?.(key.parentId, page, items.length) === true;
      if (stale && !whole && items.length <= key.first) unsettled.push(i);
      else results[i] = { items: items.slice(0, key.first), hasMore: items.length > key.first || !whole };
    }
    await Promise.all(unsettled.map(loadSolo));
  };

  await Promise.all([...solo.map(loadSolo), ...groups.map(loadGroup)]);
  return results.map((r) => r ?? { items: [] });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import type { UpstreamPage } from '../../src/lib/pages.ts';
import { delegatorsFirstPage, pendingRewardsFirstPage, type PerValidatorKey, type PerValidatorListArgs } from '../../src/loaders/validators.ts';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { PRIMARY_NETWORK_ID, type Delegator, type PendingReward, type SortOrder, type Validator } from '../../src/shapes/index.ts';
import { createLoaderContext, type TestLoaderContext } from '../helpers/loader-context.ts';

const E13 = 'GET /v1/networks/{network}/delegators';
const E12 = 'GET /v1/networks/{network}/rewards:listPending';
// Pinned, so pending rewards (progress, estimates) read the same in the loader's listing and the direct one.
const NOW = Date.now();

let devnet: Devnet;
let lc: TestLoaderContext;
/** The devnet read directly (not recorded), for the expected answers. */
let api: DataApiClient;
/** Every primary-network validation of mainnet, in listing order. */
let primary: Validator[];
let busyNodeId: string;
/** Pending rewards per node (whole list length), for the validators the tests use. */
const pendingCount = new Map<string, number>();
/**
 * Delegations per node: these keys ask for a node's whole list, which holds every time the node validated
 * (each validation's `delegatorCount` counts its own).
 */
const nodeDelegations = new Map<string, number>();

async function countPending(nodeId: string): Promise<number> {
  let n = 0;
  let token: string | undefined;
  do {
    const page = await api.listPendingRewards('mainnet', { nodeIds: [nodeId], pageSize: 100, ...(token ? { pageToken: token } : {}) });
    n += page.pendingRewards.length;
    token = page.nextPageToken;
  } while (token);
  return n;
}

beforeAll(async () => {
  devnet = await startDevnet({ validators: 300, now: () => NOW });
  api = createDataApiClient({ baseUrl: devnet.url });
  lc = createLoaderContext(devnet);
  busyNodeId = devnet.dataset.fixtures().mainnet.busyNodeId;
  primary = [];
  let token: string | undefined;
  do {
    const page = await api.listValidators('mainnet', { subnetId: PRIMARY_NETWORK_ID, pageSize: 100, ...(token ? { pageToken: token } : {}) });
    primary.push(...page.validators);
    token = page.nextPageToken;
  } while (token);
  for (const v of primary) nodeDelegations.set(v.nodeId, (nodeDelegations.get(v.nodeId) ?? 0) + (v.delegatorCount ?? 0));
  const active = primary.filter((v) => v.validationStatus === 'active');
  const counts = await Promise.all(active.map((v) => countPending(v.nodeId)));
  active.forEach((v, i) => pendingCount.set(v.nodeId, counts[i] as number));
});

afterAll(async () => {
  await lc?.close();
  await api?.close();
  await devnet?.close();
});

const countOf = (v: Validator): number => nodeDelegations.get(v.nodeId) ?? 0;
const active = (): Validator[] => primary.filter((v) => v.validationStatus === 'active');

/** Validators (in listing order, not in `exclude`) whose count lies in [min, max], while their sum stays <= `budget`. */
function pick(count: (v: Validator) => number, min: number, max: number, budget: number, exclude: readonly Validator[] = []): Validator[] {
  const out: Validator[] = [];
  let sum = 0;
  for (const v of active()) {
    const c = count(v);
    if (c < min || c > max || exclude.includes(v) || sum + c > budget) continue;
    out.push(v);
    sum += c;
  }
  return out;
}

const pendingOf = (v: Validator): number => pendingCount.get(v.nodeId) ?? 0;
const sum = (list: readonly Validator[], count: (v: Validator) => number): number => list.reduce((a, v) => a + count(v), 0);

/** Groups the planner should form: smallest first, a new group whenever the next list would not fit in 100. */
function nextFitGroups(sizes: readonly number[]): number {
  let groups = 0;
  let size = 0;
  for (const s of [...sizes].filter((s) => s > 0).sort((a, b) => a - b)) {
    if (groups === 0 || size + s > 100) {
      groups++;
      size = 0;
    }
    size += s;
  }
  return groups;
}

async function directDelegators(nodeId: string, pageSize: number, sortOrder?: SortOrder) {
  const page = await api.listDelegators('mainnet', { nodeIds: [nodeId], pageSize, ...(sortOrder ? { sortOrder } : {}) });
  return { items: page.delegators, nextPageToken: page.nextPageToken };
}

async function directPending(nodeId: string, pageSize: number) {
  const page = await api.listPendingRewards('mainnet', { nodeIds: [nodeId], pageSize });
  return { items: page.pendingRewards, nextPageToken: page.nextPageToken };
}

/** The loader's page is that parent's own first page: same items in the same order, and "more" exactly when the direct listing has a next page. */
function expectSamePage<T>(got: UpstreamPage<T>, direct: { items: T[]; nextPageToken?: string | undefined }, total: number, first: number): void {
  expect(got.items).toEqual(direct.items);
  expect(got.items).toHaveLength(Math.min(total, first));
  const more = got.hasMore === true || got.nextPageToken !== undefined;
  expect(more).toBe(total > first);
  expect(direct.nextPageToken !== undefined).toBe(total > first);
  if (got.nextPageToken !== undefined) expect(got.nextPageToken).toBe(direct.nextPageToken);
}

function delegatorKeys(list: readonly Validator[], first: number, expected: (v: Validator) => number | undefined = countOf, sortOrder?: SortOrder): PerValidatorKey<PerValidatorListArgs>[] {
  return list.map((v) => ({ nodeId: v.nodeId, args: { first, ...(sortOrder ? { sortOrder } : {}) }, expected: expected(v) }));
}

describe('delegatorsFirstPage (E13 per-parent packing)', () => {
  it('packs short lists whose delegatorCount sum is <= 100 into exactly one call of pageSize 100', async () => {
    const short = pick(countOf, 1, 30, 100);
    expect(short.length).toBeGreaterThanOrEqual(5);
    const ctx = lc.fresh();
    const m = await lc.measure(() => Promise.all(delegatorKeys(short, 5).map((k) => delegatorsFirstPage(ctx, 'mainnet').load(k))));

    expect(m.byRoute[E13]).toBe(1);
    expect(m.requests).toBe(1);
    const [params] = lc.paramsOf('listDelegators');
    expect(params?.pageSize).toBe(100);
    expect([...(params?.nodeIds as string[])].sort()).toEqual(short.map((v) => v.nodeId).sort());

    const direct = await Promise.all(short.map((v) => directDelegators(v.nodeId, 5)));
    short.forEach((v, i) => {
      const got = m.result[i] as UpstreamPage<Delegator>;
      expectSamePage(got, direct[i] as { items: Delegator[] }, countOf(v), 5);
      // A packed page has no token of its own: "more" is known from the count.
      expect(got.nextPageToken).toBeUndefined();
      expect(got.hasMore).toBe(countOf(v) > 5);
    });
  });

  it('gives each long list (> 100 delegators) its own call with pageSize = first, whose token is that parent’s next page', async () => {
    const long = active().filter((v) => countOf(v) > 100);
    expect(long.map((v) => v.nodeId)).toContain(busyNodeId);
    const ctx = lc.fresh();
    const m = await lc.measure(() => Promise.all(delegatorKeys(long, 7).map((k) => delegatorsFirstPage(ctx, 'mainnet').load(k))));

    expect(m.byRoute[E13]).toBe(long.length);
    expect(m.rounds).toBe(1);
    const params = lc.paramsOf('listDelegators');
    expect(params.map((p) => p.pageSize)).toEqual(long.map(() => 7));
    expect(params.map((p) => (p.nodeIds as string[]).join()).sort()).toEqual(long.map((v) => v.nodeId).sort());

    const direct = await Promise.all(long.map((v) => directDelegators(v.nodeId, 7)));
    long.forEach((v, i) => {
      const got = m.result[i] as UpstreamPage<Delegator>;
      expectSamePage(got, direct[i] as { items: Delegator[] }, countOf(v), 7);
      expect(got.nextPageToken).toBeDefined();
    });
  });

  it('mixes packed groups, solos, hintless and empty parents in ONE round, each parent equal to its own listing', async () => {
    const long = active().filter((v) => countOf(v) > 100).slice(0, 3);
    const short = pick(countOf, 1, 40, 280);
    const hintless = pick(countOf, 1, 100, 100, short).slice(0, 1);
    const empty = pick(countOf, 0, 0, 0).slice(0, 2);
    expect(sum(short, countOf)).toBeGreaterThan(200);
    expect(hintless).toHaveLength(1);
    expect(empty.length).toBeGreaterThan(0);
    // Interleaved, so the planner (not the caller's order) decides the groups.
    const parents = [...short, ...long, ...hintless, ...empty].sort((a, b) => (a.txHash < b.txHash ? -1 : 1));
    const first = 10;
    const keys = delegatorKeys(parents, first, (v) => (hintless.includes(v) ? undefined : countOf(v)));
    const ctx = lc.fresh();
    const m = await lc.measure(() => Promise.all(keys.map((k) => delegatorsFirstPage(ctx, 'mainnet').load(k))));

    const params = lc.paramsOf('listDelegators');
    const packed = params.filter((p) => p.pageSize === 100);
    const solo = params.filter((p) => p.pageSize === first);
    expect(packed.length + solo.length).toBe(params.length);
    expect(solo.map((p) => (p.nodeIds as string[]).join()).sort()).toEqual([...long, ...hintless].map((v) => v.nodeId).sort());
    expect(packed).toHaveLength(nextFitGroups(short.map(countOf)));
    // Every short parent in exactly one packed listing, each listing within one page.
    const packedIds = packed.flatMap((p) => p.nodeIds as string[]);
    expect([...packedIds].sort()).toEqual(short.map((v) => v.nodeId).sort());
    for (const p of packed) expect(sum(short.filter((v) => (p.nodeIds as string[]).includes(v.nodeId)), countOf)).toBeLessThanOrEqual(100);
    // Parents known to be empty cost nothing.
    expect(m.byRoute[E13]).toBe(packed.length + long.length + hintless.length);
    expect(m.rounds).toBe(1);

    const direct = await Promise.all(parents.map((v) => directDelegators(v.nodeId, first)));
    parents.forEach((v, i) => expectSamePage(m.result[i] as UpstreamPage<Delegator>, direct[i] as { items: Delegator[] }, countOf(v), first));
  });

  it('sends the list arguments: ascending order packs the same way and matches the ascending listing', async () => {
    const short = pick(countOf, 3, 30, 100);
    const ctx = lc.fresh();
    const m = await lc.measure(() => Promise.all(delegatorKeys(short, 3, countOf, 'asc').map((k) => delegatorsFirstPage(ctx, 'mainnet').load(k))));
    expect(m.byRoute[E13]).toBe(1);
    expect(lc.paramsOf('listDelegators')[0]?.sortOrder).toBe('asc');
    const direct = await Promise.all(short.map((v) => directDelegators(v.nodeId, 3, 'asc')));
    short.forEach((v, i) => expectSamePage(m.result[i] as UpstreamPage<Delegator>, direct[i] as { items: Delegator[] }, countOf(v), 3));
    // Not the default (descending) page: the order really was sent.
    const desc = await directDelegators(short[0]?.nodeId as string, 3);
    expect((m.result[0] as UpstreamPage<Delegator>).items).not.toEqual(desc.items);
  });

  it('falls back to one call per unsettled parent when a stale hint overflows the packed listing: a second round, still the right items', async () => {
    // Hints of 1 each pack these into one listing, but they hold well over 100 delegations.
    const stale = pick(countOf, 20, 60, 200);
    expect(sum(stale, countOf)).toBeGreaterThan(100);
    const first = 10;
    const ctx = lc.fresh();
    const m = await lc.measure(() => Promise.all(delegatorKeys(stale, first, () => 1).map((k) => delegatorsFirstPage(ctx, 'mainnet').load(k))));

    const params = lc.paramsOf('listDelegators');
    // Round 1: the packed listing (comes back full, with a next page). It is a prefix of each parent's own
    // list: a parent with more than `first` items in it is answered from it; round 2: each other parent alone.
    expect(params[0]?.pageSize).toBe(100);
    expect((params[0]?.nodeIds as string[]).length).toBe(stale.length);
    const packed = await api.listDelegators('mainnet', { nodeIds: stale.map((v) => v.nodeId), pageSize: 100 });
    expect(packed.delegators).toHaveLength(100);
    const held = (v: Validator) => packed.delegators.filter((d) => d.nodeId === v.nodeId).length;
    const unsettled = stale.filter((v) => held(v) <= first);
    expect(unsettled.length).toBeGreaterThan(0);
    expect(unsettled.length).toBeLessThan(stale.length);
    expect(params.slice(1).map((p) => [p.pageSize, ...(p.nodeIds as string[])])).toEqual(unsettled.map((v) => [first, v.nodeId]));
    expect(m.byRoute[E13]).toBe(1 + unsettled.length);
    expect(m.rounds).toBe(2);

    const direct = await Promise.all(stale.map((v) => directDelegators(v.nodeId, first)));
    stale.forEach((v, i) => expectSamePage(m.result[i] as UpstreamPage<Delegator>, direct[i] as { items: Delegator[] }, countOf(v), first));
  });

  it('answers a hint that is too small but still fits from the packed listing (no fallback)', async () => {
    const short = pick(countOf, 5, 20, 90);
    const ctx = lc.fresh();
    const m = await lc.measure(() => Promise.all(delegatorKeys(short, 4, () => 1).map((k) => delegatorsFirstPage(ctx, 'mainnet').load(k))));
    expect(m.byRoute[E13]).toBe(1);
    const direct = await Promise.all(short.map((v) => directDelegators(v.nodeId, 4)));
    short.forEach((v, i) => expectSamePage(m.result[i] as UpstreamPage<Delegator>, direct[i] as { items: Delegator[] }, countOf(v), 4));
  });
});

describe('pendingRewardsFirstPage (E12 per-parent packing)', () => {
  it('packs short lists into one call and splits it exactly per node', async () => {
    const short = pick(pendingOf, 1, 30, 100);
    expect(short.length).toBeGreaterThanOrEqual(5);
    const ctx = lc.fresh();
    const keys = short.map((v) => ({ nodeId: v.nodeId, args: { first: 5 }, expected: pendingOf(v) }));
    const m = await lc.measure(() => Promise.all(keys.map((k) => pendingRewardsFirstPage(ctx, 'mainnet').load(k))));

    expect(m.byRoute[E12]).toBe(1);
    expect(m.requests).toBe(1);
    expect(lc.paramsOf('listPendingRewards')[0]?.pageSize).toBe(100);
    const direct = await Promise.all(short.map((v) => directPending(v.nodeId, 5)));
    short.forEach((v, i) => expectSamePage(m.result[i] as UpstreamPage<PendingReward>, direct[i] as { items: PendingReward[] }, pendingOf(v), 5));
  });

  it('with the schema’s hint (delegatorCount + 1): packed groups plus the busy node alone, one round', async () => {
    const hint = (v: Validator): number => countOf(v) + 1;
    const short = pick(hint, 2, 40, 250);
    const busy = active().find((v) => v.nodeId === busyNodeId) as Validator;
    expect(pendingOf(busy)).toBeGreaterThan(100);
    const parents = [busy, ...short];
    const keys = parents.map((v) => ({ nodeId: v.nodeId, args: { first: 8 }, expected: hint(v) }));
    const ctx = lc.fresh();
    const m = await lc.measure(() => Promise.all(keys.map((k) => pendingRewardsFirstPage(ctx, 'mainnet').load(k))));

    const params = lc.paramsOf('listPendingRewards');
    expect(params.filter((p) => p.pageSize === 8).map((p) => p.nodeIds)).toEqual([[busyNodeId]]);
    expect(params.filter((p) => p.pageSize === 100)).toHaveLength(nextFitGroups(short.map(hint)));
    expect(m.byRoute[E12]).toBe(params.length);
    expect(m.rounds).toBe(1);
    const direct = await Promise.all(parents.map((v) => directPending(v.nodeId, 8)));
    parents.forEach((v, i) => expectSamePage(m.result[i] as UpstreamPage<PendingReward>, direct[i] as { items: PendingReward[] }, pendingOf(v), 8));
  });
});

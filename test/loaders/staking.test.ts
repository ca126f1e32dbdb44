import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import {
  validationDelegatorPages, validationPendingRewardPages, validatorPages, withNetwork, type ValidatorWithNetwork,
} from '../../src/loaders/staking.ts';
import { SUBNET_INDEX, subnetPages, subnetRefetchCalls } from '../../src/loaders/subnets.ts';
import { delegationRefetchCalls, MAX_REFETCH_PAGES, validationRefetchCalls } from '../../src/loaders/validators.ts';
import { PRIMARY_NETWORK_ID, type Delegator, type Validator } from '../../src/shapes/index.ts';
import { createLoaderContext, type TestLoaderContext } from '../helpers/loader-context.ts';

const E8 = 'GET /v1/networks/{network}/validators';
const E13 = 'GET /v1/networks/{network}/delegators';
const E12 = 'GET /v1/networks/{network}/rewards:listPending';
const NOW = Date.now();

let devnet: Devnet;
let lc: TestLoaderContext;
/** Primary-network validations of mainnet with delegations, as listed. */
let delegated: ValidatorWithNetwork[];

/** Every delegation to `nodeId`, whatever the validation. */
async function delegationsOf(nodeId: string): Promise<Delegator[]> {
  const out: Delegator[] = [];
  let pageToken: string | undefined;
  do {
    const page = await lc.dataApi.listDelegators('mainnet', { nodeIds: [nodeId], pageSize: 100, ...(pageToken ? { pageToken } : {}) });
    out.push(...page.delegators);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return out;
}

beforeAll(async () => {
  devnet = await startDevnet({ validators: 200, now: () => NOW });
  lc = createLoaderContext(devnet);
  const page = await lc.dataApi.listValidators('mainnet', { subnetId: PRIMARY_NETWORK_ID, pageSize: 100 });
  delegated = page.validators.filter((v: Validator) => (v.delegatorCount ?? 0) > 2).map((v) => withNetwork('mainnet', v));
});

afterAll(async () => {
  await lc?.close();
  await devnet?.close();
});

describe('listings as page readers', () => {
  it('validatorPages sends the params, the page size and the token, and tags each item with its network', async () => {
    const read = validatorPages(lc.fresh(), 'fuji', { subnetId: PRIMARY_NETWORK_ID, sortOrder: 'asc' });
    const first = await read(undefined, 3);
    expect(first.items).toHaveLength(3);
    expect(first.items.every((v) => v.network === 'fuji' && v.subnetId === PRIMARY_NETWORK_ID)).toBe(true);
    expect(first.nextPageToken).toBeTruthy();
    const next = await read(first.nextPageToken, 2);
    expect(next.items).toHaveLength(2);
    expect(lc.paramsOf('listValidators')).toEqual([
      { subnetId: PRIMARY_NETWORK_ID, sortOrder: 'asc', pageSize: 3 },
      { subnetId: PRIMARY_NETWORK_ID, sortOrder: 'asc', pageSize: 2, pageToken: first.nextPageToken },
    ]);
    expect(next.items.map((v) => v.txHash)).not.toContain(first.items[0]?.txHash);
  });

  it('subnetPages reads E7 with the sort order and tags subnets and their blockchains with the network', async () => {
    lc.calls.length = 0;
    const page = await subnetPages(lc.fresh(), 'mainnet', 'desc')(undefined, 2);
    expect(page.items.length).toBeGreaterThan(0);
    for (const s of page.items) {
      expect(s.network).toBe('mainnet');
      for (const b of s.blockchains) expect(b.network).toBe('mainnet');
    }
    expect(lc.paramsOf('listSubnets')).toEqual([{ pageSize: 2, sortOrder: 'desc' }]);
  });
});

describe("one validation's lists", () => {
  it('packs the first pages of many validations into few listings, keeping each its own node and period', async () => {
    expect(delegated.length).toBeGreaterThan(5);
    const ctx = lc.fresh();
    const m = await lc.measure(() => Promise.all(delegated.map((v) => validationDelegatorPages(ctx, v, { first: 2 }).firstPage())));
    expect(m.byRoute[E13]).toBeLessThan(delegated.length);
    // The packed listings, then (only if a count hint was stale) those parents alone.
    expect(m.rounds, JSON.stringify(m.perRound)).toBeLessThanOrEqual(2);
    let full = 0;
    for (const [i, v] of delegated.entries()) {
      const page = m.result[i];
      for (const d of page?.items ?? []) {
        expect(d).toMatchObject({ network: 'mainnet', nodeId: v.nodeId });
        expect(Number(d.startTimestamp)).toBeGreaterThanOrEqual(Number(v.startTimestamp));
        expect(Number(d.endTimestamp)).toBeLessThanOrEqual(Number(v.endTimestamp));
      }
      expect(Boolean(page?.hasMore || page?.nextPageToken)).toBe(true);
      // A node's listing holds every time it validated: an earlier validation read alone may find its own
      // delegations past a first page of the newer ones', and goes on from the token (the connection tops up).
      expect(page?.items.length === 2 || page?.nextPageToken !== undefined).toBe(true);
      if (page?.items.length === 2) full++;
    }
    expect(full).toBeGreaterThan(delegated.length / 2);
  });

  it('reads next pages of one node alone (E13 nodeIds=[node]) and drops what lies outside the validation', async () => {
    const v = delegated[0] as ValidatorWithNetwork;
    const all = await delegationsOf(v.nodeId);
    const own = all.filter((d) => d.startTimestamp >= v.startTimestamp && d.endTimestamp <= v.endTimestamp);
    lc.calls.length = 0;
    const page = await validationDelegatorPages(lc.fresh(), v, { first: 100, sortOrder: 'asc' }).fetchPage(undefined, 100);
    expect(lc.paramsOf('listDelegators')).toEqual([{ nodeIds: [v.nodeId], sortOrder: 'asc', pageSize: 100 }]);
    expect(page.items.map((d) => d.txHash).sort()).toEqual(own.slice(0, 100).map((d) => d.txHash).sort());
  });

  it('a delegation status filter leaves the count hint out: each validation gets its own listing', async () => {
    const some = delegated.slice(0, 4);
    const ctx = lc.fresh();
    const m = await lc.measure(() => Promise.all(some.map((v) => validationDelegatorPages(ctx, v, { first: 1, delegationStatus: 'completed' }).firstPage())));
    expect(m.byRoute[E13]).toBe(some.length);
    for (const p of lc.paramsOf('listDelegators')) expect(p).toMatchObject({ delegationStatus: 'completed', pageSize: 1 });
  });

  it('pending rewards pack by the validation status hint, one round', async () => {
    const ctx = lc.fresh();
    const m = await lc.measure(() => Promise.all(delegated.map((v) => validationPendingRewardPages(ctx, v, { first: 1 }).firstPage())));
    expect(m.byRoute[E12]).toBeLessThan(delegated.length);
    for (const [i, v] of delegated.entries()) for (const r of m.result[i]?.items ?? []) expect(r).toMatchObject({ network: 'mainnet', nodeId: v.nodeId });
    expect(m.byRoute[E8] ?? 0).toBe(0);
  });
});

describe('what refetching by id costs', () => {
  const node = (n: number) => `NodeID-${n}`;

  it('validations: per network and subnet, one listing per 100 node ids, each to MAX_REFETCH_PAGES pages', () => {
    const keys = [
      ...Array.from({ length: 150 }, (_, i) => ({ network: 'mainnet', subnetId: PRIMARY_NETWORK_ID, nodeId: node(i) })),
      { network: 'mainnet', subnetId: PRIMARY_NETWORK_ID, nodeId: node(0) },
      { network: 'mainnet', subnetId: 'other', nodeId: node(0) },
      { network: 'fuji', subnetId: PRIMARY_NETWORK_ID, nodeId: node(0) },
    ];
    expect(validationRefetchCalls(keys)).toBe((2 + 1 + 1) * MAX_REFETCH_PAGES);
    expect(validationRefetchCalls([])).toBe(0);
  });

  it("delegations: per network, one combined listing per 100 node ids, then each node's own list", () => {
    const keys = [
      { network: 'mainnet', nodeId: node(1) },
      { network: 'mainnet', nodeId: node(1) },
      { network: 'mainnet', nodeId: node(2) },
      { network: 'fuji', nodeId: node(1) },
    ];
    expect(delegationRefetchCalls(keys)).toBe(1 + 2 * MAX_REFETCH_PAGES + (1 + MAX_REFETCH_PAGES));
  });

  it('subnets and blockchains: one subnet list per network, read to its bound', () => {
    expect(subnetRefetchCalls(['mainnet', 'fuji', 'mainnet'])).toBe(2 * SUBNET_INDEX.maxPages);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrimaryData } from '../../src/devnet/dataset/primary/index.ts';
import { PRIMARY_NETWORK_ID, type Validator } from '../../src/shapes/index.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

/**
 * Links on a devnet whose nodes validated several times (as mainnet nodes do, each
 * time a record of its own): a delegation links to the validation whose period holds
 * it, a reward to the validation it was paid for, and a validation's own lists hold
 * its items only. The oracle is the devnet's generated records (which validation each
 * delegation was made to), not any rule about periods; the calls stay batched.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

const E8 = 'GET /v1/networks/{network}/validators';
const E11 = 'GET /v1/networks/{network}/rewards';
const E12 = 'GET /v1/networks/{network}/rewards:listPending';
const E13 = 'GET /v1/networks/{network}/delegators';

let stack: TestStack;
let data: PrimaryData;
/** Nodes that validated several times, with delegations in an earlier validation. */
let revalidated: string[];
/** Each node's current validation (the latest), by node id. */
const latest = new Map<string, Validator>();

beforeAll(async () => {
  stack = await startStack({ devnet: { validators: 300 } });
  data = stack.devnet.dataset.primary.mainnet;
  const byNode = new Map<string, Validator[]>();
  for (const v of data.allValidators()) {
    if (v.subnetId === PRIMARY_NETWORK_ID) byNode.set(v.nodeId, [...(byNode.get(v.nodeId) ?? []), v]);
  }
  for (const [nodeId, own] of byNode) latest.set(nodeId, own.at(-1) as Validator);
  const fixture = stack.devnet.dataset.fixtures().mainnet.revalidatedNodeId;
  const others = [...byNode].filter(([nodeId, own]) => nodeId !== fixture && own.length > 1 && own.slice(0, -1).some((v) => (v.delegatorCount ?? 0) > 0));
  revalidated = [fixture, ...others.map(([nodeId]) => nodeId)].slice(0, 12);
  // The gateway learns its nodes' networks at start: those calls are not the tests'.
  await stack.upstreamSettled();
});

afterAll(async () => {
  await stack?.close();
});

/** How many node ids of `items` have items of at least two validations (by `validationOf`): no rule of one record per node fits them. */
function nodesOverSeveralValidations(items: readonly Data[], validationOf: (item: Data) => string | undefined): number {
  const seen = new Map<string, Set<string | undefined>>();
  for (const item of items) seen.set(item.nodeId, (seen.get(item.nodeId) ?? new Set()).add(validationOf(item)));
  return [...seen.values()].filter((set) => set.size > 1).length;
}

/** The validation a reward was paid for, from the records: its own staking tx, or the validation its delegation was made to. */
const paidFor = (r: Data): string | undefined => (r.rewardType === 'VALIDATOR' ? r.txHash : data.validationTxOfDelegation(r.txHash));

const VALIDATION = 'txHash nodeId validationStatus startTimestamp endTimestamp';

/** Listings the per-parent planner packs these list sizes into: next-fit over ascending sizes, empty lists free. */
function plannedCalls(sizes: readonly number[]): number {
  let groups = 0;
  let size = 0;
  for (const s of sizes.filter((s) => s > 0).sort((a, b) => a - b)) {
    if (groups === 0 || size + s > 100) {
      groups++;
      size = 0;
    }
    size += s;
  }
  return groups;
}

describe('Delegator.validator', () => {
  const QUERY = `query($ids: [String!]!, $after: String) { network(name: MAINNET) {
    delegators(first: 100, after: $after, sortOrder: ASC, filter: { nodeIds: $ids }) {
      pageInfo { hasNextPage endCursor }
      edges { node { txHash nodeId startTimestamp endTimestamp validator { ${VALIDATION} } } }
    } } }`;

  it('is the validation the delegation was made to, not the node\'s current one: one delegators and one validators listing, in 2 rounds', async () => {
    expect(revalidated.length).toBeGreaterThanOrEqual(10);
    const m = await stack.measure(() => stack.query<Data>(QUERY, { ids: revalidated }));
    expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
    const delegators: Data[] = m.result.data.network.delegators.edges.map((e: Data) => e.node);
    expect(delegators).toHaveLength(100);
    for (const d of delegators) {
      expect(d.validator?.txHash, `delegation ${d.txHash}`).toBe(data.validationTxOfDelegation(d.txHash));
      expect(d.validator.nodeId).toBe(d.nodeId);
      expect(Number(d.validator.startTimestamp)).toBeLessThanOrEqual(Number(d.startTimestamp));
      expect(Number(d.endTimestamp)).toBeLessThanOrEqual(Number(d.validator.endTimestamp));
    }
    // Oldest first: most of these belong to earlier validations, which "the node's current validation" would miss.
    expect(nodesOverSeveralValidations(delegators, (d) => data.validationTxOfDelegation(d.txHash))).toBeGreaterThan(0);
    const earlier = delegators.filter((d) => d.validator.txHash !== latest.get(d.nodeId)?.txHash);
    expect(earlier.length).toBeGreaterThan(20);
    for (const d of earlier) expect(d.validator.validationStatus).toBe('COMPLETED');

    expect(m.byRoute[E13]).toBe(1);
    // Every validation of the page's nodes in one listing (fewer than 100 of them).
    expect(m.byRoute[E8]).toBe(1);
    expect(m.requests).toBe(2);
    expect(m.perRound).toEqual([['listDelegators'], ['listValidators']]);
  });

  it('links every delegation of those nodes, page after page, each page one listing of each kind', async () => {
    let after: string | undefined;
    let checked = 0;
    for (let page = 0; page < 15; page++) {
      const m = await stack.measure(() => stack.query<Data>(QUERY, { ids: revalidated, after }));
      expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
      const connection = m.result.data.network.delegators;
      for (const { node: d } of connection.edges) expect(d.validator?.txHash, `delegation ${d.txHash}`).toBe(data.validationTxOfDelegation(d.txHash));
      checked += connection.edges.length;
      expect(m.byRoute[E8] ?? 0).toBe(connection.edges.length > 0 ? 1 : 0);
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    const total = data.listDelegators({ nodeIds: revalidated, sortOrder: 'asc' }, 0, 100_000).items.length;
    expect(checked).toBe(Math.min(total, 1500));
  });
});

describe("the rewards' validator", () => {
  it('historical: a VALIDATOR reward links to the validation of its staking tx, DELEGATOR and VALIDATOR_FEE to the delegation\'s validation', async () => {
    // The oldest and the newest paid rewards: earlier validations, and delegations finished in the current ones.
    const fields = `edges { node { txHash rewardType nodeId startTimestamp validator { ${VALIDATION} } } }`;
    const query = `query($ids: [String!]!) { network(name: MAINNET) {
      oldest: historicalRewards(nodeIds: $ids, first: 100, sortOrder: ASC) { ${fields} }
      newest: historicalRewards(nodeIds: $ids, first: 100, sortOrder: DESC) { ${fields} }
    } }`;
    const m = await stack.measure(() => stack.query<Data>(query, { ids: revalidated }));
    expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
    const { oldest, newest } = m.result.data.network;
    const rewards: Data[] = [...oldest.edges, ...newest.edges].map((e: Data) => e.node);
    expect(rewards.length).toBe(200);
    for (const r of rewards) expect(r.validator?.txHash, `${r.rewardType} reward ${r.txHash}`).toBe(paidFor(r));
    expect(nodesOverSeveralValidations(rewards, paidFor)).toBeGreaterThan(0);
    const kinds = new Set(rewards.map((r) => r.rewardType));
    expect([...kinds].sort()).toEqual(['DELEGATOR', 'VALIDATOR', 'VALIDATOR_FEE']);
    // Paid rewards are for finished staking: earlier validations of nodes that validate again since.
    const earlier = rewards.filter((r) => r.validator.txHash !== latest.get(r.nodeId)?.txHash);
    expect(earlier.filter((r) => r.rewardType === 'VALIDATOR').length).toBeGreaterThan(0);
    expect(earlier.filter((r) => r.rewardType !== 'VALIDATOR').length).toBeGreaterThan(10);

    expect(m.byRoute[E11]).toBe(2);
    // Both lists' links in one validators listing.
    expect(m.byRoute[E8]).toBe(1);
    expect(m.perRound).toEqual([['listHistoricalRewards', 'listHistoricalRewards'], ['listValidators']]);
  });

  it('pending: the running validation the reward accrues in', async () => {
    const query = `query($ids: [String!]!) { network(name: MAINNET) {
      pendingRewards(nodeIds: $ids, first: 100) { edges { node { txHash rewardType nodeId validator { ${VALIDATION} } } } }
    } }`;
    const m = await stack.measure(() => stack.query<Data>(query, { ids: revalidated }));
    expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
    const rewards: Data[] = m.result.data.network.pendingRewards.edges.map((e: Data) => e.node);
    expect(rewards.length).toBeGreaterThan(10);
    for (const r of rewards) {
      expect(r.validator?.txHash, `${r.rewardType} reward ${r.txHash}`).toBe(paidFor(r));
      expect(r.validator.validationStatus).toBe('ACTIVE');
    }
    expect(m.byRoute[E12]).toBe(1);
    expect(m.byRoute[E8]).toBe(1);
    expect(m.rounds).toBe(2);
  });
});

describe("each validation's own delegators", () => {
  it('holds the delegations made to that validation only, newest first, for every validation of those nodes', async () => {
    const first = 3;
    const query = `query($ids: [String!]!) { network(name: MAINNET) {
      validators(first: 100, filter: { nodeIds: $ids, subnetId: "${PRIMARY_NETWORK_ID}" }) { edges { node {
        txHash nodeId delegatorCount delegators(first: ${first}) { pageInfo { hasNextPage } edges { node { txHash } } }
      } } }
    } }`;
    const m = await stack.measure(() => stack.query<Data>(query, { ids: revalidated }));
    expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
    const validations: Data[] = m.result.data.network.validators.edges.map((e: Data) => e.node);
    expect(validations.length).toBeGreaterThan(revalidated.length);
    for (const v of validations) {
      const own = data
        .listDelegators({ nodeIds: [v.nodeId], sortOrder: 'desc' }, 0, 100_000)
        .items.filter((d) => data.validationTxOfDelegation(d.txHash) === v.txHash)
        .map((d) => d.txHash);
      expect(v.delegatorCount).toBe(own.length);
      const got: string[] = v.delegators.edges.map((e: Data) => e.node.txHash);
      // Never another validation's delegation, never out of order, and here never short.
      expect(got, v.txHash).toEqual(own.slice(0, first));
      expect(v.delegators.pageInfo.hasNextPage, v.txHash).toBe(own.length > first);
    }
    // A node's validations share its listing, so they pack as one: by node, next-fit over ascending sizes.
    const perNode = new Map<string, number>();
    for (const v of validations) perNode.set(v.nodeId, (perNode.get(v.nodeId) ?? 0) + v.delegatorCount);
    const sizes = [...perNode.values()];
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
    expect(m.byRoute[E13]).toBe(plannedCalls(sizes));
    expect(m.byRoute[E13]).toBeLessThan(validations.length / 5);
    expect(m.rounds).toBe(2);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import {
  PRIMARY_NETWORK_ID, type Delegator, type HistoricalReward, type PendingReward, type Validator,
} from '../../src/shapes/index.ts';
import { dataOf, startStack, type TestStack } from '../helpers/stack.ts';
import { isoOf, priceOf, u64 } from '../helpers/exact.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;
/** The devnet read directly, to compare with what the gateway serves. */
let api: DataApi;

const ok = (query: string, variables?: Record<string, unknown>): Promise<Data> => dataOf<Data>(stack, query, variables);

const nodes = (connection: Data): Data[] => connection.edges.map((e: Data) => e.node);

/** Reads `count` items of a listing directly, following nextPageToken. */
async function directItems<T>(count: number, read: (pageToken: string | undefined) => Promise<{ items: T[]; next?: string | undefined }>): Promise<T[]> {
  const out: T[] = [];
  let token: string | undefined;
  do {
    const page = await read(token);
    out.push(...page.items);
    token = page.next;
  } while (token && out.length < count);
  return out.slice(0, count);
}

/** Walks a connection page by page with `after`; returns every node and the number of pages read. */
async function walk(query: string, variables: Record<string, unknown>, pick: (data: Data) => Data, pages: number): Promise<Data[]> {
  const out: Data[] = [];
  let after: string | null = null;
  for (let i = 0; i < pages; i++) {
    const connection = pick(await ok(query, { ...variables, after }));
    out.push(...nodes(connection));
    expect(connection.pageInfo.endCursor).toBe(connection.edges.at(-1)?.cursor ?? null);
    if (!connection.pageInfo.hasNextPage) break;
    after = connection.pageInfo.endCursor;
  }
  return out;
}

beforeAll(async () => {
  stack = await startStack();
  f = stack.devnet.dataset.fixtures().mainnet;
  api = createDataApiClient({ baseUrl: stack.devnet.url, apiKey: 'direct' });
});

afterAll(async () => {
  await stack?.close();
});

const DELEGATOR_FIELDS = `
  __typename id network txHash nodeId rewardAddresses amountDelegated delegationFee grossReward netReward
  startTimestamp startTime endTimestamp endTime delegationStatus delegationStatusRaw
  ... on ActiveDelegator { estimatedGrossReward estimatedNetReward }
  ... on PendingDelegator { estimatedGrossReward estimatedNetReward }
`;

const TYPE_OF: Record<string, string> = { active: 'ActiveDelegator', pending: 'PendingDelegator', completed: 'CompletedDelegator' };

function expectDelegator(gql: Data, wire: Delegator): void {
  expect(gql).toMatchObject({
    __typename: TYPE_OF[wire.delegationStatus ?? ''],
    network: 'mainnet',
    txHash: wire.txHash,
    nodeId: wire.nodeId,
    rewardAddresses: wire.rewardAddresses,
    amountDelegated: wire.amountDelegated,
    delegationFee: wire.delegationFee,
    grossReward: wire.grossReward ?? wire.estimatedGrossReward,
    netReward: wire.netReward ?? wire.estimatedNetReward,
    startTimestamp: u64(wire.startTimestamp),
    startTime: isoOf(wire.startTimestamp),
    endTimestamp: u64(wire.endTimestamp),
    endTime: isoOf(wire.endTimestamp),
    delegationStatus: wire.delegationStatus?.toUpperCase(),
    delegationStatusRaw: wire.delegationStatus,
  });
  if (wire.delegationStatus === 'completed') {
    expect(gql).not.toHaveProperty('estimatedGrossReward');
  } else {
    expect(gql.estimatedGrossReward).toBe(wire.estimatedGrossReward ?? wire.grossReward);
    expect(gql.estimatedNetReward).toBe(wire.estimatedNetReward ?? wire.netReward);
  }
  expect(typeof gql.id).toBe('string');
}

describe('Network.delegators', () => {
  const QUERY = `query($first: Int, $after: String, $filter: DelegatorFilter, $sortOrder: SortOrder) {
    network(name: MAINNET) { delegators(first: $first, after: $after, filter: $filter, sortOrder: $sortOrder) {
      pageInfo { hasNextPage endCursor } edges { cursor node { ${DELEGATOR_FIELDS} } } } } }`;

  it('walks several pages with cursors, item by item equal to E13', async () => {
    const walked = await walk(QUERY, { first: 30 }, (d) => d.network.delegators, 4);
    const wire = await directItems(120, async (pageToken) => {
      const page = await api.listDelegators('mainnet', { pageSize: 100, ...(pageToken ? { pageToken } : {}) });
      return { items: page.delegators, next: page.nextPageToken };
    });
    expect(walked).toHaveLength(120);
    walked.forEach((gql, i) => expectDelegator(gql, wire[i] as Delegator));
  });

  it('serves every field of each status as its own type', async () => {
    for (const status of ['active', 'pending', 'completed'] as const) {
      const data = await ok(QUERY, { first: 5, filter: { delegationStatus: status.toUpperCase() } });
      const wire = await api.listDelegators('mainnet', { pageSize: 5, delegationStatus: status });
      expect(wire.delegators.length).toBeGreaterThan(0);
      const got = nodes(data.network.delegators);
      expect(got).toHaveLength(wire.delegators.length);
      got.forEach((gql, i) => expectDelegator(gql, wire.delegators[i] as Delegator));
    }
  });

  it('filters by node ids and reward addresses, and sorts', async () => {
    const byNode = nodes((await ok(QUERY, { first: 20, filter: { nodeIds: [f.busyNodeId] } })).network.delegators);
    expect(byNode).toHaveLength(20);
    for (const d of byNode) expect(d.nodeId).toBe(f.busyNodeId);

    const byAddress = nodes((await ok(QUERY, { first: 20, filter: { rewardAddresses: [f.rewardAddress] } })).network.delegators);
    expect(byAddress.length).toBeGreaterThan(0);
    for (const d of byAddress) expect(d.rewardAddresses).toContain(f.rewardAddress);

    const asc = nodes((await ok(QUERY, { first: 10, sortOrder: 'ASC' })).network.delegators);
    const wireAsc = await api.listDelegators('mainnet', { pageSize: 10, sortOrder: 'asc' });
    expect(asc.map((d) => d.txHash)).toEqual(wireAsc.delegators.map((d) => d.txHash));
  });

  it('links 50 delegators to their validators with one batched call', async () => {
    stack.devnet.resetStats();
    const data = await ok(`{ network(name: MAINNET) { delegators(first: 50) { edges { node { nodeId validator { nodeId subnetId validationStatus } } } } } }`);
    const got = nodes(data.network.delegators);
    expect(got).toHaveLength(50);
    for (const d of got) {
      expect(d.validator.nodeId).toBe(d.nodeId);
      expect(d.validator.subnetId).toBe(PRIMARY_NETWORK_ID);
    }
    const stats = stack.devnet.stats();
    expect(stats.byRoute['GET /v1/networks/{network}/delegators']).toBe(1);
    expect(stats.byRoute['GET /v1/networks/{network}/validators']).toBe(1);
  });
});

describe('Network.validators', () => {
  it('walks several pages, item by item equal to E8', async () => {
    const query = `query($after: String) { network(name: MAINNET) { validators(first: 20, after: $after) {
      pageInfo { hasNextPage endCursor } edges { cursor node { nodeId txHash subnetId validationStatusRaw } } } } }`;
    const walked = await walk(query, {}, (d) => d.network.validators, 3);
    const wire = await directItems(60, async (pageToken) => {
      const page = await api.listValidators('mainnet', { pageSize: 100, ...(pageToken ? { pageToken } : {}) });
      return { items: page.validators, next: page.nextPageToken };
    });
    expect(walked.map((v) => [v.nodeId, v.txHash])).toEqual(wire.map((v: Validator) => [v.nodeId, v.txHash]));
  });
});

describe('Validator.delegators', () => {
  const QUERY = `query($nodeId: String!, $first: Int, $after: String, $status: DelegationStatus) {
    network(name: MAINNET) { validator(nodeId: $nodeId) { nodeId delegatorCount
      delegators(first: $first, after: $after, delegationStatus: $status) { pageInfo { hasNextPage endCursor } edges { cursor node { ${DELEGATOR_FIELDS} } } } } } }`;

  it("pages through a busy validator's delegations, equal to E13 nodeIds", async () => {
    const walked = await walk(QUERY, { nodeId: f.busyNodeId, first: 40 }, (d) => d.network.validator.delegators, 3);
    const wire = await directItems(120, async (pageToken) => {
      const page = await api.listDelegators('mainnet', { nodeIds: [f.busyNodeId], pageSize: 100, ...(pageToken ? { pageToken } : {}) });
      return { items: page.delegators, next: page.nextPageToken };
    });
    expect(walked).toHaveLength(120);
    walked.forEach((gql, i) => expectDelegator(gql, wire[i] as Delegator));
  });

  it('filters by status', async () => {
    const data = await ok(QUERY, { nodeId: f.busyNodeId, first: 25, status: 'COMPLETED' });
    const got = nodes(data.network.validator.delegators);
    expect(got.length).toBeGreaterThan(0);
    for (const d of got) expect(d.__typename).toBe('CompletedDelegator');
  });

  it('serves 50 validators’ delegators from a few packed listings', async () => {
    stack.devnet.resetStats();
    const data = await ok(`{ network(name: MAINNET) { validators(first: 50, filter: { subnetId: "${PRIMARY_NETWORK_ID}" }) { edges { node {
      nodeId delegatorCount startTimestamp endTimestamp
      delegators(first: 100) { pageInfo { hasNextPage } edges { node { nodeId txHash startTimestamp endTimestamp } } } } } } } }`);
    const validators = nodes(data.network.validators);
    expect(validators).toHaveLength(50);
    const calls = stack.devnet.stats().byRoute['GET /v1/networks/{network}/delegators'] ?? 0;
    const long = validators.filter((v) => v.delegatorCount > 100).length;
    // Validators with more than a page each get their own listing; the rest share a few.
    expect(calls).toBeLessThanOrEqual(long + 12);
    expect(calls).toBeLessThan(25);
    for (const v of validators) {
      const list = nodes(v.delegators);
      expect(list).toHaveLength(Math.min(v.delegatorCount, 100));
      expect(v.delegators.pageInfo.hasNextPage).toBe(v.delegatorCount > 100);
      for (const d of list) {
        expect(d.nodeId).toBe(v.nodeId);
        expect(Number(d.startTimestamp)).toBeGreaterThanOrEqual(Number(v.startTimestamp));
        expect(Number(d.endTimestamp)).toBeLessThanOrEqual(Number(v.endTimestamp));
      }
    }
    // The packed answer is the same list a listing of one node gives.
    for (const v of validators.filter((x) => x.delegatorCount > 0).slice(0, 3)) {
      const wire = await api.listDelegators('mainnet', { nodeIds: [v.nodeId], pageSize: 100 });
      expect(nodes(v.delegators).map((d) => d.txHash)).toEqual(wire.delegators.map((d) => d.txHash));
    }
  });
});

const HISTORICAL_FIELDS = `
  network addresses txHash amountStaked nodeId startTimestamp startTime endTimestamp endTime rewardType rewardTypeRaw utxoId outputIndex rewardTxHash
  reward { assetId name symbol denomination type amount historicalPrice { currencyCode currencyCodeRaw value } }
`;
const PENDING_FIELDS = `
  network addresses txHash amountStaked nodeId startTimestamp startTime endTimestamp endTime rewardType rewardTypeRaw progress
  estimatedReward { assetId name symbol denomination type amount }
`;

function expectHistorical(gql: Data, wire: HistoricalReward): void {
  expect(gql).toEqual({
    network: 'mainnet',
    addresses: wire.addresses,
    txHash: wire.txHash,
    amountStaked: wire.amountStaked,
    nodeId: wire.nodeId,
    startTimestamp: u64(wire.startTimestamp),
    startTime: isoOf(wire.startTimestamp),
    endTimestamp: u64(wire.endTimestamp),
    endTime: isoOf(wire.endTimestamp),
    rewardType: wire.rewardType,
    rewardTypeRaw: wire.rewardType,
    utxoId: wire.utxoId,
    outputIndex: wire.outputIndex,
    rewardTxHash: wire.rewardTxHash,
    reward: {
      assetId: wire.reward.assetId,
      name: wire.reward.name,
      symbol: wire.reward.symbol,
      denomination: wire.reward.denomination,
      type: wire.reward.type,
      amount: wire.reward.amount,
      historicalPrice: priceOf(wire.reward.historicalPrice),
    },
  });
}

function expectPending(gql: Data, wire: PendingReward): void {
  expect(gql).toEqual({
    network: 'mainnet',
    addresses: wire.addresses,
    txHash: wire.txHash,
    amountStaked: wire.amountStaked,
    nodeId: wire.nodeId,
    startTimestamp: u64(wire.startTimestamp),
    startTime: isoOf(wire.startTimestamp),
    endTimestamp: u64(wire.endTimestamp),
    endTime: isoOf(wire.endTimestamp),
    rewardType: wire.rewardType,
    rewardTypeRaw: wire.rewardType,
    progress: wire.progress,
    estimatedReward: { ...wire.estimatedReward },
  });
}

describe('rewards', () => {
  const HISTORICAL = `query($addresses: [String!], $nodeIds: [String!], $first: Int, $after: String, $currency: CurrencyCode, $sortOrder: SortOrder) {
    network(name: MAINNET) { historicalRewards(addresses: $addresses, nodeIds: $nodeIds, first: $first, after: $after, currency: $currency, sortOrder: $sortOrder) {
      pageInfo { hasNextPage endCursor } edges { cursor node { ${HISTORICAL_FIELDS} } } } } }`;
  const PENDING = `query($addresses: [String!], $nodeIds: [String!], $first: Int, $after: String) {
    network(name: MAINNET) { pendingRewards(addresses: $addresses, nodeIds: $nodeIds, first: $first, after: $after) {
      pageInfo { hasNextPage endCursor } edges { cursor node { ${PENDING_FIELDS} } } } } }`;

  it('pages through historical rewards of an address, equal to E11', async () => {
    const walked = await walk(HISTORICAL, { addresses: [f.rewardAddress], first: 7 }, (d) => d.network.historicalRewards, 3);
    const wire = await directItems(21, async (pageToken) => {
      const page = await api.listHistoricalRewards('mainnet', { addresses: [f.rewardAddress], pageSize: 100, ...(pageToken ? { pageToken } : {}) });
      return { items: page.historicalRewards, next: page.nextPageToken };
    });
    expect(walked).toHaveLength(wire.length);
    expect(walked.length).toBeGreaterThan(7);
    walked.forEach((gql, i) => expectHistorical(gql, wire[i] as HistoricalReward));
  });

  it('prices historical rewards in the requested currency and filters by node', async () => {
    const data = await ok(HISTORICAL, { nodeIds: [f.completedNodeId], first: 5, currency: 'EUR', sortOrder: 'ASC' });
    const wire = await api.listHistoricalRewards('mainnet', { nodeIds: [f.completedNodeId], pageSize: 5, currency: 'eur', sortOrder: 'asc' });
    const got = nodes(data.network.historicalRewards);
    expect(got.length).toBeGreaterThan(0);
    got.forEach((gql, i) => expectHistorical(gql, wire.historicalRewards[i] as HistoricalReward));
    for (const r of got) {
      expect(r.nodeId).toBe(f.completedNodeId);
      expect(r.reward.historicalPrice).toMatchObject({ currencyCode: 'EUR', currencyCodeRaw: 'eur' });
    }
  });

  it('pages through pending rewards, equal to E12', async () => {
    const walked = await walk(PENDING, { nodeIds: [f.busyNodeId], first: 30 }, (d) => d.network.pendingRewards, 2);
    const wire = await directItems(60, async (pageToken) => {
      const page = await api.listPendingRewards('mainnet', { nodeIds: [f.busyNodeId], pageSize: 100, ...(pageToken ? { pageToken } : {}) });
      return { items: page.pendingRewards, next: page.nextPageToken };
    });
    expect(walked).toHaveLength(60);
    walked.forEach((gql, i) => expectPending(gql, wire[i] as PendingReward));
    const byAddress = nodes((await ok(PENDING, { addresses: [f.pChainAddress], first: 5 })).network.pendingRewards);
    for (const r of byAddress) expect(r.addresses).toContain(f.rewardAddress);
  });

  it('links rewards to validators in one batched call', async () => {
    stack.devnet.resetStats();
    const data = await ok(`query($a: [String!]) { network(name: MAINNET) {
      historicalRewards(addresses: $a, first: 30) { edges { node { nodeId validator { nodeId } } } }
      pendingRewards(addresses: $a, first: 30) { edges { node { nodeId validator { nodeId } } } } } }`, { a: [f.rewardAddress] });
    const all = [...nodes(data.network.historicalRewards), ...nodes(data.network.pendingRewards)];
    expect(all.length).toBeGreaterThan(2);
    for (const r of all) expect(r.validator.nodeId).toBe(r.nodeId);
    // One batch per list (the two lists resolve at different ticks), not one per reward.
    expect(stack.devnet.stats().byRoute['GET /v1/networks/{network}/validators']).toBeLessThanOrEqual(2);
  });

  it("serves a validator's historical rewards, equal to E11 nodeIds", async () => {
    const data = await ok(`query($n: String!) { network(name: MAINNET) { validator(nodeId: $n) { historicalRewards(first: 10, currency: CHF) { edges { node { ${HISTORICAL_FIELDS} } } } } } }`, {
      n: f.completedNodeId,
    });
    const wire = await api.listHistoricalRewards('mainnet', { nodeIds: [f.completedNodeId], pageSize: 10, currency: 'chf' });
    const got = nodes(data.network.validator.historicalRewards);
    expect(got.length).toBeGreaterThan(0);
    got.forEach((gql, i) => expectHistorical(gql, wire.historicalRewards[i] as HistoricalReward));
  });

  it("pages through a validator's pending rewards, equal to E12 nodeIds", async () => {
    const query = `query($n: String!, $after: String) { network(name: MAINNET) { validator(nodeId: $n) {
      pendingRewards(first: 30, after: $after) { pageInfo { hasNextPage endCursor } edges { cursor node { ${PENDING_FIELDS} } } } } } }`;
    const walked = await walk(query, { n: f.busyNodeId }, (d) => d.network.validator.pendingRewards, 2);
    const wire = await directItems(60, async (pageToken) => {
      const page = await api.listPendingRewards('mainnet', { nodeIds: [f.busyNodeId], pageSize: 100, ...(pageToken ? { pageToken } : {}) });
      return { items: page.pendingRewards, next: page.nextPageToken };
    });
    expect(walked).toHaveLength(60);
    walked.forEach((gql, i) => expectPending(gql, wire[i] as PendingReward));
  });

  it("serves 50 validators' pending rewards from a few packed listings", async () => {
    stack.devnet.resetStats();
    const data = await ok(`{ network(name: MAINNET) { validators(first: 50, filter: { subnetId: "${PRIMARY_NETWORK_ID}" }) { edges { node {
      nodeId validationStatus delegatorCount startTimestamp endTimestamp
      pendingRewards(first: 100) { pageInfo { hasNextPage } edges { node { nodeId txHash rewardType } } }
      historicalRewards(first: 100) { edges { node { nodeId startTimestamp endTimestamp } } } } } } } }`);
    const validators = nodes(data.network.validators);
    expect(validators).toHaveLength(50);
    const calls = stack.devnet.stats().byRoute['GET /v1/networks/{network}/rewards:listPending'] ?? 0;
    const long = validators.filter((v) => v.delegatorCount + 1 > 100).length;
    expect(calls).toBeLessThanOrEqual(long + 12);
    expect(calls).toBeLessThan(25);
    // Paid rewards are packed by an upper bound (own reward plus two per delegation).
    const historicalCalls = stack.devnet.stats().byRoute['GET /v1/networks/{network}/rewards'] ?? 0;
    expect(historicalCalls).toBeLessThan(25);
    for (const v of validators) {
      for (const r of nodes(v.historicalRewards)) {
        expect(r.nodeId).toBe(v.nodeId);
        expect(Number(r.startTimestamp)).toBeGreaterThanOrEqual(Number(v.startTimestamp));
        expect(Number(r.endTimestamp)).toBeLessThanOrEqual(Number(v.endTimestamp));
      }
      const list = nodes(v.pendingRewards);
      for (const r of list) expect(r.nodeId).toBe(v.nodeId);
      if (v.validationStatus !== 'ACTIVE') expect(list).toHaveLength(0);
      else if (!v.pendingRewards.pageInfo.hasNextPage) expect(list.filter((r) => r.rewardType === 'VALIDATOR')).toHaveLength(1);
    }
    for (const v of validators.filter((x) => x.validationStatus === 'ACTIVE').slice(0, 3)) {
      const wire = await api.listPendingRewards('mainnet', { nodeIds: [v.nodeId], pageSize: 100 });
      expect(nodes(v.pendingRewards).map((r) => r.txHash)).toEqual(wire.pendingRewards.map((r) => r.txHash));
    }
  });
});

describe('node(id:) refetch', () => {
  it('round-trips Delegator, Validator and Network ids', async () => {
    const data = await ok(`{ network(name: MAINNET) { id delegators(first: 3, filter: { nodeIds: ["${f.busyNodeId}"] }) { edges { node { ${DELEGATOR_FIELDS} validator { id nodeId txHash } } } } } }`);
    const delegator = nodes(data.network.delegators)[2];
    const again = await ok(`query($id: ID!) { node(id: $id) { id ... on Delegator { ${DELEGATOR_FIELDS} } } }`, { id: delegator.id });
    expect(again.node).toEqual(Object.fromEntries(Object.entries(delegator).filter(([k]) => k !== 'validator')));

    const validator = await ok(`query($id: ID!) { node(id: $id) { __typename id ... on Validator { nodeId txHash } } }`, { id: delegator.validator.id });
    expect(validator.node).toMatchObject({ id: delegator.validator.id, nodeId: f.busyNodeId, txHash: delegator.validator.txHash });

    const network = await ok(`query($id: ID!) { node(id: $id) { __typename id ... on Network { name } } }`, { id: data.network.id });
    expect(network.node).toEqual({ __typename: 'Network', id: data.network.id, name: 'MAINNET' });
  });

  it('refetches a delegation that no longer exists as null', async () => {
    // A well-formed transaction id that is not a delegation (a malformed one is BAD_USER_INPUT).
    const id = Buffer.from(JSON.stringify(['Delegator', 'mainnet', f.busyNodeId, '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm'])).toString('base64url');
    stack.devnet.resetStats();
    const data = await ok(`query($id: ID!) { node(id: $id) { id } }`, { id });
    expect(data.node).toBeNull();
    // The busy validator has many pages: the refetch stops at its page cap.
    expect(stack.devnet.stats().requests).toBeLessThanOrEqual(20);
  });
});

describe('bad input is refused before any upstream call', () => {
  const cases: [string, string, Record<string, unknown>?][] = [
    ['delegators first 0', `{ network(name: MAINNET) { delegators(first: 0) { edges { cursor } } } }`],
    ['delegators first 101', `{ network(name: MAINNET) { delegators(first: 101) { edges { cursor } } } }`],
    ['delegators empty node id', `{ network(name: MAINNET) { delegators(filter: { nodeIds: [""] }) { edges { cursor } } } }`],
    ['delegators blank reward address', `{ network(name: MAINNET) { delegators(filter: { rewardAddresses: [" "] }) { edges { cursor } } } }`],
    ['delegators UNKNOWN status', `{ network(name: MAINNET) { delegators(filter: { delegationStatus: UNKNOWN }) { edges { cursor } } } }`],
    ['delegators foreign cursor', `{ network(name: MAINNET) { delegators(after: "bm90LWEtY3Vyc29y") { edges { cursor } } } }`],
    ['Validator.delegators first 101', `{ network(name: MAINNET) { validator(nodeId: "NodeID-x") { delegators(first: 101) { edges { cursor } } } } }`],
    ['Validator.delegators UNKNOWN status', `{ network(name: MAINNET) { validator(nodeId: "NodeID-x") { delegators(delegationStatus: UNKNOWN) { edges { cursor } } } } }`],
    ['historicalRewards without addresses or nodeIds', `{ network(name: MAINNET) { historicalRewards { edges { cursor } } } }`],
    ['historicalRewards with empty lists', `{ network(name: MAINNET) { historicalRewards(addresses: [], nodeIds: []) { edges { cursor } } } }`],
    ['historicalRewards empty address', `{ network(name: MAINNET) { historicalRewards(addresses: [""]) { edges { cursor } } } }`],
    ['historicalRewards first 0', `{ network(name: MAINNET) { historicalRewards(nodeIds: ["NodeID-x"], first: 0) { edges { cursor } } } }`],
    ['pendingRewards without addresses or nodeIds', `{ network(name: MAINNET) { pendingRewards(first: 5) { edges { cursor } } } }`],
    ['pendingRewards empty node id', `{ network(name: MAINNET) { pendingRewards(nodeIds: ["  "]) { edges { cursor } } } }`],
    ['pendingRewards first 101', `{ network(name: MAINNET) { pendingRewards(addresses: ["avax1x"], first: 101) { edges { cursor } } } }`],
    ['Validator.pendingRewards first 0', `{ network(name: MAINNET) { validator(nodeId: "NodeID-x") { pendingRewards(first: 0) { edges { cursor } } } } }`],
    ['Validator.historicalRewards first 101', `{ network(name: MAINNET) { validator(nodeId: "NodeID-x") { historicalRewards(first: 101) { edges { cursor } } } } }`],
    ['validators first 101', `{ network(name: MAINNET) { validators(first: 101) { edges { cursor } } } }`],
  ];

  it.each(cases)('%s', async (_name, query, variables) => {
    stack.devnet.resetStats();
    const res = await stack.query(query, variables);
    expect(res.errors?.[0]?.extensions?.['code'], JSON.stringify(res.errors)).toBe('BAD_USER_INPUT');
    expect(stack.devnet.stats().requests).toBe(0);
  });

  it("refuses one validator's cursor on another validator", async () => {
    const q = `query($n: String!, $after: String) { network(name: MAINNET) { validator(nodeId: $n) { delegators(first: 2, after: $after) { pageInfo { endCursor } } } } }`;
    const busy = await ok(q, { n: f.busyNodeId });
    const res = await stack.query(q, { n: f.completedNodeId, after: busy.network.validator.delegators.pageInfo.endCursor });
    expect(res.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(res.errors?.[0]?.message).toContain('belongs to the same list of another object');
  });

  it('refuses a cursor issued for other arguments', async () => {
    const first = await ok(`{ network(name: MAINNET) { delegators(first: 2) { pageInfo { endCursor } } } }`);
    stack.devnet.resetStats();
    const res = await stack.query(`query($after: String) { network(name: MAINNET) { delegators(first: 2, after: $after, sortOrder: ASC) { edges { cursor } } } }`, {
      after: first.network.delegators.pageInfo.endCursor,
    });
    expect(res.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(stack.devnet.stats().requests).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrimaryData } from '../../src/devnet/dataset/primary/index.ts';
import type { Validator } from '../../src/shapes/index.ts';
import { devnetGet, startStack, type TestStack } from '../helpers/stack.ts';

/**
 * A node's whole validation history (getSingleValidatorDetails, paged and filtered):
 * `Network.validationHistory`, `Validator.history` and `AvalancheNode.validations`,
 * through a real gateway on the devnet, judged by the upstream requests they make and
 * by the validator listing (the history holds exactly the validations it lists for the node).
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

const DETAILS = 'GET /v1/networks/{network}/validators/{nodeId}';
const E8 = 'GET /v1/networks/{network}/validators';
const GET_NODE_ID = 'POST info.getNodeID';

let stack: TestStack;
let data: PrimaryData;
/** A node that validated several times. */
let nodeId: string;

beforeAll(async () => {
  stack = await startStack();
  data = stack.devnet.dataset.primary.mainnet;
  nodeId = stack.devnet.dataset.fixtures().mainnet.revalidatedNodeId;
  await stack.upstreamSettled();
});

afterAll(async () => {
  await stack?.close();
});

/** What the validator listing (E8, every subnet) holds for `id`, newest first: the oracle of the history. */
async function listed(id: string): Promise<string[]> {
  const page = await devnetGet<{ validators: Validator[]; nextPageToken?: string }>(stack, `/v1/networks/mainnet/validators?nodeIds=${id}&pageSize=100`);
  expect(page.nextPageToken).toBeUndefined();
  return page.validators.filter((v) => v.nodeId === id).map((v) => v.txHash);
}

const HISTORY = `query($nodeId: String!, $first: Int, $after: String, $status: ValidationStatus, $order: SortOrder) { network(name: MAINNET) {
  validationHistory(nodeId: $nodeId, first: $first, after: $after, validationStatus: $status, sortOrder: $order) {
    pageInfo { hasNextPage endCursor }
    edges { node { txHash nodeId subnetId validationStatus startTimestamp } }
  } } }`;

describe('Network.validationHistory', () => {
  it("holds exactly the node's validations the listing returns, newest first, in one getSingleValidatorDetails call", async () => {
    const m = await stack.measure(() => stack.query<Data>(HISTORY, { nodeId, first: 100 }));
    expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
    const nodes: Data[] = m.result.data.network.validationHistory.edges.map((e: Data) => e.node);
    expect(nodes.length).toBeGreaterThan(1);
    for (const v of nodes) expect(v.nodeId).toBe(nodeId);
    expect(new Set(nodes.map((v) => v.txHash))).toEqual(new Set(await listed(nodeId)));
    expect(nodes.map((v) => v.txHash)).toEqual(data.validationsOf(nodeId).reverse().map((v) => v.txHash));
    const starts = nodes.map((v) => Number(v.startTimestamp));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    expect(m.result.data.network.validationHistory.pageInfo.hasNextPage).toBe(false);
    expect(m.byRoute).toEqual({ [DETAILS]: 1 });
  });

  it('pages with cursors over the upstream tokens, one call per page (at most one top-up with after), oldest first when asked', async () => {
    const all = data.validationsOf(nodeId).map((v) => v.txHash);
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < all.length + 1; page++) {
      const m = await stack.measure(() => stack.query<Data>(HISTORY, { nodeId, first: 1, after, order: 'ASC' }));
      expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
      const connection = m.result.data.network.validationHistory;
      seen.push(...connection.edges.map((e: Data) => e.node.txHash));
      // A page is one call; with `after`, at most one top-up more (what the field declares).
      expect(m.byRoute[DETAILS]).toBeGreaterThanOrEqual(1);
      expect(m.byRoute[DETAILS]).toBeLessThanOrEqual(after ? 2 : 1);
      expect(m.requests).toBe(m.byRoute[DETAILS]);
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual(all);
  });

  it('filters by status upstream', async () => {
    const m = await stack.measure(() => stack.query<Data>(HISTORY, { nodeId, first: 100, status: 'COMPLETED' }));
    expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
    const nodes: Data[] = m.result.data.network.validationHistory.edges.map((e: Data) => e.node);
    const completed = data.validationsOf(nodeId).filter((v) => v.validationStatus === 'completed');
    expect(completed.length).toBeGreaterThan(0);
    expect(nodes.map((v) => v.txHash).sort()).toEqual(completed.map((v) => v.txHash).sort());
    for (const v of nodes) expect(v.validationStatus).toBe('COMPLETED');
    expect(m.byRoute).toEqual({ [DETAILS]: 1 });
  });

  it('is empty for a node that never validated', async () => {
    const unknown = 'NodeID-111111111111111111116DBWJs';
    expect(data.validationsOf(unknown)).toEqual([]);
    const m = await stack.measure(() => stack.query<Data>(HISTORY, { nodeId: unknown }));
    expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
    expect(m.result.data.network.validationHistory.edges).toEqual([]);
    expect(m.requests).toBe(1);
  });

  it.each([
    ['first over the bound', { nodeId: 'NodeID-111111111111111111116DBWJs', first: 101 }, 'first'],
    ['a malformed node id', { nodeId: 'NodeID-1' }, 'nodeId'],
    ['a cursor of another connection', { nodeId: 'NodeID-111111111111111111116DBWJs', after: 'bm90LWEtY3Vyc29y.x' }, 'after'],
  ])('refuses %s before any upstream call', async (_name, variables, argument) => {
    const m = await stack.measure(() => stack.query<Data>(HISTORY, variables));
    expect(m.result.errors?.[0]?.extensions?.code, JSON.stringify(m.result.errors)).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(m.result.errors)).toContain(argument);
    expect(m.requests).toBe(0);
  });

  it("leaves the lookup's call count unchanged: Network.validator reads one page of the same endpoint", async () => {
    const m = await stack.measure(() => stack.query<Data>('query($n: String!) { network(name: MAINNET) { validator(nodeId: $n) { txHash } } }', { n: nodeId }));
    expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
    expect(m.byRoute).toEqual({ [DETAILS]: 1 });
  });
});

describe('Validator.history', () => {
  it('reads one listing per validator of a page (the endpoint takes one node id), all in one round', async () => {
    const query = `{ network(name: MAINNET) { validators(first: 5) { edges { node { nodeId txHash history(first: 100) { edges { node { txHash nodeId } } } } } } } }`;
    const m = await stack.measure(() => stack.query<Data>(query));
    expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
    const parents: Data[] = m.result.data.network.validators.edges.map((e: Data) => e.node);
    expect(parents).toHaveLength(5);
    for (const p of parents) {
      const own: string[] = p.history.edges.map((e: Data) => e.node.txHash);
      expect(own).toContain(p.txHash);
      expect(new Set(own)).toEqual(new Set(await listed(p.nodeId)));
    }
    expect(m.byRoute[E8]).toBe(1);
    expect(m.byRoute[DETAILS]).toBe(new Set(parents.map((p) => p.nodeId)).size);
    expect(m.rounds).toBe(2);
  });
});

describe('AvalancheNode.validations', () => {
  it("is the node's own history: info.getNodeID, then one listing", async () => {
    const query = `{ avalancheNode { nodeId validations(network: MAINNET, first: 100) { edges { node { txHash nodeId } } } } }`;
    const m = await stack.measure(() => stack.query<Data>(query));
    expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
    const node = m.result.data.avalancheNode;
    const own: Data[] = node.validations.edges.map((e: Data) => e.node);
    for (const v of own) expect(v.nodeId).toBe(node.nodeId);
    expect(own.map((v) => v.txHash)).toEqual(data.validationsOf(node.nodeId).reverse().map((v) => v.txHash));
    expect(m.byRoute[GET_NODE_ID]).toBe(1);
    expect(m.byRoute[DETAILS]).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCb58 as cb58 } from '../../src/lib/base58.ts';
import { nodeForNetwork, peerByNodeId } from '../../src/loaders/nodes.ts';
import type { NodeClient } from '../../src/upstream/client-types.ts';
import { PRIMARY_NETWORK_ID, type Validator } from '../../src/shapes/index.ts';
import { createLoaderContext } from '../helpers/loader-context.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

const PEERS = 'POST info.peers';
const NETWORK_ID = 'POST info.getNetworkID';

let stack: TestStack;
/** Active primary-network validators of each network (the nodes' peers), in listing order. */
const activeOf: Record<'mainnet' | 'fuji', Validator[]> = { mainnet: [], fuji: [] };

beforeAll(async () => {
  stack = await startStack({ devnet: { validators: 400 } });
  const direct = createLoaderContext(stack.devnet);
  try {
    for (const network of ['mainnet', 'fuji'] as const) {
      const page = await direct.dataApi.listValidators(network, { subnetId: PRIMARY_NETWORK_ID, validationStatus: 'active', pageSize: 100 });
      activeOf[network] = page.validators;
    }
  } finally {
    await direct.close();
  }
  // The gateway learns its nodes' networks at start: those calls are not the walk's.
  await stack.upstreamSettled();
});

afterAll(async () => {
  await stack?.close();
});

describe('node links the walk uses', () => {
  it('peerByNodeId sends every id of a request to each node as ONE info.peers call (malformed ids never sent)', async () => {
    const lc = createLoaderContext(stack.devnet);
    try {
      const mainnet = lc.nodes[0] as NodeClient;
      const fuji = lc.nodes[1] as NodeClient;
      const ids = activeOf.mainnet.slice(0, 40).map((v) => v.nodeId);
      const fujiIds = activeOf.fuji.slice(0, 10).map((v) => v.nodeId);
      // Well-formed (checksum included), but no validator's.
      const unknown = `NodeID-${cb58(Buffer.alloc(20, 7))}`;
      // The node would reject the whole call for this one.
      const malformed = 'NodeID-0OIl';
      const keys = [...ids.slice(0, 20), unknown, malformed, ...ids.slice(20), ids[0] as string, fujiIds[0] as string];
      const ctx = lc.fresh();
      const m = await lc.measure(() =>
        Promise.all([peerByNodeId(ctx, mainnet).loadMany(keys), peerByNodeId(ctx, fuji).loadMany([...fujiIds, ids[1] as string])]),
      );
      expect(m.byRoute[PEERS]).toBe(2);
      expect(m.requests).toBe(2);
      expect(m.rounds).toBe(1);

      const { peers } = await mainnet.call('info.peers', { nodeIDs: ids });
      // Timestamps move between calls: compare what identifies the peer.
      const stable = (p: { nodeID: string; ip: string; publicIP?: string; version: string } | null | Error) =>
        p === null || p instanceof Error ? p : { nodeID: p.nodeID, ip: p.ip, publicIP: p.publicIP, version: p.version };
      const direct = new Map(peers.map((p) => [p.nodeID, p]));
      expect(direct.size).toBeGreaterThan(0);
      const [onMainnet, onFuji] = m.result;
      const others = keys.filter((id) => id !== malformed);
      expect(onMainnet?.filter((_, i) => keys[i] !== malformed).map(stable)).toEqual(others.map((id) => stable(direct.get(id) ?? null)));
      for (const p of onMainnet ?? []) if (p && !(p instanceof Error)) expect(p.node).toBe('mainnet');
      expect(onMainnet?.[keys.indexOf(unknown)]).toBeNull();
      // Not a node id: read from an upstream answer (callers' ids are checked first), so that answer's error, never sent.
      expect(onMainnet?.[keys.indexOf(malformed)]).toMatchObject({ kind: 'input', field: 'nodeId', parameter: 'nodeIDs', upstream: 'node:mainnet' });
      // Each node answers for its own network only.
      expect(onMainnet?.at(-1)).toBeNull();
      expect(onFuji?.at(-1)).toBeNull();
      expect(onFuji?.filter((p) => p !== null).length).toBeGreaterThan(0);
      for (const p of onFuji ?? []) if (p && !(p instanceof Error)) expect(p.node).toBe('fuji');
    } finally {
      await lc.close();
    }
  });

  // The node verifies the cb58 checksum and rejects a whole info.peers call for one bad id: such ids are
  // answered null without being sent, so they cannot fail the other keys of the batch.
  it('a node id with a bad checksum fails only its own key of the batch', async () => {
    const lc = createLoaderContext(stack.devnet, ['mainnet']);
    try {
      const good = activeOf.mainnet[0]?.nodeId as string;
      const bad = `${good.slice(0, -1)}${good.endsWith('2') ? '3' : '2'}`;
      const answer = await peerByNodeId(lc.ctx, lc.nodes[0] as NodeClient).loadMany([good, bad]);
      expect(answer[0]).toMatchObject({ nodeID: good });
      expect(answer[1]).toMatchObject({ kind: 'input', field: 'nodeId' });
    } finally {
      await lc.close();
    }
  });

  it('nodeForNetwork asks every node at once (one round) and the directory learns each network once per process', async () => {
    // Configured fuji first, so the answer for mainnet is not just "the first node".
    const lc = createLoaderContext(stack.devnet, ['fuji', 'mainnet']);
    try {
      const first = await lc.measure(() => nodeForNetwork(lc.fresh(), 'mainnet'));
      expect(first.result?.name).toBe('mainnet');
      expect(first.byRoute[NETWORK_ID]).toBe(2);
      expect(first.requests).toBe(2);
      expect(first.rounds).toBe(1);

      // Later requests (new loader maps, same directory): no call at all.
      const again = await lc.measure(() =>
        Promise.all([nodeForNetwork(lc.fresh(), 'fuji'), nodeForNetwork(lc.fresh(), 'mainnet'), nodeForNetwork(lc.fresh(), 'fuji')]),
      );
      expect(again.result.map((n) => n?.name)).toEqual(['fuji', 'mainnet', 'fuji']);
      expect(again.requests).toBe(0);
    } finally {
      await lc.close();
    }
  });
});

/** The GraphiQL example (src/gateway/graphiql-examples.ts) with `first` as a variable, plus two E8 scalars to check the answer by. */
const WALK = `query ValidatorWalk($first: Int!) {
  network(name: MAINNET) {
    validators(first: $first, filter: { validationStatus: ACTIVE }) {
      pageInfo { hasNextPage endCursor }
      edges { node {
        id nodeId amountStaked subnetId delegatorCount
        delegators(first: 5) { edges { node { txHash amountDelegated } } }
        pendingRewards(first: 5) { edges { node { estimatedReward { amount } } } }
        subnet { subnetId }
        peer { ip version observedUptime }
      } }
    }
  }
}`;

/**
 * Upstream requests of the walk as measured on this devnet (400 validators, seed 1), always in 2 rounds:
 * - first 10: 5 (E8 1, E13 1, E12 1, E7 1, info.peers 1); naive 41
 * - first 50: 17 (E8 1, E13 7, E12 7, E7 1, info.peers 1); naive 201
 * - first 100: 30 (E8 1, E13 13, E12 14, E7 1, info.peers 1); naive 401
 * The naive plan is E8 plus, per validator, E13, E12, E7 and info.peers. E13/E12 are the packed groups
 * (the primary validators' lists, up to 100 items each) plus one call per validator with > 100.
 */
const BUDGET: Record<number, number> = { 10: 6, 50: 20, 100: 35 };

/** Listings the planner needs for these list sizes: next-fit over ascending sizes, empty lists free, > 100 alone. */
function plannedCalls(sizes: readonly number[]): number {
  let groups = 0;
  let size = 0;
  for (const s of sizes.filter((s) => s > 0 && s <= 100).sort((a, b) => a - b)) {
    if (groups === 0 || size + s > 100) {
      groups++;
      size = 0;
    }
    size += s;
  }
  return groups + sizes.filter((s) => s > 100).length;
}

describe('ValidatorWalk through the gateway', () => {
  for (const first of [10, 50, 100]) {
    it(`first: ${first} -> at most ${BUDGET[first]} upstream requests (naive ${1 + 4 * first}) in exactly 2 rounds`, async () => {
      const m = await stack.measure(() => stack.query<Data>(WALK, { first }));
      const res = m.result;
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      const report = JSON.stringify({ first, requests: m.requests, rounds: m.rounds, byRoute: m.byRoute, perRound: m.perRound });

      const validators: Data[] = res.data.network.validators.edges.map((e: Data) => e.node);
      expect(validators).toHaveLength(first);
      // ACTIVE without a subnet filter: subnet validations too, which have no delegators or staking rewards.
      const onPrimary = validators.filter((v) => v.subnetId === PRIMARY_NETWORK_ID);
      expect(onPrimary.length).toBeGreaterThan(first / 2);
      for (const v of validators) {
        expect(v.subnet.subnetId).toBe(v.subnetId);
        if (v.subnetId === PRIMARY_NETWORK_ID) {
          expect(v.delegators.edges.length).toBe(Math.min(5, v.delegatorCount));
          expect(v.pendingRewards.edges.length).toBeGreaterThan(0);
        } else {
          expect(v.delegators.edges).toEqual([]);
          expect(v.pendingRewards.edges).toEqual([]);
        }
      }
      // The mainnet node is connected to (most) active validators.
      expect(validators.filter((v) => v.peer !== null).length).toBeGreaterThan(first / 2);

      expect(m.byRoute['GET /v1/networks/{network}/validators']).toBe(1);
      // Packed by delegatorCount (delegators) and delegatorCount + 1 (pending rewards: its own plus one per delegation).
      const counts: number[] = onPrimary.map((v) => v.delegatorCount);
      expect(m.byRoute['GET /v1/networks/{network}/delegators']).toBe(plannedCalls(counts));
      expect(m.byRoute['GET /v1/networks/{network}/rewards:listPending']).toBe(plannedCalls(counts.map((c) => c + 1)));
      expect(m.byRoute['GET /v1/networks/{network}/subnets']).toBe(1);
      expect(m.byRoute[PEERS]).toBe(1);
      expect(m.byRoute[NETWORK_ID] ?? 0).toBe(0);
      expect(m.requests, report).toBeLessThanOrEqual(BUDGET[first] as number);
      expect(m.requests, report).toBeLessThan((1 + 4 * first) / 4);
      // The validator list, then everything hanging off it in parallel.
      expect(m.rounds, report).toBe(2);
      expect(m.perRound[0], report).toEqual(['listValidators']);
    });
  }
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { dataOf, devnetGet, startStack, type TestStack } from '../helpers/stack.ts';
import { mismatches, STRICT_SHAPES } from '../shapes/strict.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

/**
 * L1 validators (listL1Validators) through the gateway on the devnet, judged by the
 * upstream requests each query makes: `Network.l1Validators`, and `Subnet.l1Validators`
 * for a page of subnets (one listing per L1 on the page, none for the other subnets).
 */

const ROUTE = 'GET /v1/networks/{network}/l1Validators';
let stack: TestStack;
let f: NetworkFixtures;
const clock = Date.now();

const FIELDS = 'validationId validationIdHex nodeId subnetId weight remainingBalance isActive balanceBlockHeight creationTimestamp creationTime blsPublicKey blsProofOfPossession remainingBalanceOwner { addresses threshold } deactivationOwner { addresses threshold }';
const nodes = (connection: Data): Data[] => connection.edges.map((e: Data) => e.node);

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => clock } });
  f = stack.devnet.dataset.fixtures().mainnet;
});
afterAll(async () => {
  await stack?.close();
});

describe('the devnet serves L1 validators', () => {
  it('strictly shaped, of the L1 subnets, each a validation the validator listing of that subnet has', async () => {
    const body = await devnetGet<Data>(stack, '/v1/networks/mainnet/l1Validators?pageSize=100&includeInactiveL1Validators=true');
    expect(mismatches(body, STRICT_SHAPES.ListL1ValidatorsResponse)).toEqual([]);
    expect(body.validators.length).toBeGreaterThan(0);
    const subnets = await devnetGet<Data>(stack, '/v1/networks/mainnet/subnets?pageSize=100');
    const l1s = new Set(subnets.subnets.filter((s: Data) => s.isL1).map((s: Data) => s.subnetId));
    for (const v of body.validators) {
      expect(l1s.has(v.subnetId)).toBe(true);
      const listed = await devnetGet<Data>(stack, `/v1/networks/mainnet/validators?subnetId=${v.subnetId}&nodeIds=${v.nodeId}&pageSize=100`);
      expect(listed.validators.map((x: Data) => x.nodeId)).toContain(v.nodeId);
    }
  });
});

describe('Network.l1Validators', () => {
  it('reads one page in one call, as the devnet lists it, and its filters narrow it', async () => {
    stack.devnet.resetStats();
    const data = await dataOf<Data>(stack, `{ network(name: MAINNET) { l1Validators(first: 100, includeInactive: true) { edges { node { ${FIELDS} subnet { subnetId isL1 } } } } } }`);
    // The subnet links share one read of the subnet list.
    expect(stack.devnet.stats().byRoute[ROUTE]).toBe(1);
    const wire = await devnetGet<Data>(stack, '/v1/networks/mainnet/l1Validators?pageSize=100&includeInactiveL1Validators=true');
    const got = nodes(data.network.l1Validators);
    expect(got.map((v: Data) => v.validationId)).toEqual(wire.validators.map((v: Data) => v.validationId));
    for (const v of got) expect(v.subnet).toEqual({ subnetId: v.subnetId, isL1: true });
    expect(got.some((v: Data) => !v.isActive)).toBe(true);

    const one = got[0];
    const byId = await dataOf<Data>(stack, `query($id: String!) { network(name: MAINNET) { l1Validators(l1ValidationId: $id, includeInactive: true) { edges { node { validationId nodeId } } } } }`, { id: one.validationId });
    expect(nodes(byId.network.l1Validators)).toEqual([{ validationId: one.validationId, nodeId: one.nodeId }]);
    const active = await dataOf<Data>(stack, `query($s: String!) { network(name: MAINNET) { l1Validators(first: 100, subnetId: $s) { edges { node { isActive subnetId } } } } }`, { s: f.l1SubnetId });
    const activeNodes = nodes(active.network.l1Validators);
    expect(activeNodes.length).toBe(got.filter((v: Data) => v.isActive && v.subnetId === f.l1SubnetId).length);
    for (const v of activeNodes) expect(v).toEqual({ isActive: true, subnetId: f.l1SubnetId });
  });

  it('pages with cursors, and refuses bad filters before any call', async () => {
    const first = await dataOf<Data>(stack, '{ network(name: MAINNET) { l1Validators(first: 2, includeInactive: true) { edges { node { validationId } } pageInfo { hasNextPage endCursor } } } }');
    expect(first.network.l1Validators.pageInfo.hasNextPage).toBe(true);
    const next = await dataOf<Data>(stack, 'query($a: String!) { network(name: MAINNET) { l1Validators(first: 2, includeInactive: true, after: $a) { edges { node { validationId } } } } }', { a: first.network.l1Validators.pageInfo.endCursor });
    const ids = [...nodes(first.network.l1Validators), ...nodes(next.network.l1Validators)].map((v: Data) => v.validationId);
    expect(new Set(ids).size).toBe(4);
    for (const query of ['{ network(name: MAINNET) { l1Validators(nodeId: "node") { edges { cursor } } } }', '{ network(name: MAINNET) { l1Validators(first: 101) { edges { cursor } } } }', '{ network(name: MAINNET) { l1Validators(subnetId: "x") { edges { cursor } } } }']) {
      stack.devnet.resetStats();
      const res = await stack.query(query);
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(stack.upstreamRequests()).toBe(0);
    }
  });
});

describe('Subnet.l1Validators', () => {
  it('for a page of subnets: one listing per L1 on the page, none for the others, each pinned to its subnet', async () => {
    const measured = await stack.measure(() =>
      dataOf<Data>(stack, '{ network(name: MAINNET) { subnets(first: 100) { edges { node { subnetId isL1 l1Validators(first: 5, includeInactive: true) { edges { node { subnetId nodeId } } } } } } } }'),
    );
    const subnets = nodes(measured.result.network.subnets);
    const l1s = subnets.filter((s: Data) => s.isL1);
    expect(l1s.length).toBeGreaterThan(0);
    expect(subnets.length).toBeGreaterThan(l1s.length);
    expect(measured.byRoute[ROUTE]).toBe(l1s.length);
    for (const s of subnets) {
      const validators = nodes(s.l1Validators);
      if (!s.isL1) expect(validators).toEqual([]);
      else {
        expect(validators.length).toBeGreaterThan(0);
        for (const v of validators) expect(v.subnetId).toBe(s.subnetId);
      }
    }
  });
});

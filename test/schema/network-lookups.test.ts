import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { PRIMARY_CHAIN_IDS, PRIMARY_NETWORK_ID } from '../../src/shapes/index.ts';
import { dataOf, startStack, type TestStack } from '../helpers/stack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;

const ok = (query: string, variables?: Record<string, unknown>): Promise<Data> => dataOf<Data>(stack, query, variables);

/** Runs `query` from fresh counters; the devnet's requests per route. */
async function counted(query: string, variables?: Record<string, unknown>): Promise<{ data: Data; byRoute: Record<string, number> }> {
  await fetch(`${stack.devnet.url}/__devnet/stats/reset`, { method: 'POST' });
  const data = await ok(query, variables);
  return { data, byRoute: stack.devnet.stats().byRoute };
}

const nodes = (connection: Data): Data[] => connection.edges.map((e: Data) => e.node);

const VALIDATOR = `id __typename nodeId subnetId txHash amountStaked startTimestamp endTimestamp validationStatus delegatorCount
  rewards { validationRewardAmount delegationRewardAmount }`;

beforeAll(async () => {
  stack = await startStack();
  f = stack.devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await stack?.close();
});

describe('Network.validator(nodeId:) reads the node directly', () => {
  it('equals the node\'s current item of the validator listing, for each status, with one direct call', async () => {
    for (const [nodeId, status] of [[f.nodeId, 'ACTIVE'], [f.completedNodeId, 'COMPLETED'], [f.pendingNodeId, 'PENDING'], [f.revalidatedNodeId, 'ACTIVE']] as const) {
      const { data, byRoute } = await counted(
        `query($n: String!) { network(name: MAINNET) { validator(nodeId: $n) { ${VALIDATOR} }
          validators(filter: { nodeIds: [$n], subnetId: "${PRIMARY_NETWORK_ID}" }, first: 10) { edges { node { ${VALIDATOR} } } } } }`,
        { n: nodeId },
      );
      // Every time the node validated is its own item; the lookup answers its latest of the fixture's status.
      const listed = nodes(data.network.validators).filter((v: Data) => v.nodeId === nodeId);
      expect(listed.length).toBeGreaterThan(0);
      const current = listed.filter((v: Data) => v.validationStatus === status).sort((a: Data, b: Data) => Number(b.endTimestamp) - Number(a.endTimestamp))[0];
      expect(data.network.validator).toEqual(current);
      expect(byRoute['GET /v1/networks/{network}/validators/{nodeId}']).toBe(1);
    }
  });

  it('is null for a node that never validated, and for a subnet-only validator', async () => {
    const data = await ok(`query($a: String!, $b: String!) { network(name: MAINNET) { a: validator(nodeId: $a) { nodeId } b: validator(nodeId: $b) { nodeId } } }`, {
      a: 'NodeID-111111111111111111116DBWJs',
      b: f.subnetValidatorNodeId,
    });
    expect(data.network).toEqual({ a: null, b: null });
  });

  it('many in one query share one nodeIds listing (no direct call per node)', async () => {
    const ids = [f.nodeId, f.completedNodeId, f.pendingNodeId, f.busyNodeId];
    const fields = ids.map((_, i) => `v${i}: validator(nodeId: $n${i}) { nodeId validationStatus }`).join(' ');
    const defs = ids.map((_, i) => `$n${i}: String!`).join(', ');
    const vars = Object.fromEntries(ids.map((id, i) => [`n${i}`, id]));
    const { data, byRoute } = await counted(`query(${defs}) { network(name: MAINNET) { ${fields} } }`, vars);
    ids.forEach((id, i) => expect(data.network[`v${i}`].nodeId).toBe(id));
    expect(byRoute['GET /v1/networks/{network}/validators']).toBe(1);
    expect(byRoute['GET /v1/networks/{network}/validators/{nodeId}']).toBeUndefined();
  });

  it('refuses a malformed node id before any call', async () => {
    await fetch(`${stack.devnet.url}/__devnet/stats/reset`, { method: 'POST' });
    const res = await stack.query(`{ network(name: MAINNET) { validator(nodeId: "NodeID-abc") { nodeId } } }`);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'nodeId' });
    expect(stack.upstreamRequests()).toBe(0);
  });
});

describe('Network.subnet(subnetId:) and refetch by id', () => {
  const SUBNET = 'id subnetId isL1 createBlockIndex blockchains { id blockchainId blockchainName vmId evmChainId }';

  it('reads a lone subnet directly and equals its item of the subnet listing', async () => {
    const { data, byRoute } = await counted(`query($s: String!) { network(name: MAINNET) { subnet(subnetId: $s) { ${SUBNET} } } }`, { s: f.subnetId });
    expect(byRoute).toEqual({ 'GET /v1/networks/{network}/subnets/{subnetId}': 1 });
    const listed = await ok(`{ network(name: MAINNET) { subnets(first: 1000) { edges { node { ${SUBNET} } } } } }`);
    expect(nodes(listed.network.subnets).find((s: Data) => s.subnetId === f.subnetId)).toEqual(data.network.subnet);
  });

  it('answers the primary network and null for an unknown subnet', async () => {
    const data = await ok(`{ network(name: FUJI) { p: subnet(subnetId: "${PRIMARY_NETWORK_ID}") { subnetId isPrimaryNetwork blockchains { blockchainId } }
      none: subnet(subnetId: "${PRIMARY_CHAIN_IDS.mainnet.c}") { subnetId } } }`);
    expect(data.network.p.isPrimaryNetwork).toBe(true);
    expect(data.network.p.blockchains.map((b: Data) => b.blockchainId)).toEqual(Object.values(PRIMARY_CHAIN_IDS.fuji));
    expect(data.network.none).toBeNull();
  });

  it('several subnets in one query share one subnet list', async () => {
    const { data, byRoute } = await counted(`query($a: String!, $b: String!) { network(name: MAINNET) {
      a: subnet(subnetId: $a) { subnetId } b: subnet(subnetId: $b) { subnetId } p: subnet(subnetId: "${PRIMARY_NETWORK_ID}") { subnetId } } }`, { a: f.subnetId, b: f.l1SubnetId });
    expect([data.network.a.subnetId, data.network.b.subnetId, data.network.p.subnetId]).toEqual([f.subnetId, f.l1SubnetId, PRIMARY_NETWORK_ID]);
    expect(byRoute).toEqual({ 'GET /v1/networks/{network}/subnets': 1 });
  });

  it('node(id:) refetches a subnet and a blockchain with a direct read each', async () => {
    const listed = await ok(`query($s: String!) { network(name: MAINNET) { subnet(subnetId: $s) { id blockchains { id blockchainId subnetId } } } }`, { s: f.subnetId });
    const subnet = listed.network.subnet;
    const chain = subnet.blockchains[0];
    const { data, byRoute } = await counted(`query($s: ID!, $b: ID!) { s: node(id: $s) { id ... on Subnet { subnetId } } b: node(id: $b) { id ... on Blockchain { blockchainId subnetId } } }`, {
      s: subnet.id,
      b: chain.id,
    });
    expect(data.s).toEqual({ id: subnet.id, subnetId: f.subnetId });
    expect(data.b).toEqual(chain);
    expect(byRoute).toEqual({
      'GET /v1/networks/{network}/subnets/{subnetId}': 1,
      'GET /v1/networks/{network}/blockchains/{blockchainId}': 1,
    });
  });

  it('nodes(ids:) of many blockchains reads the subnet list once', async () => {
    const all = await ok(`{ network(name: MAINNET) { blockchains(first: 20) { edges { node { id blockchainId } } } } }`);
    const chains = nodes(all.network.blockchains);
    expect(chains.length).toBeGreaterThan(3);
    const { data, byRoute } = await counted(`query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Blockchain { blockchainId } } }`, { ids: chains.map((c: Data) => c.id) });
    expect(data.nodes).toEqual(chains);
    expect(byRoute).toEqual({ 'GET /v1/networks/{network}/subnets': 1 });
  });
});

describe('Network.blockchains', () => {
  it('pages every blockchain of every subnet, each equal to its subnet\'s entry and to its lookup by id', async () => {
    const subnets = await ok(`{ network(name: MAINNET) { subnets(first: 1000) { edges { node { blockchains { id blockchainId subnetId blockchainName createBlockNumber } } } } }
      p: network(name: MAINNET) { subnet(subnetId: "${PRIMARY_NETWORK_ID}") { blockchains { id blockchainId subnetId blockchainName createBlockNumber } } } }`);
    // The devnet's subnet list holds the primary network too: one entry per blockchain.
    const expected = [...new Map([...subnets.p.subnet.blockchains, ...nodes(subnets.network.subnets).flatMap((s: Data) => s.blockchains)].map((b: Data) => [b.blockchainId, b])).values()];
    const seen: Data[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i++) {
      const page: Data = await ok(`query($after: String) { network(name: MAINNET) { blockchains(first: 7, after: $after, sortOrder: ASC) {
        edges { node { id blockchainId subnetId blockchainName createBlockNumber } } pageInfo { hasNextPage endCursor } } } }`, { after });
      seen.push(...nodes(page.network.blockchains));
      if (!page.network.blockchains.pageInfo.hasNextPage) break;
      after = page.network.blockchains.pageInfo.endCursor;
    }
    const byId = (list: Data[]) => [...list].sort((a, b) => a.blockchainId.localeCompare(b.blockchainId));
    expect(byId(seen)).toEqual(byId(expected));
    const one = seen[seen.length - 1];
    const back = await ok(`query($id: ID!) { node(id: $id) { ... on Blockchain { id blockchainId subnetId blockchainName createBlockNumber } } }`, { id: one.id });
    expect(back.node).toEqual(one);
  });

  it('bounds first by the spec\'s page range', async () => {
    const res = await stack.query(`{ network(name: MAINNET) { blockchains(first: 10001) { edges { cursor } } } }`);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'first' });
  });
});

describe('Network.details and Network.avaxSupply', () => {
  it('sum the active primary-network validations and delegations the listings serve', async () => {
    const data = await ok(`{ network(name: MAINNET) {
      details { validatorDetails { validatorCount totalAmountStaked estimatedAnnualStakingReward stakingRatio
        stakingDistributionByVersion { version amountStaked validatorCount } } delegatorDetails { delegatorCount totalAmountStaked } }
      avaxSupply { totalStaked totalSupply circulatingSupply totalLocked lastUpdated } } }`);
    const { validatorDetails: v, delegatorDetails: d } = data.network.details;
    const validators: Data[] = [];
    let after: string | null = null;
    for (let i = 0; i < 100; i++) {
      const page: Data = await ok(`query($after: String) { network(name: MAINNET) { validators(first: 100, after: $after,
        filter: { validationStatus: ACTIVE, subnetId: "${PRIMARY_NETWORK_ID}" }) { edges { node { amountStaked ... on ActiveValidator { avalancheGoVersion } } }
        pageInfo { hasNextPage endCursor } } } }`, { after });
      validators.push(...nodes(page.network.validators));
      if (!page.network.validators.pageInfo.hasNextPage) break;
      after = page.network.validators.pageInfo.endCursor;
    }
    expect(v.validatorCount).toBe(validators.length);
    expect(BigInt(v.totalAmountStaked)).toBe(validators.reduce((sum, x) => sum + BigInt(x.amountStaked), 0n));
    expect(v.stakingDistributionByVersion.reduce((n: number, x: Data) => n + x.validatorCount, 0)).toBe(validators.length);
    expect(v.stakingDistributionByVersion.reduce((sum: bigint, x: Data) => sum + BigInt(x.amountStaked), 0n)).toBe(BigInt(v.totalAmountStaked));
    expect(d.delegatorCount).toBeGreaterThan(0);
    // The supply's staked AVAX is the same stake, in AVAX.
    const staked = BigInt(v.totalAmountStaked) + BigInt(d.totalAmountStaked);
    const [whole = '0', fraction = ''] = data.network.avaxSupply.totalStaked.split('.');
    expect(BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'))).toBe(staked);
    expect(Number(v.stakingRatio)).toBeCloseTo(Number(staked) / 1e9 / Number(data.network.avaxSupply.totalSupply), 4);
    expect(Number.isNaN(Date.parse(data.network.avaxSupply.lastUpdated))).toBe(false);
  });

  it('read once per request however often asked; the supply is null on FUJI', async () => {
    const { data, byRoute } = await counted(`{ a: network(name: MAINNET) { details { delegatorDetails { delegatorCount } } avaxSupply { totalSupply } }
      b: network(name: MAINNET) { details { validatorDetails { validatorCount } } avaxSupply { circulatingSupply } }
      c: network(name: FUJI) { details { validatorDetails { validatorCount } } avaxSupply { totalSupply } } }`);
    expect(data.c.avaxSupply).toBeNull();
    expect(byRoute).toEqual({ 'GET /v1/networks/{network}': 2, 'GET /v1/avax/supply': 1 });
  });
});

import { buildSchema, getIntrospectionQuery, parse, type GraphQLField } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exampleQueries } from '../../src/graphiql-examples.ts';
import { estimateQueryCost, type EstimateOptions } from '../../src/plugins/use-query-cost.ts';
import { createMemoryCache } from '../../src/upstream/cache.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

// ---------------------------------------------------------------- the model, on a small schema

const schema = buildSchema(`
  type Query {
    network(name: String!): Network!
    chains: [Chain!]!
    chain(chainId: String!): Chain
    nodes(ids: [ID!]!): [Chain]!
  }
  type Network {
    name: String!
    validators(first: Int, after: String): ValidatorConnection!
    subnets(first: Int): SubnetConnection!
  }
  type PageInfo { hasNextPage: Boolean! endCursor: String }
  type ValidatorConnection { edges: [ValidatorEdge!]! pageInfo: PageInfo! }
  type ValidatorEdge { cursor: String! node: Validator! }
  type Validator {
    nodeId: String!
    delegators(first: Int, after: String): DelegatorConnection!
    subnet: Subnet
    peer(node: String): Peer
    rewards: Rewards
  }
  type DelegatorConnection { edges: [DelegatorEdge!]! }
  type DelegatorEdge { node: Delegator! }
  type Delegator { txHash: String! validator: Validator }
  type SubnetConnection { edges: [SubnetEdge!]! }
  type SubnetEdge { node: Subnet! }
  type Subnet { subnetId: String! blockchains: [Blockchain!]! }
  type Blockchain { blockchainId: String! evmChain: Chain }
  type Chain { chainId: String! }
  type Peer { ip: String! }
  type Rewards { amount: String! }
`);

const estimate = (query: string, variables: Record<string, unknown> = {}, options: EstimateOptions = {}) =>
  estimateQueryCost(schema, parse(query), variables, undefined, options);

const WALK = `{
  network(name: "mainnet") {
    validators(first: 50) {
      edges { node {
        nodeId
        delegators(first: 5) { edges { node { txHash } } }
        subnet { subnetId }
        peer { ip }
        rewards { amount }
      } }
    }
  }
}`;

describe('estimateQueryCost', () => {
  it('charges 1 per root connection, packed listings plus a solo share for nested ones, ceil(n/100) per link', () => {
    // validators 1; delegators under 50: min(50, ceil(250/100) + ceil(50 * 0.1)) = 8; subnet 1; peer 1; rewards inline.
    expect(estimate(WALK)).toEqual({ estimatedUpstreamCalls: 11, nodes: 50 + 50 * 5 });
    expect(estimate(WALK, {}, { soloShare: 0.5 })?.estimatedUpstreamCalls).toBe(1 + 28 + 1 + 1);
    // The optimistic model (everything packs): 1 + 3 + 1 + 1.
    expect(estimate(WALK, {}, { soloShare: 0 })?.estimatedUpstreamCalls).toBe(6);
  });

  it('never charges a nested connection more than one call per parent, and exactly that with `after`', () => {
    const big = estimate(`{ network(name: "m") { validators(first: 100) { edges { node { delegators(first: 100) { edges { node { txHash } } } } } } } }`);
    expect(big).toEqual({ estimatedUpstreamCalls: 1 + 100, nodes: 100 + 100 * 100 });
    const after = estimate(`{ network(name: "m") { validators(first: 20) { edges { node { delegators(first: 1, after: "c") { edges { node { txHash } } } } } } } }`);
    expect(after?.estimatedUpstreamCalls).toBe(1 + 20);
  });

  it('batches links 100 parents per call, level after level', () => {
    // 50 validators x 5 delegators = 250 delegators whose `validator` link costs ceil(250/100) = 3.
    const result = estimate(`{ network(name: "m") { validators(first: 50) { edges { node {
      delegators(first: 5) { edges { node { validator { nodeId } } } }
    } } } } }`);
    expect(result?.estimatedUpstreamCalls).toBe(1 + 8 + 3);
  });

  it('uses the PAGES default page size by field name, else 10', () => {
    expect(estimate(`{ network(name: "m") { subnets { edges { node { subnetId } } } } }`)?.nodes).toBe(100);
    expect(estimate(`{ network(name: "m") { validators { edges { node { nodeId } } } } }`)?.nodes).toBe(10);
  });

  it('sees through fragments, inline fragments and variables, and honours @skip/@include', () => {
    const viaFragments = estimate(
      `query Walk($first: Int, $n: Int) { network(name: "m") { validators(first: $first) { ...Page } } }
       fragment Page on ValidatorConnection { edges { node { ... on Validator { nodeId delegators(first: $n) { edges { node { txHash } } } } ...Links } } }
       fragment Links on Validator { subnet { subnetId } peer { ip } }`,
      { first: 50, n: 5 },
    );
    expect(viaFragments).toEqual({ estimatedUpstreamCalls: 1 + 8 + 1 + 1, nodes: 300 });
    const skipped = estimate(
      `query ($skip: Boolean!) { network(name: "m") { validators(first: 50) { edges { node { delegators(first: 5) @skip(if: $skip) { edges { node { txHash } } } } } } } }`,
      { skip: true },
    );
    expect(skipped).toEqual({ estimatedUpstreamCalls: 1, nodes: 50 });
  });

  it('charges root fields 1 each, lists sized by their id argument per item, wrappers nothing', () => {
    expect(estimate(`{ chains { chainId } chain(chainId: "1") { chainId } network(name: "m") { name } }`)).toEqual({
      estimatedUpstreamCalls: 2,
      nodes: 10, // chains: the default list size
    });
    expect(estimate(`{ nodes(ids: ["a", "b", "c"]) { chainId } }`)).toEqual({ estimatedUpstreamCalls: 3, nodes: 3 });
    expect(estimate(`{ chains { chainId } }`, {}, { listSizes: { 'Query.chains': 40 } })?.nodes).toBe(40);
  });

  it('takes a field\'s `extensions.cost` and the `fieldCosts` option over the inference', () => {
    const rewards = schema.getType('Validator') as unknown as { getFields(): Record<string, GraphQLField<unknown, unknown>> };
    const field = rewards.getFields()['rewards'] as { extensions: unknown };
    const saved = field.extensions;
    field.extensions = { cost: { kind: 'batched' } };
    try {
      expect(estimate(WALK)?.estimatedUpstreamCalls).toBe(11 + 1);
      expect(estimate(WALK, {}, { fieldCosts: { 'Validator.rewards': { kind: 'upstream' } } })?.estimatedUpstreamCalls).toBe(11 + 50);
    } finally {
      field.extensions = saved;
    }
  });
});

// ---------------------------------------------------------------- the plugin, on the gateway

interface Cost {
  estimatedUpstreamCalls: number;
  actualUpstreamCalls: number;
  nodes: number;
}
const costOf = (response: GraphQLResponse): Cost => response.extensions?.['cost'] as Cost;
/** The GraphiQL examples with ids that have data on this stack's devnet. */
const examplesFor = (stack: TestStack): string => {
  const mainnet = stack.devnet.dataset.fixtures().mainnet;
  return exampleQueries({ evmChainId: mainnet.evmChainId, address: mainnet.address });
};
const runExample = async (stack: TestStack, operationName: string): Promise<GraphQLResponse> => {
  const response = await stack.gateway.fetch('http://chaingraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: examplesFor(stack), operationName }),
  });
  return (await response.json()) as GraphQLResponse;
};

/**
 * Waits until the devnet has seen no new request for 50 ms: the gateway learns its
 * nodes' networks in the background at start-up, calls no request owns.
 */
async function settle(stack: TestStack): Promise<void> {
  const deadline = Date.now() + 2_000;
  let last = -1;
  while (Date.now() < deadline) {
    const now = stack.devnet.stats().requests;
    if (now === last) return;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('useQueryCost on the gateway', () => {
  let stack: TestStack;
  let tight: TestStack;
  beforeAll(async () => {
    [stack, tight] = await Promise.all([
      startStack(),
      startStack({ devnet: { validators: 60 }, gateway: { maxQueryCost: 10, maxQueryNodes: 200 } }),
    ]);
    await Promise.all([settle(stack), settle(tight)]);
  });
  afterAll(async () => {
    await Promise.all([stack.close(), tight.close()]);
  });
  beforeEach(() => {
    stack.devnet.resetStats();
    tight.devnet.resetStats();
  });

  it('accepts the ValidatorWalk example under the default budget with an estimate in the tens, and reports what it cost', async () => {
    const response = await runExample(stack, 'ValidatorWalk');
    expect(response.errors).toBeUndefined();
    const cost = costOf(response);
    expect(cost.estimatedUpstreamCalls).toBeGreaterThanOrEqual(10);
    expect(cost.estimatedUpstreamCalls).toBeLessThan(100);
    expect(cost.nodes).toBe(50 + 50 * 5 + 50 * 5);
    expect(cost.actualUpstreamCalls).toBe(stack.devnet.stats().requests);
    expect(cost.actualUpstreamCalls).toBeGreaterThan(3);
  });

  it('reports actual upstream calls equal to what the devnet served', async () => {
    for (const name of ['NodeOverview', 'SubnetWithChains', 'AddressActivity']) {
      stack.devnet.resetStats();
      const response = await runExample(stack, name);
      expect(response.errors).toBeUndefined();
      expect(costOf(response).actualUpstreamCalls).toBe(stack.devnet.stats().requests);
    }
  });

  it('rejects an operation over the call budget with QUERY_TOO_COSTLY before any upstream call', async () => {
    const response = await runExample(tight, 'ValidatorWalk');
    expect(response.data ?? null).toBeNull();
    const error = response.errors?.[0];
    expect(error?.extensions?.['code']).toBe('QUERY_TOO_COSTLY');
    expect(error?.message).toMatch(/estimated \d+ upstream calls \(limit 10\)/);
    expect(tight.devnet.stats().requests).toBe(0);
    expect(costOf(response)).toMatchObject({ actualUpstreamCalls: 0 });
    expect(costOf(response).estimatedUpstreamCalls).toBeGreaterThan(10);
  });

  it('rejects an operation over the node budget', async () => {
    const response = await tight.query(`{ network(name: MAINNET) { validators(first: 50) { edges { node { delegators(first: 5) { edges { cursor } } } } } } }`);
    expect(response.errors?.[0]?.extensions?.['code']).toBe('QUERY_TOO_COSTLY');
    expect(response.errors?.[0]?.message).toContain('up to 300 nodes (limit 200)');
    expect(tight.devnet.stats().requests).toBe(0);
  });

  it('rejects under the default limits too (aliases multiply the cost)', async () => {
    const page = `validators(first: 100) { edges { node { delegators(first: 100) { edges { cursor } } } } }`;
    const query = `{ network(name: MAINNET) { ${Array.from({ length: 5 }, (_, i) => `v${i}: ${page}`).join(' ')} } }`;
    const response = await stack.query(query);
    expect(response.errors?.[0]?.extensions?.['code']).toBe('QUERY_TOO_COSTLY');
    expect(response.errors?.[0]?.message).toMatch(/505 upstream calls \(limit 500\) and up to 50500 nodes \(limit 50000\)/);
    expect(stack.devnet.stats().requests).toBe(0);
  });

  it('lets a bad argument report BAD_USER_INPUT rather than a cost error', async () => {
    const response = await stack.query(`{ network(name: MAINNET) { validators(first: 100000) { edges { cursor } } } }`);
    expect(response.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(costOf(response)).toMatchObject({ actualUpstreamCalls: 0, nodes: 100000 });
    expect(stack.devnet.stats().requests).toBe(0);
  });

  it('costs nothing upstream for a repeated query within the TTL when the cache is on', async () => {
    const cached = await startStack({ devnet: { validators: 60 }, cache: createMemoryCache() });
    try {
      await settle(cached);
      cached.devnet.resetStats();
      const first = await runExample(cached, 'ValidatorWalk');
      expect(first.errors).toBeUndefined();
      expect(costOf(first).actualUpstreamCalls).toBe(cached.devnet.stats().requests);
      cached.devnet.resetStats();
      const second = await runExample(cached, 'ValidatorWalk');
      expect(second.data).toEqual(first.data);
      expect(costOf(second).actualUpstreamCalls).toBe(0);
      expect(cached.devnet.stats().requests).toBe(0);
    } finally {
      await cached.close();
    }
  });
});

describe('operation limits (graphql-armor) on the gateway', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 30 } });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.devnet.resetStats());

  it('rejects a query deeper than 15 with QUERY_TOO_DEEP', async () => {
    let selection = 'nodeId';
    for (let i = 0; i < 8; i++) selection = `peer { validator(network: MAINNET) { ${selection} } }`;
    const response = await stack.query(`{ network(name: MAINNET) { validators(first: 1) { edges { node { ${selection} } } } } }`);
    expect(response.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Query depth limit of 15 exceeded, found \d+\.$/), extensions: { code: 'QUERY_TOO_DEEP' } });
    expect(stack.devnet.stats().requests).toBe(0);
  });

  it('rejects more than 30 aliases with TOO_MANY_ALIASES', async () => {
    const response = await stack.query(`{ ${Array.from({ length: 31 }, (_, i) => `n${i}: network(name: MAINNET) { id }`).join(' ')} }`);
    expect(response.errors?.[0]).toMatchObject({ message: 'Aliases limit of 30 exceeded, found 31.', extensions: { code: 'TOO_MANY_ALIASES' } });
  });

  it('rejects a document of more than 5000 tokens with TOO_MANY_TOKENS', async () => {
    const response = await stack.query(`{ network(name: MAINNET) { ${Array.from({ length: 6000 }, () => 'id').join(' ')} } }`);
    expect(response.errors?.[0]).toMatchObject({ message: 'Token limit of 5000 exceeded.', extensions: { code: 'TOO_MANY_TOKENS' } });
  });

  it('lets GraphiQL introspect and run every example', async () => {
    const introspection = await stack.query(getIntrospectionQuery());
    expect(introspection.errors).toBeUndefined();
    for (const name of ['ValidatorWalk', 'AddressActivity', 'SubnetWithChains', 'NodeOverview']) {
      expect((await runExample(stack, name)).errors).toBeUndefined();
    }
  });
});

import { buildSchema, getIntrospectionQuery, parse } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exampleQueries } from '../../src/gateway/graphiql-examples.ts';
import { COST_HEADER, costs, EstimateTooComplex, estimateQueryCost, type EstimateOptions, type FieldCost } from '../../src/gateway/plugins/use-query-cost.ts';
import { nodeHealthPolling } from '../../src/loaders/node-health.ts';
import { SUBNET_INDEX } from '../../src/loaders/subnets.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';
import { readEvents, subscribe } from '../helpers/sse.ts';
import { sumCostHeader } from '../federation/cost-header.ts';

// ---------------------------------------------------------------- the model, on a small schema

const schema = buildSchema(`
  type Query {
    network(name: String!): Network!
    chains: [Chain!]!
    chain(chainId: String!): Chain
    nodes(ids: [ID!]!): [Chain]!
    search: [SearchResult!]!
  }
  interface Named { name: String! subnet: Subnet }
  union SearchResult = Validator | Chain
  type Network {
    name: String!
    validators(first: Int, after: String): ValidatorConnection!
    subnets(first: Int): SubnetConnection!
  }
  type PageInfo { hasNextPage: Boolean! endCursor: String }
  type ValidatorConnection { edges: [ValidatorEdge!]! pageInfo: PageInfo! }
  type ValidatorEdge { cursor: String! node: Validator! }
  type Validator implements Named {
    name: String!
    nodeId: String!
    delegators(first: Int, after: String, status: String): DelegatorConnection!
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
  type Chain implements Named { name: String! chainId: String! subnet: Subnet transaction(txHash: String!): Chain }
  type Peer { ip: String! }
  type Rewards { amount: String! }
`);

const PAGE = { defaultSize: 10, maxSize: 100 };
/** The declarations the real schema makes, by the same helpers. */
const fieldCosts: Record<string, FieldCost> = {
  'Query.chains': costs.list(() => 20, () => 1),
  'Query.chain': costs.oncePerScope(1),
  'Query.nodes': { calls: ({ parents, args }) => parents * (args['ids'] as unknown[]).length, size: (args) => (args['ids'] as unknown[]).length },
  'Network.validators': costs.listing(PAGE),
  'Network.subnets': costs.listing({ defaultSize: 100, maxSize: 10000 }),
  'Validator.delegators': costs.packedListing(PAGE, { maxPage: 100, meanItems: 10, soloShare: 0.1, unpacked: (args) => args['status'] != null }),
  'Validator.subnet': costs.oncePerScope(2),
  'Validator.peer': costs.batched(1000),
  'Delegator.validator': costs.batched(100, 10),
  'Blockchain.evmChain': costs.oncePerScope(1),
  'Chain.subnet': costs.oncePerScope(2),
  'Chain.transaction': costs.perParent(),
  'Named.subnet': costs.oncePerScope(2),
};

/** The estimate in calls and nodes (compute units have tests of their own below). */
const estimate = (query: string, variables: Record<string, unknown> = {}, options: EstimateOptions = {}) => {
  const result = estimateQueryCost(schema, parse(query), variables, undefined, { fieldCosts, ...options });
  if (!result) return result;
  const { estimatedComputeUnits: _units, ...calls } = result;
  return calls;
};

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
  it('charges what the fields declare, multiplied by their parents: a packed listing, once-per-request lists, batched links', () => {
    // validators 1; delegators under 50: min(50, ceil(50 * 10 / 100) + ceil(50 * 0.1)) = 10; the subnet list of
    // each network the 50 may be on, 2; peer 1; rewards free.
    expect(estimate(WALK)).toEqual({ estimatedUpstreamCalls: 14, nodes: 50 + 50 * 5 });
  });

  it('charges a field without a declaration nothing', () => {
    expect(estimate(WALK, {}, { fieldCosts: {} })?.estimatedUpstreamCalls).toBe(0);
  });

  it('charges one listing per parent when the arguments defeat packing, and a re-read plus a top-up with `after`', () => {
    const filtered = estimate(`{ network(name: "m") { validators(first: 100) { edges { node { delegators(first: 100, status: "active") { edges { node { txHash } } } } } } } }`);
    expect(filtered).toEqual({ estimatedUpstreamCalls: 1 + 100, nodes: 100 + 100 * 100 });
    const after = estimate(`{ network(name: "m") { validators(first: 20, after: "c") { edges { node { delegators(first: 1, after: "c") { edges { node { txHash } } } } } } } }`);
    expect(after?.estimatedUpstreamCalls).toBe(2 + 20 * 2);
  });

  it('charges per-parent lookups by the real size of the parent list', () => {
    // 20 chains, each looking a transaction up: 20 calls, not 1.
    expect(estimate(`{ chains { transaction(txHash: "0x1") { chainId } } }`)?.estimatedUpstreamCalls).toBe(1 + 20);
    // 50 validators x 5 delegators = 250 delegators whose `validator` link costs ceil(250 / 100) chunks of 10 pages.
    const links = estimate(`{ network(name: "m") { validators(first: 50) { edges { node {
      delegators(first: 5) { edges { node { validator { nodeId } } } }
    } } } } }`);
    expect(links?.estimatedUpstreamCalls).toBe(1 + 10 + 30);
  });

  it('uses the declared default page size, else `first`', () => {
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
    expect(viaFragments).toEqual({ estimatedUpstreamCalls: 14, nodes: 300 });
    const skipped = estimate(
      `query ($skip: Boolean!) { network(name: "m") { validators(first: 50) { edges { node { delegators(first: 5) @skip(if: $skip) { edges { node { txHash } } } } } } } }`,
      { skip: true },
    );
    expect(skipped).toEqual({ estimatedUpstreamCalls: 1, nodes: 50 });
  });

  it('sizes lists by their declaration, an id argument or the default', () => {
    expect(estimate(`{ chains { chainId } chain(chainId: "1") { chainId } network(name: "m") { name } }`)).toEqual({ estimatedUpstreamCalls: 2, nodes: 20 });
    expect(estimate(`{ nodes(ids: ["a", "b", "c"]) { chainId } }`)).toEqual({ estimatedUpstreamCalls: 3, nodes: 3 });
    expect(estimate(`{ network(name: "m") { subnets(first: 2) { edges { node { blockchains { evmChain { chainId } } } } } } }`)).toEqual({
      estimatedUpstreamCalls: 1 + 1,
      nodes: 2 + 2 * 10,
    });
  });

  it('adds up every alias of an expensive field', () => {
    const page = `validators(first: 100) { edges { node { delegators(first: 100, status: "x") { edges { node { txHash } } } } } }`;
    const one = estimate(`{ network(name: "m") { ${page} } }`)?.estimatedUpstreamCalls ?? 0;
    const aliased = estimate(`{ network(name: "m") { ${Array.from({ length: 30 }, (_, i) => `a${i}: ${page}`).join(' ')} } }`);
    expect(one).toBe(101);
    expect(aliased?.estimatedUpstreamCalls).toBe(30 * 101);
  });

  it('charges every branch of a fragment on an interface or a union, as if every parent took each', () => {
    const query = `{ search {
      __typename
      ... on Named { subnet { subnetId } }
      ... on Validator { delegators(first: 5, status: "a") { edges { node { txHash } } } }
      ... on Chain { transaction(txHash: "0x1") { chainId } }
    } }`;
    // 10 results (the default list size): subnet list 2, delegators 10 listings, 10 lookups.
    expect(estimate(query)).toEqual({ estimatedUpstreamCalls: 2 + 10 + 10, nodes: 10 + 10 * 5 });
  });

  it('is linear in fragment spreads: a chain of fragments each spreading the next twice is walked once per fragment', () => {
    const depth = 26;
    const fragments = Array.from({ length: depth }, (_, i) =>
      i === depth - 1 ? `fragment F${i} on Validator { nodeId subnet { subnetId } }` : `fragment F${i} on Validator { ...F${i + 1} ...F${i + 1} }`,
    ).join('\n');
    const query = `{ network(name: "m") { validators(first: 1) { edges { node { ...F0 } } } } }\n${fragments}`;
    // 2^25 copies of the leaf are charged (an overestimate, never an under), with a few dozen evaluations.
    const result = estimate(query, {}, { maxWork: 100 });
    expect(result?.estimatedUpstreamCalls).toBe(1 + 2 ** (depth - 1));
  });

  it('survives a fragment cycle (invalid, but the estimate must not loop)', () => {
    const query = `{ network(name: "m") { validators(first: 2) { edges { node { ...A } } } } }
      fragment A on Validator { subnet { subnetId } ...B }
      fragment B on Validator { peer { ip } ...A }`;
    expect(estimate(query)).toEqual({ estimatedUpstreamCalls: 1 + 2 + 1, nodes: 2 });
  });

  it('weighs each field\'s calls by its heaviest endpoint in compute units, and an undeclared weight as the heaviest tier', () => {
    const weighed: Record<string, FieldCost> = {
      ...fieldCosts,
      'Network.validators': { ...costs.listing(PAGE), computeUnits: 20 },
      'Validator.delegators': { ...fieldCosts['Validator.delegators']!, computeUnits: 20 },
      'Validator.peer': { ...costs.batched(1000), computeUnits: 0 },
    };
    const units = (query: string) => estimateQueryCost(schema, parse(query), {}, undefined, { fieldCosts: weighed })?.estimatedComputeUnits;
    // One validators listing (20), ten delegator listings (packing defeated by status: 10 x 20), one peers call (0).
    expect(units(`{ network(name: "m") { validators(first: 10) { edges { node { peer { ip } delegators(first: 5, status: "a") { edges { node { txHash } } } } } } } }`)).toBe(20 + 10 * 20);
    // The subnet link declares no weight: its one call (one parent) is charged 200, the heaviest tier.
    expect(units(`{ network(name: "m") { validators(first: 1) { edges { node { subnet { subnetId } } } } } }`)).toBe(20 + 200);
  });

  it('gives up with EstimateTooComplex when nesting makes more distinct contexts than its work budget', () => {
    // Wide and deep: every level multiplies the parents by a different page size.
    let selection = 'txHash';
    for (let level = 0; level < 3; level++) {
      const branches = Array.from({ length: 8 }, (_, i) => `d${i}: delegators(first: ${i + 1}) { edges { node { validator { ${selection} } } } }`).join(' ');
      selection = branches;
    }
    const query = `{ network(name: "m") { validators(first: 3) { edges { node { ${selection.replace(/txHash/g, 'nodeId')} } } } } }`;
    expect(() => estimate(query, {}, { maxWork: 300 })).toThrow(EstimateTooComplex);
    expect(estimate(query, {}, { maxWork: 100_000 })?.estimatedUpstreamCalls).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------- the plugin, on the gateway

interface Cost {
  estimatedUpstreamCalls: number;
  actualUpstreamCalls: number;
  estimatedComputeUnits: number;
  actualComputeUnits: number;
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

describe('useQueryCost on the gateway', () => {
  let stack: TestStack;
  let tight: TestStack;
  beforeAll(async () => {
    [stack, tight] = await Promise.all([
      startStack(),
      startStack({ devnet: { validators: 60 }, gateway: { maxQueryCost: 10, maxQueryNodes: 200 } }),
    ]);
    // The gateways learn their nodes' networks at start-up: calls no request owns, done before any count.
    await Promise.all([stack.upstreamSettled(), tight.upstreamSettled()]);
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

  // Found by the cost property: nodes of two networks make one validators listing per network, and a
  // gateway that has not yet learned its nodes' networks asks them within the request.
  it('charges a validator link from the nodes (own validation, peers) one listing per network and the network lookups', async () => {
    const cold = await startStack();
    try {
      for (const target of [cold, stack]) {
        for (const query of [
          '{ avalancheNodes { validator { __typename } } }',
          '{ avalancheNodes { peers(first: 3) { edges { node { validator { __typename } } } } } }',
        ]) {
          await target.upstreamSettled();
          target.devnet.resetStats();
          const response = await target.query(query);
          const codes = (response.errors ?? []).map((e) => e.extensions?.['code']);
          expect(codes, query).not.toContain('QUERY_TOO_COSTLY');
          await target.upstreamSettled();
          expect(target.devnet.stats().requests, query).toBeLessThanOrEqual(costOf(response).estimatedUpstreamCalls);
        }
      }
    } finally {
      await cold.close();
    }
  });

  // Found by the cost property: every peer of a page names the node it was read from, and a health GET
  // of that node is one read per request however many peers ask for it.
  it('reads a health endpoint of a node once per request, however many of its peers ask for it', async () => {
    const query = '{ avalancheNodes { peers(first: 100) { edges { node { node { healthStatus { httpStatus } h2: healthStatus(path: LIVENESS) { httpStatus } } } } } } }';
    await stack.upstreamSettled();
    stack.devnet.resetStats();
    const response = await stack.query(query);
    expect(response.errors).toBeUndefined();
    await stack.upstreamSettled();
    // Two nodes: their peers pages, then one read of each endpoint on each node.
    expect(stack.devnet.stats().requests).toBe(2 + 2 * 2);
    expect(stack.devnet.stats().requests).toBeLessThanOrEqual(costOf(response).estimatedUpstreamCalls);
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
    // 5 x (1 + 20 packed listings) calls is under the call budget; 5 x 10,100 objects is not.
    expect(response.errors?.[0]?.message).toMatch(/up to 50500 nodes \(limit 50000\)/);
    expect(stack.devnet.stats().requests).toBe(0);
  });

  it('estimates a chain of 26 fragments each spreading the next twice (1 KB) at once and refuses it before any call', async () => {
    const depth = 26;
    const fragments = Array.from({ length: depth }, (_, i) =>
      i === depth - 1 ? `fragment F${i} on Validator { nodeId subnet { subnetId } }` : `fragment F${i} on Validator { ...F${i + 1} ...F${i + 1} }`,
    ).join('\n');
    const response = await stack.query(`{ network(name: MAINNET) { validators(first: 1) { edges { node { ...F0 } } } } }\n${fragments}`);
    expect(response.errors?.[0]?.extensions?.['code']).toBe('QUERY_TOO_COSTLY');
    // Each spread of the last fragment is a subnet link: the subnet list read to its bound.
    expect(costOf(response).estimatedUpstreamCalls).toBe(1 + SUBNET_INDEX.maxPages * 2 ** (depth - 1));
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
      await cached.upstreamSettled();
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

describe('the run-time budget', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // Delegators declared free: the estimate (1, the validators page) is below what the query needs.
    stack = await startStack({ devnet: { validators: 60 }, gateway: { maxQueryCost: 10, fieldCosts: { 'Validator.delegators': costs.free } } });
    await stack.upstreamSettled();
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.devnet.resetStats());

  it('refuses the calls past the estimate before sending them: their fields fail with QUERY_TOO_COSTLY, the rest comes back', async () => {
    const response = await stack.query<{ network: { validators: { edges: { node: { nodeId: string; delegators: unknown } }[] } } }>(
      `{ network(name: MAINNET) { validators(first: 3, filter: { subnetId: "11111111111111111111111111111111LpoYY" }) { edges { node { nodeId delegators(first: 2, delegationStatus: ACTIVE) { edges { node { txHash } } } } } } } }`,
    );
    const nodes = response.data?.network.validators.edges.map((e) => e.node) ?? [];
    expect(nodes).toHaveLength(3);
    for (const node of nodes) {
      expect(node.nodeId).toMatch(/^NodeID-/);
      expect(node.delegators).toBeNull();
    }
    expect(response.errors).toHaveLength(3);
    for (const error of response.errors ?? []) {
      expect(error.extensions?.['code']).toBe('QUERY_TOO_COSTLY');
      expect(error.path?.at(-1)).toBe('delegators');
    }
    expect(costOf(response)).toMatchObject({ estimatedUpstreamCalls: 1, actualUpstreamCalls: 1 });
    expect(dataApiRequests(stack)).toBe(1);
  });

  it('rejects a subscription whose one event is over budget before it polls', async () => {
    const response = await subscribe(
      stack.gateway,
      `subscription { blocks(network: MAINNET, blockchainId: "p-chain") { proposer { subnet { validators(first: 20) { edges { node { pendingRewards(first: 5) { edges { cursor } } historicalRewards(first: 5) { edges { cursor } } } } } } } } }`,
    );
    const { events, reader } = await readEvents(response, 1);
    await reader.cancel();
    expect(events[0]?.errors?.[0]?.extensions?.['code']).toBe('QUERY_TOO_COSTLY');
    expect(events[0]?.errors?.[0]?.message).toMatch(/estimated \d+ upstream calls \(limit 10\)/);
    expect(dataApiRequests(stack)).toBe(0);
  });

  it('gives a long-lived subscription its per-event budget again at each poll: it lives on, never spending more per poll', async () => {
    const saved = nodeHealthPolling.intervalMs;
    nodeHealthPolling.intervalMs = 20;
    const controller = new AbortController();
    try {
      const response = await subscribe(stack.gateway, `subscription { nodeHealth(node: "mainnet") { healthy } }`, controller.signal);
      const { events, reader } = await readEvents(response, 1);
      expect(events[0]?.errors).toBeUndefined();
      expect(costOf(events[0] as GraphQLResponse)).toMatchObject({ estimatedUpstreamCalls: 1, actualUpstreamCalls: 1 });
      // Many polls, each within the one-call budget of an event: no refusal ends the stream.
      const deadline = Date.now() + 3_000;
      while ((stack.devnet.stats().byRoute['POST health.health'] ?? 0) < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(stack.devnet.stats().byRoute['POST health.health'] ?? 0).toBeGreaterThanOrEqual(10);
      await reader.cancel();
    } finally {
      controller.abort();
      nodeHealthPolling.intervalMs = saved;
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

/**
 * Data API requests the devnet served since the last reset. The gateway asks each node its network
 * once, in the background, when it is created: under load that can land after a test's reset.
 */
function dataApiRequests(stack: TestStack): number {
  return Object.entries(stack.devnet.stats().byRoute)
    .filter(([route]) => route.includes('/v1/'))
    .reduce((sum, [, count]) => sum + count, 0);
}

describe('the chaingraph-cost header', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 60 }, gateway: { maxQueryCost: 10 } });
    await stack.upstreamSettled();
  });
  afterAll(async () => {
    await stack.close();
  });
  const post = (query: string, accept = 'application/graphql-response+json') =>
    stack.gateway.fetch('http://chaingraph.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query }) });

  it('repeats extensions.cost on the response, as an RFC 8941 list a router can append to', async () => {
    stack.devnet.resetStats();
    const response = await post('{ network(name: FUJI) { validators(first: 3) { edges { node { nodeId delegators(first: 2) { edges { node { txHash } } } } } } } }');
    const body = (await response.json()) as GraphQLResponse;
    expect(body.errors).toBeUndefined();
    const cost = costOf(body);
    const value = response.headers.get(COST_HEADER);
    expect(value).toBe(
      `calls;actual=${cost.actualUpstreamCalls};estimated=${cost.estimatedUpstreamCalls}, compute-units;actual=${cost.actualComputeUnits};estimated=${cost.estimatedComputeUnits}, nodes;estimated=${cost.nodes}`,
    );
    expect(sumCostHeader(value)).toMatchObject({ operations: 1, actualUpstreamCalls: stack.devnet.stats().requests, nodes: cost.nodes });
    expect(cost.actualUpstreamCalls).toBeGreaterThan(0);
  });

  it('carries the estimate of a refused operation, with nothing spent', async () => {
    stack.devnet.resetStats();
    const response = await post('{ network(name: FUJI) { validators(first: 50) { edges { node { delegators(first: 50) { edges { node { txHash } } } } } } } }');
    const body = (await response.json()) as GraphQLResponse;
    expect(body.errors?.[0]?.extensions?.['code']).toBe('QUERY_TOO_COSTLY');
    const totals = sumCostHeader(response.headers.get(COST_HEADER));
    expect(totals?.estimatedUpstreamCalls).toBeGreaterThan(10);
    expect(totals).toMatchObject({ operations: 1, actualUpstreamCalls: 0, actualComputeUnits: 0 });
    expect(stack.devnet.stats().requests).toBe(0);
  });

  it('is absent where no operation ran (a parse error), and on an incremental response, whose figures come after the headers', async () => {
    expect((await post('{ network(')).headers.get(COST_HEADER)).toBeNull();
    const deferred = await post('{ chains { chainId ... @defer { chainName } } }', 'multipart/mixed');
    expect(deferred.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    expect(deferred.headers.get(COST_HEADER)).toBeNull();
    expect(await deferred.text()).toContain('"cost"');
  });
});

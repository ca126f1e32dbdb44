import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSchema } from '../../src/schema/index.ts';
import { MAX_BATCH_KEYS } from '../../src/schema/relay-node.ts';
import { VALIDATOR_LINK } from '../../src/loaders/validators.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

/**
 * The batch lookups by natural key (`src/schema/natural-keys.ts`): `addresses(keys:)` and
 * `validatorsByNodeId(network:, nodeIds:)`, measured by the devnet's own request counters.
 */
interface Cost {
  estimatedUpstreamCalls: number;
  actualUpstreamCalls: number;
}
interface AddressAnswer {
  id: string;
  address: string;
  chainId: string;
  chain: { chainName: string } | null;
}
interface ValidatorAnswer {
  id: string;
  __typename: string;
  nodeId: string;
  validationStatus: string;
  txHash: string;
}

const LISTING = 'GET /v1/networks/{network}/validators';
const DIRECT = 'GET /v1/networks/{network}/validators/{nodeId}';
const NEVER_VALIDATED = 'NodeID-111111111111111111116DBWJs';

let stack: TestStack;
let chainIds: string[];

/** Runs `query` from fresh devnet counters: the answer, its `extensions.cost`, and the devnet's requests in all and by route. */
async function counted<D>(query: string, variables?: Record<string, unknown>) {
  stack.devnet.resetStats();
  const res: GraphQLResponse<D> = await stack.query<D>(query, variables);
  const stats = stack.devnet.stats();
  return { res, cost: res.extensions?.['cost'] as Cost | undefined, upstream: stats.requests, byRoute: stats.byRoute };
}

const address = (i: number): string => `0x${(i + 1).toString(16).padStart(40, '0')}`;

beforeAll(async () => {
  stack = await startStack();
  const chains = await stack.query<{ chains: { chainId: string }[] }>('{ chains(network: FUJI) { chainId } }');
  chainIds = (chains.data?.chains ?? []).map((c) => c.chainId).slice(0, 2);
});
afterAll(async () => {
  await stack?.close();
});

describe('Query.addresses(keys:)', () => {
  const ADDRESS = 'id address chainId chain { chainName }';

  it('answers in the order of the keys, null for an unknown chain, as the single lookups do', async () => {
    const [a = '', b = ''] = chainIds;
    const keys = [
      { address: address(1), chainId: b },
      { address: address(2).toUpperCase().replace('0X', '0x'), chainId: a },
      { address: address(3), chainId: '999999' },
      { address: address(1), chainId: b },
    ];
    const { res } = await counted<{ addresses: (AddressAnswer | null)[] }>(`query($keys: [AddressKeyInput!]!) { addresses(keys: $keys) { ${ADDRESS} } }`, { keys });
    expect(res.errors).toBeUndefined();
    const single = await stack.query<Record<string, { address: AddressAnswer } | null>>(
      `{ k0: chain(chainId: "${b}") { address(address: "${address(1)}") { ${ADDRESS} } } k1: chain(chainId: "${a}") { address(address: "${address(2)}") { ${ADDRESS} } } }`,
    );
    expect(res.data?.addresses).toEqual([single.data?.['k0']?.address, single.data?.['k1']?.address, null, single.data?.['k0']?.address]);
  });

  it(`${MAX_BATCH_KEYS} keys cost one upstream call (the request's chain list), as declared in extensions.cost`, async () => {
    const keys = Array.from({ length: MAX_BATCH_KEYS }, (_, i) => ({ address: address(i), chainId: chainIds[i % 2] ?? '' }));
    const { res, cost, upstream } = await counted<{ addresses: (AddressAnswer | null)[] }>(`query($keys: [AddressKeyInput!]!) { addresses(keys: $keys) { ${ADDRESS} } }`, { keys });
    expect(res.errors).toBeUndefined();
    expect(res.data?.addresses.map((a) => a?.chainId)).toEqual(keys.map((k) => k.chainId));
    console.info(`[natural-keys] addresses: ${MAX_BATCH_KEYS} keys, ${upstream} upstream call(s), estimated ${cost?.estimatedUpstreamCalls}`);
    expect(upstream).toBe(1);
    expect(cost).toMatchObject({ actualUpstreamCalls: 1 });
    expect(cost?.estimatedUpstreamCalls).toBeGreaterThanOrEqual(1);
  });

  it(`refuses ${MAX_BATCH_KEYS + 1} keys, and a malformed one, before any upstream call`, async () => {
    const keys = Array.from({ length: MAX_BATCH_KEYS + 1 }, (_, i) => ({ address: address(i), chainId: chainIds[0] ?? '' }));
    const tooMany = await counted(`query($keys: [AddressKeyInput!]!) { addresses(keys: $keys) { id } }`, { keys });
    expect(tooMany.res.data ?? null).toBeNull();
    expect(tooMany.res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'keys' });
    expect(tooMany.res.errors?.[0]?.message).toContain(`split it over several \`addresses\` fields or requests of at most ${MAX_BATCH_KEYS}`);
    expect(tooMany.upstream).toBe(0);
    const bad = await counted(`{ addresses(keys: [{ address: "0x12", chainId: "43114" }]) { id } }`);
    expect(bad.res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(bad.upstream).toBe(0);
  });
});

describe('Query.validatorsByNodeId(network:, nodeIds:)', () => {
  const VALIDATOR = 'id __typename nodeId validationStatus txHash';
  let active: string[];

  beforeAll(() => {
    active = [...stack.devnet.dataset.nodeView.activeValidatorNodeIds('mainnet')];
  });

  it('answers in the order of the node ids, null for a node that never validated, as Network.validator(nodeId:) does', async () => {
    const f = stack.devnet.dataset.fixtures().mainnet;
    const nodeIds = [f.completedNodeId, NEVER_VALIDATED, f.nodeId, f.pendingNodeId, f.nodeId];
    const { res } = await counted<{ validatorsByNodeId: (ValidatorAnswer | null)[] }>(
      `query($ids: [String!]!) { validatorsByNodeId(network: MAINNET, nodeIds: $ids) { ${VALIDATOR} } }`,
      { ids: nodeIds },
    );
    expect(res.errors).toBeUndefined();
    const singles = await Promise.all(
      nodeIds.map(async (nodeId) => (await stack.query<{ network: { validator: ValidatorAnswer | null } }>(`query($n: String!) { network(name: MAINNET) { validator(nodeId: $n) { ${VALIDATOR} } } }`, { n: nodeId })).data?.network.validator),
    );
    expect(res.data?.validatorsByNodeId).toEqual(singles);
    expect(res.data?.validatorsByNodeId.map((v) => v?.nodeId ?? null)).toEqual([f.completedNodeId, null, f.nodeId, f.pendingNodeId, f.nodeId]);
  });

  it('batches node ids into nodeIds listings of 100 (never one call per node), within what extensions.cost declares', async () => {
    expect(active.length).toBeGreaterThan(100);
    const { res, cost, upstream, byRoute } = await counted<{ validatorsByNodeId: (ValidatorAnswer | null)[] }>(
      `query($ids: [String!]!) { validatorsByNodeId(network: MAINNET, nodeIds: $ids) { nodeId validationStatus } }`,
      { ids: active },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.validatorsByNodeId.map((v) => v?.nodeId)).toEqual(active);
    const chunks = Math.ceil(active.length / VALIDATOR_LINK.idsPerCall);
    console.info(`[natural-keys] validatorsByNodeId: ${active.length} node ids, ${upstream} upstream call(s) (${byRoute[LISTING]} listings), estimated ${cost?.estimatedUpstreamCalls}`);
    expect(byRoute[DIRECT]).toBeUndefined();
    expect(byRoute[LISTING]).toBeGreaterThanOrEqual(chunks);
    expect(byRoute[LISTING]).toBeLessThanOrEqual(chunks * VALIDATOR_LINK.maxPages);
    expect(upstream).toBe(byRoute[LISTING]);
    expect(cost?.actualUpstreamCalls).toBe(upstream);
    expect(cost?.estimatedUpstreamCalls).toBeGreaterThanOrEqual(upstream);
  });

  it(`refuses ${MAX_BATCH_KEYS + 1} node ids, and a malformed one, before any upstream call`, async () => {
    const ids = Array.from({ length: MAX_BATCH_KEYS + 1 }, (_, i) => active[i % active.length]);
    const tooMany = await counted(`query($ids: [String!]!) { validatorsByNodeId(network: MAINNET, nodeIds: $ids) { nodeId } }`, { ids });
    expect(tooMany.res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'nodeIds' });
    expect(tooMany.res.errors?.[0]?.message).toContain(`more than the ${MAX_BATCH_KEYS} one field takes`);
    expect(tooMany.upstream).toBe(0);
    const bad = await counted(`{ validatorsByNodeId(network: FUJI, nodeIds: ["NodeID-abc"]) { nodeId } }`);
    expect(bad.res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'nodeIds' });
    expect(bad.upstream).toBe(0);
  });
});

describe('declared costs', () => {
  it('both lookups declare extensions.cost, in calls and compute units', () => {
    const fields = getSchema().getQueryType()?.getFields() ?? {};
    for (const name of ['addresses', 'validatorsByNodeId']) {
      const cost = fields[name]?.extensions['cost'] as { calls?: unknown; computeUnits?: unknown; size?: unknown } | undefined;
      expect(typeof cost?.calls, name).toBe('function');
      expect(cost?.computeUnits, name).toBeGreaterThan(0);
      expect(typeof cost?.size, name).toBe('function');
    }
  });
});

import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { composeServices } from '@theguild/federation-composition';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';
import { startApolloGateway, type ApolloRouter } from './apollo-gateway.ts';
import { useMergeThroughEntityInterfaces } from '../../examples/hive-gateway/merge-through-entity-interfaces.ts';
import { operatorLabelsTypeDefs, startOperatorLabels, type OperatorLabels, type ValidatorLabel } from './operator-labels.ts';
import { serveCounting, type CountingServer } from './serve.ts';
import { startWatchlistSubgraph, watchlistTypeDefs } from './watchlist-subgraph.ts';

/**
 * chaingraph as a subgraph behind a real federation gateway: its SDL (from `_service`),
 * a second subgraph (operator labels, `./operator-labels.ts`) and a third that knows chaingraph's
 * addresses only by their natural key (a watchlist, `./watchlist-subgraph.ts`) composed by
 * @theguild/federation-composition, the supergraph served by Hive Gateway in process,
 * both subgraphs on real HTTP ports, chaingraph over the devnet. The watchlist references validators by
 * `nodeId network` and addresses by `address chainId`; Apollo's gateway serves the same subgraphs
 * composed by Apollo's composition, as a second router.
 */
type Gateway = ReturnType<typeof createGatewayRuntime>;

const VALIDATOR_ROUTE = 'GET /v1/networks/{network}/validators';
const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';
/** Addresses the watchlist subgraph holds; the last is on a chain chaingraph does not know. */
const WATCHED_ADDRESSES = [
  { address: '0x00000000000000000000000000000000000000a1', chainId: '43113', note: 'treasury' },
  { address: '0x00000000000000000000000000000000000000b2', chainId: '43113', note: 'hot wallet' },
  { address: '0x00000000000000000000000000000000000000c3', chainId: '999999999', note: 'not indexed' },
];
/** Validators the watchlist holds, by node id on FUJI: the first WATCHED of the labels' list, newest first. */
const WATCHED = 8;
/** Validators the labels subgraph knows (the first FUJI page of this size); the first LABELLED have a label. */
const KNOWN = 40;
const LABELLED = 6;

interface ValidatorRow {
  id: string;
  nodeId: string;
  operatorLabel: string | null;
  operatorTags: string[];
  delegators: { edges: { node: { txHash: string } }[] };
}

async function ask<D>(gateway: Gateway, document: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<D>> {
  const response = await gateway.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: document, variables }),
  });
  return (await response.json()) as GraphQLResponse<D>;
}

describe('federation through Hive Gateway', () => {
  let stack: TestStack;
  let chaingraph: CountingServer;
  let labels: OperatorLabels;
  let watchlist: CountingServer;
  let gateway: Gateway;
  let apollo: ApolloRouter;
  let supergraphSdl: string;
  /** The first FUJI validators as chaingraph answers them directly. */
  let direct: { id: string; nodeId: string; subnetId: string; delegators: { edges: { node: { txHash: string } }[] } }[];
  /** The nodes the watchlist holds: primary-network validators of the labels' list (a node with none has no `Network.validator`), newest last. */
  const watchedValidators = () => direct.filter((v) => v.subnetId === PRIMARY_NETWORK_ID).slice(0, WATCHED).reverse();
  const query = <D>(document: string, variables?: Record<string, unknown>) => ask<D>(gateway, document, variables);

  beforeAll(async () => {
    stack = await startStack();
    chaingraph = await serveCounting((request) => stack.gateway.fetch(request));
    const sdl = (await stack.query<{ _service: { sdl: string } }>('{ _service { sdl } }')).data?._service.sdl ?? '';
    const page = await stack.query<{ network: { validators: { edges: { node: (typeof direct)[number] }[] } } }>(
      `{ network(name: FUJI) { validators(first: ${KNOWN}) { edges { node { id nodeId subnetId delegators(first: 2) { edges { node { txHash } } } } } } } }`,
    );
    direct = page.data?.network.validators.edges.map((e) => e.node) ?? [];
    // The first LABELLED have a name ("even" on every other one); all KNOWN are tagged "all".
    const known = new Map<string, ValidatorLabel>(
      direct.map((v, i) => [v.id, i < LABELLED ? { label: `operator-${i}`, tags: i % 2 === 0 ? ['even', 'all'] : ['all'] } : { label: null, tags: ['all'] }]),
    );
    labels = await startOperatorLabels({
      validators: known,
      chains: new Map([['43113', 'Fuji C-Chain, our test RPC']]),
    });
    watchlist = await startWatchlistSubgraph({
      addresses: WATCHED_ADDRESSES,
      validators: watchedValidators().map((v, i) => ({ nodeId: v.nodeId, network: 'fuji', note: `watch-${i}` })),
    });
    const subgraphs = [
      { name: 'chaingraph', typeDefs: parse(sdl), url: chaingraph.url },
      { name: 'operator-labels', typeDefs: operatorLabelsTypeDefs, url: labels.url },
      { name: 'watchlist', typeDefs: watchlistTypeDefs, url: watchlist.url },
    ];
    const composed = composeServices(subgraphs);
    if (!composed.supergraphSdl) throw new Error((composed.errors ?? []).map((e) => e.message).join('\n'));
    supergraphSdl = composed.supergraphSdl;
    // Validators have two keys: Hive Gateway 2.12 needs this plugin to keep the labels' @interfaceObject fields (see its module).
    gateway = createGatewayRuntime({ supergraph: supergraphSdl, logging: false, maskedErrors: false, plugins: () => [useMergeThroughEntityInterfaces()] });
    apollo = await startApolloGateway(subgraphs);
  });
  afterAll(async () => {
    await gateway?.dispose();
    await apollo?.stop();
    await labels?.close();
    await watchlist?.close();
    await chaingraph?.close();
    await stack?.close();
  });
  const reset = () => {
    chaingraph.resetRequests();
    labels.resetRequests();
    watchlist.resetRequests();
    stack.devnet.resetStats();
  };

  it('plans a validator page across both subgraphs: chaingraph fields, the labels and delegators', async () => {
    reset();
    const res = await query<{ network: { validators: { edges: { node: ValidatorRow }[] } } }>(
      '{ network(name: FUJI) { validators(first: 10) { edges { node { id nodeId operatorLabel operatorTags delegators(first: 2) { edges { node { txHash } } } } } } } }',
    );
    expect(res.errors).toBeUndefined();
    const rows = res.data?.network.validators.edges.map((e) => e.node) ?? [];
    expect(rows.map((v) => v.nodeId)).toEqual(direct.slice(0, 10).map((v) => v.nodeId));
    expect(rows.map((v) => v.delegators)).toEqual(direct.slice(0, 10).map((v) => v.delegators));
    expect(rows.filter((v) => v.delegators.edges.length > 0).length).toBeGreaterThan(0);
    expect(rows.map((v) => v.operatorLabel)).toEqual([...Array.from({ length: LABELLED }, (_, i) => `operator-${i}`), ...Array<null>(10 - LABELLED).fill(null)]);
    expect(rows[0]?.operatorTags).toEqual(['even', 'all']);
    expect(rows[1]?.operatorTags).toEqual(['all']);
    // The labels subgraph was asked once, for all ten validators, by their key.
    expect(labels.requests().count).toBe(1);
    expect(labels.requests().queries[0]).toMatch(/_entities[\s\S]*\.\.\. on Validator[\s\S]*operatorLabel/);
    // Upstream calls: those of the same page asked of chaingraph alone, plus the plan's second chaingraph request:
    // with two validator keys (and the plugin), Hive asks the validators' `__typename` again through `_entities`,
    // one batched lookup of the ten (measured: 4 calls; with one key it was one listing through the Network entity).
    const viaGateway = stack.upstreamRequests();
    const requests = chaingraph.requests();
    stack.devnet.resetStats();
    await stack.query('{ network(name: FUJI) { validators(first: 10) { edges { node { id nodeId delegators(first: 2) { edges { node { txHash } } } } } } } }');
    const alone = stack.upstreamRequests();
    expect(requests.count).toBeLessThanOrEqual(2);
    expect(viaGateway).toBeLessThanOrEqual(alone + 4);
    console.info(`[federation] validator page: chaingraph ${requests.count} requests, ${viaGateway} upstream calls (${alone} asked directly)`);
  });

  it('adds the labels subgraph\'s field to chains, keyed by chainId', async () => {
    const res = await query<{ chain: { chainId: string; chainName: string; operatorNote: string | null }; chains: { chainId: string; operatorNote: string | null }[] }>(
      '{ chain(chainId: "43113") { chainId chainName operatorNote } chains(network: FUJI) { chainId operatorNote } }',
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.chain).toMatchObject({ chainId: '43113', operatorNote: 'Fuji C-Chain, our test RPC' });
    expect(res.data?.chain.chainName).toEqual(expect.any(String));
    const chains = res.data?.chains ?? [];
    expect(chains.length).toBeGreaterThan(1);
    for (const chain of chains) expect(chain.operatorNote).toBe(chain.chainId === '43113' ? 'Fuji C-Chain, our test RPC' : null);
  });

  it(`starts in the labels subgraph and comes back to chaingraph's _entities: ${KNOWN} validators cost the batched calls, as a direct _entities does`, async () => {
    reset();
    const res = await query<{ labeledValidators: { id: string; nodeId: string; operatorLabel: string | null; __typename: string }[] }>(
      '{ labeledValidators(tag: "all") { __typename id nodeId operatorLabel } }',
    );
    expect(res.errors).toBeUndefined();
    const rows = res.data?.labeledValidators ?? [];
    expect(rows.map((v) => v.nodeId)).toEqual(direct.map((v) => v.nodeId));
    expect(rows.slice(0, 2).map((v) => v.operatorLabel)).toEqual(['operator-0', 'operator-1']);
    expect(new Set(rows.map((v) => v.__typename)).size).toBeGreaterThan(0);
    for (const row of rows) expect(row.__typename).toMatch(/Validator$/);
    // The plan: the labels subgraph once, then chaingraph's `_entities` once, for all of them.
    expect(labels.requests().count).toBe(1);
    const sent = chaingraph.requests();
    expect(sent.count).toBe(1);
    expect(sent.queries[0]).toMatch(/_entities\(representations: \$representations\)/);
    const viaGateway = stack.devnet.stats().byRoute[VALIDATOR_ROUTE] ?? 0;
    const totalViaGateway = stack.upstreamRequests();
    // chaingraph's own account of that request: what it spent, within the bound its cost model declared.
    expect(sent.costs[0]?.actualUpstreamCalls).toBe(totalViaGateway);
    expect(sent.costs[0]?.estimatedUpstreamCalls).toBeGreaterThanOrEqual(totalViaGateway);

    // The same representations straight to chaingraph cost the same calls: batched, not one per validator.
    stack.devnet.resetStats();
    const straight = await stack.query('query($r: [_Any!]!) { _entities(representations: $r) { ... on Validator { nodeId } } }', {
      r: rows.map((v) => ({ __typename: 'Validator', id: v.id })),
    });
    expect(straight.errors).toBeUndefined();
    expect(viaGateway).toBeGreaterThan(0);
    expect(viaGateway).toBe(stack.devnet.stats().byRoute[VALIDATOR_ROUTE] ?? 0);
    expect(viaGateway).toBeLessThanOrEqual(6);
    expect(totalViaGateway).toBeLessThan(KNOWN / 4);
    console.info(`[federation] labeledValidators(${KNOWN}): chaingraph 1 _entities request, ${totalViaGateway} upstream calls (estimated ${sent.costs[0]?.estimatedUpstreamCalls})`);
  });

  it('resolves addresses another subgraph references by their natural key only, in one _entities call', async () => {
    reset();
    const res = await query<{ watchedAddresses: ({ address: string; chainId: string; watchNote: string; chain: { chainName: string } | null } | null)[] }>(
      '{ watchedAddresses { address chainId watchNote chain { chainName } } }',
    );
    const addresses = res.data?.watchedAddresses ?? [];
    expect(addresses.slice(0, 2)).toEqual([
      { address: WATCHED_ADDRESSES[0]?.address, chainId: '43113', watchNote: 'treasury', chain: { chainName: expect.any(String) } },
      { address: WATCHED_ADDRESSES[1]?.address, chainId: '43113', watchNote: 'hot wallet', chain: { chainName: expect.any(String) } },
    ]);
    // An address on a chain chaingraph does not index: chaingraph answers null for it, so the router keeps the watchlist's fields and its chain is null.
    expect(addresses[2]).toEqual({ address: WATCHED_ADDRESSES[2]?.address, chainId: '999999999', watchNote: 'not indexed', chain: null });
    expect(watchlist.requests().count).toBe(1);
    const sent = chaingraph.requests();
    expect(sent.count).toBe(1);
    expect(sent.queries[0]).toMatch(/_entities\(representations: \$representations\)/);
    // The one chain list of the request answers every address and its chain.
    expect(stack.upstreamRequests()).toBe(1);
  });

  it('hands chaingraph\'s addresses to a subgraph that keys them by address and chainId', async () => {
    const res = await query<{ chain: { address: { chainId: string; watchNote: string | null } } }>(
      `{ chain(chainId: "43113") { address(address: "${WATCHED_ADDRESSES[0]?.address.toUpperCase().replace('0X', '0x')}") { chainId watchNote } } }`,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.chain.address).toEqual({ chainId: '43113', watchNote: 'treasury' });
  });

  it(`resolves validators another subgraph references by nodeId and network only: ${WATCHED} in one _entities call and one batched listing, as chaingraph answers them`, async () => {
    const document = '{ watchedValidators { __typename id nodeId network watchNote operatorLabel } }';
    reset();
    const res = await query<{ watchedValidators: { __typename: string; id: string; nodeId: string; network: string; watchNote: string; operatorLabel: string | null }[] }>(document);
    expect(res.errors).toBeUndefined();
    const rows = res.data?.watchedValidators ?? [];
    const watched = watchedValidators();
    expect(rows.map((v) => v.nodeId)).toEqual(watched.map((v) => v.nodeId));
    expect(rows.map((v) => v.watchNote)).toEqual(watched.map((_, i) => `watch-${i}`));
    // The labels subgraph keys the same validators by global id: the router takes each id from chaingraph.
    expect(rows.at(-1)?.operatorLabel).toBe('operator-0');
    expect(rows).toHaveLength(WATCHED);
    // chaingraph once, by natural keys only; the labels once.
    expect(watchlist.requests().count).toBe(1);
    expect(labels.requests().count).toBe(1);
    const sent = chaingraph.requests();
    expect(sent.count).toBe(1);
    expect(sent.queries[0]).toMatch(/_entities\(representations: \$representations\)/);
    const viaGateway = stack.upstreamRequests();
    expect(sent.costs[0]?.actualUpstreamCalls).toBe(viaGateway);
    expect(sent.costs[0]?.estimatedUpstreamCalls).toBeGreaterThanOrEqual(viaGateway);

    // chaingraph's direct answers: `Network.validator(nodeId:)` for each node, the same objects.
    const fields = watched.map((v, i) => `v${i}: validator(nodeId: "${v.nodeId}") { __typename id nodeId network }`).join(' ');
    const alone = await stack.query<{ network: Record<string, { __typename: string; id: string; nodeId: string; network: string }> }>(`{ network(name: FUJI) { ${fields} } }`);
    expect(rows.map(({ __typename, id, nodeId, network }) => ({ __typename, id, nodeId, network }))).toEqual(watched.map((_, i) => alone.data?.network[`v${i}`]));
    // The same representations straight to chaingraph: one batched listing, not a call per node.
    stack.devnet.resetStats();
    const straight = await stack.query('query($r: [_Any!]!) { _entities(representations: $r) { ... on Validator { nodeId } } }', {
      r: watched.map((v) => ({ __typename: 'Validator', nodeId: v.nodeId, network: 'fuji' })),
    });
    expect(straight.errors).toBeUndefined();
    expect(stack.upstreamRequests()).toBe(viaGateway);
    expect(viaGateway).toBeLessThan(WATCHED);
    console.info(`[federation] watchedValidators(${WATCHED}) by nodeId network: chaingraph 1 _entities request, ${viaGateway} upstream calls (estimated ${sent.costs[0]?.estimatedUpstreamCalls})`);
  });

  it('gives the same answers through Apollo Gateway, whose planner takes the two validator keys as they are', async () => {
    for (const document of [
      '{ watchedValidators { __typename id nodeId network watchNote operatorLabel } watchedAddresses { address chainId watchNote chain { chainName } } }',
      '{ network(name: FUJI) { validators(first: 10) { edges { node { __typename id nodeId operatorLabel operatorTags watchNote } } } } }',
      '{ labeledValidators(tag: "all") { __typename id nodeId watchNote } }',
    ]) {
      reset();
      const viaApollo = await apollo.ask(document);
      const apolloCounts = { chaingraph: chaingraph.requests().count, upstream: stack.upstreamRequests() };
      reset();
      const viaHive = await query(document);
      expect(viaApollo.errors, document).toBeUndefined();
      expect(viaApollo.data, document).toEqual(viaHive.data);
      // Apollo's planner asks chaingraph at most twice per document (a fetch per entity type it resolves), never more calls than Hive's plan.
      expect(apolloCounts.chaingraph, document).toBeLessThanOrEqual(2);
      expect(apolloCounts.upstream, document).toBeLessThanOrEqual(stack.upstreamRequests());
      console.info(`[federation] Apollo ${apolloCounts.chaingraph} chaingraph requests / ${apolloCounts.upstream} upstream calls, Hive ${chaingraph.requests().count} / ${stack.upstreamRequests()}: ${document.slice(0, 40)}`);
    }
  });

  it('refuses a natural key that is not one, before any call', async () => {
    reset();
    for (const r of [
      { __typename: 'Address', address: '0x12', chainId: '43113' },
      { __typename: 'Address', address: WATCHED_ADDRESSES[0]?.address },
      { __typename: 'Address', address: WATCHED_ADDRESSES[0]?.address, chainId: '../v1' },
      { __typename: 'Validator', nodeId: direct[0]?.nodeId, network: 'FUJI' },
      { __typename: 'PendingValidator', nodeId: direct[0]?.nodeId },
      { __typename: 'Validator', nodeId: 'NodeID-1', network: 'fuji' },
    ]) {
      const res = await stack.query('query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [r] });
      expect(res.errors?.[0]?.extensions?.['code'], JSON.stringify(r)).toBe('BAD_USER_INPUT');
      expect(res.errors?.[0]?.message, JSON.stringify(r)).toMatch(/representation/);
    }
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('keeps @cost and @listSize in the supergraph', () => {
    expect(supergraphSdl).toMatch(/@link\(url: "https:\/\/specs.apollo.dev\/cost\/v0.1"/);
    const listSize = /\): ValidatorConnection!? @cost\(weight: 1\) @listSize\(([^)]*)\)/.exec(supergraphSdl)?.[1] ?? '';
    expect(listSize.replace(/\s+/g, ' ').trim().split(' ').sort()).toEqual(
      ['assumedSize: 10', 'requireOneSlicingArgument: false', 'sizedFields: ["edges"]', 'slicingArguments: ["first"]'].join(' ').split(' ').sort(),
    );
    expect(supergraphSdl).toMatch(/chains\([^]*?\): \[Chain!\] @join__field\([^)]*\) @cost\(weight: 1\) @listSize\(assumedSize: \d+\)|\): \[Chain!\] @cost\(weight: 1\) @listSize\(\s*assumedSize: \d+\s*\)/);
  });

  it('lets Hive Gateway demand control price queries by them: a cheap page passes, an expensive walk is refused before any call', async () => {
    const priced = createGatewayRuntime({
      supergraph: supergraphSdl,
      logging: false,
      demandControl: { maxCost: 500, includeExtensionMetadata: true },
    });
    const costOf = async (document: string) => {
      const res = await ask<unknown>(priced, document);
      return { res, estimated: (res.extensions?.['cost'] as { estimated?: number } | undefined)?.estimated };
    };
    try {
      // Hive's arithmetic: a composite field costs 1, plus its @cost weight; a sized field (`edges`) is
      // multiplied by the slicing argument `first`. network 1 + validators (1 + weight 1) + edges 3 + node 3.
      const cheap = await costOf('{ network(name: FUJI) { validators(first: 3) { edges { node { nodeId } } } } }');
      expect(cheap.res.errors).toBeUndefined();
      expect(cheap.estimated).toBe(9);
      expect((await costOf('{ network(name: FUJI) { validators(first: 30) { edges { node { nodeId } } } } }')).estimated).toBe(1 + 2 + 30 + 30);
      // A plain list by its assumedSize: (1 + weight 1) per chain.
      const assumed = Number(/\): \[Chain!\] @join__field\([^)]*\) @cost\(weight: 1\) @listSize\(assumedSize: (\d+)\)/.exec(supergraphSdl)?.[1]);
      expect((await costOf('{ chains { chainId } }')).estimated).toBe(2 * assumed);

      reset();
      const expensive = await costOf(
        '{ network(name: FUJI) { validators(first: 100) { edges { node { nodeId delegators(first: 50) { edges { node { txHash } } } } } } } }',
      );
      expect(expensive.res.errors?.[0]?.extensions?.['code']).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
      expect(expensive.estimated).toBeGreaterThan(500);
      expect(chaingraph.requests().count).toBe(0);
      expect(stack.upstreamRequests()).toBe(0);
    } finally {
      await priced.dispose();
    }
  });
});

import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { composeServices } from '@theguild/federation-composition';
import { meros } from 'meros/browser';
import { Kind, parse, type DocumentNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COST_HEADER } from '../../src/gateway/plugins/use-query-cost.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';
import { sumCostHeader } from './cost-header.ts';
import { operatorLabelsTypeDefs, startOperatorLabels, type OperatorLabels } from './operator-labels.ts';
import { serveCounting, type CountingServer } from './serve.ts';

type Gateway = ReturnType<typeof createGatewayRuntime>;
interface Payload extends GraphQLResponse {
  hasNext?: boolean;
  incremental?: { data?: Record<string, unknown>; path?: (string | number)[] }[];
}

const post = (gateway: Gateway, query: string, accept = 'application/graphql-response+json') =>
  gateway.fetch('http://router.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query }) });

/** A field's `@cost(weight:)` in an SDL, 0 when it has none. */
function costWeight(sdl: DocumentNode, typeName: string, fieldName: string): number {
  for (const definition of sdl.definitions) {
    if ((definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.INTERFACE_TYPE_DEFINITION) || definition.name.value !== typeName) continue;
    const field = definition.fields?.find((f) => f.name.value === fieldName);
    const weight = field?.directives?.find((d) => d.name.value === 'cost')?.arguments?.find((a) => a.name.value === 'weight')?.value;
    if (!field) break;
    return weight?.kind === Kind.INT ? Number(weight.value) : 0;
  }
  throw new Error(`${typeName}.${fieldName} is not in the SDL`);
}

describe('chaingraph behind Hive Gateway with demand control and @defer (docs/routers.md)', () => {
  let stack: TestStack;
  let chaingraph: CountingServer;
  let labels: OperatorLabels;
  let supergraph: string;
  let router: Gateway;
  let bare: Gateway;
  /** While set, chaingraph's answers to `_entities` requests wait for it. */
  let hold: Promise<void> | undefined;

  beforeAll(async () => {
    stack = await startStack();
    chaingraph = await serveCounting(async (request) => {
      if (hold && (await request.clone().text()).includes('_entities')) await hold;
      return stack.gateway.fetch(request);
    });
    const sdl = (await stack.query<{ _service: { sdl: string } }>('{ _service { sdl } }')).data?._service.sdl ?? '';
    const page = await stack.query<{ network: { validators: { edges: { node: { id: string } }[] } } }>('{ network(name: FUJI) { validators(first: 4) { edges { node { id } } } } }');
    const ids = page.data?.network.validators.edges.map((e) => e.node.id) ?? [];
    labels = await startOperatorLabels({ validators: new Map(ids.map((id, i) => [id, { label: `operator-${i}`, tags: ['all'] }])), chains: new Map() });
    const composed = composeServices([
      { name: 'chaingraph', typeDefs: parse(sdl), url: chaingraph.url },
      { name: 'operator-labels', typeDefs: operatorLabelsTypeDefs, url: labels.url },
    ]);
    if (!composed.supergraphSdl) throw new Error((composed.errors ?? []).map((e) => e.message).join('\n'));
    supergraph = composed.supergraphSdl;
    // The recipe's configuration (docs/routers.md).
    router = createGatewayRuntime({
      supergraph,
      logging: false,
      demandControl: { maxCost: 500, includeExtensionMetadata: true },
      deferStream: true,
      propagateHeaders: {
        fromSubgraphsToClient: ({ response, subgraphName }) => (subgraphName === 'chaingraph' ? { [COST_HEADER]: response.headers.get(COST_HEADER) } : undefined),
      },
    });
    // The defaults a platform team starts from.
    bare = createGatewayRuntime({ supergraph, logging: false });
  });
  afterAll(async () => {
    await router?.dispose();
    await bare?.dispose();
    await labels?.close();
    await chaingraph?.close();
    await stack?.close();
  });
  const reset = () => {
    chaingraph.resetRequests();
    labels.resetRequests();
    stack.devnet.resetStats();
  };

  it('without demand control, the router drops chaingraph\'s extensions.cost; the header is how its figures get through', async () => {
    reset();
    const response = await post(bare, '{ network(name: FUJI) { validators(first: 3) { edges { node { nodeId } } } } }');
    const body = (await response.json()) as GraphQLResponse;
    expect(body.errors).toBeUndefined();
    expect(body.extensions?.['cost']).toBeUndefined();
    expect(response.headers.get(COST_HEADER)).toBeNull();
    expect(chaingraph.requests().count).toBe(1);
  });

  it('refuses a query over the router\'s maxCost before chaingraph is asked, and prices one under it by chaingraph\'s @cost and @listSize', async () => {
    const sdl = parse(supergraph);
    // Hive's arithmetic: an object field costs 1 plus its @cost weight; a field sized by @listSize
    // (`edges`, by `first`) costs its slice times its items' cost; scalars cost 0. @cost cannot sit on an
    // interface field (federation refuses it), so `Validator.delegators`, read through the interface, weighs 0.
    const network = 1 + costWeight(sdl, 'Query', 'network');
    const validators = 1 + costWeight(sdl, 'Network', 'validators');
    const delegators = 1 + costWeight(sdl, 'Validator', 'delegators');
    const priced = (v: number, d: number) => network + validators + v * (1 + 1 + delegators + d * (1 + 1));
    expect(costWeight(sdl, 'Network', 'validators')).toBe(1);
    expect(costWeight(sdl, 'Validator', 'delegators')).toBe(0);
    const walk = (v: number, d: number) => `{ network(name: FUJI) { validators(first: ${v}) { edges { node { nodeId delegators(first: ${d}) { edges { node { txHash } } } } } } } }`;

    reset();
    const cheap = await post(router, walk(5, 2));
    const cheapBody = (await cheap.json()) as GraphQLResponse;
    expect(cheapBody.errors).toBeUndefined();
    // The router owns extensions.cost here: its estimate and its limit, nothing of chaingraph's.
    expect(cheapBody.extensions?.['cost']).toEqual({ estimated: priced(5, 2), max: 500 });
    expect(priced(5, 2)).toBe(38);
    expect(chaingraph.requests().count).toBeGreaterThan(0);

    reset();
    const expensive = await post(router, walk(50, 20));
    const expensiveBody = (await expensive.json()) as GraphQLResponse;
    expect(priced(50, 20)).toBeGreaterThan(500);
    expect(expensiveBody.errors?.[0]?.extensions?.['code']).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
    expect(expensiveBody.extensions?.['cost']).toEqual({ estimated: priced(50, 20), max: 500 });
    expect(chaingraph.requests().count).toBe(0);
    expect(stack.upstreamRequests()).toBe(0);
    console.info(`[routers] Hive demand control: walk(5, 2) estimated ${priced(5, 2)}, walk(50, 20) ${priced(50, 20)} refused, chaingraph asked 0 times`);
  });

  it('streams a deferred fragment (multipart) with deferStream on: the first part is read before chaingraph is asked for the deferred fields', async () => {
    const deferred = '{ network(name: FUJI) { validators(first: 3) { edges { node { nodeId ... @defer { delegators(first: 2) { edges { node { txHash } } } } } } } } }';
    reset();
    let release = () => {};
    hold = new Promise<void>((resolve) => (release = resolve));
    const askedWhenRead: number[] = [];
    const parts: Payload[] = [];
    try {
      const response = await post(router, deferred, 'multipart/mixed');
      expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
      const read = await meros<Payload>(response);
      if (read instanceof Response) throw new Error(`not multipart: ${await read.text()}`);
      for await (const part of read) {
        if (!part.json) throw new Error(`a part that is not JSON: ${String(part.body)}`);
        parts.push(part.body);
        askedWhenRead.push(chaingraph.requests().count);
        release();
      }
    } finally {
      release();
      hold = undefined;
    }
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]?.hasNext).toBe(true);
    expect(JSON.stringify(parts[0]?.data)).not.toContain('delegators');
    expect(parts.at(-1)?.hasNext).toBe(false);
    const incremental = parts.flatMap((p) => p.incremental ?? []);
    expect(incremental.map((i) => i.path)).toEqual([0, 1, 2].map((i) => ['network', 'validators', 'edges', i, 'node']));
    for (const item of incremental) expect(item.data).toHaveProperty('delegators.edges');
    // The first part was read while chaingraph's deferred request (an `_entities` for the delegators) was held.
    expect(askedWhenRead[0]).toBe(1);
    expect(chaingraph.requests().queries[1]).toMatch(/_entities[\s\S]*delegators/);
    // Hive Gateway 2.12's demand control prices the immediate part only: the deferred fields are not in its estimate.
    expect(parts[0]?.extensions?.['cost']).toEqual({ estimated: 1 + 2 + 3 * 2, max: 500 });
  });

  it('without deferStream, the router answers @defer with "Unknown directive" and asks chaingraph nothing', async () => {
    reset();
    const response = await post(bare, '{ network(name: FUJI) { validators(first: 3) { edges { node { nodeId ... @defer { delegators(first: 2) { edges { node { txHash } } } } } } } } }', 'multipart/mixed');
    const text = await response.text();
    console.info('[routers] @defer without deferStream:', response.status, text.slice(0, 300));
    expect(text).toContain('Unknown directive \\"@defer\\"');
    expect(chaingraph.requests().count).toBe(0);
  });

  it('hands chaingraph\'s own figures to the client in the chaingraph-cost header, one member per chaingraph request, adding up to what it spent', async () => {
    reset();
    // Two chaingraph requests in one plan: the chain list, and the labelled validators' own fields by `_entities`.
    const response = await post(router, 'query LabelledAndChains { labeledValidators(tag: "all") { nodeId operatorLabel delegators(first: 2) { edges { node { txHash } } } } chains { chainId } }');
    const body = (await response.json()) as GraphQLResponse;
    expect(body.errors).toBeUndefined();
    expect(Object.keys(body.extensions?.['cost'] ?? {}).sort()).toEqual(['estimated', 'max']);
    const sent = chaingraph.requests();
    const totals = sumCostHeader(response.headers.get(COST_HEADER));
    expect(sent.count).toBe(2);
    // The router forwards the client's operation name: chaingraph's metrics by operation name see it.
    for (const query of sent.queries) expect(query).toMatch(/^query LabelledAndChains/);
    expect(totals?.operations).toBe(sent.count);
    expect(totals?.actualUpstreamCalls).toBe(stack.upstreamRequests());
    expect(totals?.actualUpstreamCalls).toBe(sent.costs.reduce((sum, cost) => sum + (cost?.actualUpstreamCalls ?? 0), 0));
    expect(totals?.estimatedUpstreamCalls).toBeGreaterThanOrEqual(totals?.actualUpstreamCalls ?? Infinity);
    expect(totals?.actualComputeUnits).toBeGreaterThan(0);
    console.info(`[routers] LabelledAndChains through Hive: ${response.headers.get(COST_HEADER)}; chaingraph saw: ${sent.queries.map((q) => q.split('\n')[0]).join(' | ')}`);
  });
});

/** Apollo Gateway's request context in the recipe: the `chaingraph-cost` values of the request's subgraph answers. */
interface ApolloContext {
  costs: string[];
}

describe('chaingraph behind Apollo Gateway 2.14 (no demand control)', () => {
  let stack: TestStack;
  let chaingraph: CountingServer;
  let server: ApolloServer<ApolloContext>;

  beforeAll(async () => {
    stack = await startStack();
    chaingraph = await serveCounting((request) => stack.gateway.fetch(request));
    const sdl = (await stack.query<{ _service: { sdl: string } }>('{ _service { sdl } }')).data?._service.sdl ?? '';
    const composed = composeServices([{ name: 'chaingraph', typeDefs: parse(sdl), url: chaingraph.url }]);
    if (!composed.supergraphSdl) throw new Error((composed.errors ?? []).map((e) => e.message).join('\n'));
    // The recipe's configuration (docs/routers.md): each chaingraph answer's header kept, then sent once, joined.
    const gateway = new ApolloGateway({
      supergraphSdl: composed.supergraphSdl,
      queryPlannerConfig: { incrementalDelivery: { enableDefer: true } },
      buildService: ({ url }) =>
        new RemoteGraphQLDataSource<ApolloContext>({
          ...(url ? { url } : {}),
          didReceiveResponse({ response, context }) {
            const cost = response.http?.headers.get(COST_HEADER);
            if (cost) context.costs.push(cost);
            return response;
          },
        }),
    });
    server = new ApolloServer<ApolloContext>({
      gateway,
      plugins: [
        {
          requestDidStart: async () => ({
            willSendResponse: async ({ contextValue, response }) => {
              if (contextValue.costs.length) response.http.headers.set(COST_HEADER, contextValue.costs.join(', '));
            },
          }),
        },
      ],
    });
    await server.start();
  });
  afterAll(async () => {
    await server?.stop();
    await chaingraph?.close();
    await stack?.close();
  });

  it('plans chaingraph\'s queries and hands its figures on in the chaingraph-cost header', async () => {
    chaingraph.resetRequests();
    stack.devnet.resetStats();
    const response = await server.executeOperation(
      { query: '{ network(name: FUJI) { validators(first: 5) { edges { node { nodeId delegators(first: 2) { edges { node { txHash } } } } } } } }' },
      { contextValue: { costs: [] } },
    );
    expect(response.body.kind === 'single' ? response.body.singleResult.errors : 'incremental').toBeUndefined();
    const totals = sumCostHeader(response.http.headers.get(COST_HEADER) ?? null);
    expect(totals?.operations).toBe(chaingraph.requests().count);
    expect(totals?.actualUpstreamCalls).toBe(stack.upstreamRequests());
  });

  it('does not take @defer, even with the query planner\'s enableDefer: "Unknown directive", chaingraph not asked', async () => {
    chaingraph.resetRequests();
    const response = await server.executeOperation(
      { query: '{ network(name: FUJI) { validators(first: 3) { edges { node { nodeId ... @defer { delegators(first: 2) { edges { node { txHash } } } } } } } } }' },
      { contextValue: { costs: [] } },
    );
    const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
    expect(errors?.[0]?.message).toBe('Unknown directive "@defer".');
    expect(chaingraph.requests().count).toBe(0);
  });
});

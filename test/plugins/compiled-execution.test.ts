import { GraphQLError, GraphQLInterfaceType, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, getIntrospectionQuery, getOperationAST, parse } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATOR_WALK } from '../../src/gateway/graphiql-examples.ts';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/gateway.ts';
import { compiledFields, useCompiledExecution, type CompiledExecutionOptions } from '../../src/gateway/plugins/use-compiled-execution.ts';
import { getSchema } from '../../src/schema/index.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { withDataApiCache, withNodeCache } from '../../src/upstream/cached-clients.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';

type Response = { data?: unknown; errors?: { message: string; locations?: unknown; path?: unknown; extensions?: Record<string, unknown> }[]; extensions?: Record<string, unknown> };

/**
 * A small schema with what graphql-jit reads outside its try blocks: a getter that throws (an
 * upstream answer's broken field), a throwing `resolveType` and `isTypeOf`.
 */
function trickySchema(): GraphQLSchema {
  const Thing = new GraphQLInterfaceType({
    name: 'Thing',
    fields: { name: { type: GraphQLString } },
    resolveType: (value: { kind?: string }) => {
      if (value.kind === 'broken') throw new GraphQLError('kind unreadable', { extensions: { code: 'UPSTREAM_PROTOCOL_ERROR' } });
      return 'Item';
    },
  });
  const Item = new GraphQLObjectType({
    name: 'Item',
    interfaces: [Thing],
    fields: { name: { type: GraphQLString }, id: { type: new GraphQLNonNull(GraphQLString) }, size: { type: GraphQLString } },
  });
  const Checked = new GraphQLObjectType({
    name: 'Checked',
    isTypeOf: (value: { guarded?: boolean }) => {
      if (value.guarded) throw new Error('cannot tell');
      return true;
    },
    fields: { name: { type: GraphQLString } },
  });
  const broken = (name: string) =>
    Object.defineProperty({ id: name, size: '1' }, 'name', {
      enumerable: true,
      get() {
        throw new GraphQLError(`${name}: name unreadable`, { extensions: { code: 'UPSTREAM_PROTOCOL_ERROR' } });
      },
    });
  return new GraphQLSchema({
    types: [Item],
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        items: { type: new GraphQLList(Item), resolve: async () => [{ id: 'a', name: 'A', size: '1' }, broken('b'), { id: 'c', name: 'C' }, { name: 'no id' }] },
        brokenId: { type: Item, resolve: () => Object.defineProperty({ name: 'x' }, 'id', { get: () => { throw new Error('no id'); } }) },
        things: { type: new GraphQLList(Thing), resolve: () => [{ id: '1', name: 'ok' }, { id: '2', name: 'bad', kind: 'broken' }] },
        checked: { type: Checked, resolve: () => Promise.resolve({ guarded: true, name: 'n' }) },
        hello: { type: GraphQLString, args: { to: { type: GraphQLString } }, resolve: (_, args: { to?: string }) => `hello ${args.to ?? 'you'}` },
      },
    }),
  });
}

function yogaWith(schema: GraphQLSchema, compiled: CompiledExecutionOptions | false) {
  const plugin = compiled ? useCompiledExecution(compiled) : undefined;
  const yoga = createYoga({ schema, graphiql: false, maskedErrors: false, plugins: plugin ? [plugin] : [] });
  const post = async (query: string, variables?: Record<string, unknown>, operationName?: string): Promise<Response> => {
    const res = await yoga.fetch('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables, operationName }) });
    return (await res.json()) as Response;
  };
  return { plugin, post };
}

describe('compiled execution, where graphql-jit departs from graphql-js', () => {
  const schema = trickySchema();
  const interpreted = yogaWith(schema, false);
  const queries = [
    '{ items { id name size } }',
    '{ brokenId { name id } }',
    '{ things { name ... on Item { id } } }',
    '{ items { name size id } }',
    'query Q($to: String) { a: hello(to: $to) b: hello @skip(if: true) __typename }',
  ];

  for (const query of queries) {
    it(`answers ${query} as graphql-js does, errors (codes, paths, locations) included`, async () => {
      const compiled = yogaWith(schema, { compileAfter: 1 });
      const expected = await interpreted.post(query, { to: 'x' });
      const actual = await compiled.post(query, { to: 'x' });
      expect(compiled.plugin?.compiledExecutionStats().compilations).toBe(1);
      expect(actual).toEqual(expected);
    });
  }

  it('a getter that throws fails its own field only (graphql-jit alone would leave the operation pending)', async () => {
    const { post } = yogaWith(schema, { compileAfter: 1 });
    const res = await post('{ items { id name } }');
    expect(res.data).toEqual({ items: [{ id: 'a', name: 'A' }, { id: 'b', name: null }, { id: 'c', name: 'C' }, null] });
    expect(res.errors).toEqual([
      { message: 'b: name unreadable', locations: [{ line: 1, column: 14 }], path: ['items', 1, 'name'], extensions: { code: 'UPSTREAM_PROTOCOL_ERROR' } },
      { message: 'Cannot return null for non-nullable field Item.id.', locations: [{ line: 1, column: 11 }], path: ['items', 3, 'id'] },
    ]);
  });

  it('an isTypeOf that throws answers true rather than leave the operation pending (graphql-js fails the field)', async () => {
    // In the gateway's schema, the isTypeOf that read a field (validators, delegators) are reached only through
    // their interface, whose resolveType reads that field first and fails the field as graphql-js does.
    const { post } = yogaWith(schema, { compileAfter: 1 });
    expect(await post('{ checked { name } }')).toEqual({ data: { checked: { name: 'n' } } });
  });

  it('compiles an operation on its second execution, per operation name of a document', async () => {
    const { plugin, post } = yogaWith(schema, {});
    const doc = 'query A { hello(to: "a") } query B { hello(to: "b") }';
    expect(await post(doc, {}, 'A')).toEqual({ data: { hello: 'hello a' } });
    expect(plugin?.compiledExecutionStats().compilations).toBe(0);
    expect(await post(doc, {}, 'A')).toEqual({ data: { hello: 'hello a' } });
    expect(plugin?.compiledExecutionStats()).toMatchObject({ compilations: 1, entries: 1 });
    // The other operation of the same document is not served A's code.
    expect(await post(doc, {}, 'B')).toEqual({ data: { hello: 'hello b' } });
    expect(await post(doc, {}, 'B')).toEqual({ data: { hello: 'hello b' } });
    expect(await post(doc, {}, 'A')).toEqual({ data: { hello: 'hello a' } });
    expect(plugin?.compiledExecutionStats()).toMatchObject({ compilations: 2, entries: 2 });
  });

  it('leaves introspection and operations over maxFields to the interpreter', async () => {
    const { plugin, post } = yogaWith(schema, { compileAfter: 1, maxFields: 3 });
    const introspection = await post(getIntrospectionQuery());
    expect(introspection.errors).toBeUndefined();
    const wide = await post('{ items { id name size } hello }');
    expect(wide.data).toMatchObject({ hello: 'hello you' });
    expect(plugin?.compiledExecutionStats().compilations).toBe(0);
  });

  it('counts fields as graphql-jit compiles them: fragments where spread, abstract selections once per possible type', () => {
    const count = (text: string, max = 100_000) => {
      const document = parse(text);
      return compiledFields(getSchema(), document, getOperationAST(document) ?? expect.fail('no operation'), max);
    };
    expect(count(VALIDATOR_WALK)).toBe(99); // validators and delegators are interfaces of 4 and 3 types
    expect(count('{ network(name: MAINNET) { id } }')).toBe(2);
    expect(count('{ __schema { types { name } } }')).toBe(Infinity);
    // Each level of peer/validator multiplies by the 4 validator types: six levels would be 170 MB of code.
    let selection = 'nodeId';
    for (let i = 0; i < 6; i++) selection = `nodeId peer { validator(network: MAINNET) { ${selection} } }`;
    const deep = `{ network(name: MAINNET) { validators(first: 1) { edges { node { ${selection} } } } } }`;
    expect(count(deep)).toBeGreaterThan(10_000);
    expect(count(deep, 300)).toBe(Infinity);
  });

  it('compiles an evicted operation again only after a few more executions', async () => {
    const { plugin, post } = yogaWith(schema, { compileAfter: 1, maxEntries: 1 });
    const a = '{ a: hello(to: "a") }';
    const b = '{ b: hello(to: "b") }';
    for (let i = 0; i < 20; i++) {
      expect(await post(i % 2 ? a : b)).toEqual({ data: i % 2 ? { a: 'hello a' } : { b: 'hello b' } });
    }
    // b and a compiled (a evicting b); b then interpreted eight times before it is compiled again (evicting a).
    expect(plugin?.compiledExecutionStats().compilations).toBe(3);
  });

  it('keeps what it holds within its byte and entry budget', async () => {
    const maxBytes = 256 * 1024;
    const { plugin, post } = yogaWith(schema, { compileAfter: 1, maxBytes, maxEntries: 20 });
    for (let i = 0; i < 60; i++) {
      const res = await post(`{ items { id name } a${i}: hello(to: "${i}") }`);
      expect(res.data).toMatchObject({ [`a${i}`]: `hello ${i}` });
      const stats = plugin?.compiledExecutionStats();
      expect(stats?.bytes).toBeLessThanOrEqual(maxBytes);
      expect(stats?.entries).toBeLessThanOrEqual(20);
    }
    expect(plugin?.compiledExecutionStats().compilations).toBe(60);
  });
});

/** The gateway with compiled execution (compiling at once) answers as the interpreter does, on one devnet and one upstream cache. */
describe('compiled execution in the gateway', () => {
  let devnet: Devnet;
  let interpreted: Gateway;
  let compiled: Gateway;
  const post = async (gateway: Gateway, query: string, variables?: Record<string, unknown>): Promise<Response> => {
    const res = await gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query, variables }),
    });
    return { ...((await res.json()) as Response), extensions: { status: res.status } };
  };
  beforeAll(async () => {
    devnet = await startDevnet({ validators: 60 });
    const cache = createMemoryCache();
    const dataApi = withDataApiCache(createDataApiClient({ baseUrl: devnet.url, apiKey: 'test-server-key' }), cache);
    const nodes = Object.entries(devnet.nodeUrls).map(([name, url]) => withNodeCache(createNodeClient({ name, url }), cache));
    const options: GatewayOptions = { graphiql: false, cursorSecrets: ['compiled-execution-test'] };
    interpreted = createGateway({ ...options, compiledExecution: false }, { dataApi, nodes });
    compiled = createGateway({ ...options, compiledExecution: { compileAfter: 1 } }, { dataApi, nodes });
  });
  afterAll(async () => {
    await interpreted?.dispose();
    await compiled?.dispose();
    await devnet?.close();
  });

  const same = async (query: string, variables?: Record<string, unknown>) => {
    const expected = await post(interpreted, query, variables);
    // Twice: compiled on the first, then served from the compiled-query cache.
    for (let i = 0; i < 2; i++) expect(await post(compiled, query, variables)).toEqual({ ...expected });
    const second = await post(interpreted, query, variables);
    expect(second).toEqual(expected);
    return expected;
  };

  it('the validator walk, with its cost report', async () => {
    const res = await same(VALIDATOR_WALK);
    expect(res.errors).toBeUndefined();
  });

  it('interfaces, fragments, aliases, variables and directives', async () => {
    const { nodeId } = devnet.dataset.fixtures().mainnet;
    const page = await same('{ network(name: MAINNET) { validators(first: 3) { edges { cursor node { __typename id } } } } }');
    const ids = (page.data as { network: { validators: { edges: { node: { id: string } }[] } } }).network.validators.edges.map((e) => e.node.id);
    await same(
      `query N($ids: [ID!]!, $skip: Boolean!) {
        nodes(ids: $ids) { __typename id ...V ... on Validator { first: delegators(first: 1) @skip(if: $skip) { edges { node { txHash } } } } }
        one: network(name: FUJI) { validator(nodeId: "${nodeId}") { nodeId } }
      }
      fragment V on Validator { nodeId amountStaked validationStatus }`,
      { ids, skip: false },
    );
  });

  it('field errors and refusals: codes, paths and locations', async () => {
    // Upstream refusal of an unknown id, an argument check, a cost refusal, a bad cursor, a variable error.
    await same('{ chain(chainId: "999999999") { chainId } network(name: MAINNET) { subnet(subnetId: "nope") { subnetId } } }');
    const badInput = await same('{ network(name: MAINNET) { validators(first: 1000) { edges { cursor } } } }');
    expect(badInput.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    const costly = await same('{ network(name: MAINNET) { validators(first: 100) { edges { node { delegators(first: 100) { edges { node { validator { nodeId } } } } } } } } }');
    expect(costly.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_COSTLY' });
    await same('{ network(name: MAINNET) { validators(first: 1, after: "bogus") { edges { cursor } } } }');
    await same('query($n: Int!) { network(name: MAINNET) { validators(first: $n) { edges { cursor } } } }', { n: 'ten' });
  });

  it('federation _entities', async () => {
    // Without the upstream cache: @apollo/subgraph's _entities writes __typename on the entity, which fails on the
    // cache's frozen answers whichever the executor (a masked error in both).
    const dataApi = createDataApiClient({ baseUrl: devnet.url, apiKey: 'test-server-key' });
    const modes: GatewayOptions['compiledExecution'][] = [false, { compileAfter: 1 }];
    const pair = modes.map((compiledExecution) => createGateway({ graphiql: false, compiledExecution }, { dataApi, nodes: [] }));
    const [plain, jit] = pair as [Gateway, Gateway];
    try {
      const page = await post(plain, '{ network(name: MAINNET) { validators(first: 2) { edges { node { __typename id } } } } }');
      const reps = (page.data as { network: { validators: { edges: { node: { __typename: string; id: string } }[] } } }).network.validators.edges.map((e) => e.node);
      const query = 'query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Validator { id nodeId } } }';
      const expected = await post(plain, query, { r: reps });
      expect(expected.errors).toBeUndefined();
      for (let i = 0; i < 2; i++) expect(await post(jit, query, { r: reps })).toEqual(expected);
    } finally {
      await Promise.all(pair.map((gateway) => gateway.dispose()));
    }
  });
});

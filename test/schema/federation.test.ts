import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/stack.ts';

/** The subgraph side of federation: what a router sends to `_service` and `_entities`. */
describe('federation v2 subgraph', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('publishes its SDL with @key on every identifiable type', async () => {
    const res = await stack.query<{ _service: { sdl: string } }>('{ _service { sdl } }');
    const sdl = res.data?._service.sdl ?? '';
    expect(sdl).toMatch(/@link\(url: "https:\/\/specs.apollo.dev\/federation\/v2.9", import: \[[^\]]*"@cost", "@listSize"\]/);
    for (const type of ['ActiveValidator', 'Subnet', 'Blockchain', 'Transaction', 'AvalancheNode', 'ExportOperation']) {
      expect(sdl).toMatch(new RegExp(`type ${type} implements[^{]*@key\\(fields: "id"\\)`));
    }
    expect(sdl).toMatch(/type Chain implements[^{]*@key\(fields: "chainId"\)/);
  });

  it("lists the router-only fields last at the root (GraphiQL's docs and autocomplete follow introspection), described as a router's, not an app's", async () => {
    const res = await stack.query<{ __schema: { queryType: { fields: { name: string; description: string | null }[] } } }>('{ __schema { queryType { fields { name description } } } }');
    const fields = res.data?.__schema.queryType.fields ?? [];
    const names = fields.map((f) => f.name);
    // Federation's, then stitching's `_sdl` (test/schema/stitching.test.ts).
    expect(names.slice(-3)).toEqual(['_entities', '_service', '_sdl']);
    // The fields an app uses keep their sorted order ahead of them.
    const apps = names.slice(0, -3);
    expect(apps.length).toBeGreaterThan(10);
    expect(apps).toEqual([...apps].sort());
    for (const field of fields.slice(-3, -1)) expect(field.description).toMatch(/^For an Apollo Federation router, not for apps: /);
  });

  it('resolves 50 validator representations with batched upstream calls, in order', async () => {
    const page = await stack.query<{ network: { validators: { edges: { node: { __typename: string; id: string; nodeId: string } }[] } } }>(
      '{ network(name: MAINNET) { validators(first: 50) { edges { node { __typename id nodeId } } } } }',
    );
    const validators = page.data?.network.validators.edges.map((e) => e.node) ?? [];
    expect(validators).toHaveLength(50);
    stack.devnet.resetStats();
    const res = await stack.query<{ _entities: { id: string; nodeId: string }[] }>(
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on Validator { id nodeId } } }',
      { r: validators.map((v) => ({ __typename: v.__typename, id: v.id })) },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?._entities.map((e) => e.nodeId)).toEqual(validators.map((v) => v.nodeId));
    // Grouped by subnet, 100 node ids per call: a couple of calls for 50 entities.
    const calls = stack.devnet.stats().byRoute['GET /v1/networks/{network}/validators'] ?? 0;
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(6);
  });

  it('resolves chains by their natural key from the one chain list', async () => {
    stack.devnet.resetStats();
    const res = await stack.query<{ _entities: ({ chainId: string; chainName: string } | null)[] }>(
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on Chain { chainId chainName } } }',
      { r: [{ __typename: 'Chain', chainId: '43114' }, { __typename: 'Chain', chainId: '43113' }, { __typename: 'Chain', chainId: '999999999' }] },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?._entities.map((e) => e?.chainId ?? null)).toEqual(['43114', '43113', null]);
    expect(stack.devnet.stats().byRoute['GET /v1/chains']).toBe(1);
  });

  it('resolves delegators and subnets by id', async () => {
    const page = await stack.query<{ network: { delegators: { edges: { node: { __typename: string; id: string; txHash: string } }[] }; subnets: { edges: { node: { id: string; subnetId: string } }[] } } }>(
      '{ network(name: MAINNET) { delegators(first: 20) { edges { node { __typename id txHash } } } subnets(first: 3) { edges { node { id subnetId } } } } }',
    );
    const delegators = page.data?.network.delegators.edges.map((e) => e.node) ?? [];
    const subnets = page.data?.network.subnets.edges.map((e) => e.node) ?? [];
    stack.devnet.resetStats();
    const res = await stack.query<{ _entities: { txHash?: string; subnetId?: string }[] }>(
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on Delegator { txHash } ... on Subnet { subnetId } } }',
      { r: [...delegators.map((d) => ({ __typename: d.__typename, id: d.id })), ...subnets.map((s) => ({ __typename: 'Subnet', id: s.id }))] },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?._entities.slice(0, delegators.length).map((e) => e.txHash)).toEqual(delegators.map((d) => d.txHash));
    expect(res.data?._entities.slice(delegators.length).map((e) => e.subnetId)).toEqual(subnets.map((s) => s.subnetId));
    expect(stack.devnet.stats().byRoute['GET /v1/networks/{network}/subnets']).toBe(1);
    expect(stack.devnet.stats().byRoute['GET /v1/networks/{network}/delegators'] ?? 0).toBeLessThanOrEqual(4);
  });

  it('resolves the entities beyond the seeds by id: EVM blocks, contracts, primary-network transactions and assets', async () => {
    const f = stack.devnet.dataset.fixtures().mainnet;
    const ids = await stack.query<{
      chain: { blocks: { edges: { node: { __typename: string; id: string; blockNumber: string } }[] }; contract: { __typename: string; id: string; address: string } };
      network: { blockchain: { transactions: { edges: { node: { __typename: string; id: string; txHash: string } }[] }; asset: { id: string; assetId: string } } };
    }>(
      `query($c: String!, $a: String!, $asset: String!) {
        chain(chainId: $c) { blocks(first: 2) { edges { node { __typename id blockNumber } } } contract(address: $a) { __typename id address } }
        network(name: MAINNET) { blockchain(id: "x-chain") { transactions(first: 2) { edges { node { __typename id txHash } } } asset(assetId: $asset) { id assetId } } }
      }`,
      { c: f.evmChainId, a: f.contractAddress, asset: f.xAssetId },
    );
    expect(ids.errors).toBeUndefined();
    const blocks = ids.data?.chain.blocks.edges.map((e) => e.node) ?? [];
    const contract = ids.data?.chain.contract;
    const txs = ids.data?.network.blockchain.transactions.edges.map((e) => e.node) ?? [];
    const asset = ids.data?.network.blockchain.asset;
    expect(blocks.length * txs.length).toBeGreaterThan(0);
    const res = await stack.query<{ _entities: Record<string, string>[] }>(
      `query($r: [_Any!]!) { _entities(representations: $r) {
        ... on EvmBlock { blockNumber } ... on Contract { address } ... on PrimaryTransaction { txHash } ... on Asset { assetId }
      } }`,
      {
        r: [
          ...blocks.map((b) => ({ __typename: 'EvmBlock', id: b.id })),
          { __typename: contract?.__typename, id: contract?.id },
          ...txs.map((t) => ({ __typename: t.__typename, id: t.id })),
          { __typename: 'Asset', id: asset?.id },
        ],
      },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?._entities).toEqual([
      ...blocks.map((b) => ({ blockNumber: b.blockNumber })),
      { address: contract?.address },
      ...txs.map((t) => ({ txHash: t.txHash })),
      { assetId: asset?.assetId },
    ]);
  });
});

/** `@cost`/`@listSize` in the SDL are the estimator's own declarations (`extensions.cost`), field by field. */
describe('demand-control directives', () => {
  it('publishes @cost and @listSize from extensions.cost on every costed field', async () => {
    const { getSchema } = await import('../../src/schema/index.ts');
    const { demandControlDirectives } = await import('../../src/schema/cost-directives.ts');
    const { buildASTSchema, parse, getDirectiveValues, isInterfaceType, isListType, isObjectType, getNullableType } = await import('graphql');
    const { printSubgraphSchema } = await import('@apollo/subgraph');
    const schema = getSchema();
    // The printed SDL, read back: what a router receives from `_service { sdl }`.
    const sdl = printSubgraphSchema(schema);
    const printed = buildASTSchema(parse(`${sdl}\ndirective @cost(weight: Int!) on FIELD_DEFINITION\ndirective @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION\n${FEDERATION_STUBS}`), { assumeValidSDL: true });
    const costDirective = printed.getDirective('cost')!;
    const listSizeDirective = printed.getDirective('listSize')!;
    let costed = 0;
    for (const type of Object.values(schema.getTypeMap())) {
      if (!(isObjectType(type) || isInterfaceType(type)) || type.name.startsWith('_')) continue;
      const printedType = printed.getType(type.name);
      if (!printedType || !(isObjectType(printedType) || isInterfaceType(printedType))) continue;
      for (const field of Object.values(type.getFields())) {
        const cost = field.extensions.cost;
        const node = printedType.getFields()[field.name]?.astNode;
        if (!cost || !node) continue;
        costed += 1;
        const expected = demandControlDirectives(cost, {
          args: Object.fromEntries(field.args.map((a) => [a.name, a.defaultValue])),
          list: isListType(getNullableType(field.type)),
          onInterface: isInterfaceType(type),
        });
        const weight = getDirectiveValues(costDirective, node)?.['weight'];
        const listSize = getDirectiveValues(listSizeDirective, node);
        expect(weight, `${type.name}.${field.name}`).toEqual(expected.find((d) => d.name === 'cost')?.args.weight);
        const want = expected.find((d) => d.name === 'listSize')?.args;
        expect(listSize, `${type.name}.${field.name}`).toEqual(want ? { requireOneSlicingArgument: true, ...want } : undefined);
      }
    }
    expect(costed).toBeGreaterThan(50);
    // The connection model in concrete terms: a page of `first`, else the default page.
    expect(sdl).toMatch(/\): ValidatorConnection!? @cost\(weight: 1\) @listSize\(assumedSize: 10, slicingArguments: \["first"\], requireOneSlicingArgument: false, sizedFields: \["edges"\]\)/);
    expect(sdl).toMatch(/\): \[Chain!\]!? @cost\(weight: 1\) @listSize\(assumedSize: \d+\)/);
  });
});

const FEDERATION_STUBS = `
directive @link(url: String, import: [String]) repeatable on SCHEMA
directive @key(fields: String!, resolvable: Boolean = true) repeatable on OBJECT | INTERFACE
directive @shareable on FIELD_DEFINITION | OBJECT
directive @inaccessible on FIELD_DEFINITION | OBJECT
directive @tag(name: String!) repeatable on FIELD_DEFINITION | OBJECT
directive @external on FIELD_DEFINITION | OBJECT
directive @requires(fields: String!) on FIELD_DEFINITION
directive @provides(fields: String!) on FIELD_DEFINITION
`;

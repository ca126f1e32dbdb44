import { stitchingDirectives } from '@graphql-tools/stitching-directives';
import { buildSchema, isInterfaceType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_KEYS } from '../../src/schema/relay-node.ts';
import { FEDERATION_ONLY_TYPES, STITCHING_DIRECTIVES_SDL } from '../../src/schema/stitching.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

/** The stitching side: what a schema-stitching gateway reads from `{ _sdl }` (examples/stitching, docs/stitching.md). */
describe('Query._sdl for schema-stitching gateways', () => {
  let stack: TestStack;
  let sdl: string;
  beforeAll(async () => {
    stack = await startStack();
    const res = await stack.query<{ _sdl: string }>('{ _sdl }');
    expect(res.errors).toBeUndefined();
    sdl = res.data?._sdl ?? '';
  });
  afterAll(() => stack.close());

  it("defines the stitching directives as @graphql-tools/stitching-directives does, and its validator accepts the SDL", () => {
    const { stitchingDirectivesTypeDefs, stitchingDirectivesValidator } = stitchingDirectives();
    expect(STITCHING_DIRECTIVES_SDL).toBe(stitchingDirectivesTypeDefs);
    expect(sdl.startsWith(stitchingDirectivesTypeDefs)).toBe(true);
    const schema = buildSchema(sdl);
    expect(() => stitchingDirectivesValidator(schema)).not.toThrow();
  });

  it('holds no federation-only type or field, and merges every Node by id through nodes(ids:)', () => {
    const schema = buildSchema(sdl);
    for (const name of FEDERATION_ONLY_TYPES) expect(schema.getType(name), name).toBeUndefined();
    expect(sdl).not.toMatch(/@key\(fields:|@link\(|@shareable|@external|@cost\(|@listSize\(/);
    const root = schema.getQueryType()?.getFields() ?? {};
    for (const name of ['_entities', '_service', '_sdl']) expect(root[name], name).toBeUndefined();
    expect(sdl).toMatch(/\n {2}nodes\(\n[^)]*\): \[Node\]! @merge\(keyField: "id"\)\n/);
    const node = schema.getType('Node');
    expect(isInterfaceType(node) && schema.getPossibleTypes(node).map((t) => t.name)).toEqual(expect.arrayContaining(['Address', 'ActiveValidator', 'Chain', 'Subnet']));
  });

  it('merges Address by its natural key through addresses(keys:), every other Node by id, as the transformer reads them', () => {
    expect(sdl).toMatch(/\n {2}addresses\(\n[\s\S]*?\): \[Address\]! @merge\(keyArg: "keys", key: \["address", "chainId"\]\)\n/);
    expect(sdl).toMatch(/\ntype Address implements Node @key\(selectionSet: "\{ address chainId \}"\) \{/);
    const { stitchingDirectivesTransformer } = stitchingDirectives();
    const merge = stitchingDirectivesTransformer({ schema: buildSchema(sdl) }).merge ?? {};
    const address = merge['Address'];
    const byEntry = new Map((address?.entryPoints ?? []).map((entry) => [entry.fieldName, entry]));
    expect([...byEntry.keys()].sort()).toEqual(['addresses', 'nodes']);
    expect(byEntry.get('addresses')?.selectionSet).toBe('{\n  address\n  chainId\n}');
    expect(byEntry.get('addresses')?.argsFromKeys?.([{ address: '0xab', chainId: '43114' }])).toEqual({ keys: [{ address: '0xab', chainId: '43114' }] });
    // Stitching adds a type's @key to all its entry points: a service references an Address by address and chainId.
    expect(byEntry.get('nodes')?.selectionSet).toContain('id');
    for (const name of ['Chain', 'Subnet', 'ActiveValidator']) expect(merge[name]?.fieldName, name).toBe('nodes');
  });

  it("is described for stitching gateways, not apps, and comes last at the root with federation's fields", async () => {
    const res = await stack.query<{ __schema: { queryType: { fields: { name: string; description: string | null }[] } } }>('{ __schema { queryType { fields { name description } } } }');
    const fields = res.data?.__schema.queryType.fields ?? [];
    expect(fields.slice(-3).map((f) => f.name)).toEqual(['_entities', '_service', '_sdl']);
    const described = fields.at(-1)?.description ?? '';
    expect(described).toMatch(/^For schema-stitching gateways, not for apps/);
    expect(described).toContain(`at most ${MAX_BATCH_KEYS}`);
  });
});

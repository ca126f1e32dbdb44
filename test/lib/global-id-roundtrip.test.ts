import fc from 'fast-check';
import { isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCb58 } from '../../src/lib/base58.ts';
import { digestPart, MAX_INLINE_PART_BYTES, type DigestPart } from '../../src/lib/global-id.ts';
import { formatNodeId } from '../../src/lib/ids.ts';
import { getSchema } from '../../src/schema/index.ts';
import { decodeGlobalId, encodeGlobalId, encodeLegacyGlobalId, MAX_GLOBAL_ID_LENGTH, nodeFamilyParts } from '../../src/schema/relay-node.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

// Every id chaingraph emits comes back. Id parts are upstream values, and the upstream may send
// any string its spec allows, so for every type implementing Node (read from the schema) and
// arbitrary part values (empty, long, unicode, lone surrogates, separators, `%`, spaces, emoji),
// the id `encodeGlobalId` makes is accepted by `decodeGlobalId` with the same family and parts (a
// part too long to carry comes back as its digest), and by `node(id:)` / `nodes(ids:)` without
// BAD_USER_INPUT. Ids of ordinary values keep the exact text they had before.

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 100);

const cb58Id = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => encodeCb58(bytes));
const nodeId = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => formatNodeId(bytes));
/** Any value an upstream string field may hold, and the well-formed values of every grammar. */
const partValue: fc.Arbitrary<string | number> = fc.oneof(
  fc.constantFrom('', ' ', '.', '..', ':', '/', '|', '%', '%2e%2e', 'a:b/c|d', '50% off', 'a b', '💥', '🇫🇷', 'ñandú', '\u0000', '\r\n', 'string'),
  fc.constantFrom('mainnet', 'fuji', 'p-chain', 'x-chain', '43114', '0', '00', '9007199254740993', '0x', 'NodeID-'),
  cb58Id,
  nodeId,
  fc.uint8Array({ minLength: 20, maxLength: 32 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  // UTF-16 code units: lone surrogates included (JSON carries them as "\ud800").
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 70 }),
  // Long: past what an id carries inline.
  fc.string({ minLength: 100, maxLength: 2000 }),
  fc.string({ unit: 'grapheme', minLength: 40, maxLength: 200 }),
  fc.oneof(fc.integer(), fc.double(), fc.maxSafeNat()),
);

/** What decoding gives back for a part: its text, or its digest when it is too long to carry. */
function decodedAs(value: string | number): string | DigestPart {
  const text = String(value);
  const bytes = /[\uD800-\uDFFF]/u.test(text) ? text.length * 2 : Buffer.byteLength(text, 'utf8');
  return bytes > MAX_INLINE_PART_BYTES ? digestPart(text) : text;
}

/** Every type implementing Node (interfaces included), with the family its ids belong to. */
function nodeTypes(schema: GraphQLSchema): { type: string; family: string | undefined }[] {
  const out: { type: string; family: string | undefined }[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(isObjectType(type) || isInterfaceType(type))) continue;
    const interfaces = type.getInterfaces().map((i) => i.name);
    if (!interfaces.includes('Node')) continue;
    // A status type (ActiveValidator) shares its interface's family (Validator), so an id survives a status change.
    const family = [type.name, ...interfaces].find((name) => nodeFamilyParts(name) !== undefined);
    out.push({ type: type.name, family });
  }
  return out.sort((a, b) => a.type.localeCompare(b.type));
}

describe('every id chaingraph emits decodes to what it was made of', () => {
  const schema = getSchema();
  const types = nodeTypes(schema);

  it('every type implementing Node has an id family', () => {
    expect(types.length).toBeGreaterThanOrEqual(25);
    expect(types.filter((t) => t.family === undefined).map((t) => t.type)).toEqual([]);
  });

  it.each(types.map((t) => [t.type, t.family as string] as const))('property: %s ids (family %s) round-trip any part values', (_type, family) => {
    const shape = nodeFamilyParts(family);
    if (!shape) throw new Error(`no family ${family}`);
    const parts = fc.integer({ min: shape.required, max: shape.parts }).chain((n) => fc.array(partValue, { minLength: n, maxLength: n }));
    fc.assert(
      fc.property(parts, (values) => {
        const id = encodeGlobalId(family, values);
        expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(id.length).toBeLessThanOrEqual(MAX_GLOBAL_ID_LENGTH);
        // Never throws: the form of every issued id is accepted.
        const decoded = decodeGlobalId(id);
        expect(decoded.typename).toBe(family);
        expect(decoded.parts).toEqual(values.map(decodedAs));
        // What reaches a loader is exactly the parts, when each passes its grammar.
        if (decoded.refetch) expect(decoded.refetch).toEqual(values.map(String));
        else expect(decoded.unusable).toMatch(/^part \d of a /);
      }),
      { numRuns: RUNS * 5 },
    );
  });

  it('round-trips a part that starts with U+FEFF (a character of the part, not a byte-order mark)', () => {
    const values = ['', '0x0000000000000000000000000000000000000000', '\uFEFF'];
    expect(decodeGlobalId(encodeGlobalId('NftToken', values)).parts).toEqual(values);
  });

  it('keeps the text of ids already issued for ordinary values, and still reads the older JSON form', () => {
    const issued: [string, (string | number)[], string][] = [
      ['Network', ['mainnet'], 'AQU'],
      ['Validator', ['mainnet', 'NodeID-3JLNNYoUpctwErj5QfYVz4aKwo77nKWSa', '11111111111111111111111111111111LpoYY', '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5'],
        'AgUCGTd9rAjjRj0Olm_SDf23Bb_78PkHAQQn1LIqKni83dRWdCyvkbVrrb_5he4ZrvFFc-c0P9ZS'],
      ['Block', ['fuji', 'p-chain', '1234', 1700000000, '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5'], 'BwYAB3AtY2hhaW4E0gkEgOLPqgYBBCfUsioqeLzd1FZ0LK-RtWutv_mF7hmu8UVz5zQ_1lI'],
      ['Chain', ['43114'], 'CgTq0AI'],
      ['Address', ['43114', '0x'.padEnd(42, 'a')], 'CwTq0AIDFKqqqqqqqqqqqqqqqqqqqqqqqqqq'],
      ['Transaction', ['43114', '0x'.padEnd(66, 'b')], 'DATq0AIDILu7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7'],
      ['IcmMessage', ['', '0x'.padEnd(66, 'c'), 'mainnet'], 'DgAAAyDMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzAU'],
      ['ExportOperation', ['0b5e0c5e-1c8e-4f4e-9a9a-2f2f2f2f2f2f'], 'DwAkMGI1ZTBjNWUtMWM4ZS00ZjRlLTlhOWEtMmYyZjJmMmYyZjJm'],
      ['AvalancheNode', ['mainnet-node_1'], 'EAAObWFpbm5ldC1ub2RlXzE'],
    ];
    for (const [family, parts, id] of issued) {
      expect(encodeGlobalId(family, parts)).toBe(id);
      expect(decodeGlobalId(id).refetch).toEqual(parts.map(String));
      expect(decodeGlobalId(encodeLegacyGlobalId(family, parts)).refetch).toEqual(parts.map(String));
    }
  });
});

describe('node(id:) and nodes(ids:) take every id chaingraph emits', () => {
  let stack: TestStack;
  let answered = 0;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 20 } });
  });
  afterAll(async () => {
    await stack.close();
    console.info(`global-id round trip: ${answered} ids through nodes(ids:), none refused`);
  });

  it('property: arbitrary part values of every family, never BAD_USER_INPUT', async () => {
    const families = [...new Set(nodeTypes(getSchema()).map((t) => t.family as string))];
    const anyId = fc.constantFrom(...families).chain((family) => {
      const shape = nodeFamilyParts(family) as { parts: number; required: number };
      return fc.integer({ min: shape.required, max: shape.parts })
        .chain((n) => fc.array(partValue, { minLength: n, maxLength: n }))
        .map((values) => encodeGlobalId(family, values));
    });
    await fc.assert(
      fc.asyncProperty(fc.array(anyId, { minLength: 1, maxLength: 20 }), async (ids) => {
        const result = await stack.query<{ nodes: unknown[] }>('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
        for (const error of result.errors ?? []) expect(error.extensions?.['code'], error.message).not.toBe('BAD_USER_INPUT');
        expect(result.data?.nodes).toHaveLength(ids.length);
        answered += ids.length;
      }),
      { numRuns: RUNS },
    );
  });
});

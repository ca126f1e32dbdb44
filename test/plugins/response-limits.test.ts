import fc from 'fast-check';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESPONSE_LIMIT_DEFAULTS } from '../../src/gateway/plugins/use-response-limit.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

const FULL_INTROSPECTION = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
  oneOf: true,
});

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function run(query: string): Promise<{ status: number; text: string; body: GraphQLResponse }> {
  const response = await stack.gateway.fetch('http://chaingraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as GraphQLResponse };
}

const codeOf = (body: GraphQLResponse) => body.errors?.[0]?.extensions?.['code'];

describe('introspection is bounded per operation', () => {
  it('the full introspection query (GraphiQL, codegen) passes, and fits the response limit many times over', async () => {
    const { status, text, body } = await run(FULL_INTROSPECTION);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(text.length).toBeGreaterThan(100_000);
    expect(text.length * 10).toBeLessThan(RESPONSE_LIMIT_DEFAULTS.maxResponseBytes * 2);
  });

  const schemaBody = '{ types { name fields { name } } }';
  const rejected: [string, string][] = [
    ['two aliases of __schema', `{ a: __schema ${schemaBody} b: __schema ${schemaBody} }`],
    ['30 aliases of __schema (the 17 MB document)', `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: __schema ${schemaBody}`).join(' ')} }`],
    ['__schema through a fragment spread twice', `{ ...F ...F } fragment F on Query { __schema ${schemaBody} }`],
    ['__schema through an inline fragment and a field', `{ __schema { queryType { name } } ... on Query { s: __schema { queryType { name } } } }`],
    ['11 __type fields', `{ ${Array.from({ length: 11 }, (_, i) => `t${i}: __type(name: "Query") { name }`).join(' ')} }`],
    ['__type through fragments spread 4 x 4 times', `{ ...A ...A ...A ...A } fragment A on Query { ...B ...B ...B ...B } fragment B on Query { __type(name: "Query") { name } }`],
    ['introspection lists nested 4 deep', '{ __schema { types { fields { args { type { fields { name } } } } } } }'],
    ['list nesting through a fragment on __Type', '{ __schema { types { ...T } } } fragment T on __Type { fields { type { fields { type { fields { name } } } } } }'],
    [
      'an exponential fragment chain ending in __schema (counted without expanding it)',
      `{ ...F0 } ${Array.from({ length: 26 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F26 on Query { __schema { queryType { name } } }`,
    ],
  ];

  it.each(rejected)('%s: 400 INTROSPECTION_LIMIT before execution', async (_name, query) => {
    const { status, body } = await run(query);
    expect(status).toBe(400);
    expect(codeOf(body)).toBe('INTROSPECTION_LIMIT');
    expect(body.data).toBeUndefined();
  });

  it('10 __type fields and three nested lists pass', async () => {
    const types = await run(`{ ${Array.from({ length: 10 }, (_, i) => `t${i}: __type(name: "Query") { name }`).join(' ')} }`);
    expect(types.body.errors).toBeUndefined();
    const nested = await run('{ __schema { types { fields { type { ofType { fields { name } } } } } } }');
    expect(nested.body.errors).toBeUndefined();
  });

  it('counts __schema however it is reached (property)', async () => {
    // Each occurrence is an alias, an inline fragment or a spread of a fragment holding one.
    const occurrence = fc.constantFrom('alias', 'inline', 'spread');
    await fc.assert(
      fc.asyncProperty(fc.array(occurrence, { minLength: 1, maxLength: 5 }), async (kinds) => {
        const selections = kinds.map((kind, i) =>
          kind === 'alias' ? `s${i}: __schema { queryType { name } }` : kind === 'inline' ? `... on Query { s${i}: __schema { queryType { name } } }` : '...S',
        );
        const usesFragment = kinds.includes('spread');
        const query = `{ ${selections.join(' ')} }${usesFragment ? ' fragment S on Query { f: __schema { queryType { name } } }' : ''}`;
        const { body } = await run(query);
        // Repeated spreads of one fragment merge into one field at execution, but each still counts.
        if (kinds.length > 1) expect(codeOf(body)).toBe('INTROSPECTION_LIMIT');
        else expect(body.errors).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });
});

describe('a hard limit on the response size', () => {
  it('answers RESPONSE_TOO_LARGE instead of data above the limit, and the data below it', async () => {
    const small = await startStack({ gateway: { maxResponseBytes: 50_000 } });
    try {
      const query = async (q: string) => {
        const response = await small.gateway.fetch('http://chaingraph.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: q }),
        });
        return { status: response.status, body: (await response.json()) as GraphQLResponse };
      };
      const big = await query(FULL_INTROSPECTION);
      // Executed, its data withheld: `data: null`, an execution result (200), not a request error.
      expect(big.body.data).toBeNull();
      expect(big.status).toBe(200);
      expect(big.body.errors?.[0]?.extensions).toMatchObject({ code: 'RESPONSE_TOO_LARGE', maxResponseBytes: 50_000 });
      expect(big.body.errors?.[0]?.extensions?.['responseBytes']).toBeGreaterThan(50_000);

      // Aliases of a page of validators: the kind of response that grows with the document, not the schema.
      const aliases = Array.from({ length: 10 }, (_, i) => `a${i}: validators(first: 50) { edges { node { id nodeId txHash amountStaked } } }`).join(' ');
      const aliased = await query(`{ network(name: MAINNET) { ${aliases} } }`);
      expect(aliased.body.errors?.[0]?.extensions?.['code']).toBe('RESPONSE_TOO_LARGE');
      // The cost report survives, so the caller sees what the operation spent.
      expect((aliased.body.extensions as Record<string, unknown> | undefined)?.['cost']).toBeDefined();

      const fits = await query('{ network(name: MAINNET) { validators(first: 5) { edges { node { id nodeId } } } } }');
      expect(fits.body.errors).toBeUndefined();
      expect(fits.status).toBe(200);
    } finally {
      await small.close();
    }
  });
});

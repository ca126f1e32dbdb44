import { GraphQLError, GraphQLInt, GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { createLoopBudget } from '../../src/lib/loop-budget.ts';
import { serializedBody, useResponseLimit } from '../../src/gateway/plugins/use-response-limit.ts';

/** Rows of every kind of value a result holds (astral and accented text, escapes, nulls, numbers), and a field that fails. */
function schema(): GraphQLSchema {
  const Row = new GraphQLObjectType({
    name: 'Row',
    fields: {
      id: { type: GraphQLInt },
      text: { type: GraphQLString },
      none: { type: GraphQLString },
      tags: { type: new GraphQLList(GraphQLString) },
      broken: {
        type: GraphQLString,
        resolve: (row: { id: number }) => {
          if (row.id % 500 === 7) throw new GraphQLError('broken row', { extensions: { code: 'UPSTREAM_PROTOCOL_ERROR' } });
          return 'fine';
        },
      },
    },
  });
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        rows: {
          type: new GraphQLList(Row),
          args: { n: { type: GraphQLInt } },
          resolve: (_source, args: { n?: number }) =>
            Array.from({ length: args.n ?? 1 }, (_, id) => ({ id, text: `row ${id} "quoted" \\ é \u{1F600} \n`, none: null, tags: ['a', String(id)] })),
        },
      },
    }),
  });
}

async function answer(plugins: Plugin[], query: string, accept: string): Promise<{ status: number; headers: [string, string][]; body: Buffer }> {
  const yoga = createYoga({ schema: schema(), plugins, logging: false });
  const response = await yoga.fetch('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query }) });
  const headers = [...response.headers].filter(([name]) => name !== 'date');
  // Multipart boundaries are fixed by yoga ("-"); nothing else in a response varies between two runs.
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}

const ACCEPTS = ['application/json', 'application/graphql-response+json', '*/*', 'application/graphql-response+json, application/json;q=0.9', 'text/event-stream', 'multipart/mixed'];

describe('useResponseLimit answers with the bytes it measured', () => {
  for (const [name, query] of [
    ['a large result (serialized in pieces)', '{ rows(n: 20000) { id text none tags } }'],
    ['a small result', '{ rows(n: 3) { id text } }'],
    ['a result with errors (yoga sanitizes and serializes it)', '{ rows(n: 2000) { id broken } }'],
    ['a document that fails validation', '{ rows(n: 1) { nope } }'],
  ] as const) {
    it(`${name}: status, headers and body as yoga's own, for every Accept`, async () => {
      const limit = useResponseLimit({ maxResponseBytes: 64 * 1024 * 1024, loopBudget: createLoopBudget({ sliceMs: 0 }) });
      for (const accept of ACCEPTS) {
        const measured = await answer([limit], query, accept);
        const plain = await answer([], query, accept);
        expect({ accept, status: measured.status, headers: measured.headers }).toEqual({ accept, status: plain.status, headers: plain.headers });
        expect(measured.body.equals(plain.body)).toBe(true);
      }
    });
  }

  it('keeps the body on the result, where the response cache reads its size', async () => {
    let seen: Buffer | undefined;
    const probe: Plugin = { onResultProcess: ({ result }) => void (seen = serializedBody(result as object)) };
    const { body } = await answer([useResponseLimit(), probe], '{ rows(n: 5000) { id text } }', 'application/json');
    expect(seen?.equals(body)).toBe(true);
  });

  it('refuses a result over the limit with its exact size in bytes', async () => {
    const small = await answer([], '{ rows(n: 200) { id text } }', 'application/json');
    const { body } = await answer([useResponseLimit({ maxResponseBytes: small.body.length - 1 })], '{ rows(n: 200) { id text } }', 'application/json');
    const parsed = JSON.parse(body.toString()) as { errors: { extensions: { code: string; responseBytes: number } }[] };
    expect(parsed.errors[0]?.extensions).toMatchObject({ code: 'RESPONSE_TOO_LARGE', responseBytes: small.body.length });
  });
});

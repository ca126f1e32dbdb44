import { Writable } from 'node:stream';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { GraphQLError, GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { meros } from 'meros/browser';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { useUnexpectedErrors } from '../../src/gateway/plugins/use-unexpected-errors.ts';

interface Line {
  level: number;
  msg: string;
  requestId?: string;
  err?: { message?: string; stack?: string };
}
interface Payload {
  data?: unknown;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
  incremental?: { items?: unknown[]; errors?: Payload['errors'] }[];
}

/** A field that throws a bug, one that throws a GraphQL error on purpose, a list whose third item is a bug, a subscription whose second event is one. */
function schema(): GraphQLSchema {
  const bug = () => {
    throw new TypeError('a bug in a resolver');
  };
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        buggy: { type: GraphQLString, resolve: bug },
        refused: {
          type: GraphQLString,
          resolve: () => {
            throw new GraphQLError('not found on purpose', { extensions: { code: 'NOT_FOUND' } });
          },
        },
        items: {
          type: new GraphQLList(GraphQLString),
          resolve: async function* () {
            yield 'a';
            yield 'b';
            yield Promise.reject(new RangeError('a bug in the third item'));
          },
        },
      },
    }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        ticks: {
          type: GraphQLString,
          subscribe: async function* () {
            yield { ticks: 'one' };
            yield { ticks: 'two' };
          },
          resolve: (event: { ticks: string }) => {
            if (event.ticks === 'two') throw new Error('a bug in an event');
            return event.ticks;
          },
        },
      },
    }),
  });
}

/** A yoga as the gateway builds it for this concern: masking on, a request logger bound to the request's id, yoga's own logger watched. */
function server() {
  const lines: Line[] = [];
  const yogaLines: unknown[][] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString('utf8').split('\n')) if (text.trim()) lines.push(JSON.parse(text) as Line);
        done();
      },
    }),
  );
  const yoga = createYoga({
    schema: schema(),
    maskedErrors: true,
    logging: {
      debug: () => {},
      info: () => {},
      warn: (...args: unknown[]) => yogaLines.push(args),
      error: (...args: unknown[]) => yogaLines.push(args),
    },
    context: ({ request }) => ({ log: logger.child({ requestId: request.headers.get('x-request-id') ?? '' }) }),
    plugins: [useDeferStream(), useUnexpectedErrors()],
  });
  const post = (query: string, requestId: string, accept = 'application/json') =>
    yoga.fetch('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept, 'x-request-id': requestId }, body: JSON.stringify({ query }) });
  return { lines, yogaLines, post };
}

describe('an operation\'s unexpected errors (useUnexpectedErrors)', () => {
  it('a bug is masked as yoga masks it and logged once, by the request\'s logger with its id and stack; a deliberate error is neither', async () => {
    const { lines, yogaLines, post } = server();
    const body = (await (await post('{ buggy refused }', 'req-1')).json()) as Payload;
    expect(body.data).toEqual({ buggy: null, refused: null });
    expect(body.errors).toEqual([
      { message: 'Unexpected error.', locations: [{ line: 1, column: 3 }], path: ['buggy'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      { message: 'not found on purpose', locations: [{ line: 1, column: 9 }], path: ['refused'], extensions: { code: 'NOT_FOUND' } },
    ]);
    expect(JSON.stringify(body)).not.toContain('a bug in a resolver');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, requestId: 'req-1', msg: 'a bug in a resolver', err: { message: 'a bug in a resolver' } });
    expect(lines[0]?.err?.stack).toContain('TypeError: a bug in a resolver');
    // Nothing was left for yoga's masking to log (it logs without the request).
    expect(yogaLines).toEqual([]);
  });

  it('a bug in a streamed item is masked in its later payload and logged with the request\'s id', async () => {
    const { lines, yogaLines, post } = server();
    const response = await post('{ items @stream(initialCount: 1) }', 'req-stream', 'multipart/mixed');
    const parts = await meros<Payload>(response);
    if (parts instanceof Response) throw new Error(`not multipart: ${await parts.text()}`);
    const errors: NonNullable<Payload['errors']> = [];
    for await (const part of parts) {
      if (!part.json) throw new Error('a part that is not JSON');
      const payload: Payload = part.body;
      errors.push(...(payload.errors ?? []));
      for (const each of payload.incremental ?? []) errors.push(...(each.errors ?? []));
    }
    expect(errors.map((error) => [error.message, error.extensions?.code])).toEqual([['Unexpected error.', 'INTERNAL_SERVER_ERROR']]);
    expect(lines.map((line) => [line.level, line.requestId, line.err?.message])).toEqual([[50, 'req-stream', 'a bug in the third item']]);
    expect(yogaLines).toEqual([]);
  });

  it('a bug in a subscription event is masked in that event and logged with the request\'s id', async () => {
    const { lines, yogaLines, post } = server();
    const text = await (await post('subscription { ticks }', 'req-sub', 'text/event-stream')).text();
    const events = text
      .split('\n\n')
      .filter((block) => block.startsWith('event: next'))
      .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Payload);
    expect(events).toEqual([
      { data: { ticks: 'one' } },
      { data: { ticks: null }, errors: [{ message: 'Unexpected error.', locations: [{ line: 1, column: 16 }], path: ['ticks'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }] },
    ]);
    expect(lines.map((line) => [line.level, line.requestId, line.err?.message])).toEqual([[50, 'req-sub', 'a bug in an event']]);
    expect(yogaLines).toEqual([]);
  });
});

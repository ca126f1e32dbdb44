import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { nearMiss, readUrlParams } from '../../src/gateway/plugins/use-strict-params.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';

/**
 * GET and form parameters that are not what GraphQL over HTTP says (JSON that is not JSON or not an
 * object, a parameter given twice) answer 400 BAD_REQUEST naming the parameter, and log nothing: yoga's
 * own reader answered 500 "Unexpected error." with an 18-line stack trace for malformed JSON.
 */

type Body = { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };

const lines: Record<string, unknown>[] = [];
let gateway: Gateway;

beforeAll(() => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  // No upstream is ever called: every request here is refused or asks for __typename.
  const dataApi = createDataApiClient({ baseUrl: 'http://127.0.0.1:9' });
  gateway = createGateway({ graphiql: false, allowFormPosts: true }, { dataApi, nodes: [], logger: pino({ level: 'info' }, stream) });
});
afterAll(() => gateway.dispose());

const post = async (body: unknown, target: Gateway = gateway): Promise<{ status: number; body: Body }> => {
  const response = await target.fetch('http://chaingraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
};

const get = async (search: string): Promise<{ status: number; body: Body }> => {
  const response = await gateway.fetch(`http://chaingraph.test/graphql?${search}`, { headers: { accept: 'application/graphql-response+json' } });
  return { status: response.status, body: (await response.json()) as Body };
};
const form = async (body: string): Promise<{ status: number; body: Body }> => {
  const response = await gateway.fetch('http://chaingraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', accept: 'application/graphql-response+json' },
    body,
  });
  return { status: response.status, body: (await response.json()) as Body };
};

const q = encodeURIComponent('{ __typename }');
const malformed: [string, string, string][] = [
  ['variables that are not JSON', `query=${q}&variables=${encodeURIComponent('{bad')}`, 'variables'],
  ['variables cut short', `query=${q}&variables=%7B`, 'variables'],
  ['variables as a list', `query=${q}&variables=${encodeURIComponent('[1]')}`, 'variables'],
  ['variables as a number', `query=${q}&variables=12`, 'variables'],
  ['variables as a string', `query=${q}&variables=${encodeURIComponent('"x"')}`, 'variables'],
  ['extensions that are not JSON', `query=${q}&extensions=${encodeURIComponent('{"persistedQuery":')}`, 'extensions'],
  ['extensions as true', `query=${q}&extensions=true`, 'extensions'],
  ['query given twice', `query=${q}&query=${encodeURIComponent('{ chains { chainId } }')}`, 'query'],
  ['operationName given twice', `query=${q}&operationName=A&operationName=B`, 'operationName'],
  ['variables given twice', `query=${q}&variables=%7B%7D&variables=%7B%7D`, 'variables'],
  ['documentId given twice', `documentId=a&documentId=b`, 'documentId'],
];

describe('malformed GET and form parameters', () => {
  it.each(malformed)('%s: 400 BAD_REQUEST naming the parameter, over GET and in a form body', async (_name, search, parameter) => {
    for (const { status, body } of [await get(search), await form(search)]) {
      expect(status).toBe(400);
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST', parameter });
      expect(body.data).toBeUndefined();
    }
  });

  it('logs nothing about them (no stack trace, no error line)', async () => {
    for (const [, search] of malformed) await get(search);
    expect(lines.filter((line) => Number(line['level']) >= 40)).toEqual([]);
  });

  it('still serves well-formed ones: variables and extensions as objects or null, empty values as absent', async () => {
    const ok = [
      `query=${q}`,
      `query=${q}&variables=null&extensions=null`,
      `query=${q}&variables=&operationName=`,
      `query=${encodeURIComponent('query T($x: Boolean!) { __typename @include(if: $x) }')}&variables=${encodeURIComponent('{"x":true}')}&operationName=T`,
    ];
    for (const search of ok) {
      for (const { status, body } of [await get(search), await form(search)]) {
        expect([search, status, body.errors]).toEqual([search, 200, undefined]);
        expect(body.data).toEqual({ __typename: 'Query' });
      }
    }
  });

  it('property: whatever the query string, the reader answers parameters or a 400 BAD_REQUEST, never anything else', () => {
    const value = fc.oneof(fc.string(), fc.json(), fc.constantFrom('{', '[', 'null', '{}', '"x"', '1e400'));
    const name = fc.constantFrom('query', 'variables', 'extensions', 'operationName', 'documentId', 'other');
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 6 }), (pairs) => {
        const params = new URLSearchParams(pairs);
        try {
          const read = readUrlParams(params);
          for (const key of ['variables', 'extensions'] as const) {
            const got = read[key];
            if (got !== undefined) expect(typeof got === 'object' && got !== null && !Array.isArray(got)).toBe(true);
          }
        } catch (error) {
          expect(error).toMatchObject({ extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('parameters a person gets wrong first', () => {
  it('a GET without a query (curl at the endpoint) says how to send one and that a browser gets GraphiQL', async () => {
    const withGraphiQL = createGateway({ allowFormPosts: true }, { dataApi: createDataApiClient({ baseUrl: 'http://127.0.0.1:9' }), nodes: [] });
    try {
      // What `curl http://127.0.0.1:4000/graphql` sends: no query, `accept: */*`.
      const response = await withGraphiQL.fetch('http://chaingraph.test/graphql', { headers: { accept: '*/*' } });
      const body = (await response.json()) as Body;
      expect(response.status).toBe(400);
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST', parameter: 'query' });
      const message = body.errors?.[0]?.message ?? '';
      expect(message).toContain('?query=');
      expect(message).toContain('POST JSON');
      expect(message).toMatch(/open this URL in a browser: it serves GraphiQL/);
      expect(message).not.toContain('Must provide query string');
    } finally {
      await withGraphiQL.dispose();
    }
    // Without GraphiQL the advice does not point to it.
    const { status, body } = await get('');
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST', parameter: 'query' });
    expect(body.errors?.[0]?.message).toContain('?query=');
    expect(body.errors?.[0]?.message).not.toContain('GraphiQL');
  });

  it('a POST without a query says what to send', async () => {
    const { status, body } = await post({ variables: {} });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST', parameter: 'query' });
    expect(body.errors?.[0]?.message).toContain('{"query": "{ __typename }"}');
  });

  it.each([
    ['Query', 'query'],
    ['QUERY', 'query'],
    ['querry', 'query'],
    ['qeury', 'query'],
    ['Variables', 'variables'],
    ['varibles', 'variables'],
    ['operation', 'operationName'],
    ['operationname', 'operationName'],
    ['OperationName', 'operationName'],
    ['extension', 'extensions'],
  ])('a body parameter %s is answered "did you mean %s"', async (given, meant) => {
    const { status, body } = await post({ query: given === 'Query' ? undefined : '{ __typename }', [given]: given.toLowerCase().startsWith('q') ? '{ __typename }' : {} });
    expect(status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.message).toBe(`Unknown parameter "${given}": did you mean "${meant}"? Parameter names are case-sensitive.`);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST', parameter: given });
    expect(nearMiss(given)).toBe(meant);
  });

  it('the same near miss in a GET query string is refused rather than dropped unseen', async () => {
    const { status, body } = await get(`Query=${q}`);
    expect(status).toBe(400);
    expect(body.errors?.[0]?.message).toBe('Unknown parameter "Query": did you mean "query"? Parameter names are case-sensitive.');
    // Other names (a cache buster) are no GraphQL parameter and stay ignored.
    expect((await get(`query=${q}&_=1712345678`)).body.data).toEqual({ __typename: 'Query' });
  });

  it('an unknown body parameter that is no near miss names the ones there are', async () => {
    const { status, body } = await post({ query: '{ __typename }', params: {} });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.message).toBe('Unknown parameter "params": a request takes query, variables, operationName and extensions.');
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST', parameter: 'params' });
    for (const name of ['id', 'vars', 'data', 'other', 'persistedQuery']) expect(nearMiss(name)).toBeUndefined();
    // Known and null-valued parameters pass, as in yoga.
    expect((await post({ query: '{ __typename }', operationName: null, variables: null, extensions: null, Query: null })).body.data).toEqual({ __typename: 'Query' });
  });
});

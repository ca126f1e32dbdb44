import fc from 'fast-check';
import { parse } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { measureJson, REQUEST_LIMITS_DEFAULTS, scanDocument } from '../../src/gateway/plugins/use-request-limits.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

interface Body {
  data?: unknown;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const URL_BASE = 'http://chaingraph.test';
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };

let stack: TestStack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  stack.devnet.resetStats();
});

async function send(path: string, init: RequestInit): Promise<{ status: number; headers: Headers; body: Body; text: string }> {
  const response = await stack.gateway.fetch(`${URL_BASE}${path}`, init);
  const text = await response.text();
  let body: Body = {};
  try {
    body = JSON.parse(text) as Body;
  } catch {
    // left empty: the assertions below say what was expected
  }
  return { status: response.status, headers: response.headers, body, text };
}

const post = (body: string, headers: Record<string, string> = JSON_HEADERS) => send('/graphql', { method: 'POST', headers, body });
const postJson = (payload: unknown) => post(JSON.stringify(payload));

function nested(open: string, close: string, depth: number, inner: string): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

describe('every refusal of the HTTP edge is GraphQL-shaped with a code', () => {
  const cases: { name: string; request: () => ReturnType<typeof send>; status: number; code: string }[] = [
    { name: 'unsupported content type', request: () => post('{"query":"{__typename}"}', { 'content-type': 'text/plain' }), status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
    { name: 'no content type', request: () => send('/graphql', { method: 'POST', body: new Uint8Array([123, 125]) }), status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
    { name: 'malformed JSON', request: () => post('{"query":'), status: 400, code: 'BAD_REQUEST' },
    { name: 'JSON that is not an object', request: () => post('42'), status: 400, code: 'BAD_REQUEST' },
    { name: 'missing query', request: () => postJson({}), status: 400, code: 'BAD_REQUEST' },
    { name: 'query that is not a string', request: () => postJson({ query: 5 }), status: 400, code: 'BAD_REQUEST' },
    { name: 'variables that are not an object', request: () => postJson({ query: '{__typename}', variables: 5 }), status: 400, code: 'BAD_REQUEST' },
    { name: 'batched operations', request: () => postJson([{ query: '{__typename}' }]), status: 400, code: 'BAD_REQUEST' },
    { name: 'parse error', request: () => postJson({ query: '{ network(' }), status: 400, code: 'GRAPHQL_PARSE_FAILED' },
    { name: 'validation error', request: () => postJson({ query: '{ nope }' }), status: 400, code: 'GRAPHQL_VALIDATION_FAILED' },
    { name: 'unknown path', request: () => send('/nope', { method: 'GET' }), status: 404, code: 'NOT_FOUND' },
    { name: 'unacceptable response type', request: () => post('{"query":"{__typename}"}', { 'content-type': 'application/json', accept: 'text/xml' }), status: 406, code: 'NOT_ACCEPTABLE' },
    { name: 'unsupported method', request: () => send('/graphql', { method: 'PUT', headers: JSON_HEADERS, body: '{}' }), status: 405, code: 'BAD_REQUEST' },
    { name: 'mutation over GET', request: () => send(`/graphql?query=${encodeURIComponent('mutation { __typename }')}`, { method: 'GET' }), status: 405, code: 'BAD_REQUEST' },
    {
      name: 'declared body over the limit',
      request: () => post('{}', { ...JSON_HEADERS, 'content-length': String(64 * 1024 * 1024) }),
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    },
    { name: 'Content-Length that is not a number', request: () => post('{}', { ...JSON_HEADERS, 'content-length': '12, 13' }), status: 400, code: 'BAD_REQUEST' },
    {
      name: 'URL over the limit',
      request: () => send(`/graphql?query=${encodeURIComponent(`{ __typename ${'#'.repeat(REQUEST_LIMITS_DEFAULTS.maxUrlLength)} }`)}`, { method: 'GET' }),
      status: 414,
      code: 'URI_TOO_LONG',
    },
    { name: '2,000-deep selection', request: () => postJson({ query: nested('{ a ', '}', 2000, 'b') }), status: 400, code: 'QUERY_TOO_DEEP' },
    { name: '100,000-deep selection', request: () => postJson({ query: nested('{ a ', '}', 100_000, 'b') }), status: 400, code: 'QUERY_TOO_DEEP' },
    { name: 'nested list literal', request: () => postJson({ query: `{ network(name: ${nested('[', ']', 5000, 'MAINNET')}) { __typename } }` }), status: 400, code: 'QUERY_TOO_DEEP' },
    { name: 'nested object literal', request: () => postJson({ query: `{ network(name: MAINNET) { validators(filter: ${nested('{a:', '}', 5000, '1')}) { __typename } } }` }), status: 400, code: 'QUERY_TOO_DEEP' },
    { name: 'nested variable default', request: () => postJson({ query: `query($v: [Int] = ${nested('[', ']', 5000, '1')}) { __typename }` }), status: 400, code: 'QUERY_TOO_DEEP' },
    { name: 'deep selection behind a comment and a string', request: () => postJson({ query: `# {{{{\n{ a(s: "}}}}") ${nested('{ a ', '}', 3000, 'b')} }` }), status: 400, code: 'QUERY_TOO_DEEP' },
    { name: '20,000-deep variable', request: () => post(`{"query":"query($v: [Int]) { __typename }","variables":{"v":${nested('[', ']', 20_000, '1')}}}`), status: 400, code: 'VARIABLES_TOO_LARGE' },
    { name: '100,000-deep variable object', request: () => post(`{"query":"{ __typename }","variables":${nested('{"a":', '}', 100_000, '1')}}`), status: 400, code: 'VARIABLES_TOO_LARGE' },
    { name: 'deep extensions', request: () => post(`{"query":"{ __typename }","extensions":${nested('{"a":', '}', 20_000, '1')}}`), status: 400, code: 'VARIABLES_TOO_LARGE' },
    { name: 'variables with too many values', request: () => postJson({ query: '{ __typename }', variables: { v: Array.from({ length: 20_000 }, () => 1) } }), status: 400, code: 'VARIABLES_TOO_LARGE' },
    { name: 'a 100,000-character string literal', request: () => postJson({ query: `{ chain(chainId: "${'1'.repeat(100_000)}") { chainId } }` }), status: 400, code: 'DOCUMENT_TOO_LARGE' },
    { name: 'a 100,000-character block string', request: () => postJson({ query: `{ chain(chainId: """${'1'.repeat(100_000)}""") { chainId } }` }), status: 400, code: 'DOCUMENT_TOO_LARGE' },
    { name: 'a 100,000-character name', request: () => postJson({ query: `{ ${'a'.repeat(100_000)} }` }), status: 400, code: 'DOCUMENT_TOO_LARGE' },
    { name: '500 operations in one document', request: () => postJson({ query: Array.from({ length: 500 }, (_, i) => `query q${i} { __typename }`).join('\n'), operationName: 'q1' }), status: 400, code: 'DOCUMENT_TOO_LARGE' },
  ];

  it.each(cases)('$name: $status $code', async ({ request, status, code }) => {
    const response = await request();
    expect(response.status, response.text.slice(0, 300)).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect(response.body.errors?.[0]?.extensions?.['code'], response.text.slice(0, 300)).toBe(code);
    expect(response.body.errors?.[0]?.message).toEqual(expect.any(String));
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('an oversized body is refused with connection: close, so its remainder is never read', async () => {
    const response = await post('{}', { ...JSON_HEADERS, 'content-length': String(2 * 1024 * 1024) });
    expect(response.headers.get('connection')).toBe('close');
  });
});

describe('the body limit holds while the body streams', () => {
  /** A chunked body (no Content-Length) produced on demand, counting what the gateway pulled. */
  function streamedBody(totalBytes: number, chunkBytes = 16 * 1024) {
    const pulled = { bytes: 0 };
    const prefix = new TextEncoder().encode('{"query":"{ __typename }","variables":{"pad":"');
    const suffix = new TextEncoder().encode('"}}');
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) {
          controller.enqueue(prefix);
          sent += prefix.length;
          pulled.bytes = sent;
          return;
        }
        const left = totalBytes - suffix.length - sent;
        if (left <= 0) {
          controller.enqueue(suffix);
          pulled.bytes += suffix.length;
          controller.close();
          return;
        }
        const chunk = new Uint8Array(Math.min(chunkBytes, left)).fill(0x61);
        controller.enqueue(chunk);
        sent += chunk.length;
        pulled.bytes = sent;
      },
    });
    return { stream, pulled };
  }

  it('refuses a 64 MB chunked body after reading little more than the limit', async () => {
    const { stream, pulled } = streamedBody(64 * 1024 * 1024);
    const response = await send('/graphql', { method: 'POST', headers: JSON_HEADERS, body: stream, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(response.body.errors?.[0]?.extensions?.['code']).toBe('PAYLOAD_TOO_LARGE');
    // The limit plus what the stream queues ahead (a few chunks), never the whole body.
    expect(pulled.bytes).toBeLessThan(REQUEST_LIMITS_DEFAULTS.maxBodyBytes + 256 * 1024);
  });

  it('accepts a chunked body just under the limit', async () => {
    const { stream } = streamedBody(REQUEST_LIMITS_DEFAULTS.maxBodyBytes - 1024);
    const response = await send('/graphql', { method: 'POST', headers: JSON_HEADERS, body: stream, duplex: 'half' } as RequestInit);
    // The padding variable is not declared by the operation: the body was read and parsed whole.
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ __typename: 'Query' });
  });

  it('applies a configured limit', async () => {
    const small = await startStack({ gateway: { requestLimits: { maxBodyBytes: 100 } } });
    try {
      const ok = await small.gateway.fetch(`${URL_BASE}/graphql`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ query: '{ __typename }' }) });
      expect(ok.status).toBe(200);
      const { stream } = streamedBody(1000, 10);
      const refused = await small.gateway.fetch(`${URL_BASE}/graphql`, { method: 'POST', headers: JSON_HEADERS, body: stream, duplex: 'half' } as RequestInit);
      expect(refused.status).toBe(413);
    } finally {
      await small.close();
    }
  });
});

describe('variables that do not coerce answer BAD_USER_INPUT naming the variable', () => {
  const validators = 'query($f: ValidatorFilter, $first: Int) { network(name: MAINNET) { validators(first: $first, filter: $f) { edges { node { id } } } } }';
  const capacity = 'query($c: UInt256) { network(name: MAINNET) { validators(first: 1, filter: { minDelegationCapacity: $c }) { edges { node { id } } } } }';
  const cases: { name: string; query: string; variables: Record<string, unknown>; variable: string }[] = [
    { name: 'UInt256 "-1"', query: validators, variables: { f: { minDelegationCapacity: '-1' } }, variable: 'f' },
    { name: 'UInt256 hex beyond 2^256', query: capacity, variables: { c: `0x1${'0'.repeat(64)}` }, variable: 'c' },
    { name: 'UInt256 as an object', query: capacity, variables: { c: { n: 1 } }, variable: 'c' },
    { name: 'Int 1e10', query: validators, variables: { first: 1e10 }, variable: 'first' },
    { name: 'Int 1.5', query: validators, variables: { first: 1.5 }, variable: 'first' },
    { name: 'Int as a string', query: validators, variables: { first: '10' }, variable: 'first' },
    { name: 'unknown enum value', query: 'query($n: NetworkName!) { network(name: $n) { __typename } }', variables: { n: 'DEVNET' }, variable: 'n' },
    { name: 'missing non-null variable', query: 'query($n: NetworkName!) { network(name: $n) { __typename } }', variables: {}, variable: 'n' },
    { name: 'null for a non-null variable', query: 'query($n: NetworkName!) { network(name: $n) { __typename } }', variables: { n: null }, variable: 'n' },
    { name: 'unknown input field', query: validators, variables: { f: { bogus: 1 } }, variable: 'f' },
    { name: 'input object given a list', query: validators, variables: { f: [1, 2] }, variable: 'f' },
    { name: 'list of the wrong item type', query: validators, variables: { f: { nodeIds: [1, 2, 3] } }, variable: 'f' },
    { name: 'enum inside an input object', query: validators, variables: { f: { validationStatus: 'SLEEPING' } }, variable: 'f' },
    { name: 'String given an object', query: 'query($id: String!) { chain(chainId: $id) { chainId } }', variables: { id: { a: 1 } }, variable: 'id' },
    { name: 'Boolean given a number', query: 'query($b: Boolean!) { __typename @include(if: $b) }', variables: { b: 1 }, variable: 'b' },
  ];

  it.each(cases)('$name', async ({ query, variables, variable }) => {
    const response = await postJson({ query, variables });
    expect(response.status).toBe(400);
    const error = response.body.errors?.[0];
    expect(error?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', variableName: variable });
    expect(response.body.errors?.every((e) => e.extensions?.['code'] === 'BAD_USER_INPUT')).toBe(true);
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('answers 200 with the same coded error to an application/json client (GraphQL over HTTP)', async () => {
    const response = await post(JSON.stringify({ query: validators, variables: { first: 1e10 } }), { 'content-type': 'application/json', accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(response.body.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
  });

  it('subscriptions too', async () => {
    const response = await post(JSON.stringify({ query: 'subscription($n: NetworkName!) { blocks(network: $n, blockchainId: "p-chain") { blockNumber } }', variables: { n: 'NOPE' } }), {
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', variableName: 'n' });
  });
});

describe('documents within the limits still work', () => {
  it('a document at the nesting limit reaches validation, not a stack overflow', async () => {
    // `{`, `(` and 62 `[`: 64 brackets.
    const query = `{ network(name: ${nested('[', ']', REQUEST_LIMITS_DEFAULTS.maxDocumentNesting - 2, 'MAINNET')}) { __typename } }`;
    const response = await postJson({ query });
    expect(response.body.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
    const over = await postJson({ query: `{ network(name: ${nested('[', ']', REQUEST_LIMITS_DEFAULTS.maxDocumentNesting - 1, 'MAINNET')}) { __typename } }` });
    expect(over.body.errors?.[0]?.extensions?.['code']).toBe('QUERY_TOO_DEEP');
  });

  it('GET queries, comments with brackets and strings with braces parse as usual', async () => {
    const query = `# {{{{ [[[[ ((((\n{ a: __typename b: __typename @include(if: true) } # }}}`;
    const get = await send(`/graphql?query=${encodeURIComponent(query)}`, { method: 'GET' });
    expect(get.body.data).toEqual({ a: 'Query', b: 'Query' });
    const withString = await postJson({ query: 'query($id: String! = "{{{{[[[[") { chain(chainId: $id) { chainId } }' });
    // Whatever the chain id check says about it, the braces in the string are not nesting.
    expect(withString.text).not.toMatch(/QUERY_TOO_DEEP|DOCUMENT_TOO_LARGE/);
    expect(withString.status).not.toBe(500);
  });

  it('variables with a few levels of nesting and many values pass', async () => {
    const response = await postJson({
      query: 'query($f: ValidatorFilter) { network(name: MAINNET) { validators(first: 1, filter: $f) { edges { node { id } } } } }',
      variables: { f: { validationStatus: 'ACTIVE' }, unused: Array.from({ length: 4000 }, (_, i) => ({ i })) },
    });
    expect(response.body.errors, response.text.slice(0, 300)).toBeUndefined();
    expect(response.status).toBe(200);
  });
});

describe('the document scan agrees with the GraphQL lexer', () => {
  const limits = { maxDocumentNesting: 8, maxTokenLength: 20, maxDefinitions: 3 };

  it('measures nesting the way the parser builds it (property)', () => {
    // Selection sets nested n deep with arguments holding list literals m deep: n + m + 1 brackets.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 6 }), fc.boolean(), (n, m, comment) => {
        const literal = nested('[', ']', m, '1');
        const document = `${comment ? '# ((((((((((((\n' : ''}${'{ a(x: "[[[[[[[[[") '.repeat(n - 1)}{ b(l: ${literal}) }${' }'.repeat(n - 1)}`;
        const depth = Math.max(n, n + (m > 0 ? 1 + m : 1));
        const error = scanDocument(document, limits);
        expect(Boolean(error)).toBe(depth > limits.maxDocumentNesting);
        if (!error) expect(() => parse(document)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('counts definitions and token lengths', () => {
    expect(scanDocument('query a { x } query b { x } fragment f on Q { x }', limits)).toBeUndefined();
    expect(scanDocument('query a { x } query b { x } fragment f on Q { x } { y }', limits)?.extensions['code']).toBe('DOCUMENT_TOO_LARGE');
    expect(scanDocument(`{ x(s: "${'a'.repeat(18)}") }`, limits)).toBeUndefined();
    expect(scanDocument(`{ x(s: "${'a'.repeat(30)}") }`, limits)?.extensions['code']).toBe('DOCUMENT_TOO_LARGE');
    expect(scanDocument(`{ x(s: "a\\"${'{'.repeat(12)}") }`, limits)).toBeUndefined();
    expect(scanDocument(`{ x(s: """a\\"""${'{'.repeat(12)}""") }`, { ...limits, maxTokenLength: 100 })).toBeUndefined();
  });

  it('measures JSON depth and size without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(measureJson(deep, 32, 10_000)).toBe('depth');
    expect(measureJson({ a: [1, { b: 2 }] }, 3, 10)).toBeUndefined();
    expect(measureJson({ a: [1, { b: [2] }] }, 3, 10)).toBe('depth');
    expect(measureJson(Array.from({ length: 11 }, () => 0), 3, 10)).toBe('values');
  });
});

describe('hostile shapes never answer 500 (property)', () => {
  const pieces = ['{', '}', '[', ']', '(', ')', '"', '"""', '\\', '#', '\n', ' ', 'a', 'network', '(name: MAINNET)', '__typename', '$v', ':', '@include(if: true)', '...', 'on', 'query', 'fragment', '1', '-1e10', '__schema', '__type(name: "Query")'];

  it('random documents answer with a code, never 500, and nothing reaches the upstream', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...pieces), { maxLength: 200 }),
        fc.constantFrom(1, 10, 100, 3000),
        async (tokens, repeat) => {
          const query = tokens.join('').repeat(tokens.length * repeat > 50_000 ? 1 : repeat);
          const response = await postJson({ query });
          expect(response.status, query.slice(0, 200)).not.toBe(500);
          expect(response.body.data !== undefined || response.body.errors?.every((e) => typeof e.extensions?.['code'] === 'string'), response.text.slice(0, 300)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('random deep and wide variables answer with a code, never 500', async () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.integer(), fc.string(), fc.constant(null), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
    })).value;
    const validators = (type: string, args: string) => `query($v: ${type}) { network(name: MAINNET) { validators(${args}) { edges { node { id } } } } }`;
    const operations = [
      validators('Int', 'first: $v'),
      validators('UInt256', 'first: 1, filter: { minDelegationCapacity: $v }'),
      validators('ValidatorFilter', 'first: 1, filter: $v'),
      validators('[String!]', 'first: 1, filter: { nodeIds: $v }'),
      'query($v: NetworkName!) { network(name: $v) { __typename } }',
      'query($v: Boolean!) { __typename @include(if: $v) }',
    ];
    await fc.assert(
      fc.asyncProperty(json, fc.constantFrom(...operations), fc.constantFrom(0, 1, 5, 40, 20_000), async (value, query, wrapDepth) => {
        // Wrapped in many arrays without building a deep object (JSON.stringify would overflow first).
        const text = nested('[', ']', wrapDepth, JSON.stringify(value) ?? 'null');
        const response = await post(`{"query":${JSON.stringify(query)},"variables":{"v":${text}}}`);
        expect(response.status).not.toBe(500);
        if (response.body.errors) expect(response.body.errors.every((e) => typeof e.extensions?.['code'] === 'string'), response.text.slice(0, 300)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

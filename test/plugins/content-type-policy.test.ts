import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/stack.ts';

// What a page on another origin can make a visitor's browser send without a CORS preflight is a
// "simple" request: GET, or a POST of a form (urlencoded, multipart) or of text/plain. Only JSON
// POSTs (which need the preflight) and GET queries execute; the rest is refused before its body is
// read or any upstream is called.

const URL_BASE = 'http://chaingraph.test/graphql';
const QUERY = '{ chains { chainId } }';

interface Answer {
  status: number;
  body: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

async function send(stack: TestStack, init: RequestInit, url = URL_BASE): Promise<Answer> {
  const response = await stack.gateway.fetch(url, init);
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/** What a cross-site HTML form or a no-cors fetch can send. */
const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'] as const;
type SimpleType = (typeof SIMPLE_TYPES)[number];

/** A simple request of this type carrying `query` (multipart as the GraphQL multipart request spec has it). */
function simpleBody(type: SimpleType, query: string): RequestInit {
  if (type === 'application/x-www-form-urlencoded') return { method: 'POST', headers: { 'content-type': type }, body: new URLSearchParams({ query }).toString() };
  if (type === 'text/plain') return { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: JSON.stringify({ query }) };
  const form = new FormData();
  form.set('operations', JSON.stringify({ query }));
  form.set('map', '{}');
  return { method: 'POST', body: form };
}

const json = (query: string, type = 'application/json'): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': type, accept: 'application/graphql-response+json' },
  body: JSON.stringify({ query }),
});

let stack: TestStack;
let mutation: string;

beforeAll(async () => {
  stack = await startStack();
  const f = stack.devnet.dataset.fixtures().mainnet;
  mutation = `mutation { createTransactionExport(input: { type: TRANSACTION_EXPORT_EVM, firstDate: "2024-01-01", lastDate: "2024-01-31",
    options: { addresses: ["${f['address']}"], includeChains: ["${f['evmChainId']}"] } }) { operation { operationId } } }`;
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  stack.devnet.resetStats();
});

describe('only JSON POSTs and GET queries execute', () => {
  for (const operation of ['query', 'mutation'] as const) {
    for (const type of SIMPLE_TYPES) {
      it(`refuses a ${operation} posted as ${type}: 415 UNSUPPORTED_MEDIA_TYPE, no upstream call`, async () => {
        const answer = await send(stack, simpleBody(type, operation === 'query' ? QUERY : mutation));
        expect(answer.status).toBe(415);
        expect(answer.body.errors?.[0]?.extensions).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE' });
        expect(stack.upstreamRequests()).toBe(0);
      });
    }
  }

  it('refuses other bodies too (application/graphql, none)', async () => {
    for (const init of [
      { method: 'POST', headers: { 'content-type': 'application/graphql' }, body: QUERY },
      { method: 'POST', body: new Uint8Array(Buffer.from(JSON.stringify({ query: QUERY }))) },
    ]) {
      const answer = await send(stack, init);
      expect(answer.status).toBe(415);
      expect(answer.body.errors?.[0]?.extensions?.['code']).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('runs a query and a mutation posted as JSON, in each GraphQL-over-HTTP spelling', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/graphql+json', 'application/graphql-response+json']) {
      const answer = await send(stack, json(QUERY, type));
      expect(answer.status, type).toBe(200);
      expect(answer.body.errors, type).toBeUndefined();
    }
    const created = await send(stack, json(mutation));
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data).toMatchObject({ createTransactionExport: { operation: { operationId: expect.any(String) as unknown } } });
  });

  it('answers malformed JSON of the spellings yoga does not parse itself as yoga would (400 BAD_REQUEST)', async () => {
    const answer = await send(stack, { method: 'POST', headers: { 'content-type': 'application/graphql-response+json' }, body: '{"query":' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.extensions?.['code']).toBe('BAD_REQUEST');
  });

  it('runs a query over GET and refuses a mutation over GET (405), before any upstream call', async () => {
    const query = await send(stack, { method: 'GET', headers: { accept: 'application/graphql-response+json' } }, `${URL_BASE}?query=${encodeURIComponent(QUERY)}`);
    expect(query.status).toBe(200);
    stack.devnet.resetStats();
    const refused = await send(stack, { method: 'GET', headers: { accept: 'application/graphql-response+json' } }, `${URL_BASE}?query=${encodeURIComponent(mutation)}`);
    expect(refused.status).toBe(405);
    expect(refused.body.errors?.[0]?.message).toMatch(/mutation/i);
    expect(stack.upstreamRequests()).toBe(0);
  });
});

describe('with allowFormPosts (ALLOW_FORM_POSTS=true)', () => {
  let permissive: TestStack;
  beforeAll(async () => {
    permissive = await startStack({ gateway: { allowFormPosts: true } });
  });
  afterAll(async () => {
    await permissive?.close();
  });

  it('runs a query posted as a form, urlencoded or multipart', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data'] as const) {
      const answer = await send(permissive, simpleBody(type, QUERY));
      expect(answer.status, type).toBe(200);
      expect(answer.body.data, type).toMatchObject({ chains: expect.any(Array) as unknown });
    }
  });

  it('still never runs a mutation from a form, and still refuses text/plain', async () => {
    permissive.devnet.resetStats();
    for (const type of SIMPLE_TYPES) {
      const answer = await send(permissive, simpleBody(type, mutation));
      expect(answer.status, type).toBe(415);
      expect(answer.body.errors?.[0]?.extensions?.['code'], type).toBe('UNSUPPORTED_MEDIA_TYPE');
      // A form is parsed now: its mutation is refused when it would execute, text/plain before its body is read.
      expect(answer.body.errors?.[0]?.message, type).toMatch(type === 'text/plain' ? /Unsupported content type/ : /form post may only run queries/);
    }
    expect(permissive.upstreamRequests()).toBe(0);
  });
});

import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config.ts';
import { createApqStore, loadPersistedManifest, parsePersistedManifest } from '../../src/gateway/plugins/use-persisted-documents.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const CHAINS = '{ chains { chainId chainName } }';
const VALIDATORS = 'query Validators($first: Int) { network(name: FUJI) { validators(first: $first) { edges { node { nodeId } } } } }';

async function send(stack: TestStack, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ status: number; body: GraphQLResponse; headers: Headers }> {
  const response = await stack.gateway.fetch('http://chaingraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as GraphQLResponse, headers: response.headers };
}

async function getUrl(stack: TestStack, search: Record<string, unknown>): Promise<{ status: number; body: GraphQLResponse; headers: Headers }> {
  const query = Object.entries(search)
    .map(([name, value]) => `${name}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join('&');
  const response = await stack.gateway.fetch(`http://chaingraph.test/graphql?${query}`, { headers: { accept: 'application/graphql-response+json' } });
  return { status: response.status, body: (await response.json()) as GraphQLResponse, headers: response.headers };
}

const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const codes = (body: GraphQLResponse) => (body.errors ?? []).map((error) => error.extensions?.['code']);

describe('automatic persisted queries', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 30 }, cache: createMemoryCache({}) });
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.devnet.resetStats());

  it('answers an unknown hash PERSISTED_QUERY_NOT_FOUND (404), registers a query sent with its hash, then runs it by hash over GET with Cache-Control', async () => {
    const hash = sha256(CHAINS);
    const unknown = await send(stack, { extensions: persisted(hash) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors?.[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    expect(stack.devnet.stats().requests).toBe(0);

    const registered = await send(stack, { query: CHAINS, extensions: persisted(hash) });
    expect(registered.status).toBe(200);
    expect(registered.body.errors).toBeUndefined();

    const byHash = await getUrl(stack, { extensions: persisted(hash) });
    expect(byHash.status).toBe(200);
    expect(byHash.body.data).toEqual(registered.body.data);
    expect(byHash.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  });

  it('runs a stored query with variables and an operation name given by GET', async () => {
    const hash = sha256(VALIDATORS);
    await send(stack, { query: VALIDATORS, variables: { first: 1 }, extensions: persisted(hash) });
    const byHash = await getUrl(stack, { extensions: persisted(hash), variables: { first: 3 }, operationName: 'Validators' });
    expect(byHash.body.errors).toBeUndefined();
    expect((byHash.body.data as { network: { validators: { edges: unknown[] } } }).network.validators.edges).toHaveLength(3);
  });

  it('refuses a hash that is not the query`s SHA-256 (PERSISTED_QUERY_MISMATCH, 400) and stores nothing under it', async () => {
    const other = sha256('{ __typename }');
    const mismatch = await send(stack, { query: CHAINS, extensions: persisted(other) });
    expect(mismatch.status).toBe(400);
    expect(codes(mismatch.body)).toEqual(['PERSISTED_QUERY_MISMATCH']);
    expect(stack.devnet.stats().requests).toBe(0);
    expect(codes((await send(stack, { extensions: persisted(other) })).body)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    const notHex = await send(stack, { query: CHAINS, extensions: persisted('not-a-sha256') });
    expect(codes(notHex.body)).toEqual(['PERSISTED_QUERY_MISMATCH']);
  });

  it('keeps its store within its byte budget, and never stores a query over the entry size', () => {
    const store = createApqStore({ maxBytes: 20_000, maxQueryBytes: 4_000 });
    for (let i = 0; i < 500; i += 1) void store.set(sha256(String(i)), `{ chains { chainId } } # ${'x'.repeat(i % 50)} ${i}`);
    expect(store.stats().bytes).toBeLessThanOrEqual(20_000);
    expect(store.stats().entries).toBeGreaterThan(10);
    void store.set('big', `{ chains { chainId } } # ${'x'.repeat(5_000)}`);
    expect(store.get('big')).toBeUndefined();
  });

  it('works with Apollo Client`s persisted-query link over a real socket: hash-only GET, one registration, then hash-only GETs', async () => {
    const server: Server = createServer(stack.gateway);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const seen: { method: string; hasQuery: boolean; status: number }[] = [];
    try {
      const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
      const countingFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        const hasQuery = url.searchParams.has('query') || (typeof init?.body === 'string' && init.body.includes('"query"'));
        seen.push({ method: init?.method ?? 'GET', hasQuery, status: response.status });
        return response;
      };
      const link = new PersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(new HttpLink({ uri, fetch: countingFetch }));
      const client = new ApolloClient({ link, cache: new InMemoryCache() });
      const document = gql`
        query ApolloChains {
          chains(network: FUJI) {
            chainId
            chainName
          }
        }
      `;
      const first = await client.query({ query: document, fetchPolicy: 'network-only' });
      expect(first.error).toBeUndefined();
      expect((first.data as { chains: unknown[] }).chains.length).toBeGreaterThan(0);
      const second = await client.query({ query: document, fetchPolicy: 'network-only' });
      expect(second.data).toEqual(first.data);
      // Not found by hash, registered once with its text, then found by hash alone.
      expect(seen).toEqual([
        { method: 'GET', hasQuery: false, status: 404 },
        { method: 'POST', hasQuery: true, status: 200 },
        { method: 'GET', hasQuery: false, status: 200 },
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('persisted operations turned off', () => {
  it('answers a hash-only request PERSISTED_QUERY_NOT_SUPPORTED and still runs queries sent whole', async () => {
    const stack = await startStack({ devnet: { validators: 10 }, gateway: { persistedDocuments: { apq: false } } });
    try {
      const hashOnly = await send(stack, { extensions: persisted(sha256(CHAINS)) });
      expect(hashOnly.status).toBe(400);
      expect(hashOnly.body.errors?.[0]).toMatchObject({ message: 'PersistedQueryNotSupported', extensions: { code: 'PERSISTED_QUERY_NOT_SUPPORTED' } });
      expect((await send(stack, { query: CHAINS, extensions: persisted(sha256(CHAINS)) })).body.errors).toBeUndefined();
    } finally {
      await stack.close();
    }
  });
});

describe('trusted documents (PERSISTED_OPERATIONS)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'chaingraph-persisted-'));
  const codegenManifest = { [sha256(CHAINS)]: CHAINS, 'sha1-style-0123456789abcdef': VALIDATORS };
  const apolloManifest = {
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: [
      { id: sha256(CHAINS), body: CHAINS, name: 'Chains', type: 'query' },
      { id: sha256(VALIDATORS), body: VALIDATORS, name: 'Validators', type: 'query' },
    ],
  };
  const write = (name: string, content: string) => {
    const path = join(directory, name);
    writeFileSync(path, content);
    return path;
  };

  it('reads both manifest forms (GraphQL Code Generator`s and Apollo`s)', () => {
    expect([...loadPersistedManifest(write('codegen.json', JSON.stringify(codegenManifest))).entries()]).toEqual(Object.entries(codegenManifest));
    const apollo = loadPersistedManifest(write('apollo.json', JSON.stringify(apolloManifest)));
    expect(apollo.get(sha256(VALIDATORS))).toBe(VALIDATORS);
    expect(apollo.size).toBe(2);
  });

  it('stops the start with a clear error for a bad file', () => {
    const bad: [string, RegExp][] = [
      ['{ not json', /is not a persisted-documents manifest: not JSON/],
      ['[]', /expected an object/],
      ['{}', /holds no document/],
      [JSON.stringify({ abc: 42 }), /"abc": the document must be a non-empty string/],
      [JSON.stringify({ 'has space': '{ a }' }), /the id must be a hash/],
      [JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 2, operations: [] }), /unsupported apollo-persisted-query-manifest version 2/],
      [JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'a' }] }), /operations\[0\]: the document must be/],
    ];
    for (const [content, message] of bad) expect(() => parsePersistedManifest(content, 'm.json'), content).toThrow(message);
    expect(() => configFromEnv({ PERSISTED_OPERATIONS: join(directory, 'missing.json') })).toThrow(/PERSISTED_OPERATIONS: cannot read .*missing\.json/);
    expect(() => configFromEnv({ ONLY_PERSISTED: 'true' })).toThrow(/ONLY_PERSISTED=true needs PERSISTED_OPERATIONS/);
    expect(() => configFromEnv({ ONLY_PERSISTED: 'yes' })).toThrow(/ONLY_PERSISTED must be true or false/);
    const config = configFromEnv({ PERSISTED_OPERATIONS: write('ok.json', JSON.stringify(apolloManifest)), ONLY_PERSISTED: 'true' });
    expect(config.persisted).toMatchObject({ apq: false, onlyPersisted: true });
    expect(config.persisted.documents?.size).toBe(2);
  });

  it('runs a manifest document by documentId or by extensions hash, POST or GET; other queries still run', async () => {
    const stack = await startStack({ devnet: { validators: 30 }, gateway: { persistedDocuments: { documents: parsePersistedManifest(JSON.stringify(codegenManifest), 'm') } } });
    try {
      const byDocumentId = await send(stack, { documentId: 'sha1-style-0123456789abcdef', variables: { first: 2 } });
      expect(byDocumentId.body.errors).toBeUndefined();
      expect((byDocumentId.body.data as { network: { validators: { edges: unknown[] } } }).network.validators.edges).toHaveLength(2);
      const byGet = await getUrl(stack, { documentId: 'sha1-style-0123456789abcdef', variables: { first: 1 } });
      expect(byGet.body.errors).toBeUndefined();
      const byHash = await getUrl(stack, { extensions: persisted(sha256(CHAINS)) });
      expect(byHash.body.errors).toBeUndefined();
      expect(codes((await send(stack, { documentId: 'unknown0123' })).body)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
      expect((await send(stack, { query: '{ __typename }' })).body.data).toEqual({ __typename: 'Query' });
    } finally {
      await stack.close();
    }
  });

  it('with ONLY_PERSISTED refuses anything else before parsing it: PERSISTED_QUERY_ONLY, no upstream call, no registration', async () => {
    const stack = await startStack({
      devnet: { validators: 30 },
      gateway: { persistedDocuments: { documents: parsePersistedManifest(JSON.stringify(apolloManifest), 'm'), onlyPersisted: true } },
    });
    try {
      stack.devnet.resetStats();
      for (const body of [{ query: CHAINS }, { query: 'this is { not graphql' }, { query: '{ __typename }', extensions: persisted(sha256('{ __typename }')) }]) {
        const refused = await send(stack, body);
        expect(refused.status).toBe(400);
        expect(codes(refused.body)).toEqual(['PERSISTED_QUERY_ONLY']);
      }
      expect(codes((await send(stack, { extensions: persisted(sha256('{ __typename }')) })).body)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
      expect(codes((await send(stack, {})).body)).toEqual(['PERSISTED_QUERY_ONLY']);
      expect(stack.devnet.stats().requests).toBe(0);
      const allowed = await send(stack, { extensions: persisted(sha256(VALIDATORS)), variables: { first: 1 } });
      expect(allowed.body.errors).toBeUndefined();
    } finally {
      await stack.close();
    }
  });
});

describe('hostile persisted-query extensions', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 10 }, gateway: { persistedDocuments: { documents: new Map([[sha256(CHAINS), CHAINS]]) } } });
  });
  afterAll(() => stack.close());

  it('answers wrong types, wrong versions, non-hex and oversized hashes with coded 4xx errors', async () => {
    const cases: unknown[] = [
      'persistedQuery',
      [persisted(sha256(CHAINS))],
      { persistedQuery: 'abc' },
      { persistedQuery: [] },
      { persistedQuery: { version: 2, sha256Hash: sha256(CHAINS) } },
      { persistedQuery: { version: '1', sha256Hash: sha256(CHAINS) } },
      { persistedQuery: { version: 1, sha256Hash: 42 } },
      { persistedQuery: { version: 1, sha256Hash: 'zz'.repeat(32) + '!' } },
      { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(100_000) } },
      { persistedQuery: { version: 1, sha256Hash: sha256(CHAINS), extra: { deep: [1, 2, 3] } } },
    ];
    for (const extensions of cases) {
      const { status, body } = await send(stack, { extensions });
      const label = JSON.stringify(extensions).slice(0, 80);
      if (status === 200) {
        expect(body.errors, label).toBeUndefined();
        continue;
      }
      expect(status, label).toBeGreaterThanOrEqual(400);
      expect(status, label).toBeLessThan(500);
      expect(codes(body).every((code) => typeof code === 'string'), label).toBe(true);
    }
  });

  it('never fails with a 5xx or an uncoded error, whatever the extensions and documentId hold (fast-check)', async () => {
    let deepest: unknown = sha256(CHAINS);
    for (let i = 0; i < 200; i += 1) deepest = { persistedQuery: deepest };
    const hash = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }), fc.constant(sha256(CHAINS)), fc.constant(sha256('{ __typename }')));
    const persistedQuery = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ version: fc.oneof(fc.constant(1), fc.jsonValue({ maxDepth: 1 })), sha256Hash: fc.oneof(hash, fc.jsonValue({ maxDepth: 1 })) }));
    const body = fc.record(
      {
        query: fc.oneof(fc.constant(CHAINS), fc.constant('{ __typename }'), fc.string({ maxLength: 40 })),
        documentId: fc.oneof(hash, fc.jsonValue({ maxDepth: 1 })),
        extensions: fc.oneof(fc.record({ persistedQuery }), fc.jsonValue({ maxDepth: 4 }), fc.constant(deepest)),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (request) => {
        const { status, body: answer } = await send(stack, request);
        expect(status).toBeLessThan(500);
        if (status !== 200) expect(codes(answer).length).toBeGreaterThan(0);
        for (const code of codes(answer)) expect(typeof code).toBe('string');
      }),
      { numRuns: 150 },
    );
  });
});

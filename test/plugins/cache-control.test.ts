import { createYoga, createSchema } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCacheControl } from '../../src/gateway/plugins/use-cache-control.ts';
import { getSchema } from '../../src/schema/index.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

const ADMIN_TOKEN = 'cache-control-admin-token';

function get(stack: TestStack, query: string, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(stack.gateway.fetch(`http://chaingraph.test/graphql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/graphql-response+json', ...headers } }));
}

function maxAge(response: Response): number | undefined {
  const match = /max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '');
  return match ? Number(match[1]) : undefined;
}

describe('Cache-Control on GET responses, from what the operation read', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 30 }, cache: createMemoryCache({}), gateway: { adminToken: ADMIN_TOKEN } });
  });
  afterAll(() => stack.close());

  it('is public with the shortest expiry of the upstream answers read (chains 300 s, validators 30 s)', async () => {
    const chains = await get(stack, '{ chains { chainId } }');
    expect(chains.status).toBe(200);
    expect(chains.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(maxAge(chains)).toBeGreaterThanOrEqual(290);
    expect(maxAge(chains)).toBeLessThanOrEqual(300);

    const both = await get(stack, '{ chains { chainId } network(name: FUJI) { validators(first: 2) { edges { node { nodeId } } } } }');
    expect(both.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(maxAge(both)).toBeGreaterThanOrEqual(20);
    expect(maxAge(both)).toBeLessThanOrEqual(30);
    expect(both.headers.get('vary')?.toLowerCase()).toContain('x-service-api-key');
    expect(both.headers.get('vary')?.toLowerCase()).toContain('authorization');
  });

  it('is private for a caller who sent their own API key or an authorization header', async () => {
    const keyed = await get(stack, '{ chains { chainId } }', { 'x-service-api-key': 'callers-own-key' });
    expect(keyed.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const authorized = await get(stack, '{ chains { chainId } }', { authorization: 'Bearer something' });
    expect(authorized.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
  });

  it('is no-store for errors, refusals and incremental responses', async () => {
    const invalid = await get(stack, '{ chains { noSuchField } }');
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('cache-control')).toBe('no-store');
    const badArgument = await get(stack, '{ chain(chainId: "") { chainId } }');
    expect(((await badArgument.json()) as { errors?: unknown[] }).errors?.length).toBeGreaterThan(0);
    expect(badArgument.headers.get('cache-control')).toBe('no-store');
    const deferred = await get(stack, '{ chains { chainId ... @defer { chainName } } }', { accept: 'multipart/mixed' });
    expect(deferred.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    await deferred.text();
    expect(deferred.headers.get('cache-control')).toBe('no-store');
    const hashOnly = await stack.gateway.fetch(`http://chaingraph.test/graphql?extensions=${encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } }))}`);
    expect(hashOnly.status).toBe(404);
    expect(hashOnly.headers.get('cache-control')).toBe('no-store');
  });

  it('is no-store for admin reads and export status (fields marked in the schema, and never cached upstream)', async () => {
    const fields = getSchema().getQueryType()?.getFields();
    expect(fields?.['exportOperation']?.extensions['cacheControl']).toBe('no-store');
    const admin = await get(stack, '{ avalancheNode { name loggerLevels { name logLevel } } }', { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(await admin.clone().text()).toContain('loggerLevels');
    expect(admin.status).toBe(200);
    expect(admin.headers.get('cache-control')).toBe('no-store');
    const exportStatus = await get(stack, '{ exportOperation(operationId: "00000000-0000-4000-8000-000000000000") { operationId } }');
    expect(exportStatus.headers.get('cache-control')).toBe('no-store');
  });

  it('leaves POST responses and GraphiQL-free paths alone', async () => {
    const post = await stack.gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ chains { chainId } }' }),
    });
    expect(post.status).toBe(200);
    expect(post.headers.get('cache-control')).toBeNull();
    const health = await stack.gateway.fetch('http://chaingraph.test/health');
    expect(health.headers.get('cache-control')).toBeNull();
  });
});

describe('Cache-Control without the upstream cache, and from the whole-response cache', () => {
  it('is no-store when anything read was uncached, public for what reads nothing', async () => {
    const stack = await startStack({ devnet: { validators: 30 } });
    try {
      const uncached = await get(stack, '{ chains { chainId } }');
      expect(uncached.status).toBe(200);
      expect(uncached.headers.get('cache-control')).toBe('no-store');
      const nothingRead = await get(stack, '{ __typename }');
      expect(nothingRead.headers.get('cache-control')).toBe('public, max-age=300');
    } finally {
      await stack.close();
    }
  });

  it('gives a response served whole from the response cache the time its held copy has left', async () => {
    const stack = await startStack({ devnet: { validators: 30 }, cache: createMemoryCache({}), gateway: { responseCache: {} } });
    try {
      const query = '{ network(name: FUJI) { validators(first: 2) { edges { node { nodeId } } } } }';
      const first = await get(stack, query);
      stack.devnet.resetStats();
      const second = await get(stack, query);
      expect(stack.devnet.stats().requests).toBe(0);
      expect(((await second.json()) as { data: unknown }).data).toEqual(((await first.json()) as { data: unknown }).data);
      expect(second.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
      expect(maxAge(second)).toBeGreaterThanOrEqual(20);
      expect(maxAge(second)).toBeLessThanOrEqual(30);
    } finally {
      await stack.close();
    }
  });
});

describe('useCacheControl reads the no-store mark generically', () => {
  const schema = createSchema({
    typeDefs: /* GraphQL */ `
      interface Thing { id: ID! }
      type Plain implements Thing { id: ID! secret: String }
      type Query { thing: Thing plain: Plain open: String }
    `,
    resolvers: {
      Thing: { __resolveType: () => 'Plain' },
      Query: { thing: () => ({ id: '1', secret: 's' }), plain: () => ({ id: '1', secret: 's' }), open: () => 'o' },
    },
  });
  const plainType = schema.getType('Plain') as { getFields(): Record<string, { extensions: Record<string, unknown> }> };
  const secret = plainType.getFields()['secret'];
  if (secret) secret.extensions = { cacheControl: 'no-store' };
  const yoga = createYoga({ schema, plugins: [useCacheControl({ freshUntil: () => Date.now() + 60_000 })] });
  const header = async (query: string) =>
    (await yoga.fetch(`http://test/graphql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/json' } })).headers.get('cache-control');

  it('finds a marked field directly, through a fragment spread and through an abstract selection', async () => {
    expect(await header('{ open }')).toMatch(/^public, max-age=(59|60)$/);
    expect(await header('{ plain { id } }')).toMatch(/^public, max-age=(59|60)$/);
    expect(await header('{ plain { secret } }')).toBe('no-store');
    expect(await header('query { plain { ...F } } fragment F on Plain { secret }')).toBe('no-store');
    expect(await header('{ thing { ... on Plain { secret } } }')).toBe('no-store');
    expect(await header('{ thing { id } }')).toMatch(/^public/);
  });
});

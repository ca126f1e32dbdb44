import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/gateway.ts';
import { chooseEncoding } from '../../src/gateway/plugins/use-graphiql-assets.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

/**
 * GraphiQL's page and assets as a browser fetches them (the real browser test is
 * test/e2e/graphiql-browser.test.ts): built once, compressed, cacheable.
 */
describe('GraphiQL assets (useGraphiQLAssets)', () => {
  let stack: TestStack;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    stack.gateway.fetch(`http://chaingraph.test${path}`, { method, headers });
  const page = (headers: Record<string, string> = {}) => get('/graphql', { accept: 'text/html', ...headers });
  let html: string;
  let assetPaths: string[];

  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 20 }, gateway: { graphiql: true, exampleQueries: 'query ValidatorWalk { __typename }' } });
    html = await (await page({ 'accept-encoding': 'identity' })).text();
    assetPaths = [...html.matchAll(/(?:src|href)="(\/graphql\/graphiql\/[^"]+)"|"(\/graphql\/graphiql\/[^"]+\.js)"/g)].map((m) => (m[1] ?? m[2]) as string);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('serves a small page that names its assets instead of inlining 9 MB', () => {
    expect(html.length).toBeLessThan(20_000);
    expect(html).toContain('ValidatorWalk');
    expect(html).toContain('renderYogaGraphiQL');
    // The script, the stylesheet, the icon and Monaco's three web workers.
    expect(new Set(assetPaths).size).toBe(6);
  });

  it('compresses the page and each asset as the client accepts, with ETag, Vary and Cache-Control', async () => {
    for (const path of assetPaths) {
      const identity = await get(path, { 'accept-encoding': 'identity' });
      const raw = Buffer.from(await identity.arrayBuffer());
      expect(identity.status).toBe(200);
      expect(identity.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(identity.headers.get('content-encoding')).toBeNull();
      const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(br.headers.get('vary')).toBe('Accept-Encoding');
      expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).equals(raw)).toBe(true);
      const gzip = await get(path, { 'accept-encoding': 'gzip' });
      expect(gzip.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).equals(raw)).toBe(true);
      // Distinct representations, distinct strong validators.
      expect(new Set([identity, br, gzip].map((r) => r.headers.get('etag'))).size).toBe(3);
    }
    const compressed = await page({ 'accept-encoding': 'br' });
    expect(compressed.headers.get('cache-control')).toBe('no-cache');
    expect(brotliDecompressSync(Buffer.from(await compressed.arrayBuffer())).toString()).toBe(html);
  });

  it('answers 304 to a matching If-None-Match, on the page and the assets', async () => {
    const first = await page({ 'accept-encoding': 'gzip' });
    const etag = first.headers.get('etag') as string;
    const again = await page({ 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const asset = assetPaths[0] as string;
    const assetEtag = (await get(asset)).headers.get('etag') as string;
    expect((await get(asset, { 'if-none-match': `"other", ${assetEtag}` })).status).toBe(304);
    expect((await get(asset, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('shares one build between concurrent loads: every load gets the same bytes', async () => {
    const loads = await Promise.all(Array.from({ length: 20 }, () => get(assetPaths.find((p) => p.includes('/js.')) as string, { 'accept-encoding': 'br' })));
    const bodies = await Promise.all(loads.map(async (r) => Buffer.from(await r.arrayBuffer())));
    expect(new Set(loads.map((r) => r.headers.get('etag'))).size).toBe(1);
    for (const body of bodies) expect(body.equals(bodies[0] as Buffer)).toBe(true);
    // Nothing prepared this gateway's assets: the first load built them and waited; none since built again.
    expect(stack.gateway.graphiql?.builds).toBe(1);
    expect(stack.gateway.graphiql?.waits).toBe(1);
  });

  it('prepare() builds once ahead of any load (the server calls it at start): no load waits after it', async () => {
    const gateway = createGateway({ exampleQueries: 'query Prepared { __typename }' }, { dataApi: createDataApiClient({ baseUrl: 'http://127.0.0.1:9' }), nodes: [] });
    try {
      const assets = gateway.graphiql;
      expect(assets?.builds).toBe(0);
      // Two callers at once share one build.
      await Promise.all([assets?.prepare(), assets?.prepare()]);
      expect(assets?.builds).toBe(1);
      const first = await gateway.fetch('http://chaingraph.test/graphql', { headers: { accept: 'text/html' } });
      expect(await first.text()).toContain('Prepared');
      await assets?.prepare();
      expect({ builds: assets?.builds, waits: assets?.waits }).toEqual({ builds: 1, waits: 0 });
    } finally {
      await gateway.dispose();
    }
    // Without GraphiQL there is nothing to prepare.
    const without = createGateway({ graphiql: false }, { dataApi: createDataApiClient({ baseUrl: 'http://127.0.0.1:9' }), nodes: [] });
    expect(without.graphiql).toBeUndefined();
    await without.dispose();
  });

  it('answers HEAD without a body, and 404 for an unknown asset', async () => {
    const head = await get(assetPaths[0] as string, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect((await get('/graphql/graphiql/js.nothere.js')).status).toBe(404);
  });

  it('leaves GraphQL requests alone', async () => {
    const res = await get('/graphql?query=%7B__typename%7D', { accept: 'application/json' });
    expect(await res.json()).toMatchObject({ data: { __typename: 'Query' } });
  });
});

describe('chooseEncoding', () => {
  it.each([
    [null, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0, gzip;q=0.5', 'gzip'],
    ['identity', 'identity'],
    ['BR', 'br'],
    ['gzip;q=abc', 'identity'],
  ] as const)('%s -> %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

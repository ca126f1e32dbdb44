import { cp, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildGraphiQLAssets } from '../../scripts/build-graphiql-assets.ts';
import { readPrebuiltAssets, type PrebuiltManifest } from '../../src/gateway/plugins/graphiql-asset-files.ts';
import { useGraphiQLAssets, type GraphiQLAssetsPlugin } from '../../src/gateway/plugins/use-graphiql-assets.ts';

/** Every worker thread started in this file (the asset build's is the only one). */
const workers = vi.hoisted(() => ({ started: 0 }));
vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:worker_threads')>();
  class CountedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      workers.started += 1;
    }
  }
  return { ...actual, Worker: CountedWorker };
});

const DEFAULT_QUERY = 'query Prebuilt { __typename }';
const ENCODINGS = ['identity', 'gzip', 'br'] as const;

function serve(plugin: GraphiQLAssetsPlugin) {
  const yoga = createYoga({ schema: createSchema({ typeDefs: 'type Query { a: Int }' }), graphiql: false, logging: false, plugins: [plugin] });
  return async (path: string, headers: Record<string, string>) => {
    const response = await yoga.fetch(`http://chaingraph.test${path}`, { headers });
    const body = Buffer.from(await response.arrayBuffer());
    const kept = ['content-type', 'content-encoding', 'content-length', 'etag', 'cache-control', 'vary'].map((name) => [name, response.headers.get(name)]);
    return { status: response.status, headers: Object.fromEntries(kept) as Record<string, string | null>, body };
  };
}

/**
 * GraphiQL's assets built once at build time (scripts/build-graphiql-assets.ts, which `npm run build` runs
 * into dist/graphiql): useGraphiQLAssets reads them instead of starting a worker, serves the same bytes as
 * the worker's build, and falls back to the worker when they were made from another render-graphiql.
 */
describe('prebuilt GraphiQL assets', () => {
  let dir: string;
  let manifest: PrebuiltManifest;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chaingraph-graphiql-'));
    const first = await buildGraphiQLAssets(join(dir, 'current'));
    expect(first.written).toBe(true);
    manifest = first.manifest;
  }, 60_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes each asset raw, gzipped and brotli\'d with a manifest, and rewrites nothing when up to date', async () => {
    expect(manifest.renderGraphiQL).toBe((JSON.parse(await readFile(join(import.meta.dirname, '../../node_modules/@graphql-yoga/render-graphiql/package.json'), 'utf8')) as { version: string }).version);
    expect(manifest.assets.map((a) => a.role).sort()).toEqual(['css', 'editorWorkerService', 'favicon', 'graphqlWorker', 'js', 'jsonWorker']);
    for (const asset of manifest.assets) {
      expect(asset.file).toBe(`${asset.role}.${asset.hash}.${asset.file.split('.').at(-1)}`);
      expect((await readFile(join(dir, 'current', asset.file))).byteLength).toBe(asset.bytes.identity);
      expect(asset.etags).toEqual({ identity: `"${asset.hash}"`, gzip: `"${asset.hash}-gzip"`, br: `"${asset.hash}-br"` });
    }
    const again = await buildGraphiQLAssets(join(dir, 'current'));
    expect(again.written).toBe(false);
    expect(again.manifest).toEqual(manifest);
  });

  it('serves the page and every asset from the prebuilt files, no worker started, byte-identical to the worker build; a manifest of another render-graphiql falls back to the worker', { timeout: 60_000 }, async () => {
    // The same files, but said to be made from another render-graphiql version.
    const stale = join(dir, 'stale');
    await cp(join(dir, 'current'), stale, { recursive: true });
    await writeFile(join(stale, 'manifest.json'), JSON.stringify({ ...manifest, renderGraphiQL: '0.0.1-other' }));

    const before = workers.started;
    const prebuilt = useGraphiQLAssets({ defaultQuery: DEFAULT_QUERY, prebuilt: join(dir, 'current') });
    await prebuilt.prepare();
    expect({ source: prebuilt.source, builds: prebuilt.builds, waits: prebuilt.waits, unusable: prebuilt.prebuiltUnusable }).toEqual({ source: 'prebuilt', builds: 1, waits: 0, unusable: undefined });
    expect(workers.started).toBe(before);

    const fallback = useGraphiQLAssets({ defaultQuery: DEFAULT_QUERY, prebuilt: stale });
    await fallback.prepare();
    expect({ source: fallback.source, builds: fallback.builds }).toEqual({ source: 'worker', builds: 1 });
    expect(fallback.prebuiltUnusable).toContain('0.0.1-other');
    expect(workers.started).toBe(before + 1);

    const fromFiles = serve(prebuilt);
    const fromWorker = serve(fallback);
    const page = await fromFiles('/graphql', { accept: 'text/html', 'accept-encoding': 'identity' });
    expect(page.body.toString()).toContain('Prebuilt');
    const paths = [...new Set([...page.body.toString().matchAll(/"(\/graphql\/graphiql\/[^"]+)"/g)].map((m) => m[1] as string))];
    expect(paths.sort()).toEqual(manifest.assets.map((a) => `/graphql/graphiql/${a.file}`).sort());
    for (const path of ['/graphql', ...paths]) {
      for (const encoding of ENCODINGS) {
        const headers = { accept: 'text/html', 'accept-encoding': encoding };
        const [files, worker] = await Promise.all([fromFiles(path, headers), fromWorker(path, headers)]);
        expect(files.status).toBe(200);
        expect(files.headers).toEqual(worker.headers);
        expect(files.body.equals(worker.body), `${path} ${encoding}`).toBe(true);
        expect(files.body.byteLength).toBe(Number(files.headers['content-length']));
        const asset = manifest.assets.find((a) => path.endsWith(`/${a.file}`));
        // The assets' files are what is sent (the uncompressed one streamed from the gzipped bytes in memory).
        if (asset) expect(files.body.equals(await readFile(join(dir, 'current', asset.file + { identity: '', gzip: '.gz', br: '.br' }[encoding])))).toBe(true);
      }
    }
    // Nothing loaded waited, nothing else was built.
    expect({ prebuilt: [prebuilt.builds, prebuilt.waits], fallback: [fallback.builds, fallback.waits], workers: workers.started }).toEqual({ prebuilt: [1, 0], fallback: [1, 0], workers: before + 1 });
  });

  it('does not read a directory with a file of another size than its manifest says, or none at all', async () => {
    const damaged = join(dir, 'damaged');
    await cp(join(dir, 'current'), damaged, { recursive: true });
    const js = manifest.assets.find((a) => a.role === 'js');
    await truncate(join(damaged, `${js?.file}.br`), 10);
    expect(await readPrebuiltAssets(damaged)).toEqual({ unusable: expect.stringContaining('the manifest says') });
    expect(await readPrebuiltAssets(join(dir, 'nothing-here'))).toEqual({ unusable: expect.stringContaining('no manifest.json') });
    // The builder sees the damage and rewrites the directory.
    expect((await buildGraphiQLAssets(damaged)).written).toBe(true);
    expect(await readPrebuiltAssets(damaged)).toMatchObject({ files: expect.any(Array) });
  }, 60_000);
});

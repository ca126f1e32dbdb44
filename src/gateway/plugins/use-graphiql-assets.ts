import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';
import { shortDigest } from '../../lib/text.ts';
import { pageHtml } from './graphiql-page.ts';

/** Options of {@link useGraphiQLAssets}. */
export interface GraphiQLAssetsOptions {
  /** The page title. Default `chaingraph`. */
  title?: string;
  /** The operations the editor opens with. Default empty. */
  defaultQuery?: string;
  /** Where the page is served (the GraphQL endpoint); assets live under `<endpoint>/graphiql/`. Default `/graphql`. */
  endpoint?: string;
}

/** {@link useGraphiQLAssets}'s plugin, with the handle the server warms it through. */
export interface GraphiQLAssetsPlugin extends Plugin {
  /**
   * Builds the page and its assets now, if no build is done or under way (a load meanwhile waits on
   * the same build); resolves once they are ready to send. The server calls it at start, so the first
   * load after "chaingraph ready" is served from buffers, as every later one is. Rejects when the build
   * fails (the next load or call tries again).
   */
  prepare(): Promise<void>;
  /** Builds finished so far: 1 once built, as long as the process lives (a failed build is not counted). */
  readonly builds: number;
  /** Loads (the page or an asset) that arrived before the build was done and waited for it. */
  readonly waits: number;
}

/** One representation of a file, ready to send. */
interface Encoded {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** A file in every encoding, built once and shared by every response. */
interface Asset {
  contentType: string;
  cacheControl: string;
  identity: Encoded;
  gzip: Encoded;
  br: Encoded;
}

/** The page and every asset, ready to send. */
interface BuiltPage {
  page: Asset;
  files: Map<string, Asset>;
}

interface BuiltAssets {
  /** URL path under `<endpoint>/graphiql/` -> asset. */
  files: Map<string, Asset>;
  /** The asset paths the page names, by role. */
  paths: Record<AssetRole, string>;
}

type AssetRole = 'js' | 'css' | 'favicon' | 'editorWorkerService' | 'jsonWorker' | 'graphqlWorker';

/** What the worker sends back: raw and compressed bytes per role, and a content hash. */
type WorkerAsset = { role: AssetRole; hash: string; raw: Bytes; gzip: Bytes; br: Bytes };
type Bytes = Uint8Array<ArrayBuffer>;

const CONTENT_TYPES: Record<AssetRole, [string, string]> = {
  js: ['application/javascript; charset=utf-8', 'js'],
  css: ['text/css; charset=utf-8', 'css'],
  favicon: ['image/x-icon', 'ico'],
  editorWorkerService: ['application/javascript; charset=utf-8', 'js'],
  jsonWorker: ['application/javascript; charset=utf-8', 'js'],
  graphqlWorker: ['application/javascript; charset=utf-8', 'js'],
};

/** Content-hashed asset URLs never change: browsers keep them a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page embeds the examples (and asset hashes): revalidated on every load, a 304 when unchanged. */
const REVALIDATE = 'no-cache';

/**
 * Builds GraphiQL's assets in a worker thread and returns them as off-heap bytes.
 *
 * `@graphql-yoga/render-graphiql` inlines 9 MB of JavaScript, CSS and web workers
 * into one string module (two-byte, since it holds non-Latin-1 characters): about
 * 32 MB of heap once imported, and yoga's renderer builds the 9 MB page again on
 * every load. Importing it in a short-lived worker keeps all of that out of the
 * gateway's heap; what comes back is each asset raw, gzipped and brotli'd (about
 * 13 MB of Buffers in total, outside the V8 heap), made once.
 */
function buildAssetsInWorker(): Promise<WorkerAsset[]> {
  const modulePath = createRequire(import.meta.url).resolve('@graphql-yoga/render-graphiql/graphiql');
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { createHash } = require('node:crypto');
    const zlib = require('node:zlib');
    const assets = require(workerData.modulePath);
    const out = [];
    for (const role of ${JSON.stringify(Object.keys(CONTENT_TYPES))}) {
      const text = assets[role];
      if (typeof text !== 'string') throw new Error('render-graphiql has no asset ' + role);
      const dataUrl = /^data:[^;,]+;base64,/.exec(text);
      const raw = new Uint8Array(dataUrl ? Buffer.from(text.slice(dataUrl[0].length), 'base64') : Buffer.from(text, 'utf8'));
      const gzip = new Uint8Array(zlib.gzipSync(raw, { level: 9 }));
      // Quality 9: within 10% of 11 at a fifteenth of the time.
      const br = new Uint8Array(zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
      out.push({ role, hash: createHash('sha256').update(raw).digest('base64url').slice(0, 16), raw, gzip, br });
    }
    parentPort.postMessage(out, out.flatMap((a) => [a.raw.buffer, a.gzip.buffer, a.br.buffer]));
  `;
  return new Promise((resolve, reject) => {
    // Its own heap, capped: the strings die with the worker.
    const worker = new Worker(source, { eval: true, workerData: { modulePath }, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    worker.once('message', (assets: WorkerAsset[]) => resolve(assets));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the GraphiQL asset worker exited with code ${code}`)));
  });
}

function encodings(raw: Bytes, gzip: Bytes, br: Bytes, hash: string): Pick<Asset, 'identity' | 'gzip' | 'br'> {
  return {
    identity: { body: raw, etag: `"${hash}"` },
    gzip: { body: gzip, etag: `"${hash}-gzip"` },
    br: { body: br, etag: `"${hash}-br"` },
  };
}

function assetsFrom(built: WorkerAsset[], prefix: string): BuiltAssets {
  const files = new Map<string, Asset>();
  const paths = {} as Record<AssetRole, string>;
  for (const { role, hash, raw, gzip, br } of built) {
    const [contentType, extension] = CONTENT_TYPES[role];
    const name = `${role}.${hash}.${extension}`;
    files.set(name, { contentType, cacheControl: IMMUTABLE, ...encodings(raw, gzip, br, hash) });
    paths[role] = `${prefix}${name}`;
  }
  return { files, paths };
}

function pageAsset(html: string): Asset {
  const raw = new Uint8Array(Buffer.from(html, 'utf8'));
  const hash = shortDigest(raw, 16);
  const gzip = new Uint8Array(gzipSync(raw, { level: 9 }));
  const br = new Uint8Array(brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
  return { contentType: 'text/html; charset=utf-8', cacheControl: REVALIDATE, ...encodings(raw, gzip, br, hash) };
}

/**
 * The best encoding the client accepts (`br`, then `gzip`, else none), honouring
 * q-values (`gzip;q=0` refuses gzip) and `*`.
 */
export function chooseEncoding(acceptEncoding: string | null): 'br' | 'gzip' | 'identity' {
  const q = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * Serves GraphiQL with its own assets (offline, no CDN), built once per process and
 * shared by every load: the page at the GraphQL endpoint (GET with `Accept: text/html`,
 * as yoga decides) and its content-hashed assets under `<endpoint>/graphiql/`, each
 * sent gzip or brotli compressed when the client accepts it, with an `ETag` (304 on
 * `If-None-Match`) and `Cache-Control` (assets immutable, the page revalidated).
 *
 * Replaces yoga's `graphiql`/`renderGraphiQL` (set `graphiql: false`). Register it
 * first: its requests end here, before admission control or body limits see them.
 * The assets are built once (one to four seconds, in a worker thread): by `prepare()`, which
 * the server calls at start, else on the first load; concurrent first loads wait on the same build.
 */
export function useGraphiQLAssets(options: GraphiQLAssetsOptions = {}): GraphiQLAssetsPlugin {
  const endpoint = options.endpoint ?? '/graphql';
  const prefix = `${endpoint}/graphiql/`;
  let building: Promise<BuiltPage> | undefined;
  /** Set once the build is done: loads then take it without waiting on a promise. */
  let built: BuiltPage | undefined;
  let builds = 0;
  let waits = 0;
  const load = () => {
    if (!building) {
      const started = buildAssetsInWorker().then((assets) => {
        const { files, paths } = assetsFrom(assets, prefix);
        built = { files, page: pageAsset(pageHtml(paths, options.title ?? 'chaingraph', options.defaultQuery ?? '')) };
        builds += 1;
        return built;
      });
      building = started;
      // A failed build is not remembered: the next load tries again.
      started.catch(() => {
        if (building === started) building = undefined;
      });
    }
    return building;
  };

  return {
    async prepare() {
      await load();
    },
    get builds() {
      return builds;
    },
    get waits() {
      return waits;
    },
    async onRequest({ request, url, fetchAPI, endResponse }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const isPage = (url.pathname === endpoint || url.pathname === `${endpoint}/`) && Boolean(request.headers.get('accept')?.includes('text/html'));
      if (!isPage && !url.pathname.startsWith(prefix)) return;
      if (!built) waits += 1;
      const { page, files } = built ?? (await load());
      const asset = isPage ? page : files.get(url.pathname.slice(prefix.length));
      if (!asset) {
        endResponse(new fetchAPI.Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } }));
        return;
      }
      const encoding = chooseEncoding(request.headers.get('accept-encoding'));
      const chosen = asset[encoding];
      const headers: Record<string, string> = {
        'content-type': asset.contentType,
        'cache-control': asset.cacheControl,
        etag: chosen.etag,
        vary: 'Accept-Encoding',
      };
      if (encoding !== 'identity') headers['content-encoding'] = encoding;
      if (ifNoneMatch(request.headers.get('if-none-match'), chosen.etag)) {
        endResponse(new fetchAPI.Response(null, { status: 304, headers }));
        return;
      }
      headers['content-length'] = String(chosen.body.byteLength);
      endResponse(new fetchAPI.Response(request.method === 'HEAD' ? null : chosen.body, { status: 200, headers }));
    },
  };
}

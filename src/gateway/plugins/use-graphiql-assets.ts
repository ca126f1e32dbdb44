import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, createGunzip, gzipSync } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';
import { shortDigest } from '../../lib/text.ts';
import { assetFileName, buildAssetsInWorker, CONTENT_TYPES, etagsOf, readPrebuiltAssets, type AssetRole, type Bytes, type EncodedAsset, type PrebuiltFiles } from './graphiql-asset-files.ts';
import { pageHtml } from './graphiql-page.ts';

/** Options of {@link useGraphiQLAssets}. */
export interface GraphiQLAssetsOptions {
  /** The page title. Default `chaingraph`. */
  title?: string;
  /** The operations the editor opens with. Default empty. */
  defaultQuery?: string;
  /** Where the page is served (the GraphQL endpoint); assets live under `<endpoint>/graphiql/`. Default `/graphql`. */
  endpoint?: string;
  /**
   * The directory of prebuilt assets (scripts/build-graphiql-assets.ts writes it), read instead of building in a
   * worker when its manifest matches the installed render-graphiql; `false`: always build. Default: `graphiql/`
   * beside the bundle (dist/graphiql, which `npm run build` writes), none when running from source.
   */
  prebuilt?: string | false;
}

/** {@link useGraphiQLAssets}'s plugin, with the handle the server warms it through. */
export interface GraphiQLAssetsPlugin extends Plugin {
  /**
   * Makes the page and its assets ready now, if that is not done or under way (a load meanwhile waits on
   * it): reads the prebuilt files when they match the installed render-graphiql, else builds them in a
   * worker thread. Resolves once they are ready to send. The server calls it at start, so the first
   * load after "chaingraph ready" is served from buffers, as every later one is. Rejects when the build
   * fails (the next load or call tries again).
   */
  prepare(): Promise<void>;
  /**
   * Times the assets were made ready, from the prebuilt files or by a worker build: 1 once ready, as long as
   * the process lives (a failed build is not counted). {@link source} says which.
   */
  readonly builds: number;
  /** Loads (the page or an asset) that arrived before the assets were ready and waited for them. */
  readonly waits: number;
  /**
   * Where the ready assets came from: `prebuilt` (read from the directory `npm run build` wrote, no worker
   * started) or `worker` (built in a worker thread at start: no prebuilt directory, or one made from another
   * render-graphiql version); undefined until ready.
   */
  readonly source: 'prebuilt' | 'worker' | undefined;
  /** Why the prebuilt directory was not read, when the worker built the assets (undefined otherwise). */
  readonly prebuiltUnusable: string | undefined;
}

/** One compressed representation of a file, ready to send. */
interface Encoded {
  body: Bytes;
  etag: string;
}

/**
 * A file in every encoding, made once and shared by every response. The uncompressed bytes of an asset
 * are not kept (rarely asked for: every browser accepts gzip): such a response streams `gzip` through
 * gunzip (about 10 ms of a threadpool thread for the 5 MB script).
 */
interface Asset {
  contentType: string;
  cacheControl: string;
  identity: { etag: string; size: number; body?: Bytes };
  gzip: Encoded;
  br: Encoded;
}

/** The page and every asset, ready to send. */
interface BuiltPage {
  page: Asset;
  files: Map<string, Asset>;
  source: 'prebuilt' | 'worker';
}

interface BuiltAssets {
  /** URL path under `<endpoint>/graphiql/` -> asset. */
  files: Map<string, Asset>;
  /** The asset paths the page names, by role. */
  paths: Record<AssetRole, string>;
}

/** Content-hashed asset URLs never change: browsers keep them a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page embeds the examples (and asset hashes): revalidated on every load, a 304 when unchanged. */
const REVALIDATE = 'no-cache';

/**
 * Where `npm run build` writes the prebuilt assets: dist/graphiql, beside the bundle. This module is bundled
 * into dist/cli.mjs or a shared chunk in dist/chunks/, hence the two places; from source (src/gateway/plugins)
 * neither exists, and the worker builds.
 */
function besideBundle(): string | undefined {
  return ['graphiql/', '../graphiql/'].map((dir) => fileURLToPath(new URL(dir, import.meta.url))).find((dir) => existsSync(`${dir}manifest.json`));
}

function fromWorker(built: EncodedAsset[], prefix: string): BuiltAssets {
  const files = new Map<string, Asset>();
  const paths = {} as Record<AssetRole, string>;
  for (const { role, hash, raw, gzip, br } of built) {
    const etag = etagsOf(hash);
    const name = assetFileName(role, hash);
    // The raw bytes are dropped here (see Asset).
    files.set(name, { contentType: CONTENT_TYPES[role][0], cacheControl: IMMUTABLE, identity: { etag: etag.identity, size: raw.byteLength }, gzip: { body: gzip, etag: etag.gzip }, br: { body: br, etag: etag.br } });
    paths[role] = `${prefix}${name}`;
  }
  return { files, paths };
}

function fromPrebuilt(prebuilt: PrebuiltFiles[], prefix: string): BuiltAssets {
  const files = new Map<string, Asset>();
  const paths = {} as Record<AssetRole, string>;
  for (const { asset, gzip, br } of prebuilt) {
    files.set(asset.file, {
      contentType: asset.contentType,
      cacheControl: IMMUTABLE,
      identity: { etag: asset.etags.identity, size: asset.bytes.identity },
      gzip: { body: gzip, etag: asset.etags.gzip },
      br: { body: br, etag: asset.etags.br },
    });
    paths[asset.role] = `${prefix}${asset.file}`;
  }
  return { files, paths };
}

function pageAsset(html: string): Asset {
  const raw = new Uint8Array(Buffer.from(html, 'utf8'));
  const etag = etagsOf(shortDigest(raw, 16));
  const gzip = new Uint8Array(gzipSync(raw, { level: 9 }));
  const br = new Uint8Array(brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
  return {
    contentType: 'text/html; charset=utf-8',
    cacheControl: REVALIDATE,
    identity: { body: raw, etag: etag.identity, size: raw.byteLength },
    gzip: { body: gzip, etag: etag.gzip },
    br: { body: br, etag: etag.br },
  };
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
 * Serves GraphiQL with its own assets (offline, no CDN), made ready once per process and
 * shared by every load: the page at the GraphQL endpoint (GET with `Accept: text/html`,
 * as yoga decides) and its content-hashed assets under `<endpoint>/graphiql/`, each
 * sent gzip or brotli compressed when the client accepts it, with an `ETag` (304 on
 * `If-None-Match`) and `Cache-Control` (assets immutable, the page revalidated).
 *
 * Replaces yoga's `graphiql`/`renderGraphiQL` (set `graphiql: false`). Register it
 * first: its requests end here, before admission control or body limits see them.
 * The assets are made ready once: by `prepare()`, which the server calls at start, else on the first
 * load (concurrent first loads wait on the same). A built gateway reads the files `npm run build`
 * wrote (dist/graphiql, a few milliseconds); from source, or when those files were made from another
 * render-graphiql version, a worker thread builds them (one to four seconds, some 60 MB of peak RSS).
 */
export function useGraphiQLAssets(options: GraphiQLAssetsOptions = {}): GraphiQLAssetsPlugin {
  const endpoint = options.endpoint ?? '/graphql';
  const prefix = `${endpoint}/graphiql/`;
  let building: Promise<BuiltPage> | undefined;
  /** Set once ready: loads then take it without waiting on a promise. */
  let built: BuiltPage | undefined;
  let builds = 0;
  let waits = 0;
  let prebuiltUnusable: string | undefined;
  const make = async (): Promise<BuiltPage> => {
    const dir = options.prebuilt === undefined ? besideBundle() : options.prebuilt || undefined;
    const prebuilt = dir ? await readPrebuiltAssets(dir) : { unusable: 'no prebuilt directory' };
    let source: BuiltPage['source'] = 'prebuilt';
    let assets: BuiltAssets;
    if ('files' in prebuilt) {
      prebuiltUnusable = undefined;
      assets = fromPrebuilt(prebuilt.files, prefix);
    } else {
      prebuiltUnusable = prebuilt.unusable;
      source = 'worker';
      assets = fromWorker(await buildAssetsInWorker(), prefix);
    }
    return { files: assets.files, source, page: pageAsset(pageHtml(assets.paths, options.title ?? 'chaingraph', options.defaultQuery ?? '')) };
  };
  const load = () => {
    if (!building) {
      const started = make().then((ready) => {
        built = ready;
        builds += 1;
        return ready;
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
    get source() {
      return built?.source;
    },
    get prebuiltUnusable() {
      return prebuiltUnusable;
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
      headers['content-length'] = String(encoding === 'identity' ? asset.identity.size : asset[encoding].body.byteLength);
      const body = request.method === 'HEAD' ? null : encoding === 'identity' ? identityBody(asset) : asset[encoding].body;
      endResponse(new fetchAPI.Response(body, { status: 200, headers }));
    },
  };
}

/** The uncompressed bytes: kept for the page, gunzipped from `gzip` as they are sent for an asset. */
function identityBody(asset: Asset): Bytes | ReadableStream<Uint8Array> {
  if (asset.identity.body) return asset.identity.body;
  const gunzip = createGunzip();
  gunzip.end(asset.gzip.body);
  return Readable.toWeb(gunzip) as ReadableStream<Uint8Array>;
}

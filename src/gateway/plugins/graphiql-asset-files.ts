import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type * as Zlib from 'node:zlib';

/**
 * GraphiQL's assets as files: made from `@graphql-yoga/render-graphiql` by one encoding function, run either
 * in a worker thread at start (useGraphiQLAssets' fallback) or once at build time by
 * scripts/build-graphiql-assets.ts (`npm run build` writes them to dist/graphiql/, which a built gateway reads).
 */

export type AssetRole = 'js' | 'css' | 'favicon' | 'editorWorkerService' | 'jsonWorker' | 'graphqlWorker';

export type Bytes = Uint8Array<ArrayBuffer>;

/** One asset, raw and compressed, with a hash of its raw bytes (its URL's and ETags' part). */
export interface EncodedAsset {
  role: AssetRole;
  hash: string;
  raw: Bytes;
  gzip: Bytes;
  br: Bytes;
}

/** Each role's content type and file extension. */
export const CONTENT_TYPES: Readonly<Record<AssetRole, readonly [string, string]>> = {
  js: ['application/javascript; charset=utf-8', 'js'],
  css: ['text/css; charset=utf-8', 'css'],
  favicon: ['image/x-icon', 'ico'],
  editorWorkerService: ['application/javascript; charset=utf-8', 'js'],
  jsonWorker: ['application/javascript; charset=utf-8', 'js'],
  graphqlWorker: ['application/javascript; charset=utf-8', 'js'],
};

export const ASSET_ROLES = Object.keys(CONTENT_TYPES) as AssetRole[];

/** gzip level and brotli quality of every asset. Brotli 9: within 10% of 11 at a fifteenth of the time. */
export const LEVELS: Readonly<EncodingLevels> = { gzip: 9, brotli: 9 };

interface EncodingLevels {
  gzip: number;
  brotli: number;
}

/**
 * The prebuilt directory's layout version: a directory of another one is not read (the worker builds instead).
 * Bump it when the files, the manifest or {@link encodeGraphiQLAssets}'s output change.
 */
export const PREBUILT_FORMAT = 1;

/** The prebuilt directory's index, `manifest.json`. */
export interface PrebuiltManifest {
  format: number;
  /** The `@graphql-yoga/render-graphiql` version the assets were made from. */
  renderGraphiQL: string;
  levels: EncodingLevels;
  /** A digest of the encoding function's source as the builder ran it: the builder rebuilds when it changes. */
  encoder: string;
  assets: PrebuiltAsset[];
}

/** One asset of the manifest: `file` (raw), `file.gz` and `file.br` in the directory. */
export interface PrebuiltAsset {
  role: AssetRole;
  contentType: string;
  hash: string;
  /** Its name in the directory, as in its URL under `<endpoint>/graphiql/`. */
  file: string;
  etags: Record<Encoding, string>;
  bytes: Record<Encoding, number>;
}

export type Encoding = 'identity' | 'gzip' | 'br';

/** The file (and URL) name of an asset: content-hashed, so its URL never serves other bytes. */
export function assetFileName(role: AssetRole, hash: string): string {
  return `${role}.${hash}.${CONTENT_TYPES[role][1]}`;
}

/** The strong validator of each representation of bytes whose hash is `hash`. */
export function etagsOf(hash: string): Record<Encoding, string> {
  return { identity: `"${hash}"`, gzip: `"${hash}-gzip"`, br: `"${hash}-br"` };
}

/** The compressed files' suffixes in a prebuilt directory. */
export const SUFFIXES: Readonly<Record<Encoding, string>> = { identity: '', gzip: '.gz', br: '.br' };

/**
 * Each asset of `source` (render-graphiql's `graphiql` module: strings, some of them base64 data URLs)
 * as raw bytes, gzipped and brotli'd, with a hash of the raw bytes.
 *
 * The one copy of the encoding: the build script calls it, and the worker runs its source text
 * (`Function.prototype.toString`), so it reads only its arguments and globals (`Buffer`, `Uint8Array`)
 * and declares no nested function. Each result owns its ArrayBuffer (transferable).
 */
export function encodeGraphiQLAssets(
  source: Readonly<Record<string, unknown>>,
  roles: readonly AssetRole[],
  levels: Readonly<EncodingLevels>,
  zlib: typeof Zlib,
  hash: typeof createHash,
): EncodedAsset[] {
  const out: EncodedAsset[] = [];
  for (const role of roles) {
    const text = source[role];
    if (typeof text !== 'string') throw new Error('render-graphiql has no asset ' + role);
    const dataUrl = /^data:[^;,]+;base64,/.exec(text);
    const raw = new Uint8Array(dataUrl ? Buffer.from(text.slice(dataUrl[0].length), 'base64') : Buffer.from(text, 'utf8'));
    const gzip = new Uint8Array(zlib.gzipSync(raw, { level: levels.gzip }));
    const br = new Uint8Array(
      zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: levels.brotli, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    );
    out.push({ role, hash: hash('sha256').update(raw).digest('base64url').slice(0, 16), raw, gzip, br });
  }
  return out;
}

const localRequire = createRequire(import.meta.url);

/** Where render-graphiql's asset module is (the worker and the build script load it by this path). */
export function renderGraphiQLModulePath(): string {
  return localRequire.resolve('@graphql-yoga/render-graphiql/graphiql');
}

/** The installed `@graphql-yoga/render-graphiql` version (its package.json). */
export function renderGraphiQLVersion(): string {
  const { version } = JSON.parse(readFileSync(localRequire.resolve('@graphql-yoga/render-graphiql/package.json'), 'utf8')) as { version?: unknown };
  if (typeof version !== 'string') throw new Error("@graphql-yoga/render-graphiql's package.json names no version");
  return version;
}

/**
 * Builds GraphiQL's assets in a worker thread and returns them as off-heap bytes.
 *
 * `@graphql-yoga/render-graphiql` inlines 9 MB of JavaScript, CSS and web workers
 * into one string module (two-byte, since it holds non-Latin-1 characters): about
 * 32 MB of heap once imported, and yoga's renderer builds the 9 MB page again on
 * every load. Importing it in a short-lived worker keeps all of that out of the
 * gateway's heap; what comes back is each asset raw, gzipped and brotli'd (about
 * 13 MB of Buffers in total, outside the V8 heap). The worker's peak still counts
 * in the process's (about 60 MB of RSS): a built gateway reads the files
 * `npm run build` made instead ({@link readPrebuiltAssets}).
 */
export function buildAssetsInWorker(): Promise<EncodedAsset[]> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const encode = (${encodeGraphiQLAssets.toString()});
    const out = encode(require(workerData.modulePath), workerData.roles, workerData.levels, require('node:zlib'), require('node:crypto').createHash);
    parentPort.postMessage(out, out.flatMap((a) => [a.raw.buffer, a.gzip.buffer, a.br.buffer]));
  `;
  const workerData = { modulePath: renderGraphiQLModulePath(), roles: ASSET_ROLES, levels: LEVELS };
  return new Promise((resolve, reject) => {
    // Its own heap, capped: the strings die with the worker.
    const worker = new Worker(source, { eval: true, workerData, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    worker.once('message', (assets: EncodedAsset[]) => resolve(assets));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the GraphiQL asset worker exited with code ${code}`)));
  });
}

/** A prebuilt asset as read: its manifest entry and its compressed bytes (the raw file is not read). */
export interface PrebuiltFiles {
  asset: PrebuiltAsset;
  gzip: Bytes;
  br: Bytes;
}

/**
 * Why the manifest in `dir` cannot be used with the installed render-graphiql and this build's encoding, or
 * nothing when it can. Checks the format, the version, the levels and that it names each role once.
 */
export function manifestMismatch(manifest: PrebuiltManifest, version: string): string | undefined {
  if (manifest.format !== PREBUILT_FORMAT) return `format ${String(manifest.format)}, not ${PREBUILT_FORMAT}`;
  if (manifest.renderGraphiQL !== version) return `made from render-graphiql ${String(manifest.renderGraphiQL)}, ${version} is installed`;
  if (manifest.levels?.gzip !== LEVELS.gzip || manifest.levels?.brotli !== LEVELS.brotli) return 'other compression levels';
  const roles = (manifest.assets ?? []).map((a) => a.role);
  if (roles.length !== ASSET_ROLES.length || !ASSET_ROLES.every((role) => roles.includes(role))) return 'not every asset once';
  return undefined;
}

/** The manifest in `dir`, or undefined when there is none (a read or parse error otherwise throws). */
export async function readManifest(dir: string): Promise<PrebuiltManifest | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, 'manifest.json'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return JSON.parse(text) as PrebuiltManifest;
}

/**
 * The assets `npm run build` wrote to `dir`, each compressed file read once into its own buffer; or why
 * they cannot be used (no manifest, another render-graphiql version, another format, a file missing or of
 * another size than its manifest says).
 */
export async function readPrebuiltAssets(dir: string): Promise<{ files: PrebuiltFiles[] } | { unusable: string }> {
  let manifest: PrebuiltManifest | undefined;
  try {
    manifest = await readManifest(dir);
  } catch (error) {
    return { unusable: `unreadable manifest: ${(error as Error).message}` };
  }
  if (!manifest) return { unusable: `no manifest.json in ${dir}` };
  const mismatch = manifestMismatch(manifest, renderGraphiQLVersion());
  if (mismatch) return { unusable: mismatch };
  try {
    const files = await Promise.all(
      manifest.assets.map(async (asset) => {
        const [gzip, br] = await Promise.all([readExactly(dir, asset, 'gzip'), readExactly(dir, asset, 'br')]);
        return { asset, gzip, br };
      }),
    );
    return { files };
  } catch (error) {
    return { unusable: (error as Error).message };
  }
}

async function readExactly(dir: string, asset: PrebuiltAsset, encoding: Encoding): Promise<Bytes> {
  const name = asset.file + SUFFIXES[encoding];
  const bytes = await readFile(join(dir, name));
  if (bytes.byteLength !== asset.bytes[encoding]) throw new Error(`${name} has ${bytes.byteLength} bytes, the manifest says ${asset.bytes[encoding]}`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

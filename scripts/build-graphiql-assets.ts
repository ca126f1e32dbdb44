/**
 * GraphiQL's assets, built once at build time: `npm run build` runs this (before esbuild, whose
 * options stay last on the line so `npm run build -- --outdir=...` reaches it), writing each asset
 * of @graphql-yoga/render-graphiql raw, gzipped and brotli'd into dist/graphiql/ with a
 * manifest.json (content types, hashes, ETags, sizes, the render-graphiql version). A built gateway
 * reads those files at start instead of building them in a worker thread (useGraphiQLAssets); a
 * bundle written elsewhere has none beside it, and builds them in the worker as before.
 *
 *   tsx scripts/build-graphiql-assets.ts [dir]    # default dist/graphiql
 *
 * Nothing is rewritten when the manifest there is already of the installed render-graphiql and of
 * this encoding (each `npm start` runs the build); `--force` rebuilds all the same.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import {
  ASSET_ROLES,
  assetFileName,
  CONTENT_TYPES,
  encodeGraphiQLAssets,
  etagsOf,
  LEVELS,
  manifestMismatch,
  PREBUILT_FORMAT,
  readManifest,
  renderGraphiQLModulePath,
  renderGraphiQLVersion,
  SUFFIXES,
  type Encoding,
  type PrebuiltManifest,
} from '../src/gateway/plugins/graphiql-asset-files.ts';
import { shortDigest } from '../src/lib/text.ts';

const ENCODINGS = Object.keys(SUFFIXES) as Encoding[];

/** What the manifest records of the encoding: a change of the function's text makes the next build rebuild. */
const ENCODER = shortDigest(`${PREBUILT_FORMAT} ${JSON.stringify(LEVELS)} ${encodeGraphiQLAssets.toString()}`, 16);

/**
 * The asset files this builder writes, removed when a rebuild no longer names them. Not another build's
 * temporary files: builds may run at once (parallel `npm start`s on a fresh checkout), each writing the
 * same names through temporary files of its own.
 */
const OURS = new RegExp(`^(?:${ASSET_ROLES.join('|')})\\.[\\w-]{16}\\.\\w+(?:\\.gz|\\.br)?$`);

export interface BuildResult {
  dir: string;
  manifest: PrebuiltManifest;
  /** False when the directory was already up to date and nothing was written. */
  written: boolean;
}

/** Writes GraphiQL's prebuilt assets into `dir` (created if missing), unless they are there already. */
export async function buildGraphiQLAssets(dir: string, options: { force?: boolean } = {}): Promise<BuildResult> {
  const version = renderGraphiQLVersion();
  const current = await readManifest(dir).catch(() => undefined);
  if (!options.force && current && current.encoder === ENCODER && !manifestMismatch(current, version) && (await allPresent(dir, current))) {
    return { dir, manifest: current, written: false };
  }
  const source = createRequire(import.meta.url)(renderGraphiQLModulePath()) as Record<string, unknown>;
  const encoded = encodeGraphiQLAssets(source, ASSET_ROLES, LEVELS, zlib, createHash);
  await mkdir(dir, { recursive: true });
  const manifest: PrebuiltManifest = { format: PREBUILT_FORMAT, renderGraphiQL: version, levels: { ...LEVELS }, encoder: ENCODER, assets: [] };
  for (const { role, hash, raw, gzip, br } of encoded) {
    const file = assetFileName(role, hash);
    const bodies: Record<Encoding, Uint8Array> = { identity: raw, gzip, br };
    for (const encoding of ENCODINGS) await writeAtomically(join(dir, file + SUFFIXES[encoding]), bodies[encoding]);
    manifest.assets.push({
      role,
      contentType: CONTENT_TYPES[role][0],
      hash,
      file,
      etags: etagsOf(hash),
      bytes: { identity: raw.byteLength, gzip: gzip.byteLength, br: br.byteLength },
    });
  }
  // The manifest last: a reader sees the old set or the new one, each file whole.
  await writeAtomically(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const named = new Set(manifest.assets.flatMap((a) => ENCODINGS.map((e) => a.file + SUFFIXES[e])));
  for (const name of await readdir(dir)) {
    if (OURS.test(name) && !named.has(name)) await unlink(join(dir, name)).catch(() => undefined);
  }
  return { dir, manifest, written: true };
}

async function allPresent(dir: string, manifest: PrebuiltManifest): Promise<boolean> {
  for (const asset of manifest.assets) {
    for (const encoding of ENCODINGS) {
      const size = await stat(join(dir, asset.file + SUFFIXES[encoding])).then((s) => s.size, () => -1);
      if (size !== asset.bytes[encoding]) return false;
    }
  }
  return true;
}

async function writeAtomically(path: string, data: Uint8Array | string): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, data);
  await rename(temporary, path);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--')) ?? 'dist/graphiql';
  await buildGraphiQLAssets(dir, { force: args.includes('--force') });
}

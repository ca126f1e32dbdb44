import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { freePort, root, waitFor } from '../../bench/process.ts';

/**
 * The production bundle and the devnet: `npm run build` splits code, so the devnet lands in a chunk
 * of its own that the gateway's entry loads with a dynamic import, only when no upstream is configured.
 * The build goes to a temporary folder under node_modules/.cache (the bundle keeps its packages
 * external, so it must sit where `node_modules` resolves).
 */

/** A string only the devnet has: its stats route. */
const DEVNET_MARKER = '/__devnet/stats';
const QUERY = '{ chains(network: MAINNET) { chainId } }';

let outdir: string;
let devnet: Devnet;
const children: ChildProcess[] = [];

beforeAll(async () => {
  const cache = join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  outdir = await mkdtemp(join(cache, 'bundle-test-'));
  // The build script as written in package.json, its output sent elsewhere (esbuild takes the last --outdir).
  await promisify(execFile)('npm', ['run', '-s', 'build', '--', `--outdir=${outdir}`], { cwd: root, timeout: 120_000 });
  devnet = await startDevnet({ validators: 100 });
}, 180_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await devnet?.close();
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

/** The chunks of the build: file name -> text. */
async function chunks(): Promise<Map<string, string>> {
  const names = (await readdir(join(outdir, 'chunks'))).filter((n) => n.endsWith('.mjs'));
  return new Map(await Promise.all(names.map(async (n) => [n, await readFile(join(outdir, 'chunks', n), 'utf8')] as const)));
}

/** The built gateway (`node cli.mjs`) with only the variables given, and its output so far. */
async function startBuiltGateway(env: Record<string, string>): Promise<{ url: string; output: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  let output = '';
  let exit: string | undefined;
  const child = spawn(process.execPath, [join(outdir, 'cli.mjs')], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.on('exit', (code, signal) => {
    exit = `the built gateway exited (${code ?? signal}):\n${output}`;
  });
  const url = `http://127.0.0.1:${port}/graphql`;
  await waitFor(`${url}?query=%7B__typename%7D`, { timeoutMs: 60_000, ready: (s) => s === 200, exited: () => exit });
  const stop = async (): Promise<void> => {
    if (exit) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, output: () => output, stop };
}

async function chainsThrough(url: string): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY }) });
  const body = (await res.json()) as { data?: { chains?: { chainId: string }[] }; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data?.chains?.length;
}

describe('the production bundle', () => {
  it('keeps the devnet out of the entry: one chunk holds it, loaded only by a dynamic import', async () => {
    const entry = await readFile(join(outdir, 'cli.mjs'), 'utf8');
    expect(entry).not.toContain(DEVNET_MARKER);
    const all = await chunks();
    const devnetChunks = [...all].filter(([, text]) => text.includes(DEVNET_MARKER)).map(([name]) => name);
    expect(devnetChunks).toHaveLength(1);
    const [devnetChunk] = devnetChunks as [string];
    // The entry names the chunk only inside import(...); no static `from "./chunks/<it>"`.
    expect(entry).toContain(`import("./chunks/${devnetChunk}")`);
    expect(entry).not.toMatch(new RegExp(`from\\s*"\\./chunks/${devnetChunk.replace('.', '\\.')}"`));
    // Nor does any chunk the entry imports statically.
    for (const [name, text] of all) {
      if (name !== devnetChunk) expect(text, name).not.toContain(DEVNET_MARKER);
    }
  });

  it('serves from configured upstreams without the devnet chunk', async () => {
    const [devnetChunk] = [...(await chunks())].find(([, text]) => text.includes(DEVNET_MARKER)) ?? [];
    expect(devnetChunk).toBeDefined();
    const path = join(outdir, 'chunks', devnetChunk as string);
    await rename(path, `${path}.away`);
    try {
      devnet.resetStats();
      const gateway = await startBuiltGateway({
        DATA_API_URL: devnet.url,
        NODE_URLS: Object.entries(devnet.nodeUrls).map(([name, url]) => `${name}=${url}`).join(','),
      });
      expect(await chainsThrough(gateway.url)).toBeGreaterThan(0);
      expect(devnet.stats().byRoute['GET /v1/chains']).toBeGreaterThan(0);
      expect(gateway.output()).not.toContain('built-in devnet');
      await gateway.stop();
    } finally {
      await rename(`${path}.away`, path);
    }
  });

  it('starts the devnet from its chunk when nothing is configured', async () => {
    const gateway = await startBuiltGateway({});
    expect(gateway.output()).toContain('serving the built-in devnet');
    expect(await chainsThrough(gateway.url)).toBeGreaterThan(0);
    await gateway.stop();
  });
});

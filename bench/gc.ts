/**
 * `tsx bench/gc.ts [list|walk|address|node] [queries] [warm-up]`: what the garbage collector does per
 * query on the built gateway, run as `npm start` runs it (the start script's node flags) with V8's
 * `--trace-gc-nvp`, CACHE=off, the devnet in another process. After `warm-up` queries (default 1500,
 * the bench's steady point) it sends `queries` more (default 500) one at a time and reports, per
 * query: scavenges, their pause, bytes promoted to the old generation, bytes that survived in the
 * young generation, mark-compacts, and the gateway's CPU; then its peak RSS. A query that holds less
 * across its rounds shows fewer promoted bytes and shorter scavenges; compare builds with the same
 * arguments.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { buildScenarios, type Fixtures } from './scenarios.ts';
import { freePort, procMemory, root, waitFor } from './process.ts';
import { cpuMs, runQueries, startScriptLaunch } from './gateway-process.ts';

const [which = 'walk', count = '500', warmUp = '1500'] = process.argv.slice(2);
const SCENARIO: Record<string, string> = { list: 'S1', walk: 'S2', address: 'S3', node: 'S4' };

/** One line of `--trace-gc-nvp`, the fields read here. */
interface GcEvent {
  kind: string;
  pauseMs: number;
  promoted: number;
  survived: number;
  allocated: number;
}

function parseLine(line: string): GcEvent | undefined {
  const field = (name: string): string | undefined => new RegExp(`(?:^|\\s)${name}=(\\S+)`).exec(line)?.[1];
  const kind = field('gc');
  if (kind === undefined) return undefined;
  return { kind, pauseMs: Number(field('pause') ?? 0), promoted: Number(field('promoted') ?? 0), survived: Number(field('new_space_survived') ?? 0), allocated: Number(field('allocated') ?? 0) };
}

// The devnet of DEVNET_CHECKOUT when given (a checkout whose devnet holds still while this one changes), else this one's.
const devnetPort = await freePort();
const devnetChild = spawn(process.execPath, ['--import', 'tsx', 'src/devnet/cli.ts'], {
  cwd: process.env['DEVNET_CHECKOUT'] ?? root,
  env: { ...process.env, LOG_LEVEL: 'warn', DEVNET_PORT: String(devnetPort), DEVNET_LATENCY_MS: '0' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const devnet = { url: `http://127.0.0.1:${devnetPort}`, child: devnetChild };
await waitFor(`${devnet.url}/__devnet/stats`);
try {
  const fixtures = ((await (await fetch(`${devnet.url}/__devnet/fixtures`)).json()) as { mainnet: Fixtures }).mainnet;
  const scenario = buildScenarios(fixtures).find((s) => s.id === SCENARIO[which]);
  if (!scenario) throw new Error(`unknown query ${which}: one of ${Object.keys(SCENARIO).join(', ')}`);
  const port = await freePort();
  const env = { ...process.env, LOG_LEVEL: 'warn', DATA_API_URL: devnet.url, NODE_URLS: `mainnet=${devnet.url},fuji=${devnet.url}/nodes/fuji`, CACHE: 'off', PORT: String(port) };
  const launch = startScriptLaunch(env);
  const child = spawn(process.execPath, [...launch.flags, ...(process.env['GC_FLAGS'] ? process.env['GC_FLAGS'].split(' ') : []), '--trace-gc-nvp', 'dist/cli.mjs'], { cwd: root, env: { ...env, ...launch.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const events: GcEvent[] = [];
  let counting = false;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const event = counting ? parseLine(line) : undefined;
    if (event) events.push(event);
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitFor(`${url}/ready`, { ready: (status) => status === 200 });
    await runQueries(`${url}/graphql`, scenario.query, Number(warmUp));
    counting = true;
    const before = cpuMs(child.pid as number);
    await runQueries(`${url}/graphql`, scenario.query, Number(count));
    const cpu = (cpuMs(child.pid as number) - before) / Number(count);
    counting = false;
    const n = Number(count);
    const scavenges = events.filter((e) => e.kind === 's');
    const majors = events.filter((e) => e.kind !== 's');
    const sum = (list: GcEvent[], f: (e: GcEvent) => number) => list.reduce((a, e) => a + f(e), 0);
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    console.log(`${which}, CACHE=off, ${n} queries after ${warmUp}:`);
    console.log(`  gateway CPU per query        ${cpu.toFixed(3)} ms`);
    console.log(`  scavenges per query          ${(scavenges.length / n).toFixed(3)} (pause ${(sum(scavenges, (e) => e.pauseMs) / n).toFixed(3)} ms per query, ${(sum(scavenges, (e) => e.pauseMs) / Math.max(1, scavenges.length)).toFixed(2)} ms each)`);
    console.log(`  live at a scavenge           ${kb(sum(scavenges, (e) => e.survived + e.promoted) / Math.max(1, scavenges.length))} KB (survived + promoted, mean)`);
    console.log(`  allocated between scavenges  ${kb(sum(scavenges, (e) => e.allocated) / Math.max(1, scavenges.length))} KB`);
    console.log(`  promoted per query           ${kb(sum(scavenges, (e) => e.promoted) / n)} KB`);
    console.log(`  mark-compacts per query      ${(majors.length / n).toFixed(4)} (pause ${(sum(majors, (e) => e.pauseMs) / n).toFixed(3)} ms per query)`);
    console.log(`  peak RSS                     ${procMemory(child.pid as number).peakMb} MB`);
  } finally {
    child.kill('SIGTERM');
  }
} finally {
  devnet.child.kill('SIGTERM');
}

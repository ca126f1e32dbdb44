/**
 * `tsx bench/profile.ts [list|walk|address|node|<a query>] [off|memory|whole] [queries]`: the gateway's
 * CPU per query and a CPU profile of it serving one query over and over, run as
 * `npm start` runs it (the esbuild bundle, its node flags), the devnet in another process. The
 * profile covers the queries alone, after PROFILE_AFTER queries (default 1500, the bench's steady
 * point), not the gateway's start or warm-up (bench/profile-window.mjs starts and stops V8's profiler
 * on a signal). Writes it under `bench/results/profiles/` (open it in Chrome DevTools or speedscope)
 * and prints the functions with the most self time, mapped back to the TypeScript sources through
 * the bundle's source map.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { buildScenarios, type Fixtures } from './scenarios.ts';
import { root } from './process.ts';
import { cpuMs, runQueries, startDevnetProcess, startGatewayProcess } from './gateway-process.ts';

const [which = 'walk', cache = 'memory', count = '300'] = process.argv.slice(2);
const SCENARIO: Record<string, string> = { list: 'S1', walk: 'S2', address: 'S3', node: 'S4' };
const PROFILE_DIR = `${root}bench/results/profiles/${/^[a-z]+$/.test(which) ? which : 'query'}-${cache}-${process.pid}`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time by function (source position through the bundle's map), most first, as shares of the time on CPU. */
function topSelf(profile: Profile, limit: number): string[] {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (url: string): SourceMap | null => {
    if (!maps.has(url)) {
      try {
        const path = url.replace(/^file:\/\//, '');
        maps.set(url, new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]));
      } catch {
        maps.set(url, null);
      }
    }
    return maps.get(url) ?? null;
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const f = byId.get(id)?.callFrame;
    if (!f) return;
    const found = f.url ? mapOf(f.url)?.findEntry(f.lineNumber, f.columnNumber) : undefined;
    const entry = found && 'originalSource' in found ? (found as { originalSource: string; originalLine: number }) : undefined;
    const where = entry
      ? `${entry.originalSource.replace(/^.*?(src|node_modules)\//, '$1/')}:${entry.originalLine + 1}`
      : `${f.url.replace(/^.*?(node_modules|dist)\//, '$1/')}:${f.lineNumber + 1}`;
    const key = `${f.functionName || '(anonymous)'} ${where}`;
    // Shares of the time on CPU: the idle samples (the gateway waiting on the network) are not counted.
    if (f.functionName === '(idle)') {
      total -= dt;
      return;
    }
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
}

rmSync(PROFILE_DIR, { recursive: true, force: true });
const devnet = await startDevnetProcess(0);
try {
  const fixtures = ((await (await fetch(`${devnet.url}/__devnet/fixtures`)).json()) as { mainnet: Fixtures }).mainnet;
  // A scenario's name, or a query of its own (`'{ __typename }'`).
  const scenario = /^\s*[{q]/.test(which) ? { query: which } : buildScenarios(fixtures).find((s) => s.id === SCENARIO[which]);
  if (!scenario) throw new Error(`unknown query ${which}: one of ${Object.keys(SCENARIO).join(', ')}, or a query`);
  // `memory`: upstream answers from the cache, every query executed; `whole`: the whole-response cache on too.
  mkdirSync(PROFILE_DIR, { recursive: true });
  const file = `${PROFILE_DIR}/queries.cpuprofile`;
  const gateway = await startGatewayProcess(devnet.url, cache === 'off' ? 'off' : 'memory', ['--import', `${root}bench/profile-window.mjs`], {
    RESPONSE_CACHE: cache === 'whole' ? 'on' : 'off',
    PROFILE_WINDOW_FILE: file,
  });
  /** Signals the profiler in the gateway and waits until it says it did. */
  const toggle = async (mark: string): Promise<void> => {
    process.kill(gateway.pid, 'SIGUSR2');
    for (let waited = 0; !existsSync(`${file}${mark}`); waited += 20) {
      if (waited > 60_000) throw new Error(`the gateway's profiler did not answer (${mark})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    await runQueries(gateway.url, scenario.query, Number(process.env['PROFILE_AFTER'] ?? 1500));
    await toggle('.started');
    const before = cpuMs(gateway.pid);
    await runQueries(gateway.url, scenario.query, Number(count));
    const perQuery = (cpuMs(gateway.pid) - before) / Number(count);
    await toggle('.done');
    console.log(`${which} cache=${cache}: ${perQuery.toFixed(2)} ms gateway CPU per query (profiler on)`);
  } finally {
    await gateway.stop();
  }
  console.log(file);
  console.log(topSelf(JSON.parse(readFileSync(file, 'utf8')) as Profile, 45).join('\n'));
} finally {
  devnet.child.kill('SIGTERM');
}

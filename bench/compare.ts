/**
 * Before and after in one run: the CPU figures of two builds of the gateway, measured by the bench's
 * one method (`cpuCurve`: a fresh gateway per figure, cold, warm and steady). In each round a gateway of
 * each build is started and the two are measured side by side (`cpuCurvesOf`): cold of one, cold of the
 * other, then warm, then each steady batch in turn (7 each), so that whatever else the machine does at a
 * given moment weighs on both alike; which build goes first alternates by round. The median of the rounds
 * of each is reported, and written to BENCH_OUT/compare-latest.md and .json.
 *
 *   npx tsx bench/compare.ts <other checkout> [rounds]
 *
 * `<other checkout>` is a built checkout of another commit (`git worktree add /tmp/before <ref> &&
 * (cd /tmp/before && npm ci && npm run build)`): its `dist/cli.mjs` is started with its own start
 * script's flags, against the same devnet as this checkout's build (`npm run build` first).
 *
 *   npx tsx bench/compare.ts --floor plain|yoga [rounds]
 *
 * measures this checkout's build against one of its floors (bench/floor.ts) the same way, for the figures
 * that have floors (the walk and the single list, uncached): the floor replays what a gateway of this build
 * did for the query (recorded once per figure) and is sent the same query.
 *
 * Besides the median of each side, each figure's last row is the median over the rounds of the ratio of
 * the second side to the first measured in the same round (after / before, or the gateway over its floor).
 * Env: BENCH_COLD_QUERIES, BENCH_WARM_QUERIES, BENCH_STEADY_AFTER as for `npm run bench`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { median } from './stats.ts';
import { buildScenarios, type Fixtures } from './scenarios.ts';
import { cpuCurvesOf, recordQuery, startDevnetProcess, startFloorProcess, startGatewayProcess, type CpuCurve, type FloorServer, type GatewayProc } from './gateway-process.ts';
import type { FloorRecording } from './floor.ts';
import { root } from './process.ts';

const USAGE = 'usage: npx tsx bench/compare.ts <other built checkout> [rounds] | --floor plain|yoga [rounds]';
const args = process.argv.slice(2);
const floorServer = args[0] === '--floor' ? args[1] : undefined;
if (args[0] === '--floor' && floorServer !== 'plain' && floorServer !== 'yoga') throw new Error(USAGE);
const [other, roundsArg = '2'] = floorServer ? [`${floorServer} floor`, args[2]] : args;
if (!other) throw new Error(USAGE);

interface Figure {
  figure: string;
  scenario: string;
  cache: 'off' | 'memory';
  env: Record<string, string>;
  /** A floor replays what a gateway did uncached (bench/floor.ts): only these have one. */
  floors?: boolean;
}

/** One side of the comparison: what it starts for a figure, ready (the recording is the figure's, for a floor). */
interface Side {
  label: string;
  start: (f: Figure, query: string, recording: FloorRecording | undefined) => Promise<GatewayProc>;
}

const build = (label: string, checkout: string): Side => ({ label, start: (f) => startGatewayProcess(devnet.url, f.cache, [], f.env, checkout) });
const sides: Side[] = floorServer
  ? [
      { label: `${floorServer} floor (bench/floor.ts)`, start: (_f, query, recording) => startFloorProcess(devnet.url, recording as FloorRecording, floorServer as FloorServer, query) },
      build('gateway (this checkout)', root),
    ]
  : [build(`before (${other})`, `${resolve(other)}/`), build('after (this checkout)', root)];
const FIGURES: Figure[] = [
  { figure: 'Walk uncached', scenario: 'S2', cache: 'off', env: {}, floors: true },
  { figure: 'Single list uncached', scenario: 'S1', cache: 'off', env: {}, floors: true },
  { figure: 'Walk from cache', scenario: 'S2', cache: 'memory', env: { RESPONSE_CACHE: 'off' } },
];

/** Steady batches per gateway in a comparison (the bench's figures take 3): more, since two builds differ by less than the batches of one. */
const STEADY_BATCHES = 7;
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
const devnet = await startDevnetProcess(0);
try {
  const fixtures = ((await (await fetch(`${devnet.url}/__devnet/fixtures`)).json()) as { mainnet: Fixtures }).mainnet;
  const scenarios = buildScenarios(fixtures);
  const lines: string[] = [];
  const rows: Record<string, string | number>[] = [];
  for (const f of FIGURES) {
    if (floorServer && !f.floors) continue;
    const query = scenarios.find((s) => s.id === f.scenario)?.query as string;
    const recording = floorServer ? await recordQuery(devnet.url, query) : undefined;
    const curves = sides.map(() => [] as CpuCurve[]);
    for (let i = 0; i < Number(roundsArg); i += 1) {
      const order = i % 2 === 0 ? [0, 1] : [1, 0];
      const started: GatewayProc[] = [];
      try {
        for (const b of order) started.push(await (sides[b] as Side).start(f, query, recording));
      } catch (error) {
        await Promise.all(started.map((s) => s.stop()));
        throw error;
      }
      const measured = await cpuCurvesOf(started, query, undefined, STEADY_BATCHES);
      for (const [k, b] of order.entries()) {
        const curve = measured[k] as CpuCurve;
        curves[b]?.push(curve);
        console.error(`${f.figure}, ${sides[b]?.label}: cold ${round(curve.coldMs)}, warm ${round(curve.warmMs)}, steady ${round(curve.steadyMs)} ms, ready after ${curve.readyMs} ms`);
      }
    }
    const name = `${f.figure} (${f.scenario}, CACHE=${f.cache}${f.env['RESPONSE_CACHE'] ? ', RESPONSE_CACHE=off' : ''})`;
    for (const [b, side] of sides.entries()) {
      const of = (pick: (c: CpuCurve) => number) => round(median((curves[b] ?? []).map(pick)));
      rows.push({ figure: f.figure, scenario: f.scenario, cache: f.cache, build: side.label, coldMs: of((c) => c.coldMs), warmMs: of((c) => c.warmMs), steadyMs: of((c) => c.steadyMs), coldOverSteady: of((c) => c.coldMs / c.steadyMs), readyMs: of((c) => c.readyMs) });
      lines.push(`| ${name} | ${side.label} | ${of((c) => c.coldMs)} | ${of((c) => c.warmMs)} | ${of((c) => c.steadyMs)} | ${of((c) => c.coldMs / c.steadyMs)}x | ${of((c) => c.readyMs)} |`);
    }
    // The two sides of one round were measured side by side: their ratio, round by round, then the median.
    const ratio = (pick: (c: CpuCurve) => number) => round(median((curves[1] ?? []).map((c, i) => pick(c) / pick(curves[0]?.[i] as CpuCurve))));
    rows.push({ figure: f.figure, scenario: f.scenario, cache: f.cache, build: `${sides[1]?.label} / ${sides[0]?.label}`, coldMs: ratio((c) => c.coldMs), warmMs: ratio((c) => c.warmMs), steadyMs: ratio((c) => c.steadyMs) });
    lines.push(`| ${name} | ${sides[1]?.label} / ${sides[0]?.label}, median of the rounds' ratios | ${ratio((c) => c.coldMs)}x | ${ratio((c) => c.warmMs)}x | ${ratio((c) => c.steadyMs)}x | | |`);
  }
  const table = ['| Figure | Build | cold ms | warm ms | steady ms | cold / steady | start to ready ms |', '|---|---|---|---|---|---|---|', ...lines].join('\n');
  console.log(table);
  const out = process.env['BENCH_OUT'] ?? `${root}bench/results`;
  mkdirSync(out, { recursive: true });
  writeFileSync(`${out}/compare-latest.md`, `${new Date().toISOString()}, ${roundsArg} rounds each, node ${process.version}:\n\n${table}\n`);
  writeFileSync(`${out}/compare-latest.json`, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rounds: Number(roundsArg), rows }, null, 2)}\n`);
} finally {
  await devnet.stop();
}

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
 * Env: BENCH_COLD_QUERIES, BENCH_WARM_QUERIES, BENCH_STEADY_AFTER as for `npm run bench`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { median } from './stats.ts';
import { buildScenarios, type Fixtures } from './scenarios.ts';
import { cpuCurvesOf, startDevnetProcess, startGatewayProcess, type CpuCurve } from './gateway-process.ts';
import { root } from './process.ts';

const [other, roundsArg = '2'] = process.argv.slice(2);
if (!other) throw new Error('usage: npx tsx bench/compare.ts <other built checkout> [rounds]');
const builds = [
  { label: `before (${other})`, root: `${resolve(other)}/` },
  { label: 'after (this checkout)', root },
];
const FIGURES: { figure: string; scenario: string; cache: 'off' | 'memory'; env: Record<string, string> }[] = [
  { figure: 'Walk uncached', scenario: 'S2', cache: 'off', env: {} },
  { figure: 'Single list uncached', scenario: 'S1', cache: 'off', env: {} },
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
    const query = scenarios.find((s) => s.id === f.scenario)?.query as string;
    const curves = builds.map(() => [] as CpuCurve[]);
    for (let i = 0; i < Number(roundsArg); i += 1) {
      const order = i % 2 === 0 ? [0, 1] : [1, 0];
      const started = [];
      for (const b of order) started.push(await startGatewayProcess(devnet.url, f.cache, [], f.env, (builds[b] as (typeof builds)[number]).root));
      const measured = await cpuCurvesOf(started, query, undefined, STEADY_BATCHES);
      for (const [k, b] of order.entries()) {
        const curve = measured[k] as CpuCurve;
        curves[b]?.push(curve);
        console.error(`${f.figure}, ${builds[b]?.label}: cold ${round(curve.coldMs)}, warm ${round(curve.warmMs)}, steady ${round(curve.steadyMs)} ms, ready after ${curve.readyMs} ms`);
      }
    }
    for (const [b, build] of builds.entries()) {
      const of = (pick: (c: CpuCurve) => number) => round(median((curves[b] ?? []).map(pick)));
      rows.push({ figure: f.figure, scenario: f.scenario, cache: f.cache, build: build.label, coldMs: of((c) => c.coldMs), warmMs: of((c) => c.warmMs), steadyMs: of((c) => c.steadyMs), coldOverSteady: of((c) => c.coldMs / c.steadyMs), readyMs: of((c) => c.readyMs) });
      lines.push(`| ${f.figure} (${f.scenario}, CACHE=${f.cache}${f.env['RESPONSE_CACHE'] ? ', RESPONSE_CACHE=off' : ''}) | ${build.label} | ${of((c) => c.coldMs)} | ${of((c) => c.warmMs)} | ${of((c) => c.steadyMs)} | ${of((c) => c.coldMs / c.steadyMs)}x | ${of((c) => c.readyMs)} |`);
    }
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

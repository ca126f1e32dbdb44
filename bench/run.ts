/**
 * `npm run bench`: the gateway against the devnet on loopback, each in its own
 * process (the gateway as `npm start` runs it, so its RSS and CPU are its own), at
 * 0 ms and 20 ms added upstream latency. Prints a table, the cold walk split and the
 * targets; writes them to bench/results/ (latest.md, latest.json).
 *
 * Three gateway modes: `CACHE=off` (every query goes upstream), `CACHE=memory` with
 * `RESPONSE_CACHE=off` (upstream answers from the in-process cache, each query
 * executed) and `CACHE=memory` (the default: identical operations answered whole).
 *
 * The gateway's CPU per query (user + system time of its process, all threads, from
 * /proc) is measured apart from the load runs, over queries sent one at a time after
 * a warm-up: batches big enough that /proc's 10 ms tick is under 2% of each, the
 * median of three. It is measured at the first latency of BENCH_LATENCIES only: what a
 * query costs the gateway does not depend on how long upstream takes, and at 0 ms a
 * batch takes seconds, not minutes. For the same reason the cached modes' load rows
 * are measured at the first latency only (a cached answer never waits on upstream).
 *
 * Env: BENCH_DURATION (s per load row, default 10), BENCH_CONNECTIONS (default 16),
 * BENCH_LATENCIES (default "0,20"), BENCH_COLD_WALKS (walks in the cold walk split,
 * default 15).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { busyTime, countRounds, median, percentile } from './stats.ts';
import { buildScenarios, type Fixtures, type Scenario } from './scenarios.ts';
import { directS2 } from './direct.ts';
import { procMemory, root } from './process.ts';
import { cpuMs, cpuPerQuery, runQueries, startDevnetProcess, startGatewayProcess, type Proc } from './gateway-process.ts';

const DURATION = Number(process.env['BENCH_DURATION'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 16);
const LATENCIES = (process.env['BENCH_LATENCIES'] ?? '0,20').split(',').map(Number);
const COLD_WALKS = Number(process.env['BENCH_COLD_WALKS'] ?? 15);
/** CPU each batch of the CPU figure aims for: 50 ticks of /proc, so one tick is 2% of it. */
const CPU_BATCH_MS = 500;
const CPU_WARMUP = 50;
const CPU_WARMUP_MS = 400;
/** Walks sent before the cold walk split is measured (with 10, the gateway's CPU per walk was still twice its warm figure). */
const COLD_WALK_WARMUP = 50;
const CPU_MAX_QUERIES = 5000;

interface Mode {
  /** The Cache column. */
  label: string;
  cache: 'off' | 'memory';
  env: Record<string, string>;
}
const UNCACHED: Mode = { label: 'off', cache: 'off', env: {} };
const DATA_CACHE: Mode = { label: 'memory, RESPONSE_CACHE=off', cache: 'memory', env: { RESPONSE_CACHE: 'off' } };
const WHOLE_RESPONSES: Mode = { label: 'memory', cache: 'memory', env: {} };

type LogEntry = { start: number; end: number };

async function gql(url: string, query: string): Promise<{ errors?: unknown[] }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return (await res.json()) as { errors?: unknown[] };
}

async function devnetCall(devnet: string, path: string, method = 'GET'): Promise<unknown> {
  const res = await fetch(`${devnet}${path}`, { method });
  return res.json();
}

const resetDevnet = (devnet: string) => devnetCall(devnet, '/__devnet/stats/reset', 'POST');
const devnetLog = async (devnet: string) => (await devnetCall(devnet, '/__devnet/log')) as LogEntry[];

interface LoadResult {
  mean: number;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
}

async function load(url: string, body: string | undefined, method: 'GET' | 'POST', connections = CONNECTIONS): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method,
    connections,
    duration: DURATION,
    ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
  });
  return {
    mean: round(result.latency.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.non2xx,
  };
}

/** A plain client doing the same work with its own loop: latency percentiles and throughput. */
async function loadFunction(fn: () => Promise<void>): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + DURATION * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          await fn();
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { mean: round(latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length)), p50: percentile(latencies, 50), p99: percentile(latencies, 99), rps: latencies.length / DURATION, errors };
}

interface CpuFigure {
  /** Gateway CPU per query, ms: the median of the batches. */
  cpuMsPerQuery: number;
  cpuQueriesPerBatch: number;
  cpuBatches: number[];
}

interface Row extends Partial<CpuFigure> {
  scenario: string;
  latencyMs: number;
  cache: string;
  upstreamPerQuery: number;
  rounds: number;
  mean?: number;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  peakRssMb: number;
  note?: string;
}

/** The cold walk (S2, uncached) sent one at a time: wall time split into upstream critical path and gateway time. */
interface ColdWalk {
  latencyMs: number;
  walks: number;
  upstreamPerQuery: number;
  rounds: number;
  wallP50: number;
  wallBest: number;
  criticalPathP50: number;
  gatewayP50: number;
  /** Over the measured walks only (a few ticks each: a cross-check, not the CPU figure). */
  cpuMsPerQuery: number;
  samples: { wall: number; criticalPath: number; gateway: number; upstream: number; rounds: number }[];
}

const rows: Row[] = [];
const coldWalks: ColdWalk[] = [];

function log(row: Row): void {
  rows.push(row);
  const cpu = row.cpuMsPerQuery === undefined ? '' : `, gateway CPU ${row.cpuMsPerQuery} ms/query (${row.cpuQueriesPerBatch} x 3)`;
  console.error(`${row.scenario} latency=${row.latencyMs}ms cache=${row.cache}: ${row.upstreamPerQuery} upstream, ${row.rounds} rounds, p50 ${row.p50} ms, p99 ${row.p99} ms, ${Math.round(row.rps)} req/s, RSS ${row.peakRssMb} MB${cpu}`);
}

/** One query through the gateway with the devnet's counters reset: upstream requests and sequential rounds. */
async function probe(gateway: Proc, devnet: string, query: string): Promise<{ calls: number; rounds: number }> {
  await resetDevnet(devnet);
  const single = await gql(gateway.url, query);
  if (single.errors) throw new Error(`query failed: ${JSON.stringify(single.errors).slice(0, 500)}`);
  const stats = (await devnetCall(devnet, '/__devnet/stats')) as { requests: number };
  return { calls: stats.requests, rounds: countRounds(await devnetLog(devnet)) };
}

/** Samples the gateway's RSS while `work` runs; returns the peak in MB. */
async function withRss<T>(gateway: Proc, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  const rss = () => procMemory(gateway.pid, { throwIfGone: true }).rssMb;
  let peak = rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 200);
  try {
    return { result: await work(), peak: round(peak) };
  } finally {
    clearInterval(sampler);
  }
}

async function measureScenario(s: Scenario, gateway: Proc, devnet: string, latencyMs: number, mode: Mode, connections = CONNECTIONS): Promise<Row> {
  await gql(gateway.url, s.query); // warm-up (with the cache on, this fills it)
  const { calls, rounds } = await probe(gateway, devnet, s.query);
  const { result, peak } = await withRss(gateway, () => load(gateway.url, JSON.stringify({ query: s.query }), 'POST', connections));
  return {
    scenario: connections === 1 ? `${s.id} (1 connection)` : s.id,
    latencyMs, cache: mode.label, upstreamPerQuery: calls, rounds, ...result, peakRssMb: peak,
  };
}

/**
 * The gateway's CPU per query for `query`: a warm-up, which also gives a first estimate
 * (batches of 50 until they add up to CPU_WARMUP_MS: fewer left the first batch up to
 * 40% above the third while the JIT was still at work), then three batches of as many
 * queries as make CPU_BATCH_MS by that estimate; the median of the three.
 */
async function gatewayCpu(gateway: Proc, query: string): Promise<CpuFigure> {
  await runQueries(gateway.url, query, CPU_WARMUP);
  let spent = 0;
  let sent = 0;
  while (spent < CPU_WARMUP_MS && sent < CPU_MAX_QUERIES) {
    spent += (await cpuPerQuery(gateway, query, 50, 0)) * 50;
    sent += 50;
  }
  const estimate = Math.max(spent / sent, CPU_BATCH_MS / CPU_MAX_QUERIES);
  const n = Math.max(20, Math.ceil(CPU_BATCH_MS / estimate));
  const batches: number[] = [];
  for (let i = 0; i < 3; i += 1) batches.push(await cpuPerQuery(gateway, query, n, 0));
  return { cpuMsPerQuery: round(median(batches), 3), cpuQueriesPerBatch: n, cpuBatches: batches.map((b) => round(b, 3)) };
}

/** Gateway CPU per query and the load run of each scenario (CPU first, on a gateway that has seen no load yet). */
async function measureAll(scenarios: Scenario[], gateway: Proc, devnet: string, latencyMs: number, mode: Mode, withCpu: boolean): Promise<void> {
  const cpu = new Map<string, CpuFigure>();
  if (withCpu) for (const s of scenarios) cpu.set(s.id, await gatewayCpu(gateway, s.query));
  for (const s of scenarios) log({ ...(await measureScenario(s, gateway, devnet, latencyMs, mode)), ...cpu.get(s.id) });
}

/** S5: N identical queries at once on a cold gateway; the total upstream requests for all of them. */
async function measureConcurrent(s: Scenario, gateway: Proc, devnet: string, latencyMs: number, mode: Mode): Promise<Row> {
  const n = s.concurrent ?? 50;
  await resetDevnet(devnet);
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: n }, () => gql(gateway.url, s.query)));
  const wall = performance.now() - t0;
  const errors = results.filter((r) => r.errors).length;
  const total = ((await devnetCall(devnet, '/__devnet/stats')) as { requests: number }).requests;
  return {
    scenario: s.id, latencyMs, cache: mode.label, upstreamPerQuery: total, rounds: countRounds(await devnetLog(devnet)), mean: round(wall), p50: round(wall), p99: round(wall), rps: 0, errors,
    peakRssMb: round(procMemory(gateway.pid).rssMb), note: `${n} concurrent identical S2 on a cold cache: total upstream requests; latency = wall time for all`,
  };
}

/**
 * The walk on an uncached gateway, one at a time after a warm-up. Per walk: the wall
 * time at the client, the upstream critical path from the devnet's request log (the
 * time with at least one upstream request outstanding, in the devnet's clock) and the
 * rest, the gateway's time (its own work plus the loopback and the client's fetch).
 */
async function coldWalk(gateway: Proc, devnet: string, query: string, latencyMs: number): Promise<ColdWalk> {
  await runQueries(gateway.url, query, COLD_WALK_WARMUP);
  const samples: ColdWalk['samples'] = [];
  let cpu = 0;
  for (let i = 0; i < COLD_WALKS; i += 1) {
    await resetDevnet(devnet);
    const cpu0 = cpuMs(gateway.pid);
    const t0 = performance.now();
    await runQueries(gateway.url, query, 1);
    const wall = performance.now() - t0;
    cpu += cpuMs(gateway.pid) - cpu0;
    const entries = await devnetLog(devnet);
    const criticalPath = busyTime(entries);
    samples.push({ wall: round(wall), criticalPath: round(criticalPath), gateway: round(wall - criticalPath), upstream: entries.length, rounds: countRounds(entries) });
  }
  const p50 = (pick: (s: ColdWalk['samples'][number]) => number) => percentile(samples.map(pick).sort((a, b) => a - b), 50);
  const split: ColdWalk = {
    latencyMs, walks: COLD_WALKS,
    upstreamPerQuery: Math.max(...samples.map((s) => s.upstream)), rounds: Math.max(...samples.map((s) => s.rounds)),
    wallP50: p50((s) => s.wall), wallBest: Math.min(...samples.map((s) => s.wall)), criticalPathP50: p50((s) => s.criticalPath), gatewayP50: p50((s) => s.gateway),
    cpuMsPerQuery: round(cpu / COLD_WALKS), samples,
  };
  coldWalks.push(split);
  console.error(`cold walk latency=${latencyMs}ms: wall p50 ${split.wallP50} ms (best ${split.wallBest}), upstream critical path p50 ${split.criticalPathP50} ms, gateway p50 ${split.gatewayP50} ms, ${split.upstreamPerQuery} upstream in ${split.rounds} rounds, CPU ${split.cpuMsPerQuery} ms/walk`);
  return split;
}

/** Runs `work` on a fresh gateway in `mode`; logs the gateway's peak RSS (VmHWM) before stopping it. */
async function withGateway(devnet: string, mode: Mode, latencyMs: number, work: (gateway: Proc) => Promise<void>): Promise<void> {
  const gateway = await startGatewayProcess(devnet, mode.cache, [], mode.env);
  try {
    await work(gateway);
  } finally {
    const peak = round(procMemory(gateway.pid).peakMb);
    await gateway.stop();
    log({ scenario: 'gateway peak RSS', latencyMs, cache: mode.label, upstreamPerQuery: 0, rounds: 0, p50: 0, p99: 0, rps: 0, errors: 0, peakRssMb: peak, note: 'VmHWM of this gateway process at its end' });
  }
}

/** Everything at one upstream latency; `detailed` adds the CPU figures and the cached modes' load rows. */
async function benchLatency(latencyMs: number, detailed: boolean): Promise<void> {
  const devnet = await startDevnetProcess(latencyMs);
  try {
    const fixtures = ((await devnetCall(devnet.url, '/__devnet/fixtures')) as { mainnet: Fixtures }).mainnet;
    const all = buildScenarios(fixtures);
    const byId = (id: string) => all.find((x) => x.id === id) as Scenario;
    const scenarios = ['S1', 'S2', 'S3', 'S4'].map(byId);
    // Uncached: every query goes upstream.
    await withGateway(devnet.url, UNCACHED, latencyMs, async (gateway) => {
      await coldWalk(gateway, devnet.url, byId('S2').query, latencyMs);
      log(await measureScenario(byId('S1'), gateway, devnet.url, latencyMs, UNCACHED, 1));
      log(await measureScenario(byId('S2'), gateway, devnet.url, latencyMs, UNCACHED, 1));
      await measureAll(scenarios, gateway, devnet.url, latencyMs, UNCACHED, detailed);
    });
    // The default configuration, starting cold for S5.
    await withGateway(devnet.url, WHOLE_RESPONSES, latencyMs, async (gateway) => {
      log(await measureConcurrent(byId('S5'), gateway, devnet.url, latencyMs, WHOLE_RESPONSES));
      await gql(gateway.url, byId('S2').query);
      const again = await probe(gateway, devnet.url, byId('S2').query);
      log({ scenario: 'S2 repeated', latencyMs, cache: WHOLE_RESPONSES.label, upstreamPerQuery: again.calls, rounds: 0, p50: 0, p99: 0, rps: 0, errors: 0, peakRssMb: 0, note: 'an identical S2 within the TTL' });
      if (detailed) await measureAll(scenarios, gateway, devnet.url, latencyMs, WHOLE_RESPONSES, true);
    });
    if (detailed) {
      await withGateway(devnet.url, DATA_CACHE, latencyMs, (gateway) => measureAll(scenarios, gateway, devnet.url, latencyMs, DATA_CACHE, true));
    }
    // The floor: the same data straight from the REST/RPC endpoints.
    const s1url = `${devnet.url}/v1/networks/mainnet/validators?pageSize=10`;
    log({ scenario: 'S1 direct REST (1 connection)', latencyMs, cache: '-', upstreamPerQuery: 1, rounds: 1, ...(await load(s1url, undefined, 'GET', 1)), peakRssMb: 0 });
    log({ scenario: 'S1 direct REST', latencyMs, cache: '-', upstreamPerQuery: 1, rounds: 1, ...(await load(s1url, undefined, 'GET')), peakRssMb: 0 });
    await directS2(devnet.url);
    await resetDevnet(devnet.url);
    await directS2(devnet.url);
    const s2Calls = ((await devnetCall(devnet.url, '/__devnet/stats')) as { requests: number }).requests;
    const s2Rounds = countRounds(await devnetLog(devnet.url));
    log({ scenario: 'S2 direct REST/RPC', latencyMs, cache: '-', upstreamPerQuery: s2Calls, rounds: s2Rounds, ...(await loadFunction(() => directS2(devnet.url))), peakRssMb: 0 });
  } finally {
    await devnet.stop();
  }
}

interface Target {
  figure: string;
  target: string;
  measured: number | undefined;
  unit: string;
  pass: boolean | undefined;
}

function targets(): { targets: Target[]; listVsDirect: number | undefined; peakRssMb: number } {
  const cpuOf = (mode: Mode, id: string) => rows.find((r) => r.scenario === id && r.cache === mode.label && r.cpuMsPerQuery !== undefined)?.cpuMsPerQuery;
  const rpsOf = (scenario: string, cache: string) => rows.find((r) => r.scenario === scenario && r.latencyMs === 20 && r.cache === cache)?.rps;
  const gatewayRps = rpsOf('S1', UNCACHED.label);
  const directRps = rpsOf('S1 direct REST', '-');
  const listVsDirect = gatewayRps !== undefined && directRps ? round(gatewayRps / directRps, 3) : undefined;
  const peakRssMb = Math.max(0, ...rows.filter((r) => r.scenario === 'gateway peak RSS').map((r) => r.peakRssMb));
  const at = (measured: number | undefined, limit: number, atMost: boolean) => (measured === undefined ? undefined : atMost ? measured <= limit : measured >= limit);
  const t = (figure: string, target: string, measured: number | undefined, unit: string, limit: number, atMost = true): Target =>
    ({ figure, target, measured, unit, pass: at(measured, limit, atMost) });
  return {
    listVsDirect,
    peakRssMb,
    targets: [
      t('Walk from cache (S2, CACHE=memory, RESPONSE_CACHE=off), gateway CPU per query', '<= 2 ms', cpuOf(DATA_CACHE, 'S2'), 'ms', 2),
      t('Walk, whole-response cache hit (S2, CACHE=memory), gateway CPU per query', '<= 0.5 ms', cpuOf(WHOLE_RESPONSES, 'S2'), 'ms', 0.5),
      t('Walk uncached (S2, CACHE=off), gateway CPU per query', '<= 5 ms', cpuOf(UNCACHED, 'S2'), 'ms', 5),
      t('Single list uncached (S1, CACHE=off), gateway CPU per query', '<= 0.5 ms', cpuOf(UNCACHED, 'S1'), 'ms', 0.5),
      t(`Walk at 20 ms upstream latency, uncached, p50 of ${COLD_WALKS} one at a time`, '<= 50 ms', coldWalks.find((c) => c.latencyMs === 20)?.wallP50, 'ms', 50),
      t('Single list uncached at 16 connections, 20 ms latency, vs direct REST (req/s)', '>= 0.95x', listVsDirect, 'x', 0.95, false),
      t('Peak RSS under the bench (max VmHWM of its gateway processes)', '<= 256 MB', peakRssMb || undefined, 'MB', 256),
    ],
  };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function formatTable(): string {
  const header = '| Scenario | Upstream latency | Cache | Upstream req/query | Rounds | mean ms | p50 ms | p99 ms | req/s | Errors | Peak RSS MB | gateway CPU ms/query |';
  const sep = '|---|---|---|---|---|---|---|---|---|---|---|---|';
  // Rows that only report a count or a memory figure show '-' where nothing was timed.
  const timed = (r: Row) => r.mean !== undefined || r.rps > 0;
  const num = (r: Row, v: number | undefined) => (timed(r) && v !== undefined ? String(v) : '-');
  const lines = rows.map((r) =>
    `| ${r.scenario}${r.note ? ` (${r.note})` : ''} | ${r.latencyMs} ms | ${r.cache} | ${r.upstreamPerQuery} | ${r.rounds || '-'} | ${num(r, r.mean)} | ${num(r, r.p50)} | ${num(r, r.p99)} | ${r.rps ? Math.round(r.rps) : '-'} | ${r.errors} | ${r.peakRssMb || '-'} | ${r.cpuMsPerQuery ?? '-'} |`,
  );
  return [header, sep, ...lines].join('\n');
}

function formatColdWalks(): string {
  const lines = coldWalks.map((c) => `| ${c.latencyMs} ms | ${c.walks} | ${c.upstreamPerQuery} | ${c.rounds} | ${c.wallP50} | ${c.wallBest} | ${c.criticalPathP50} | ${c.gatewayP50} | ${c.cpuMsPerQuery} |`);
  return [
    `Cold walk (S2, CACHE=off, one at a time after ${COLD_WALK_WARMUP} walks); critical path = time with an upstream request outstanding (devnet log), gateway = wall - critical path (the client's fetch included); CPU over these walks only, a cross-check at /proc's 10 ms resolution:`,
    '',
    '| Upstream latency | Walks | Upstream req/query | Rounds | wall p50 ms | wall best ms | critical path p50 ms | gateway p50 ms | gateway CPU ms/query |',
    '|---|---|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}

function formatTargets(list: Target[]): string {
  const lines = list.map((t) => `| ${t.figure} | ${t.target} | ${t.measured === undefined ? '-' : `${t.measured}${t.unit === 'x' ? 'x' : ` ${t.unit}`}`} | ${t.pass === undefined ? 'n/a' : t.pass ? 'pass' : 'FAIL'} |`);
  return ['Targets:', '', '| Figure | Target | Measured | |', '|---|---|---|---|', ...lines].join('\n');
}

async function main(): Promise<void> {
  for (const [i, latencyMs] of LATENCIES.entries()) await benchLatency(latencyMs, i === 0);
  const { targets: list, listVsDirect, peakRssMb } = targets();
  const report = [
    formatTable(),
    formatColdWalks(),
    `Single list uncached at ${CONNECTIONS} connections, 20 ms latency, gateway req/s / direct REST req/s: ${listVsDirect === undefined ? '-' : `${listVsDirect}x`}`,
    formatTargets(list),
  ].join('\n\n');
  console.log(report);
  mkdirSync(`${root}/bench/results`, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const payload = { date: new Date().toISOString(), node: process.version, durationS: DURATION, connections: CONNECTIONS, rows, coldWalks, listVsDirect, peakRssMb, targets: list };
  writeFileSync(`${root}/bench/results/bench-${stamp}.json`, `${JSON.stringify(payload, null, 2)}\n`);
  writeFileSync(`${root}/bench/results/latest.json`, `${JSON.stringify(payload, null, 2)}\n`);
  writeFileSync(`${root}/bench/results/latest.md`, `${report}\n`);
}

await main();

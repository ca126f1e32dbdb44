/**
 * `npm run bench`: the gateway against the devnet on loopback, each in its own
 * process (the gateway as `npm start` runs it, so its RSS and CPU are its own).
 * Prints the gateway's CPU figures, the load table, the walk split and the targets;
 * writes them to BENCH_OUT (latest.md, latest.json and a dated JSON; latest-<BENCH_ONLY>.* for a partial run).
 *
 * Three gateway modes: `CACHE=off` (every query goes upstream), `CACHE=memory` with
 * `RESPONSE_CACHE=off` (upstream answers from the in-process cache, each query
 * executed) and `CACHE=memory` (the default: identical operations answered whole).
 *
 * CPU: every figure by one method (`cpuCurve`, bench/gateway-process.ts), each on a
 * gateway started for it alone, cold (the first queries after ready), warm and steady,
 * with a devnet at 0 ms latency (what a query costs the gateway does not depend on how
 * long upstream takes; at 20 ms the figures would take minutes). The load runs come
 * after, at each latency of BENCH_LATENCIES; they report no CPU. The cached modes' load
 * rows are measured at the first latency only (a cached answer never waits on upstream).
 *
 * The walk split: S2 uncached one at a time at each latency, wall time cut into the
 * upstream critical path and the gateway's time, on a gateway just started (its first
 * walks after ready) and on the same gateway once warm (after BENCH_STEADY_AFTER walks).
 *
 * Env: BENCH_DURATION (s per load row, default 10), BENCH_CONNECTIONS (default 16),
 * BENCH_LATENCIES (default "0,20"), BENCH_COLD_WALKS (walks in each walk split, default
 * 15), BENCH_COLD_QUERIES, BENCH_WARM_QUERIES, BENCH_STEADY_AFTER (the CPU figures' counts,
 * bench/gateway-process.ts), BENCH_OUT (where results go, default bench/results), BENCH_ONLY
 * (`cpu`: the CPU figures and floors, no load runs; `floors`: the walk and the single list
 * uncached and their floors only).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { busyTime, countRounds, percentile } from './stats.ts';
import { buildScenarios, type Fixtures, type Scenario } from './scenarios.ts';
import { directS2 } from './direct.ts';
import { procMemory, root } from './process.ts';
import { CPU_COUNTS, cpuCurve, cpuCurvesOf, recordQuery, startFloorProcess, type FloorServer, runQueries, startDevnetProcess, startGatewayProcess, type CpuCurve, type GatewayProc, type Proc } from './gateway-process.ts';

/**
 * What each CPU figure must meet, ms per query; `coldOverSteady` bounds cold / steady, both as measured;
 * `overPlainFloor` bounds steady / the plain floor's steady (bench/floor.ts), both measured side by side.
 */
interface CpuTargets {
  steady: number;
  warm: number;
  cold?: number;
  coldOverSteady?: number;
  overPlainFloor?: number;
}

/** Every target of the report, in one place. */
const TARGETS = {
  walkUncached: { steady: 4, warm: 6, cold: 6, coldOverSteady: 1.5, overPlainFloor: 2 },
  listUncached: { steady: 0.3, warm: 0.45, coldOverSteady: 1.5, overPlainFloor: 3 },
  walkFromCache: { steady: 2, warm: 3, cold: 3 },
  wholeResponseHit: { steady: 0.5, warm: 0.75, cold: 0.75 },
  /** p50 of the walk split at 20 ms upstream latency (the floor is two rounds, 40 ms), on a gateway just started and on a warm one. */
  walkWallP50Ms: 50,
  /** The single list uncached at BENCH_CONNECTIONS, 20 ms latency: gateway req/s over direct REST req/s. */
  listVsDirect: 0.95,
  peakRssMb: 256,
} satisfies Record<string, CpuTargets | number>;

const DURATION = Number(process.env['BENCH_DURATION'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 16);
const LATENCIES = (process.env['BENCH_LATENCIES'] ?? '0,20').split(',').map(Number);
const COLD_WALKS = Number(process.env['BENCH_COLD_WALKS'] ?? 15);
const OUT = process.env['BENCH_OUT'] ?? `${root}bench/results`;
/** Walks in flight at once while the walk split's gateway warms up (one at a time, at 20 ms, 1,500 walks would take over a minute). */
const WARM_UP_CONCURRENCY = 8;

interface Mode {
  /** The Cache column. */
  label: string;
  cache: 'off' | 'memory';
  env: Record<string, string>;
}
const UNCACHED: Mode = { label: 'off', cache: 'off', env: {} };
const DATA_CACHE: Mode = { label: 'memory, RESPONSE_CACHE=off', cache: 'memory', env: { RESPONSE_CACHE: 'off' } };
const WHOLE_RESPONSES: Mode = { label: 'memory', cache: 'memory', env: {} };

/**
 * The CPU figures, each from its own fresh gateway; those without targets are for information. Those with
 * `floors` are measured side by side with their two floors (see FLOORS).
 */
const CPU_FIGURES: { figure: string; scenario: string; mode: Mode; targets?: CpuTargets; floors?: boolean }[] = [
  { figure: 'Walk uncached', scenario: 'S2', mode: UNCACHED, targets: TARGETS.walkUncached, floors: true },
  { figure: 'Single list uncached', scenario: 'S1', mode: UNCACHED, targets: TARGETS.listUncached, floors: true },
  { figure: 'Walk from cache', scenario: 'S2', mode: DATA_CACHE, targets: TARGETS.walkFromCache },
  { figure: 'Whole-response hit', scenario: 'S2', mode: WHOLE_RESPONSES, targets: TARGETS.wholeResponseHit },
  { figure: 'Address page uncached', scenario: 'S3', mode: UNCACHED },
  { figure: 'Node overview uncached', scenario: 'S4', mode: UNCACHED },
];

/**
 * The floors (bench/floor.ts) of a figure with `floors`, each sent the figure's query, measured by the same
 * method side by side with the figure's gateway (`cpuCurvesOf`: each part of the curve taken of the gateway,
 * then of each floor, so what else the machine does weighs on all three alike) and reported beside it:
 * - plain: a Node server reading and parsing the request, making the same upstream requests as the gateway
 *   did for the query, parsing every answer and serializing the same response. What no server in Node can
 *   go below on this machine.
 * - yoga: graphql-yoga with the gateway's own options, the gateway's schema with the query's fields typed
 *   (read from the recorded data), executed by graphql-jit, over the same fetching. What the server
 *   framework and executor the gateway is built on cost before any work of ours.
 */
const FLOORS: { server: FloorServer; figure: (of: string) => string }[] = [
  { server: 'plain', figure: (f) => `${f} plain floor (request parsed, same upstream requests parsed, same response serialized; no GraphQL)` },
  { server: 'yoga', figure: (f) => `${f} yoga floor (graphql-yoga with the gateway's options, the query's fields typed, graphql-jit; same requests, same data)` },
];

/** `BENCH_ONLY=cpu`: the CPU figures alone (no load runs); `BENCH_ONLY=floors`: only the figures with floors, and their floors. */
const ONLY = process.env['BENCH_ONLY'];
if (ONLY !== undefined && ONLY !== 'cpu' && ONLY !== 'floors') throw new Error(`BENCH_ONLY is cpu or floors, not ${ONLY}`);

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
const scenariosOf = async (devnet: string) => buildScenarios(((await devnetCall(devnet, '/__devnet/fixtures')) as { mainnet: Fixtures }).mainnet);

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

interface Row {
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

/** One CPU figure (ms per query, rounded). */
interface CpuRow extends CpuCurve {
  figure: string;
  scenario: string;
  cache: string;
  coldOverSteady: number;
  /** For a floor row: the figure it bounds. */
  floorOf?: string;
  /** For a floor row: which server (bench/floor.ts). */
  floorServer?: FloorServer;
}

/** The walk (S2, uncached) sent one at a time: wall time split into upstream critical path and gateway time. */
interface WalkSplit {
  /** 'just started' or 'warm'. */
  gateway: string;
  /** Walks the gateway had served before these. */
  after: number;
  latencyMs: number;
  walks: number;
  upstreamPerQuery: number;
  rounds: number;
  wallP50: number;
  wallBest: number;
  criticalPathP50: number;
  gatewayP50: number;
  samples: { wall: number; criticalPath: number; gateway: number; upstream: number; rounds: number }[];
}

const rows: Row[] = [];
const cpuRows: CpuRow[] = [];
const walkSplits: WalkSplit[] = [];

function log(row: Row): void {
  rows.push(row);
  console.error(`${row.scenario} latency=${row.latencyMs}ms cache=${row.cache}: ${row.upstreamPerQuery} upstream, ${row.rounds} rounds, p50 ${row.p50} ms, p99 ${row.p99} ms, ${Math.round(row.rps)} req/s, RSS ${row.peakRssMb} MB`);
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

async function measureAll(scenarios: Scenario[], gateway: Proc, devnet: string, latencyMs: number, mode: Mode): Promise<void> {
  for (const s of scenarios) log(await measureScenario(s, gateway, devnet, latencyMs, mode));
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
 * COLD_WALKS walks one at a time. Per walk: the wall time at the client, the upstream
 * critical path from the devnet's request log (the time with at least one upstream
 * request outstanding, in the devnet's clock) and the rest, the gateway's time (its own
 * work plus the loopback and the client's fetch).
 */
async function walkSplit(gateway: Proc, devnet: string, query: string, latencyMs: number, label: string, after: number): Promise<WalkSplit> {
  const samples: WalkSplit['samples'] = [];
  for (let i = 0; i < COLD_WALKS; i += 1) {
    await resetDevnet(devnet);
    const t0 = performance.now();
    await runQueries(gateway.url, query, 1);
    const wall = performance.now() - t0;
    const entries = await devnetLog(devnet);
    const criticalPath = busyTime(entries);
    samples.push({ wall: round(wall), criticalPath: round(criticalPath), gateway: round(wall - criticalPath), upstream: entries.length, rounds: countRounds(entries) });
  }
  const p50 = (pick: (s: WalkSplit['samples'][number]) => number) => percentile(samples.map(pick).sort((a, b) => a - b), 50);
  const split: WalkSplit = {
    gateway: label, after, latencyMs, walks: COLD_WALKS,
    upstreamPerQuery: Math.max(...samples.map((s) => s.upstream)), rounds: Math.max(...samples.map((s) => s.rounds)),
    wallP50: p50((s) => s.wall), wallBest: Math.min(...samples.map((s) => s.wall)), criticalPathP50: p50((s) => s.criticalPath), gatewayP50: p50((s) => s.gateway),
    samples,
  };
  walkSplits.push(split);
  console.error(`walk split, ${label} gateway, latency=${latencyMs}ms: wall p50 ${split.wallP50} ms (best ${split.wallBest}), upstream critical path p50 ${split.criticalPathP50} ms, gateway p50 ${split.gatewayP50} ms, ${split.upstreamPerQuery} upstream in ${split.rounds} rounds`);
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

/** Every CPU figure, each on its own fresh gateway, against a devnet at 0 ms latency. */
async function benchCpu(): Promise<void> {
  const devnet = await startDevnetProcess(0);
  try {
    const all = await scenariosOf(devnet.url);
    const record = (figure: string, scenario: string, cache: string, curve: CpuCurve, t0: number, floor?: { of: string; server: FloorServer }): void => {
      const row: CpuRow = {
        ...curve, figure, scenario, cache,
        coldMs: round(curve.coldMs, 3), warmMs: round(curve.warmMs, 3), steadyMs: round(curve.steadyMs, 3),
        steadyBatches: curve.steadyBatches.map((b) => ({ queries: b.queries, msPerQuery: round(b.msPerQuery, 3) })),
        coldOverSteady: round(curve.coldMs / curve.steadyMs), peakRssMb: round(curve.peakRssMb),
        ...(floor ? { floorOf: floor.of, floorServer: floor.server } : {}),
      };
      cpuRows.push(row);
      console.error(`CPU ${figure} (${scenario}, cache=${cache}): cold ${row.coldMs}, warm ${row.warmMs}, steady ${row.steadyMs} ms/query (${row.steadyBatches.map((b) => `${b.queries} x ${b.msPerQuery}`).join(', ')}), cold/steady ${row.coldOverSteady}, ready after ${row.readyMs} ms; ${row.queries} queries in ${Math.round((performance.now() - t0) / 1000)} s`);
    };
    for (const f of CPU_FIGURES) {
      if (ONLY === 'floors' && !f.floors) continue;
      const query = (all.find((s) => s.id === f.scenario) as Scenario).query;
      const t0 = performance.now();
      if (!f.floors) {
        record(f.figure, f.scenario, f.mode.label, await cpuCurve(devnet.url, f.mode.cache, f.mode.env, query), t0);
        await resetDevnet(devnet.url);
        continue;
      }
      // The gateway and its floors side by side, the floors replaying what a gateway did for this query.
      const recording = await recordQuery(devnet.url, query);
      const servers: GatewayProc[] = [];
      try {
        servers.push(await startGatewayProcess(devnet.url, f.mode.cache, [], f.mode.env));
        for (const floor of FLOORS) servers.push(await startFloorProcess(devnet.url, recording, floor.server, query));
      } catch (error) {
        await Promise.all(servers.map((server) => server.stop()));
        throw error;
      }
      const [gateway, ...floors] = await cpuCurvesOf(servers, query);
      record(f.figure, f.scenario, f.mode.label, gateway as CpuCurve, t0);
      for (const [i, floor] of FLOORS.entries()) {
        record(floor.figure(f.figure.replace(/ uncached$/, '')), f.scenario, '-', floors[i] as CpuCurve, t0, { of: f.figure, server: floor.server });
      }
      await resetDevnet(devnet.url);
    }
  } finally {
    await devnet.stop();
  }
}

/** Everything at one upstream latency; `detailed` adds the cached modes' load rows. */
async function benchLatency(latencyMs: number, detailed: boolean): Promise<void> {
  const devnet = await startDevnetProcess(latencyMs);
  try {
    const all = await scenariosOf(devnet.url);
    const byId = (id: string) => all.find((x) => x.id === id) as Scenario;
    const scenarios = ['S1', 'S2', 'S3', 'S4'].map(byId);
    // Uncached: every query goes upstream. The walk split first, while the gateway is new, then again once warm.
    await withGateway(devnet.url, UNCACHED, latencyMs, async (gateway) => {
      const walk = byId('S2').query;
      await walkSplit(gateway, devnet.url, walk, latencyMs, 'just started', 0);
      const perLoop = Math.ceil(CPU_COUNTS.steadyAfter / WARM_UP_CONCURRENCY);
      await Promise.all(Array.from({ length: WARM_UP_CONCURRENCY }, () => runQueries(gateway.url, walk, perLoop)));
      await walkSplit(gateway, devnet.url, walk, latencyMs, 'warm', COLD_WALKS + perLoop * WARM_UP_CONCURRENCY);
      log(await measureScenario(byId('S1'), gateway, devnet.url, latencyMs, UNCACHED, 1));
      log(await measureScenario(byId('S2'), gateway, devnet.url, latencyMs, UNCACHED, 1));
      await measureAll(scenarios, gateway, devnet.url, latencyMs, UNCACHED);
    });
    // The default configuration, starting cold for S5.
    await withGateway(devnet.url, WHOLE_RESPONSES, latencyMs, async (gateway) => {
      log(await measureConcurrent(byId('S5'), gateway, devnet.url, latencyMs, WHOLE_RESPONSES));
      await gql(gateway.url, byId('S2').query);
      const again = await probe(gateway, devnet.url, byId('S2').query);
      log({ scenario: 'S2 repeated', latencyMs, cache: WHOLE_RESPONSES.label, upstreamPerQuery: again.calls, rounds: 0, p50: 0, p99: 0, rps: 0, errors: 0, peakRssMb: 0, note: 'an identical S2 within the TTL' });
      if (detailed) await measureAll(scenarios, gateway, devnet.url, latencyMs, WHOLE_RESPONSES);
    });
    if (detailed) {
      await withGateway(devnet.url, DATA_CACHE, latencyMs, (gateway) => measureAll(scenarios, gateway, devnet.url, latencyMs, DATA_CACHE));
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
  const rpsOf = (scenario: string, cache: string) => rows.find((r) => r.scenario === scenario && r.latencyMs === 20 && r.cache === cache)?.rps;
  const gatewayRps = rpsOf('S1', UNCACHED.label);
  const directRps = rpsOf('S1 direct REST', '-');
  const listVsDirect = gatewayRps !== undefined && directRps ? round(gatewayRps / directRps, 3) : undefined;
  const peakRssMb = Math.max(0, ...rows.filter((r) => r.scenario === 'gateway peak RSS').map((r) => r.peakRssMb), ...cpuRows.filter((c) => !c.floorOf).map((c) => c.peakRssMb));
  const t = (figure: string, target: string, measured: number | undefined, unit: string, limit: number, atMost = true): Target =>
    ({ figure, target, measured, unit, pass: measured === undefined ? undefined : atMost ? measured <= limit : measured >= limit });
  const list: Target[] = [];
  for (const f of CPU_FIGURES) {
    if (!f.targets) continue;
    const row = cpuRows.find((c) => c.figure === f.figure);
    const name = `${f.figure} (${f.scenario}, CACHE=${f.mode.label}), gateway CPU per query`;
    const ms = (v: number) => `<= ${v} ms`;
    const floor = (server: FloorServer) => cpuRows.find((c) => c.floorOf === f.figure && c.floorServer === server)?.steadyMs;
    const plain = floor('plain');
    const yoga = floor('yoga');
    const overPlain = row && plain ? round(row.steadyMs / plain) : undefined;
    // Each steady figure as a ratio to the plain floor, both floors beside it (the yoga floor as a ratio too).
    const floors = [
      plain === undefined ? '' : `${overPlain === undefined ? '' : `= ${overPlain}x `}plain floor ${plain} ms`,
      yoga === undefined ? '' : `yoga floor ${yoga} ms${plain ? ` = ${round(yoga / plain)}x plain` : ''}`,
    ].filter(Boolean).join('; ');
    list.push(t(`${name}, steady${floors ? ` (${floors})` : ''}`, ms(f.targets.steady), row?.steadyMs, 'ms', f.targets.steady));
    if (f.targets.overPlainFloor !== undefined) {
      list.push(t(`${name}, steady / plain floor steady (side by side)`, `<= ${f.targets.overPlainFloor}x`, overPlain, 'x', f.targets.overPlainFloor));
    }
    list.push(t(`${name}, warm`, ms(f.targets.warm), row?.warmMs, 'ms', f.targets.warm));
    if (f.targets.cold !== undefined) list.push(t(`${name}, cold`, ms(f.targets.cold), row?.coldMs, 'ms', f.targets.cold));
    if (f.targets.coldOverSteady !== undefined) list.push(t(`${name}, cold / steady`, `<= ${f.targets.coldOverSteady}x`, row?.coldOverSteady, 'x', f.targets.coldOverSteady));
  }
  for (const label of ['just started', 'warm']) {
    const split = walkSplits.find((w) => w.latencyMs === 20 && w.gateway === label);
    list.push(t(`Walk uncached at 20 ms upstream latency, ${label} gateway, wall p50 of ${COLD_WALKS} one at a time (floor 40 ms)`, `<= ${TARGETS.walkWallP50Ms} ms`, split?.wallP50, 'ms', TARGETS.walkWallP50Ms));
  }
  list.push(t(`Single list uncached at ${CONNECTIONS} connections, 20 ms latency, vs direct REST (req/s)`, `>= ${TARGETS.listVsDirect}x`, listVsDirect, 'x', TARGETS.listVsDirect, false));
  list.push(t('Peak RSS under the bench (max VmHWM of its gateway processes)', `<= ${TARGETS.peakRssMb} MB`, peakRssMb || undefined, 'MB', TARGETS.peakRssMb));
  return { listVsDirect, peakRssMb, targets: list };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function formatCpu(): string {
  const { cold, warm, steadyAfter } = CPU_COUNTS;
  const lines = cpuRows.map((c) =>
    `| ${c.figure} | ${c.scenario} | ${c.cache} | ${c.coldMs} | ${c.warmMs} | ${c.steadyMs} | ${c.steadyBatches.map((b) => `${b.queries} x ${b.msPerQuery}`).join(', ')} | ${c.coldOverSteady}x | ${c.readyMs} | ${c.peakRssMb} |`,
  );
  return [
    `Gateway CPU per query, ms: each row on a gateway started for it alone, after \`GET /ready\` answers 200, the query sent one at a time, CPU of all the gateway's threads from /proc/<pid>/task/*/schedstat; cold = queries 1-${cold}, warm = ${cold + 1}-${cold + warm}, steady = the median of three batches of at least 500 ms of CPU after ${steadyAfter} queries; devnet at 0 ms latency:`,
    '',
    '| Figure | Scenario | Cache | cold | warm | steady | steady batches (queries x ms) | cold / steady | start to ready ms | Peak RSS MB |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}

function formatTable(): string {
  const header = '| Scenario | Upstream latency | Cache | Upstream req/query | Rounds | mean ms | p50 ms | p99 ms | req/s | Errors | Peak RSS MB |';
  const sep = '|---|---|---|---|---|---|---|---|---|---|---|';
  // Rows that only report a count or a memory figure show '-' where nothing was timed.
  const timed = (r: Row) => r.mean !== undefined || r.rps > 0;
  const num = (r: Row, v: number | undefined) => (timed(r) && v !== undefined ? String(v) : '-');
  const lines = rows.map((r) =>
    `| ${r.scenario}${r.note ? ` (${r.note})` : ''} | ${r.latencyMs} ms | ${r.cache} | ${r.upstreamPerQuery} | ${r.rounds || '-'} | ${num(r, r.mean)} | ${num(r, r.p50)} | ${num(r, r.p99)} | ${r.rps ? Math.round(r.rps) : '-'} | ${r.errors} | ${r.peakRssMb || '-'} |`,
  );
  return [`Load (autocannon, ${CONNECTIONS} connections unless marked, ${DURATION} s per row):`, '', header, sep, ...lines].join('\n');
}

function formatWalkSplits(): string {
  const lines = walkSplits.map((c) => `| ${c.gateway} (after ${c.after} walks) | ${c.latencyMs} ms | ${c.walks} | ${c.upstreamPerQuery} | ${c.rounds} | ${c.wallP50} | ${c.wallBest} | ${c.criticalPathP50} | ${c.gatewayP50} |`);
  return [
    `Walk split (S2, CACHE=off, ${COLD_WALKS} walks one at a time on a gateway just started, then on the same gateway once warm); critical path = time with an upstream request outstanding (devnet log), gateway = wall - critical path (the client's fetch included):`,
    '',
    '| Gateway | Upstream latency | Walks | Upstream req/query | Rounds | wall p50 ms | wall best ms | critical path p50 ms | gateway p50 ms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}

function formatTargets(list: Target[]): string {
  const lines = list.map((t) => `| ${t.figure} | ${t.target} | ${t.measured === undefined ? '-' : `${t.measured}${t.unit === 'x' ? 'x' : ` ${t.unit}`}`} | ${t.pass === undefined ? 'n/a' : t.pass ? 'pass' : 'FAIL'} |`);
  return ['Targets:', '', '| Figure | Target | Measured | |', '|---|---|---|---|', ...lines].join('\n');
}

async function main(): Promise<void> {
  const t0 = performance.now();
  await benchCpu();
  if (ONLY === undefined) for (const [i, latencyMs] of LATENCIES.entries()) await benchLatency(latencyMs, i === 0);
  const { targets: list, listVsDirect, peakRssMb } = targets();
  const report = [
    formatCpu(),
    ...(ONLY === undefined
      ? [
          formatTable(),
          formatWalkSplits(),
          `Single list uncached at ${CONNECTIONS} connections, 20 ms latency, gateway req/s / direct REST req/s: ${listVsDirect === undefined ? '-' : `${listVsDirect}x`}`,
        ]
      : []),
    formatTargets(list),
  ].join('\n\n');
  console.log(report);
  const elapsedS = Math.round((performance.now() - t0) / 1000);
  console.error(`bench took ${elapsedS} s`);
  mkdirSync(OUT, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const payload = { date: new Date().toISOString(), node: process.version, ...(ONLY === undefined ? {} : { only: ONLY }), durationS: DURATION, connections: CONNECTIONS, cpuCounts: CPU_COUNTS, elapsedS, cpu: cpuRows, rows, walkSplits, listVsDirect, peakRssMb, targets: list };
  writeFileSync(`${OUT}/bench-${ONLY === undefined ? '' : `${ONLY}-`}${stamp}.json`, `${JSON.stringify(payload, null, 2)}\n`);
  // A partial run (BENCH_ONLY) never replaces the full report docs/benchmarks.md is made from.
  const latest = ONLY === undefined ? 'latest' : `latest-${ONLY}`;
  writeFileSync(`${OUT}/${latest}.json`, `${JSON.stringify(payload, null, 2)}\n`);
  writeFileSync(`${OUT}/${latest}.md`, `${report}\n`);
}

await main();

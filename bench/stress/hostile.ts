/**
 * `npm run bench:stress -- hostile [a b c d e f]`: the hostile clients, flood by flood,
 * each against a fresh gateway started as `npm start` starts it (bench/stress/hostile-gateway.ts),
 * with GET /health probed from a process of its own (bench/stress/health-probe.ts):
 *
 * a. N clients that never read their answers: raw sockets, each pipelining 4 POSTs of 30 aliases of
 *    `validators(first: 100)` with most fields (about 2.9 MB each), then never reading; N from
 *    `STRESS_NEVER_READERS` (200,400,800).
 * b. 40 request bodies trickled at 1 byte/s (Content-Length 400).
 * c. 32 clients asking for a 2.9 MB answer (the same 30 aliases) in a loop, reading them.
 * d. 32 clients in a loop sending the validation-heavy document: 200 repeated `subnets(first: 1)`
 *    selections under `network(name: MAINNET)`.
 * e. idle graphql-ws sockets (`connection_init`, then nothing), `STRESS_WS_SOCKETS` (5000,20000) in
 *    turn, held by worker processes (bench/stress/ws-idle-worker.ts) under their fd limit.
 * f. 150 `@defer` operations at once, 3 waves, the devnet answering each call after 1.5 s.
 *
 * Every request's text is fresh (a comment, or distinct arguments), so the whole-response cache never
 * answers one: each is parsed, validated and executed; upstream answers come from the upstream cache,
 * so what is measured is the gateway's own work. Clients come from many loopback addresses
 * (127.0.x.y), as a botnet or a fleet of honest clients would, so the per-client shares do not hide
 * the global limits; the prober comes from 127.0.0.1. The clients run in a process of their own
 * (bench/stress/hostile-clients.ts, floods in bench/stress/hostile-floods.ts) at nice 10, below the
 * gateway and the prober: on a 2-core machine the load generator would otherwise take the gateway's CPU.
 *
 * Per flood: /health p50/p99/max on a kept-alive connection every 20 ms and on a new connection every
 * 200 ms (failed probes apart), the gateway's peak RSS (VmHWM of the fresh
 * process, and VmRSS sampled every 50 ms), its CPU time, whether it survived (alive, /health 200 and an
 * honest query served after the flood), the refusals by code (the gateway's own
 * `chaingraph_graphql_errors_total`, before and after) and what the clients saw. Prints one table,
 * writes bench/results/stress-hostile-<date>.json.
 *
 * Env: STRESS_NEVER_READERS, STRESS_WS_SOCKETS (above); STRESS_BUNDLE and STRESS_NODE_FLAGS to run a
 * bundle built earlier, or profile it (bench/stress/hostile-gateway.ts).
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, setPriority } from 'node:os';
import { cpuMs } from '../gateway-process.ts';
import { procMemory, root, sleep } from '../process.ts';
import { percentile } from '../stats.ts';
import type { FloodClientsReport } from './hostile-clients.ts';
import { BIG_QUERY, floodPlan, fresh, SMALL_QUERY, type FloodTarget } from './hostile-floods.ts';
import { startFloodGateway } from './hostile-gateway.ts';
import type { ProbeReport, ProbeSample } from './health-probe.ts';
import { round, tallyText, type Tally } from './requests.ts';

const PROBE_INTERVAL_MS = 20;
const FRESH_PROBE_INTERVAL_MS = 200;
/** The prober runs this long before a flood starts (its own start-up is not measured). */
const PROBER_WARMUP_MS = 1500;
/** The target: /health p99 under every allowed load. */
const HEALTH_P99_TARGET_MS = 100;
/** The clients' nice value: below the gateway's and the prober's (see bench/stress/hostile-floods.ts). */
const CLIENTS_NICE = 10;

export interface FloodRow {
  flood: string;
  /** GET /health on a kept-alive connection every 20 ms, and on a new connection every 200 ms (see bench/stress/health-probe.ts). */
  health: { keepAlive: ProbeStats; fresh: ProbeStats; proberLoopMaxMs: number };
  /** VmHWM of the fresh gateway process at the end (its peak since start), and the highest VmRSS sampled during the flood. */
  peakRssMb: number;
  sampledPeakRssMb: number;
  idleRssMb: number;
  gatewayCpuMs: number;
  wallMs: number;
  survived: boolean;
  after: { health: string; honest: string; admission: string };
  /** `chaingraph_graphql_errors_total` by code over the flood (edge refusals included). */
  refusals: Tally;
  /** The gateway's own event-loop delay over the flood (its /metrics, read after the clients are done: includes the probes' last seconds), ms. */
  gatewayLoopDelayMs: { p50: number; p99: number; max: number };
  /** Time in GC over the flood by kind, ms (its /metrics). */
  gcMs: Tally;
  /** What the flood's clients saw. */
  clients: Tally;
  loadAverage: number[];
  notes: string[];
  gatewayArgv: string[];
}

/** Latencies of one probe over a flood; a failed probe counts at the time it took to fail, and is listed in `failed`. */
export interface ProbeStats {
  probes: number;
  p50: number;
  p99: number;
  max: number;
  failed: Tally;
  /** The 5 slowest, with when they started (ms into the flood). */
  slowest: { atMs: number; ms: number }[];
}

function probeStats(samples: readonly ProbeSample[]): ProbeStats {
  const times = samples.map((s) => s.ms).sort((a, b) => a - b);
  const failed: Tally = {};
  for (const s of samples) if (s.status !== 200) failed[String(s.status)] = (failed[String(s.status)] ?? 0) + 1;
  return {
    probes: samples.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: round(times.at(-1) ?? 0),
    failed,
    slowest: [...samples].sort((a, b) => b.ms - a.ms).slice(0, 5).map((s) => ({ atMs: s.atMs, ms: s.ms })),
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring one flood

async function scrapeMetrics(base: string): Promise<string> {
  try {
    return await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  } catch {
    return '';
  }
}

/** Counts of one labelled metric by its label (`chaingraph_graphql_errors_total` by code, GC seconds by kind). */
function byLabel(metrics: string, name: string, label: string): Tally {
  const counts: Tally = {};
  for (const m of metrics.matchAll(new RegExp(`^${name}\\{${label}="([^"]+)"\\} ([0-9.e+-]+)$`, 'gm'))) counts[m[1] as string] = Number(m[2]);
  return counts;
}

function delta(after: Tally, before: Tally, scale = 1): Tally {
  const out: Tally = {};
  for (const [key, value] of Object.entries(after)) if (value - (before[key] ?? 0) > 0) out[key] = Math.round((value - (before[key] ?? 0)) * scale);
  return out;
}

/** The gateway's own event-loop delay since the last scrape (prom-client resets it on each scrape; 10 ms resolution, so an idle loop reads about 10), ms. */
function loopDelay(metrics: string): { p50: number; p99: number; max: number } {
  const read = (name: string) => round(Number(new RegExp(`^chaingraph_nodejs_eventloop_lag_${name}_seconds ([0-9.e+-]+)$`, 'm').exec(metrics)?.[1] ?? NaN) * 1000);
  return { p50: read('p50'), p99: read('p99'), max: read('max') };
}

async function check(what: () => Promise<Response>, ok: (status: number, text: string) => boolean): Promise<string> {
  try {
    const res = await what();
    const text = await res.text();
    return ok(res.status, text) ? 'ok' : `${res.status} ${text.slice(0, 200)}`;
  } catch (error) {
    return `ERROR ${String((error as { cause?: { code?: string } }).cause?.code ?? error)}`;
  }
}

async function measureFlood(key: string, name: string): Promise<FloodRow> {
  process.stdout.write(`\n${name}: starting a gateway...\n`);
  const gateway = await startFloodGateway();
  const notes: string[] = [];
  try {
    // Warm: the first requests' one-time work (module loading, first compilations) is not the flood's.
    for (let i = 0; i < 3; i++) await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: fresh(BIG_QUERY) }) }).then((r) => r.arrayBuffer());
    await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: SMALL_QUERY }) }).then((r) => r.arrayBuffer());
    const idleRssMb = round(procMemory(gateway.pid).rssMb);
    // Also starts the gateway's event-loop monitor and GC observer (on the first scrape), and resets the former.
    const metricsBefore = await scrapeMetrics(gateway.base);
    const cpuBefore = cpuMs(gateway.pid);
    const loadAverage = loadavg().map((l) => Math.round(l * 100) / 100);

    const prober = fork(`${root}bench/stress/health-probe.ts`, [gateway.base, String(PROBE_INTERVAL_MS), String(FRESH_PROBE_INTERVAL_MS)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const report = new Promise<ProbeReport>((resolve) => prober.once('message', (m) => resolve(m as ProbeReport)));
    // The prober's first probes are its own start-up (tsx, first connection): begin once it is running.
    await sleep(PROBER_WARMUP_MS);
    let sampling = true;
    let sampledPeak = 0;
    const sampler = (async () => {
      while (sampling) {
        sampledPeak = Math.max(sampledPeak, procMemory(gateway.pid).rssMb);
        await sleep(50);
      }
    })();
    const t0 = performance.now();
    const target: FloodTarget = { url: gateway.url, base: gateway.base, port: gateway.port, ...(gateway.devnetUrl ? { devnetUrl: gateway.devnetUrl } : {}) };
    const runner = fork(`${root}bench/stress/hostile-clients.ts`, [key, JSON.stringify(target)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    try {
      setPriority(runner.pid as number, CLIENTS_NICE);
    } catch (error) {
      notes.push(`the clients could not be given a lower priority (${String(error).slice(0, 80)}): they compete with the gateway for the CPU`);
    }
    const { clients, notes: said } = await new Promise<FloodClientsReport>((resolve) => {
      runner.once('message', (m) => resolve(m as FloodClientsReport));
      runner.once('exit', (code) => resolve({ clients: { [`CLIENTS EXITED ${code}`]: 1 }, notes: [] }));
    });
    notes.push(...said);
    const wallMs = Math.round(performance.now() - t0);
    prober.send('stop');
    const probes = await report;
    sampling = false;
    await sampler;
    const alive = !gateway.exited();
    const mem = procMemory(gateway.pid);
    const gatewayCpuMs = alive ? Math.round(cpuMs(gateway.pid) - cpuBefore) : 0;

    const health = alive ? await check(() => fetch(`${gateway.base}/health`, { signal: AbortSignal.timeout(10_000) }), (s) => s === 200) : 'dead';
    const honest = alive
      ? await check(
          () => fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: SMALL_QUERY }), signal: AbortSignal.timeout(10_000) }),
          (s, t) => s === 200 && !t.includes('"errors"'),
        )
      : 'dead';
    // Every slot released once the flood's clients are gone (given 5 s).
    let admission = 'dead';
    for (let i = 0; alive && i < 25; i++) {
      admission = await check(() => fetch(`${gateway.base}/ready`, { signal: AbortSignal.timeout(10_000) }), (s, t) => s === 200 && /"running":0,"queued":0/.test(t));
      if (admission === 'ok') break;
      await sleep(200);
    }
    const metricsAfter = alive ? await scrapeMetrics(gateway.base) : '';
    const refusals = delta(byLabel(metricsAfter, 'chaingraph_graphql_errors_total', 'code'), byLabel(metricsBefore, 'chaingraph_graphql_errors_total', 'code'));
    const gcMs = delta(byLabel(metricsAfter, 'chaingraph_nodejs_gc_duration_seconds_sum', 'kind'), byLabel(metricsBefore, 'chaingraph_nodejs_gc_duration_seconds_sum', 'kind'), 1000);
    // From the flood's start (the prober's own start-up before it is not the flood's), times relative to it.
    const samples = probes.samples.filter((s) => s.atMs >= PROBER_WARMUP_MS).map((s) => ({ ...s, atMs: s.atMs - PROBER_WARMUP_MS }));
    const keepAlive = probeStats(samples.filter((s) => s.kind === 'keepAlive'));
    const freshProbes = probeStats(samples.filter((s) => s.kind === 'fresh'));
    const row: FloodRow = {
      flood: name,
      health: { keepAlive, fresh: freshProbes, proberLoopMaxMs: probes.proberLoopMaxMs },
      peakRssMb: round(mem.peakMb),
      sampledPeakRssMb: round(sampledPeak),
      idleRssMb,
      gatewayCpuMs,
      wallMs,
      survived: alive && health === 'ok' && honest === 'ok',
      after: { health, honest, admission },
      refusals,
      gatewayLoopDelayMs: loopDelay(metricsAfter),
      gcMs,
      clients,
      loadAverage,
      notes: [
        ...notes,
        `gateway CPU ${gatewayCpuMs} ms in ${wallMs} ms (${Math.round((gatewayCpuMs / Math.max(1, wallMs)) * 100)}% of a core); GC ms ${tallyText(gcMs) || '-'}; its event-loop delay p99 ${loopDelay(metricsAfter).p99} max ${loopDelay(metricsAfter).max} ms; machine load average at the start ${loadAverage.join(' ')}`,
      ],
      gatewayArgv: gateway.argv,
    };
    process.stdout.write(`${JSON.stringify(row)}\n`);
    return row;
  } finally {
    await gateway.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The report

function table(rows: readonly FloodRow[]): string {
  const stats = (p: ProbeStats) => `${p.p50} / ${p.p99} / ${p.max}${Object.keys(p.failed).length ? ` (failed: ${tallyText(p.failed)})` : ''}`;
  const header =
    '| Flood | /health p50 / p99 / max ms (kept-alive connection, every 20 ms) | /health on a new connection p50 / p99 / max ms (every 200 ms) | Gateway event-loop delay p99 / max ms | Peak RSS MB | Gateway survived | Refusals by code (gateway) | Clients saw |';
  const lines = rows.map(
    (r) =>
      `| ${r.flood} | ${stats(r.health.keepAlive)} | ${stats(r.health.fresh)} | ${r.gatewayLoopDelayMs.p99} / ${r.gatewayLoopDelayMs.max} | ${r.peakRssMb} | ${r.survived ? 'yes' : 'NO'} | ${tallyText(r.refusals) || '-'} | ${tallyText(r.clients)} |`,
  );
  return [header, '|---|---|---|---|---|---|---|---|', ...lines].join('\n');
}

/** Runs the floods named (all by default), prints the table and writes the JSON; returns the failures. */
export async function runHostileFloods(which: readonly string[]): Promise<string[]> {
  const started = new Date();
  const rows: FloodRow[] = [];
  for (const [key, name] of floodPlan(which)) rows.push(await measureFlood(key, name));

  process.stdout.write(`\n${table(rows)}\n`);
  for (const r of rows) for (const note of r.notes) process.stdout.write(`  ${r.flood.slice(0, 2)} ${note}\n`);
  const failures = rows.filter((r) => !r.survived).map((r) => `${r.flood}: the gateway did not survive (${JSON.stringify(r.after)})`);
  const missed = rows.filter((r) => r.health.keepAlive.p99 >= HEALTH_P99_TARGET_MS).map((r) => `${r.flood}: /health p99 ${r.health.keepAlive.p99} ms (target < ${HEALTH_P99_TARGET_MS} ms)`);
  const payload = {
    date: started.toISOString(),
    node: process.version,
    bundle: process.env['STRESS_BUNDLE'] ?? 'npm start',
    nodeFlags: process.env['STRESS_NODE_FLAGS'] ?? null,
    clientsNice: CLIENTS_NICE,
    probeIntervalMs: PROBE_INTERVAL_MS,
    freshProbeIntervalMs: FRESH_PROBE_INTERVAL_MS,
    healthP99TargetMs: HEALTH_P99_TARGET_MS,
    rows,
    failures,
    missedTarget: missed,
  };
  mkdirSync(`${root}bench/results`, { recursive: true });
  const file = `${root}bench/results/stress-hostile-${started.toISOString().slice(0, 19).replaceAll(':', '-')}.json`;
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  process.stdout.write(`\nresults: ${file}\n`);
  for (const m of missed) process.stdout.write(`target missed: ${m}\n`);
  return failures;
}

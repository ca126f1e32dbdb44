/**
 * `npm run bench`: the gateway against the devnet on loopback, each in its own
 * process (so the gateway's RSS is its own), at 0 ms and 20 ms added upstream
 * latency. Prints a table and writes JSON to bench/results/.
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 16),
 * BENCH_LATENCIES (default "0,20").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { configFromEnv } from '../src/config.ts';
import { heapBudget } from '../src/heap-budget.ts';
import { countRounds, percentile } from './stats.ts';
import { buildScenarios, type Fixtures, type Scenario } from './scenarios.ts';
import { directS2 } from './direct.ts';
import { freePort, procMemory, root, waitFor } from './process.ts';

const DURATION = Number(process.env['BENCH_DURATION'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 16);
/** The flags `npm start` gives node (see package.json): the heap follows the limits (src/heap-budget.ts), here with an external devnet. */
const GATEWAY_HEAP_MB = process.env['GATEWAY_HEAP_MB'] ?? heapBudget(configFromEnv({ ...process.env, DATA_API_URL: 'http://devnet', NODE_URLS: 'mainnet=http://devnet' })).heapMb;
const GATEWAY_NODE_FLAGS = [`--max-old-space-size=${GATEWAY_HEAP_MB}`, '--max-semi-space-size=8'];
const LATENCIES = (process.env['BENCH_LATENCIES'] ?? '0,20').split(',').map(Number);

interface Proc {
  child: ChildProcess;
  url: string;
}

function startProcess(script: string, env: Record<string, string>): ChildProcess {
  // The gateway runs as `npm start` runs it (the esbuild bundle); the devnet through tsx.
  const args = script.endsWith('.mjs') ? [...GATEWAY_NODE_FLAGS, script] : ['--import', 'tsx', script];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function startDevnetProcess(latencyMs: number): Promise<Proc> {
  const port = await freePort();
  const child = startProcess('src/devnet/cli.ts', { DEVNET_PORT: String(port), DEVNET_LATENCY_MS: String(latencyMs) });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/__devnet/stats`);
  return { child, url };
}

async function startGatewayProcess(devnetUrl: string, cache: 'off' | 'memory'): Promise<Proc> {
  const port = await freePort();
  const child = startProcess('dist/cli.mjs', {
    PORT: String(port),
    DATA_API_URL: devnetUrl,
    NODE_URLS: `mainnet=${devnetUrl},fuji=${devnetUrl}/nodes/fuji`,
    CACHE: cache,
  });
  const url = `http://127.0.0.1:${port}/graphql`;
  await waitFor(`${url}?query=%7B__typename%7D`);
  return { child, url };
}

/** RSS and peak RSS in MB; throws once the process is gone. */
function rssMb(pid: number): { rss: number; peak: number } {
  const { rssMb: rss, peakMb: peak } = procMemory(pid, { throwIfGone: true });
  return { rss, peak };
}

async function gql(url: string, query: string): Promise<{ errors?: unknown[]; extensions?: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return (await res.json()) as { errors?: unknown[] };
}

async function devnetCall(devnet: string, path: string, method = 'GET'): Promise<unknown> {
  const res = await fetch(`${devnet}${path}`, { method });
  return res.json();
}

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

/** One query through the gateway with the devnet's counters reset: upstream requests and sequential rounds. */
async function probe(gateway: Proc, devnet: string, query: string): Promise<{ calls: number; rounds: number }> {
  await devnetCall(devnet, '/__devnet/stats/reset', 'POST');
  const single = await gql(gateway.url, query);
  if (single.errors) throw new Error(`query failed: ${JSON.stringify(single.errors).slice(0, 500)}`);
  const stats = (await devnetCall(devnet, '/__devnet/stats')) as { requests: number };
  const log = (await devnetCall(devnet, '/__devnet/log')) as { start: number; end: number }[];
  return { calls: stats.requests, rounds: countRounds(log) };
}

/** Samples the gateway's RSS while `work` runs; returns the peak in MB. */
async function withRss<T>(gateway: Proc, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rssMb(gateway.child.pid as number).rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(gateway.child.pid as number).rss);
  }, 200);
  try {
    return { result: await work(), peak: round(peak) };
  } finally {
    clearInterval(sampler);
  }
}

async function measureScenario(s: Scenario, gateway: Proc, devnet: string, latencyMs: number, cache: string, connections = CONNECTIONS): Promise<Row> {
  await gql(gateway.url, s.query); // warm-up (with the cache on, this fills it)
  const { calls, rounds } = await probe(gateway, devnet, s.query);
  const { result, peak } = await withRss(gateway, () => load(gateway.url, JSON.stringify({ query: s.query }), 'POST', connections));
  return {
    scenario: connections === 1 ? `${s.id} (1 connection)` : s.id,
    latencyMs, cache, upstreamPerQuery: calls, rounds, ...result, peakRssMb: peak,
  };
}

/** S5: N identical queries at once on a cold gateway; the total upstream requests for all of them. */
async function measureConcurrent(s: Scenario, gateway: Proc, devnet: string, latencyMs: number, cache: string): Promise<Row> {
  const n = s.concurrent ?? 50;
  await devnetCall(devnet, '/__devnet/stats/reset', 'POST');
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: n }, () => gql(gateway.url, s.query)));
  const wall = performance.now() - t0;
  const errors = results.filter((r) => r.errors).length;
  const total = ((await devnetCall(devnet, '/__devnet/stats')) as { requests: number }).requests;
  const log = (await devnetCall(devnet, '/__devnet/log')) as { start: number; end: number }[];
  return {
    scenario: s.id, latencyMs, cache, upstreamPerQuery: total, rounds: countRounds(log), mean: round(wall), p50: round(wall), p99: round(wall), rps: 0, errors,
    peakRssMb: round(rssMb(gateway.child.pid as number).rss), note: `${n} concurrent identical S2 on a cold cache: total upstream requests; latency = wall time for all`,
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

async function main(): Promise<void> {
  const rows: Row[] = [];
  const log = (row: Row) => {
    rows.push(row);
    console.error(`${row.scenario} latency=${row.latencyMs}ms cache=${row.cache}: ${row.upstreamPerQuery} upstream, ${row.rounds} rounds, p50 ${row.p50} ms, p99 ${row.p99} ms, ${Math.round(row.rps)} req/s, RSS ${row.peakRssMb} MB`);
  };
  for (const latencyMs of LATENCIES) {
    const devnet = await startDevnetProcess(latencyMs);
    const fixtures = ((await devnetCall(devnet.url, '/__devnet/fixtures')) as { mainnet: Fixtures }).mainnet;
    const scenarios = buildScenarios(fixtures);
    const byId = (id: string) => scenarios.find((x) => x.id === id) as Scenario;
    try {
      // Uncached: every query goes upstream.
      const off = await startGatewayProcess(devnet.url, 'off');
      try {
        log(await measureScenario(byId('S1'), off, devnet.url, latencyMs, 'off', 1));
        log(await measureScenario(byId('S2'), off, devnet.url, latencyMs, 'off', 1));
        for (const id of ['S1', 'S2', 'S3', 'S4']) log(await measureScenario(byId(id), off, devnet.url, latencyMs, 'off'));
        log({ scenario: 'gateway peak RSS', latencyMs, cache: 'off', upstreamPerQuery: 0, rounds: 0, p50: 0, p99: 0, rps: 0, errors: 0, peakRssMb: round(rssMb(off.child.pid as number).peak), note: 'VmHWM after the uncached scenarios' });
      } finally {
        off.child.kill('SIGTERM');
      }
      // Cached (the default configuration), starting cold for S5.
      const mem = await startGatewayProcess(devnet.url, 'memory');
      try {
        log(await measureConcurrent(byId('S5'), mem, devnet.url, latencyMs, 'memory'));
        for (const id of ['S1', 'S2', 'S3', 'S4']) log(await measureScenario(byId(id), mem, devnet.url, latencyMs, 'memory'));
        await gql(mem.url, byId('S2').query);
        const again = await probe(mem, devnet.url, byId('S2').query);
        log({ scenario: 'S2 repeated', latencyMs, cache: 'memory', upstreamPerQuery: again.calls, rounds: 0, p50: 0, p99: 0, rps: 0, errors: 0, peakRssMb: 0, note: 'an identical S2 within the TTL' });
        log({ scenario: 'gateway peak RSS', latencyMs, cache: 'memory', upstreamPerQuery: 0, rounds: 0, p50: 0, p99: 0, rps: 0, errors: 0, peakRssMb: round(rssMb(mem.child.pid as number).peak), note: 'VmHWM after the cached scenarios' });
      } finally {
        mem.child.kill('SIGTERM');
      }
      // The floor: the same data straight from the REST/RPC endpoints.
      const s1url = `${devnet.url}/v1/networks/mainnet/validators?pageSize=10`;
      log({ scenario: 'S1 direct REST (1 connection)', latencyMs, cache: '-', upstreamPerQuery: 1, rounds: 1, ...(await load(s1url, undefined, 'GET', 1)), peakRssMb: 0 });
      log({ scenario: 'S1 direct REST', latencyMs, cache: '-', upstreamPerQuery: 1, rounds: 1, ...(await load(s1url, undefined, 'GET')), peakRssMb: 0 });
      await directS2(devnet.url);
      await devnetCall(devnet.url, '/__devnet/stats/reset', 'POST');
      await directS2(devnet.url);
      const s2Calls = ((await devnetCall(devnet.url, '/__devnet/stats')) as { requests: number }).requests;
      const s2Rounds = countRounds((await devnetCall(devnet.url, '/__devnet/log')) as { start: number; end: number }[]);
      log({ scenario: 'S2 direct REST/RPC', latencyMs, cache: '-', upstreamPerQuery: s2Calls, rounds: s2Rounds, ...(await loadFunction(() => directS2(devnet.url))), peakRssMb: 0 });
    } finally {
      devnet.child.kill('SIGTERM');
    }
  }

  const table = formatTable(rows);
  console.log(table);
  mkdirSync(`${root}/bench/results`, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const payload = { date: new Date().toISOString(), node: process.version, durationS: DURATION, connections: CONNECTIONS, rows };
  writeFileSync(`${root}/bench/results/bench-${stamp}.json`, `${JSON.stringify(payload, null, 2)}\n`);
  writeFileSync(`${root}/bench/results/latest.json`, `${JSON.stringify(payload, null, 2)}\n`);
  writeFileSync(`${root}/bench/results/latest.md`, `${table}\n`);
}

function formatTable(rows: Row[]): string {
  const header = '| Scenario | Upstream latency | Cache | Upstream req/query | Rounds | mean ms | p50 ms | p99 ms | req/s | Errors | Peak RSS MB |';
  const sep = '|---|---|---|---|---|---|---|---|---|---|---|';
  // Rows that only report a count or a memory figure show '-' where nothing was timed.
  const timed = (r: Row) => r.mean !== undefined || r.rps > 0;
  const num = (r: Row, v: number | undefined) => (timed(r) && v !== undefined ? String(v) : '-');
  const lines = rows.map((r) =>
    `| ${r.scenario}${r.note ? ` (${r.note})` : ''} | ${r.latencyMs} ms | ${r.cache} | ${r.upstreamPerQuery} | ${r.rounds || '-'} | ${num(r, r.mean)} | ${num(r, r.p50)} | ${num(r, r.p99)} | ${r.rps ? Math.round(r.rps) : '-'} | ${r.errors} | ${r.peakRssMb || '-'} |`,
  );
  return [header, sep, ...lines].join('\n');
}

await main();

/**
 * `npm run bench:stress`: measuring one scenario against the running gateway: the answers
 * tallied against what the scenario allows, wall time and latencies, the gateway's RSS
 * (sampled, and its peak), GET /health during and after, /ready's admission counters after,
 * and this script's own event-loop delay.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { procMemory, sleep, type NpmGateway } from '../process.ts';
import { percentile } from '../stats.ts';
import { errorName, round, tally, type Outcome, type Tally } from './requests.ts';

export interface Row {
  scenario: string;
  cache: string;
  requests: number;
  statuses: Tally;
  /** Keys outside what the scenario allows. */
  unexpected: Tally;
  wallMs: number;
  /** VmHWM after the scenario: the process's peak so far. */
  peakRssMb: number;
  /** Highest VmRSS sampled (every 100 ms) during the scenario. */
  sampledPeakRssMb: number;
  rssAfterMb: number;
  alive: boolean;
  healthAfter: { status: number | string; ms: number };
  /** GET /health every 250 ms while the scenario runs; `slowest`: the 3 slowest, with when they started (ms into the scenario). */
  healthDuring: { samples: number; maxMs: number; failures: number; slowest: { atMs: number; ms: number }[] };
  admissionAfter?: { running: number; queued: number } | string;
  /** The longest this script's own event loop was blocked during the scenario (client-side delays in the timings). */
  clientLoopMaxDelayMs: number;
  latencyMs?: { p50: number; p99: number; max: number };
  failedChecks: string[];
  notes: string[];
}

async function health(base: string): Promise<{ status: number | string; ms: number }> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    return { status: res.status, ms: round(performance.now() - t0) };
  } catch (error) {
    return { status: `ERROR ${errorName(error)}`, ms: round(performance.now() - t0) };
  }
}

/** /ready's admission counters once the scenario's requests are done (given 3 s to drain). */
async function admission(base: string): Promise<{ running: number; queued: number } | string> {
  let last: { running: number; queued: number } | string = 'no answer';
  for (let attempt = 0; attempt < 15; attempt++) {
    try {
      const res = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(10_000) });
      const body = (await res.json()) as { admission?: { running: number; queued: number } };
      last = body.admission ? { running: body.admission.running, queued: body.admission.queued } : `HTTP ${res.status}`;
      if (typeof last !== 'string' && last.running === 0 && last.queued === 0) return last;
    } catch (error) {
      last = `ERROR ${errorName(error)}`;
    }
    await sleep(200);
  }
  return last;
}

export interface ScenarioResult {
  outcomes: Outcome[];
  notes?: string[];
  /** Checks on the answers' content that failed. */
  failedChecks?: string[];
}

export async function measure(
  gateway: NpmGateway,
  scenario: string,
  cache: string,
  allowed: (key: string) => boolean,
  work: () => Promise<ScenarioResult>,
): Promise<Row> {
  let sampling = true;
  let sampledPeak = procMemory(gateway.pid).rssMb;
  const sampler = (async () => {
    while (sampling) {
      sampledPeak = Math.max(sampledPeak, procMemory(gateway.pid).rssMb);
      await sleep(100);
    }
  })();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const during: { atMs: number; ms: number }[] = [];
  let healthFailures = 0;
  const t0 = performance.now();
  const prober = (async () => {
    while (sampling) {
      const atMs = round(performance.now() - t0);
      const h = await health(gateway.base);
      if (h.status !== 200) healthFailures++;
      during.push({ atMs, ms: h.ms });
      await sleep(250);
    }
  })();
  let result: ScenarioResult;
  const notes: string[] = [];
  try {
    result = await work();
  } catch (error) {
    result = { outcomes: [{ key: `SCRIPT ERROR ${String(error).slice(0, 200)}`, ms: 0, bytes: 0 }] };
  }
  const wallMs = round(performance.now() - t0);
  sampling = false;
  await Promise.all([sampler, prober]);
  loop.disable();
  notes.push(...(result.notes ?? []));
  const statuses = tally(result.outcomes);
  const unexpected = Object.fromEntries(Object.entries(statuses).filter(([key]) => !allowed(key)));
  const alive = !gateway.exited() && procMemory(gateway.pid).rssMb > 0;
  const healthAfter = alive ? await health(gateway.base) : { status: 'dead', ms: 0 };
  const admissionAfter = alive ? await admission(gateway.base) : 'dead';
  const mem = procMemory(gateway.pid);
  const latencies = result.outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const row: Row = {
    scenario,
    cache,
    requests: result.outcomes.length,
    statuses,
    unexpected,
    wallMs,
    peakRssMb: round(mem.peakMb),
    sampledPeakRssMb: round(sampledPeak),
    rssAfterMb: round(mem.rssMb),
    alive: alive && healthAfter.status === 200,
    healthAfter,
    healthDuring: {
      samples: during.length,
      maxMs: round(Math.max(0, ...during.map((d) => d.ms))),
      failures: healthFailures,
      slowest: [...during].sort((a, b) => b.ms - a.ms).slice(0, 3),
    },
    admissionAfter,
    clientLoopMaxDelayMs: round(loop.max / 1e6),
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: round(latencies.at(-1) ?? 0) },
    failedChecks: result.failedChecks ?? [],
    notes,
  };
  process.stdout.write(`${JSON.stringify(row)}\n`);
  return row;
}

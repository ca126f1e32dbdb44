/**
 * `npm run soak`: the soak under upstream faults (not `bench:soak`, the paging memory soak;
 * see bench/soak-paging.ts). It runs the devnet as its own process (`npm run devnet`, with `DEVNET_FAULT_RATE` and
 * `DEVNET_LATENCY_MS`), starts the gateway exactly as `npm start` does, pointed at it with
 * `DATA_API_URL`/`NODE_URLS`, and drives mixed queries over 32 keep-alive connections: the GraphiQL
 * examples, validator pages followed by cursor, an address page and a node overview. Halfway, the devnet
 * fails every request for a few seconds (an outage: what circuit breakers are for). It samples the
 * gateway's RSS every second and reports its slope (MB/min, least squares), p50/p99, errors by
 * `extensions.code`, and breaker openings from `/metrics`. Last, it sends SIGTERM to the npm process
 * while every connection is busy and checks that no request was dropped: each one sent got a complete
 * HTTP response, or (after the signal) its new connection was refused.
 *
 * Env: SOAK_SECONDS (300), SOAK_CONNECTIONS (32), SOAK_FAULT_RATE (0.05), SOAK_LATENCY_MS (20),
 * SOAK_OUTAGE_SECONDS (5; 0 for none), SOAK_MIN_REQUESTS (0), SOAK_CACHE (off; or memory), SOAK_JSON ("1": write bench/results/soak-faults-<date>.json).
 * Exits non-zero when a request was dropped, the gateway did not exit 0, or an unexpected code came back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from 'undici';
import { exampleQueries } from '../src/gateway/graphiql-examples.ts';
import { buildScenarios, type Fixtures } from './scenarios.ts';
import { freePort, procMemory, root, sleep, startNpmGateway, waitFor, type NpmGateway } from './process.ts';
import { percentile } from './stats.ts';

export interface FaultSoakOptions {
  /** Seconds of load before the SIGTERM. Default 300 (`SOAK_SECONDS`). */
  seconds?: number;
  /** Keep-alive connections, each sending one request at a time. Default 32 (`SOAK_CONNECTIONS`). */
  connections?: number;
  /** Share of devnet API requests answered 503. Default 0.05 (`SOAK_FAULT_RATE`). */
  faultRate?: number;
  /** Latency the devnet adds to every API request, ms. Default 20 (`SOAK_LATENCY_MS`). */
  latencyMs?: number;
  /** Seconds, halfway through, during which the devnet fails every API request. Default 5 (`SOAK_OUTAGE_SECONDS`). */
  outageSeconds?: number;
  /**
   * The gateway's response cache (`CACHE`). Default `off` (`SOAK_CACHE`): every query reaches the faulty
   * upstream, so faults, retries and breakers are what is soaked; `memory` soaks it as configured by default.
   */
  cache?: 'off' | 'memory';
  /**
   * Answers each phase waits for besides its time: half before the outage, all by the end (a phase on a
   * busy machine runs longer rather than with less load). Default 0 (`SOAK_MIN_REQUESTS`).
   */
  minRequests?: number;
  /** More gateway environment (e.g. `BREAKER_HALF_OPEN_MS` for a short run). Default none. */
  gatewayEnv?: Record<string, string>;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

/**
 * What the gateway may answer under upstream faults: upstream failures (the breaker's refusals are
 * UPSTREAM_UNAVAILABLE too) and admission refusals. Anything else is a bug the soak found.
 */
export const EXPECTED_FAULT_CODES: readonly string[] = ['UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'SERVER_BUSY'];

export interface FaultSoakResult {
  seconds: number;
  connections: number;
  faultRate: number;
  latencyMs: number;
  outageSeconds: number;
  cache: 'off' | 'memory';
  requests: number;
  requestsPerSecond: number;
  /** Time to a complete response, ms. */
  latency: { p50Ms: number; p99Ms: number; maxMs: number };
  /** Completed responses by HTTP status. */
  statuses: Record<string, number>;
  /** GraphQL errors by `extensions.code` (one response may carry several). */
  errorsByCode: Record<string, number>;
  /** Responses with at least one error. */
  responsesWithErrors: number;
  /** Codes outside {@link EXPECTED_FAULT_CODES}. */
  unexpectedCodes: string[];
  rss: {
    samples: number;
    startMb: number;
    endMb: number;
    peakMb: number;
    /** Least-squares slope over every sample. */
    slopeMbPerMin: number;
    /** The same over the last three quarters (after warm-up: caches filling, JIT). */
    steadySlopeMbPerMin: number;
  };
  /** Sum of `chaingraph_upstream_breaker_openings_total`, or "n/a" when /metrics does not have it. */
  breakerOpenings: number | 'n/a';
  breakerOpeningsByUpstream: Record<string, number>;
  /** Requests the devnet served (faults included). */
  upstreamRequests: number;
  shutdown: {
    /** Requests sent and not yet answered when the SIGTERM was sent. */
    inFlightAtSignal: number;
    /** Of those, answered completely. */
    inFlightAnswered: number;
    /** Requests sent after the signal on a still-open connection and answered. */
    answeredAfterSignal: number;
    /** New connections refused after the signal (the listener is closed: expected). */
    refusedAfterSignal: number;
    /** Requests sent that got no complete response (reset, truncated): must be 0. */
    dropped: number;
    droppedErrors: string[];
    /** npm's exit code (node's, passed on). */
    exitCode: number | null;
    /** From the signal to npm's exit, ms. */
    exitMs: number;
  };
}

interface GraphQLBody {
  data?: unknown;
  errors?: { extensions?: { code?: string } }[];
}

interface Operation {
  name: string;
  body: (cursor: string | undefined) => string;
  /** The next cursor from a response (validator pages walk on). */
  next?: (body: GraphQLBody) => string | undefined;
}

const VALIDATORS_PAGE = `query ValidatorsPage($after: String) {
  network(name: MAINNET) {
    validators(first: 25, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges { node { nodeId amountStaked validationStatus startTimestamp endTimestamp } }
    }
  }
}`;

function operations(fixtures: Fixtures): Operation[] {
  const examples = exampleQueries(fixtures);
  const example = (name: string): Operation => ({ name, body: () => JSON.stringify({ query: examples, operationName: name }) });
  const scenarios = buildScenarios(fixtures);
  const plain = (name: string, id: string): Operation => {
    const query = scenarios.find((s) => s.id === id)?.query;
    if (!query) throw new Error(`no benchmark scenario ${id}`);
    return { name, body: () => JSON.stringify({ query }) };
  };
  const pages: Operation = {
    name: 'ValidatorsPage',
    body: (after) => JSON.stringify({ query: VALIDATORS_PAGE, variables: { after: after ?? null } }),
    next: (body) => {
      const page = (body.data as { network?: { validators?: { pageInfo?: { hasNextPage: boolean; endCursor: string | null } } } } | null)?.network?.validators
        ?.pageInfo;
      return page?.hasNextPage && page.endCursor ? page.endCursor : undefined;
    },
  };
  return [
    example('ValidatorWalk'),
    pages,
    example('AddressActivity'),
    plain('AddressPage', 'S3'),
    pages,
    example('SubnetWithChains'),
    example('NodeOverview'),
    plain('NodeOverviewPeers', 'S4'),
    pages,
    plain('ValidatorsPlain', 'S1'),
  ];
}

/** Least-squares slope of (minutes, MB) points. */
export function slopePerMinute(points: readonly { t: number; mb: number }[]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const meanT = points.reduce((s, p) => s + p.t, 0) / n;
  const meanM = points.reduce((s, p) => s + p.mb, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - meanT) * (p.mb - meanM);
    den += (p.t - meanT) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Samples of a Prometheus text exposition, summed by label `by` for one metric; undefined when absent. */
export function sumMetric(text: string, metric: string, by: string): Record<string, number> | undefined {
  const lines = text.split('\n').filter((line) => line.startsWith(`${metric}{`) || line.startsWith(`${metric} `));
  if (lines.length === 0) return undefined;
  const sums: Record<string, number> = {};
  for (const line of lines) {
    const label = line.match(new RegExp(`${by}="([^"]*)"`))?.[1] ?? '';
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (Number.isFinite(value)) sums[label] = (sums[label] ?? 0) + value;
  }
  return sums;
}

/** `npm run devnet` as its own process group (npm, its shell, tsx and node all stop with one signal). */
async function startDevnetProcess(port: number, faultRate: number, latencyMs: number): Promise<{ proc: ChildProcess; url: string }> {
  let stderr = '';
  let exit: string | undefined;
  const proc = spawn('npm', ['run', '-s', 'devnet'], {
    cwd: root,
    env: { ...process.env, DEVNET_PORT: String(port), DEVNET_FAULT_RATE: String(faultRate), DEVNET_LATENCY_MS: String(latencyMs) },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  proc.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  proc.on('exit', (code, signal) => {
    exit = `npm run devnet exited (${code ?? signal}): ${stderr}`;
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/__devnet/fixtures`, { timeoutMs: 60_000, ready: (s) => s === 200, exited: () => exit });
  return { proc, url };
}

async function stopGroup(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  try {
    process.kill(-(proc.pid as number), 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, sleep(5000)]);
}

interface Tally {
  latencies: number[];
  statuses: Record<string, number>;
  errorsByCode: Record<string, number>;
  responsesWithErrors: number;
}

/** Runs the soak and returns its numbers; stops everything it started, whatever happens. */
export async function runFaultSoak(options: FaultSoakOptions = {}): Promise<FaultSoakResult> {
  const seconds = options.seconds ?? 300;
  const connections = options.connections ?? 32;
  const faultRate = options.faultRate ?? 0.05;
  const latencyMs = options.latencyMs ?? 20;
  const outageSeconds = options.outageSeconds ?? 5;
  const minRequests = options.minRequests ?? 0;
  const cache = options.cache ?? 'off';
  const log = options.log ?? (() => undefined);

  const devnet = await startDevnetProcess(await freePort(), faultRate, latencyMs);
  let gateway: NpmGateway | undefined;
  try {
    const fixtures = ((await (await fetch(`${devnet.url}/__devnet/fixtures`)).json()) as { mainnet: Fixtures }).mainnet;
    gateway = await startNpmGateway({
      env: {
        DATA_API_URL: devnet.url,
        NODE_URLS: `mainnet=${devnet.url},fuji=${devnet.url}/nodes/fuji`,
        LOG_LEVEL: 'error',
        CACHE: cache,
        ...options.gatewayEnv,
      },
    });
    const running = gateway;
    log(`gateway pid ${running.pid} on ${running.url}; devnet ${devnet.url} (fault rate ${faultRate}, latency ${latencyMs} ms)`);
    const ops = operations(fixtures);

    const tally: Tally = { latencies: [], statuses: {}, errorsByCode: {}, responsesWithErrors: 0 };
    const shutdown = { signalAt: 0, inFlightAtSignal: 0, inFlightAnswered: 0, answeredAfterSignal: 0, refusedAfterSignal: 0, dropped: 0, droppedErrors: [] as string[] };
    const inFlight = new Set<{ answered: boolean; beforeSignal: boolean }>();
    let signalled = false;
    let requests = 0;

    const worker = async (index: number): Promise<void> => {
      const client = new Client(running.base, { pipelining: 1, keepAliveTimeout: 30_000 });
      let cursor: string | undefined;
      try {
        for (let i = index; ; i++) {
          const op = ops[i % ops.length] as Operation;
          const request = { answered: false, beforeSignal: !signalled };
          inFlight.add(request);
          const started = performance.now();
          try {
            const res = await client.request({
              path: '/graphql',
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
              body: op.body(cursor),
            });
            const body = (await res.body.json()) as GraphQLBody;
            request.answered = true;
            requests++;
            tally.latencies.push(performance.now() - started);
            tally.statuses[res.statusCode] = (tally.statuses[res.statusCode] ?? 0) + 1;
            if (body.errors?.length) tally.responsesWithErrors++;
            for (const error of body.errors ?? []) {
              const code = error.extensions?.code ?? 'NO_CODE';
              tally.errorsByCode[code] = (tally.errorsByCode[code] ?? 0) + 1;
            }
            if (op.next) cursor = op.next(body);
            if (signalled) {
              if (request.beforeSignal) shutdown.inFlightAnswered++;
              else shutdown.answeredAfterSignal++;
            }
          } catch (error) {
            const code = (error as { code?: string }).code ?? String(error);
            // After the signal, a new connection to the closed listener is refused: the request was never sent.
            if (signalled && code === 'ECONNREFUSED') shutdown.refusedAfterSignal++;
            else {
              shutdown.dropped++;
              if (shutdown.droppedErrors.length < 20) shutdown.droppedErrors.push(`${op.name}: ${code}`);
            }
            if (signalled) return;
            // Before any signal a failure is a finding, not the end of the run.
          } finally {
            inFlight.delete(request);
          }
        }
      } finally {
        await client.close().catch(() => undefined);
      }
    };

    const rssSamples: { t: number; mb: number }[] = [];
    let peakMb = 0;
    const startedAt = performance.now();
    const sampler = setInterval(() => {
      const { rssMb, peakMb: hwm } = procMemory(running.pid);
      if (rssMb > 0) rssSamples.push({ t: (performance.now() - startedAt) / 60_000, mb: rssMb });
      peakMb = Math.max(peakMb, hwm);
    }, 1000);
    const workers = Array.from({ length: connections }, (_, i) => worker(i));

    // The outage: halfway, every devnet API request fails for a while, then the start-up faults resume.
    const outageAt = Math.max(0, seconds / 2 - outageSeconds / 2);
    const progress = setInterval(() => {
      const t = Math.round((performance.now() - startedAt) / 1000);
      log(`${t}s: ${requests} answered, RSS ${rssSamples.at(-1)?.mb.toFixed(0) ?? '?'} MB, errors ${JSON.stringify(tally.errorsByCode)}`);
    }, seconds >= 60 ? 30_000 : 5_000);
    // A phase ends when its time is up and its share of `minRequests` was answered (the workers stop only at the signal).
    const answered = async (target: number): Promise<void> => {
      const deadline = performance.now() + 120_000;
      while (requests < target && performance.now() < deadline) await sleep(100);
    };
    if (outageSeconds > 0) {
      await sleep(outageAt * 1000);
      await answered(Math.ceil(minRequests / 2));
      await fetch(`${devnet.url}/__devnet/chaos`, { method: 'POST', body: JSON.stringify({ faultRate: 1 }) });
      log(`outage: every devnet request fails for ${outageSeconds} s`);
      await sleep(outageSeconds * 1000);
      await fetch(`${devnet.url}/__devnet/chaos`, { method: 'POST', body: '' });
      log('outage over');
      await sleep(Math.max(0, seconds - outageAt - outageSeconds) * 1000);
    } else {
      await sleep(seconds * 1000);
    }
    await answered(minRequests);
    clearInterval(progress);

    // The breakers' count, before the gateway goes.
    let breakerOpeningsByUpstream: Record<string, number> | undefined;
    try {
      const metrics = await (await fetch(`${running.base}/metrics`)).text();
      breakerOpeningsByUpstream = sumMetric(metrics, 'chaingraph_upstream_breaker_openings_total', 'upstream');
    } catch {
      breakerOpeningsByUpstream = undefined;
    }
    const upstreamRequests = ((await (await fetch(`${devnet.url}/__devnet/stats`)).json()) as { requests: number }).requests;

    // SIGTERM to npm while every connection is busy: whatever is in flight must be answered.
    const exited = new Promise<number | null>((resolve) =>
      running.exited() ? resolve(running.npm.exitCode) : running.npm.once('exit', (code) => resolve(code)),
    );
    signalled = true;
    shutdown.inFlightAtSignal = [...inFlight].filter((r) => r.beforeSignal && !r.answered).length;
    const signalAt = performance.now();
    process.kill(running.npm.pid as number, 'SIGTERM');
    const exitCode = await exited;
    const exitMs = Math.round(performance.now() - signalAt);
    clearInterval(sampler);
    await Promise.all(workers);

    const elapsed = (signalAt - startedAt) / 1000;
    const sorted = [...tally.latencies].sort((a, b) => a - b);
    const steady = rssSamples.slice(Math.floor(rssSamples.length / 4));
    const breakerOpenings = breakerOpeningsByUpstream ? Object.values(breakerOpeningsByUpstream).reduce((a, b) => a + b, 0) : 'n/a';
    return {
      seconds: Math.round(elapsed),
      connections,
      faultRate,
      latencyMs,
      outageSeconds,
      cache,
      requests,
      requestsPerSecond: Math.round(requests / elapsed),
      latency: { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: Math.round(sorted.at(-1) ?? 0) },
      statuses: tally.statuses,
      errorsByCode: tally.errorsByCode,
      responsesWithErrors: tally.responsesWithErrors,
      unexpectedCodes: Object.keys(tally.errorsByCode).filter((code) => !EXPECTED_FAULT_CODES.includes(code)),
      rss: {
        samples: rssSamples.length,
        startMb: Math.round(rssSamples[0]?.mb ?? 0),
        endMb: Math.round(rssSamples.at(-1)?.mb ?? 0),
        peakMb: Math.round(peakMb),
        slopeMbPerMin: Math.round(slopePerMinute(rssSamples) * 100) / 100,
        steadySlopeMbPerMin: Math.round(slopePerMinute(steady) * 100) / 100,
      },
      breakerOpenings,
      breakerOpeningsByUpstream: breakerOpeningsByUpstream ?? {},
      upstreamRequests,
      shutdown: {
        inFlightAtSignal: shutdown.inFlightAtSignal,
        inFlightAnswered: shutdown.inFlightAnswered,
        answeredAfterSignal: shutdown.answeredAfterSignal,
        refusedAfterSignal: shutdown.refusedAfterSignal,
        dropped: shutdown.dropped,
        droppedErrors: shutdown.droppedErrors,
        exitCode,
        exitMs,
      },
    };
  } finally {
    if (gateway && !gateway.exited()) {
      try {
        process.kill(gateway.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await stopGroup(devnet.proc);
  }
}

/** The report `npm run soak` prints. */
export function formatFaultSoak(r: FaultSoakResult): string {
  const codes = Object.entries(r.errorsByCode)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  return [
    `soak under faults: ${r.seconds} s, ${r.connections} connections, devnet fault rate ${r.faultRate}, latency ${r.latencyMs} ms, ${r.outageSeconds} s outage halfway, cache ${r.cache}`,
    `  requests        ${r.requests} answered (${r.requestsPerSecond}/s), ${r.upstreamRequests} upstream requests`,
    `  latency         p50 ${r.latency.p50Ms} ms, p99 ${r.latency.p99Ms} ms, max ${r.latency.maxMs} ms`,
    `  statuses        ${JSON.stringify(r.statuses)}`,
    `  errors by code  ${codes || 'none'} (${r.responsesWithErrors} responses with errors)${r.unexpectedCodes.length ? `; UNEXPECTED: ${r.unexpectedCodes.join(', ')}` : ''}`,
    `  breaker opened  ${r.breakerOpenings}${r.breakerOpenings === 'n/a' ? '' : ` ${JSON.stringify(r.breakerOpeningsByUpstream)}`}`,
    `  RSS             ${r.rss.startMb} -> ${r.rss.endMb} MB (peak ${r.rss.peakMb} MB, ${r.rss.samples} samples), slope ${r.rss.slopeMbPerMin} MB/min, after warm-up ${r.rss.steadySlopeMbPerMin} MB/min`,
    `  SIGTERM to npm  ${r.shutdown.inFlightAtSignal} in flight, ${r.shutdown.inFlightAnswered} of them answered; ${r.shutdown.answeredAfterSignal} more answered on open connections, ` +
      `${r.shutdown.refusedAfterSignal} new connections refused; dropped ${r.shutdown.dropped}${r.shutdown.droppedErrors.length ? ` (${r.shutdown.droppedErrors.join('; ')})` : ''}; ` +
      `exit ${r.shutdown.exitCode} after ${r.shutdown.exitMs} ms`,
  ].join('\n');
}

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0, got "${raw}"`);
  return value;
}

async function main(): Promise<void> {
  const result = await runFaultSoak({
    seconds: numberFromEnv('SOAK_SECONDS', 300),
    connections: numberFromEnv('SOAK_CONNECTIONS', 32),
    faultRate: numberFromEnv('SOAK_FAULT_RATE', 0.05),
    latencyMs: numberFromEnv('SOAK_LATENCY_MS', 20),
    outageSeconds: numberFromEnv('SOAK_OUTAGE_SECONDS', 5),
    minRequests: numberFromEnv('SOAK_MIN_REQUESTS', 0),
    cache: process.env['SOAK_CACHE'] === 'memory' ? 'memory' : 'off',
    log: (line) => console.error(line),
  });
  console.log(formatFaultSoak(result));
  if (process.env['SOAK_JSON'] === '1') {
    mkdirSync(`${root}bench/results`, { recursive: true });
    const file = `${root}bench/results/soak-faults-${new Date().toISOString().slice(0, 10)}.json`;
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`  written to ${file}`);
  }
  const failed = result.shutdown.dropped > 0 || result.shutdown.exitCode !== 0 || result.unexpectedCodes.length > 0;
  process.exit(failed ? 1 : 0);
}

// Run as a script (`npm run soak`), not when the suite imports it.
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();

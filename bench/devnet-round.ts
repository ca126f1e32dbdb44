/**
 * `npx tsx bench/devnet-round.ts [rounds]`: what the devnet itself costs the validator walk.
 *
 * Records the walk's real upstream requests (the built gateway, `npm run build` first,
 * serves the walk once with its cache off over a devnet process and the devnet's request
 * log gives each request's method, path, query and body), then fires all of them at
 * once, as one round (15 requests: the validators list, 6 delegator and 6 pending-reward
 * listings by node id, `info.peers`, the subnets), `rounds` times at 20 ms added latency
 * and at 0 ms, and prints the round's wall time (p50, p90, max). Then the devnet's CPU
 * per request of each kind, read from /proc around 500 sequential requests.
 *
 * Target: the round at 20 ms latency completes within 25 ms (p50).
 */
import { existsSync } from 'node:fs';
import { Agent, request } from 'undici';
import { S2_QUERY } from './scenarios.ts';
import { root } from './process.ts';
import { cpuMs, runQueries, startDevnetProcess, startGatewayProcess, type Proc } from './gateway-process.ts';

const ROUNDS = Number(process.argv[2] ?? 30);
const SEQUENTIAL = 500;
const LATENCIES = [20, 0];

interface LoggedRequest {
  route: string;
  method: string;
  target: string;
  body?: string;
}

// As many connections as a round has requests, kept alive, as the gateway's pool does.
const agent = new Agent({ connections: 32, keepAliveTimeout: 60_000 });

async function send(base: string, r: LoggedRequest): Promise<void> {
  const res = await request(`${base}${r.target}`, {
    method: r.method as 'GET' | 'POST',
    dispatcher: agent,
    ...(r.body === undefined ? {} : { body: r.body, headers: { 'content-type': 'application/json' } }),
  });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${r.method} ${r.target}: ${res.statusCode}`);
}

async function devnetPost(base: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  await res.text();
}

/** The walk's upstream requests, in the order the devnet saw them. */
async function recordWalk(devnet: Proc): Promise<LoggedRequest[]> {
  if (!existsSync(`${root}dist/cli.mjs`)) throw new Error('dist/cli.mjs is missing: run `npm run build` first');
  const gateway = await startGatewayProcess(devnet.url, 'off');
  try {
    await runQueries(gateway.url, S2_QUERY, 1);
    await devnetPost(devnet.url, '/__devnet/stats/reset', {});
    await runQueries(gateway.url, S2_QUERY, 1);
    const log = (await (await fetch(`${devnet.url}/__devnet/log`)).json()) as LoggedRequest[];
    if (log.some((e) => e.target === undefined)) throw new Error('the devnet request log has no targets (an older devnet?)');
    return log.map(({ route, method, target, body }) => ({ route, method, target, ...(body === undefined ? {} : { body }) }));
  } finally {
    await gateway.stop();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const WARMUP_ROUNDS = 3;

/**
 * `ROUNDS` rounds of all `requests` at once: the wall time of each as this client sees it,
 * and as the devnet does (from the first request's arrival to the last answer's end, from
 * its request log), ms, each sorted.
 */
async function rounds(base: string, requests: LoggedRequest[]): Promise<{ wall: number[]; devnet: number[] }> {
  const wall: number[] = [];
  for (let i = 0; i < ROUNDS + WARMUP_ROUNDS; i++) {
    if (i === WARMUP_ROUNDS) await devnetPost(base, '/__devnet/stats/reset', {});
    const start = performance.now();
    await Promise.all(requests.map((r) => send(base, r)));
    // The first rounds open the connections.
    if (i >= WARMUP_ROUNDS) wall.push(performance.now() - start);
  }
  const log = (await (await fetch(`${base}/__devnet/log`)).json()) as { start: number; end: number }[];
  const devnet: number[] = [];
  for (let k = 0; k + requests.length <= log.length; k += requests.length) {
    const round = log.slice(k, k + requests.length);
    devnet.push(Math.max(...round.map((e) => e.end)) - Math.min(...round.map((e) => e.start)));
  }
  return { wall: wall.sort((a, b) => a - b), devnet: devnet.sort((a, b) => a - b) };
}

const fmt = (ms: number): string => ms.toFixed(1).padStart(6);

const devnet = await startDevnetProcess(0);
try {
  const requests = await recordWalk(devnet);
  console.log(`the walk: ${requests.length} upstream requests`);
  const kinds = new Map<string, LoggedRequest[]>();
  for (const r of requests) kinds.set(r.route, [...(kinds.get(r.route) ?? []), r]);
  for (const [route, list] of kinds) console.log(`  ${String(list.length).padStart(2)} x ${route}   e.g. ${list[0]?.target.slice(0, 110)}`);

  console.log(`\nround of ${requests.length} at once, ${ROUNDS} rounds    p50    p90    max  (ms)`);
  const row = (label: string, times: number[]): string =>
    `  ${label.padEnd(32)} ${fmt(percentile(times, 50))} ${fmt(percentile(times, 90))} ${fmt(times.at(-1) ?? Number.NaN)}`;
  for (const latencyMs of LATENCIES) {
    await devnetPost(devnet.url, '/__devnet/chaos', { latencyMs });
    const { wall, devnet: inDevnet } = await rounds(devnet.url, requests);
    console.log(row(`latency ${latencyMs} ms, client wall time`, wall));
    console.log(row(`latency ${latencyMs} ms, in the devnet`, inDevnet));
  }
  await devnetPost(devnet.url, '/__devnet/chaos', { latencyMs: 0 });

  console.log(`\ndevnet CPU per request (${SEQUENTIAL} sequential, latency 0)`);
  // Warm-up of every kind first: the first few hundred requests after start pay for the JIT and for collecting the start-up garbage.
  for (let i = 0; i < 200; i++) for (const r of requests) await send(devnet.url, r);
  for (const [route, list] of kinds) {
    const before = cpuMs(devnet.pid);
    for (let i = 0; i < SEQUENTIAL; i++) await send(devnet.url, list[i % list.length] as LoggedRequest);
    const perRequest = (cpuMs(devnet.pid) - before) / SEQUENTIAL;
    console.log(`  ${perRequest.toFixed(3).padStart(6)} ms  ${route}`);
  }
} finally {
  await agent.close();
  await devnet.stop();
}

/**
 * The gateway and the devnet as separate processes for the benchmarks: the gateway
 * exactly as `npm start` runs it (the esbuild bundle under the start script's node
 * flags and environment, read from package.json), the devnet through tsx, and the
 * gateway's own CPU time read from /proc.
 *
 * Every CPU figure of the benchmarks comes from one method, `cpuCurve`: a gateway
 * started fresh for that figure and ready (`GET /ready` answers 200), the query sent
 * one at a time, the process's CPU (schedstat of all its threads, ns) read around:
 *
 * - cold: the mean over the first BENCH_COLD_QUERIES queries after ready (default 100);
 * - warm: the mean over the next BENCH_WARM_QUERIES (default 300);
 * - steady: once BENCH_STEADY_AFTER queries have been sent in all (default 1500), three
 *   batches of at least 500 ms of CPU each (sized from the warm figure), the median.
 *
 * A gateway only gets to its steady cost after a few thousand queries (the JIT compiles
 * the hot paths in stages), so a figure taken after load runs tells nothing about a
 * replica just started; the three figures tell both.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kind, parse, print, visit, type FieldNode } from 'graphql';
import type { FloorRecording, FloorRequest } from './floor.ts';
import { freePort, procMemory, root, waitFor } from './process.ts';
import { median } from './stats.ts';

/** How many queries each part of `cpuCurve` sends (see the header). */
export const CPU_COUNTS = {
  cold: Number(process.env['BENCH_COLD_QUERIES'] ?? 100),
  warm: Number(process.env['BENCH_WARM_QUERIES'] ?? 300),
  steadyAfter: Number(process.env['BENCH_STEADY_AFTER'] ?? 1500),
};
/** CPU each steady batch reaches at least: 5 * 10^5 times schedstat's resolution and long enough that a GC pause or a late compilation is a small share of it. */
const STEADY_BATCH_MS = 500;

/**
 * The start script's command after the build, `NAME=value ... exec node <flags> dist/cli.mjs`:
 * its environment assignments and its node flags as shell words, unexpanded.
 */
function startCommand(checkout = root): { assignments: string[]; flags: string } {
  const script = (JSON.parse(readFileSync(`${checkout}package.json`, 'utf8')) as { scripts: { start: string } }).scripts.start;
  const last = script.split('&&').at(-1)?.trim() ?? '';
  const found = /^((?:[A-Za-z_]\w*=\S*\s+)*)(?:exec\s+)?node\s+(.*?)\s*dist\/cli\.mjs$/s.exec(last);
  if (!found) throw new Error(`unexpected start script (no "node <flags> dist/cli.mjs" after its last &&): ${script}`);
  return { assignments: (found[1] as string).trim().split(/\s+/).filter(Boolean), flags: found[2] as string };
}

/**
 * The node flags and environment the start script gives the gateway under `env`, expanded by
 * the shell as npm's shell expands them (`${GATEWAY_HEAP_MB:-$(node dist/heap-budget-cli.mjs)}`
 * is GATEWAY_HEAP_MB or the heap budget of the configuration in `env`), so a change of the
 * start script is measured without editing the bench.
 */
export function startScriptLaunch(env: NodeJS.ProcessEnv, checkout = root): { flags: string[]; env: Record<string, string> } {
  const { assignments, flags } = startCommand(checkout);
  const names = assignments.map((a) => a.slice(0, a.indexOf('=')));
  // The assignments as shell variables, then their values and the flag words, NUL-separated.
  const script = `${assignments.map((a) => `${a};`).join(' ')} printf '%s\\0' ${names.map((n) => `"$${n}"`).join(' ')} ${flags}`;
  const words = execFileSync('sh', ['-c', script], { cwd: checkout, env, encoding: 'utf8' }).split('\0').slice(0, -1);
  return {
    env: Object.fromEntries(names.map((n, i) => [n, words[i] as string])),
    flags: words.slice(names.length).filter((w) => w !== ''),
  };
}

/** The environment of a bench gateway over an external devnet at `devnetUrl`. */
function gatewayEnv(devnetUrl: string, cache: 'off' | 'memory', env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, LOG_LEVEL: 'warn', DATA_API_URL: devnetUrl, NODE_URLS: `mainnet=${devnetUrl},fuji=${devnetUrl}/nodes/fuji`, CACHE: cache, ...env };
}

/** The flags `npm start` gives node (package.json's start script), for a gateway over an external devnet with the default cache. */
export const GATEWAY_NODE_FLAGS = startScriptLaunch(gatewayEnv('http://devnet', 'memory', {})).flags;

export interface Proc {
  child: ChildProcess;
  pid: number;
  url: string;
  /** Why it exited, once it has. */
  exited(): string | undefined;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export interface GatewayProc extends Proc {
  /** From the spawn to the first 200 from `GET /ready`, ms (at the 200 ms of the polling). */
  readyMs: number;
}

function start(args: string[], env: NodeJS.ProcessEnv, url: string, cwd = root): Proc {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = `${args.join(' ')} exited (${code ?? signal})`;
      resolve();
    }),
  );
  return {
    child,
    pid: child.pid as number,
    url,
    exited: () => exit,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The devnet on a free port with `latencyMs` added to every answer. */
export async function startDevnetProcess(latencyMs: number): Promise<Proc> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = start(['--import', 'tsx', 'src/devnet/cli.ts'], { ...process.env, LOG_LEVEL: 'warn', DEVNET_PORT: String(port), DEVNET_LATENCY_MS: String(latencyMs) }, url);
  await waitFor(`${url}/__devnet/stats`, { exited: proc.exited });
  return proc;
}

/**
 * The built gateway (`npm run build` first) on a free port over `devnetUrl`, started as the
 * start script starts it (its node flags and environment, then `nodeFlags`) and returned once
 * `GET /ready` answers 200: whatever the gateway does before it says ready is not a query's cost.
 * `url` is its /graphql.
 */
export async function startGatewayProcess(devnetUrl: string, cache: 'off' | 'memory', nodeFlags: string[] = [], env: Record<string, string> = {}, checkout = root): Promise<GatewayProc> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const full = { ...gatewayEnv(devnetUrl, cache, env), PORT: String(port) };
  const launch = startScriptLaunch(full, checkout);
  const t0 = performance.now();
  const proc = start([...launch.flags, ...nodeFlags, 'dist/cli.mjs'], { ...full, ...launch.env }, `${base}/graphql`, checkout);
  await waitFor(`${base}/ready`, { ready: (status) => status === 200, exited: proc.exited, timeoutMessage: `the gateway did not answer 200 on ${base}/ready within 60 s` });
  return { ...proc, readyMs: Math.round(performance.now() - t0) };
}

/**
 * Time on CPU of a process so far, all its threads, ns: the first field of
 * /proc/<pid>/task/<tid>/schedstat, summed. It agrees with utime + stime of /proc/<pid>/stat,
 * whose 10 ms ticks are too coarse for a hundred cheap queries. (A thread that has ended no
 * longer counts: node's threads live as long as the process.)
 */
export function cpuNs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return total;
}

/** `cpuNs` in ms. */
export function cpuMs(pid: number): number {
  return cpuNs(pid) / 1e6;
}

/** Sends `query` `n` times, one at a time; throws on a GraphQL error. */
export async function runQueries(url: string, query: string, n: number, headers: Record<string, string> = {}): Promise<void> {
  const body = JSON.stringify({ query });
  for (let i = 0; i < n; i += 1) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const json = (await res.json()) as { errors?: unknown[] };
    if (json.errors) throw new Error(`query failed: ${JSON.stringify(json.errors).slice(0, 300)}`);
  }
}

/** A CPU figure: the gateway's CPU per query, ms, cold, warm and steady (see the header). */
export interface CpuCurve {
  coldMs: number;
  warmMs: number;
  steadyMs: number;
  /** The three steady batches: queries sent and CPU per query of each. */
  steadyBatches: { queries: number; msPerQuery: number }[];
  counts: typeof CPU_COUNTS;
  /** Queries sent in all. */
  queries: number;
  /** From the spawn to ready, ms. */
  readyMs: number;
  /** VmHWM of the gateway at its end, MB. */
  peakRssMb: number;
}

/**
 * The one way the benchmarks measure the gateway's CPU: a gateway started fresh for this
 * figure (`cache`, `env`), ready, sent `query` one at a time (the client's own work is in
 * another process and not counted); stopped at the end.
 */
export async function cpuCurve(devnetUrl: string, cache: 'off' | 'memory', env: Record<string, string>, query: string, counts = CPU_COUNTS): Promise<CpuCurve> {
  return cpuCurveOf(await startGatewayProcess(devnetUrl, cache, [], env), query, counts);
}

/** {@link cpuCurve} of a server already started and ready (the gateway, or the floor of bench/floor.ts); stopped at the end. */
export async function cpuCurveOf(gateway: GatewayProc, query: string, counts = CPU_COUNTS): Promise<CpuCurve> {
  return (await cpuCurvesOf([gateway], query, counts))[0] as CpuCurve;
}

/**
 * {@link cpuCurveOf} of several servers started and ready, measured side by side for a comparison: each
 * part (cold, warm, the run up to steady, each steady batch) is taken of every server in turn before the
 * next part, so that what else the machine does at a given moment weighs on all of them alike. `steadyBatches`
 * (default 3) steady batches each, the median reported. All are stopped at the end.
 */
export async function cpuCurvesOf(gateways: readonly GatewayProc[], query: string, counts = CPU_COUNTS, steadyBatches = 3): Promise<CpuCurve[]> {
  try {
    const sent = gateways.map(() => 0);
    /** CPU per query, ms, of server `g` over queries sent until `enough(ms, queries)`, `chunk(ms, queries)` at a time. */
    const measure = async (g: number, chunk: (ms: number, queries: number) => number, enough: (ms: number, queries: number) => boolean) => {
      const gateway = gateways[g] as GatewayProc;
      const before = cpuNs(gateway.pid);
      let queries = 0;
      let ms = 0;
      while (!enough(ms, queries)) {
        const n = chunk(ms, queries);
        await runQueries(gateway.url, query, n);
        queries += n;
        ms = (cpuNs(gateway.pid) - before) / 1e6;
      }
      sent[g] = (sent[g] as number) + queries;
      return { queries, msPerQuery: ms / queries };
    };
    const each = async <T>(part: (g: number) => Promise<T>): Promise<T[]> => {
      const out: T[] = [];
      for (let g = 0; g < gateways.length; g += 1) out.push(await part(g));
      return out;
    };
    const exactly = (n: number) => (g: number) => measure(g, () => n, (_ms, queries) => queries >= n);
    const cold = await each(exactly(counts.cold));
    const warm = await each(exactly(counts.warm));
    await each(async (g) => {
      await runQueries((gateways[g] as GatewayProc).url, query, Math.max(0, counts.steadyAfter - (sent[g] as number)));
      sent[g] = Math.max(sent[g] as number, counts.steadyAfter);
    });
    const batches = gateways.map(() => [] as CpuCurve['steadyBatches']);
    for (let i = 0; i < steadyBatches; i += 1) {
      await each(async (g) => {
        // Sized from the warm figure; topped up at the rate measured so far when the steady cost is below it.
        const size = Math.ceil(STEADY_BATCH_MS / Math.max((warm[g] as { msPerQuery: number }).msPerQuery, 0.001));
        const topUp = (ms: number, queries: number) => (queries === 0 ? size : Math.ceil(((STEADY_BATCH_MS - ms) * queries) / Math.max(ms, 0.001)) + 1);
        batches[g]?.push(await measure(g, topUp, (ms) => ms >= STEADY_BATCH_MS));
      });
    }
    return gateways.map((gateway, g) => ({
      coldMs: (cold[g] as { msPerQuery: number }).msPerQuery,
      warmMs: (warm[g] as { msPerQuery: number }).msPerQuery,
      steadyMs: median((batches[g] ?? []).map((b) => b.msPerQuery)),
      steadyBatches: batches[g] ?? [],
      counts,
      queries: sent[g] as number,
      readyMs: gateway.readyMs,
      peakRssMb: procMemory(gateway.pid).peakMb,
    }));
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
  }
}

/**
 * `query` with `__typename` in every selection set that lacks it: the gateway's answer to it gives the
 * yoga floor the concrete type of every object (bench/floor.ts).
 */
export function withTypenames(query: string): string {
  const typename: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } };
  return print(
    visit(parse(query), {
      SelectionSet: {
        leave: (node) =>
          node.selections.some((s) => s.kind === Kind.FIELD && (s.alias ?? s.name).value === '__typename') ? undefined : { ...node, selections: [...node.selections, typename] },
      },
    }),
  );
}

/**
 * What the gateway did for `query` on a fresh uncached gateway: the upstream requests it made (from
 * the devnet's log), the response it wrote, and its response to the query with `__typename` in every
 * selection set, for the floors of bench/floor.ts.
 */
export async function recordQuery(devnetUrl: string, query: string): Promise<FloorRecording> {
  const gateway = await startGatewayProcess(devnetUrl, 'off', [], { WARM_UP_MS: '0' });
  const post = async (text: string) => {
    const res = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: text }) });
    const body = await res.text();
    if (!res.ok || (JSON.parse(body) as { errors?: unknown }).errors) throw new Error(`recording the floor: the gateway answered ${res.status}: ${body.slice(0, 300)}`);
    return body;
  };
  try {
    await fetch(`${devnetUrl}/__devnet/stats/reset`, { method: 'POST' });
    const response = await post(query);
    const log = (await (await fetch(`${devnetUrl}/__devnet/log`)).json()) as FloorRequest[];
    const typed = await post(withTypenames(query));
    return { requests: log.map((e) => ({ method: e.method, target: e.target, ...(e.body !== undefined ? { body: e.body } : {}) })), response, typed };
  } finally {
    await gateway.stop();
  }
}

/** The servers of bench/floor.ts: node's HTTP server alone, or graphql-yoga with the gateway's options, typed fields and graphql-jit. */
export type FloorServer = 'plain' | 'yoga';

/**
 * A floor (bench/floor.ts, `server`) on a free port over `devnetUrl`, under the start script's node
 * flags, answering every request by replaying `recording`; returned once it answers, after checking
 * that its answer to `query` (the query it will be sent, as the gateway is) has the gateway's data.
 */
export async function startFloorProcess(devnetUrl: string, recording: FloorRecording, server: FloorServer, query: string): Promise<GatewayProc> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const file = join(mkdtempSync(join(tmpdir(), 'chaingraph-floor-')), 'recording.json');
  writeFileSync(file, JSON.stringify(recording));
  const t0 = performance.now();
  const env = { ...process.env, NODE_ENV: 'production', FLOOR_PORT: String(port), FLOOR_UPSTREAM: devnetUrl, FLOOR_RECORDING: file, FLOOR_SERVER: server };
  const proc = start([...GATEWAY_NODE_FLAGS, '--import', 'tsx', 'bench/floor.ts'], env, server === 'yoga' ? `${base}/graphql` : `${base}/`);
  try {
    await waitFor(`${base}/${server === 'yoga' ? 'health' : 'ready'}`, { ready: (status) => status === 200, exited: proc.exited });
    const readyMs = Math.round(performance.now() - t0);
    const res = await fetch(proc.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const data = (text: string) => JSON.stringify((JSON.parse(text) as { data?: unknown }).data);
    const answer = await res.text();
    if (!res.ok || data(answer) !== data(recording.response)) throw new Error(`the ${server} floor's answer is not the gateway's: ${res.status} ${answer.slice(0, 300)}`);
    return { ...proc, readyMs };
  } catch (error) {
    await proc.stop();
    throw error;
  }
}

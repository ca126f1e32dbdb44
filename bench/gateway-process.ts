/**
 * The gateway and the devnet as separate processes for the benchmarks: the gateway
 * exactly as `npm start` runs it (the esbuild bundle under the start script's node
 * flags), the devnet through tsx, and the gateway's own CPU time read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { configFromEnv } from '../src/server/config.ts';
import { heapBudget } from '../src/server/heap-budget.ts';
import { freePort, root, waitFor } from './process.ts';

/** The flags `npm start` gives node (see package.json): the heap follows the limits (src/server/heap-budget.ts), here with an external devnet. */
const GATEWAY_HEAP_MB = process.env['GATEWAY_HEAP_MB'] ?? heapBudget(configFromEnv({ ...process.env, DATA_API_URL: 'http://devnet', NODE_URLS: 'mainnet=http://devnet' })).heapMb;
export const GATEWAY_NODE_FLAGS = [`--max-old-space-size=${GATEWAY_HEAP_MB}`, '--max-semi-space-size=8', '--heap-growing-percent=100'];

export interface Proc {
  child: ChildProcess;
  pid: number;
  url: string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

function start(args: string[], env: Record<string, string>, url: string): Proc {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    pid: child.pid as number,
    url,
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
  const proc = start(['--import', 'tsx', 'src/devnet/cli.ts'], { DEVNET_PORT: String(port), DEVNET_LATENCY_MS: String(latencyMs) }, url);
  await waitFor(`${url}/__devnet/stats`);
  return proc;
}

/** The built gateway (`npm run build` first) on a free port, over `devnetUrl`; `url` is its /graphql. */
export async function startGatewayProcess(devnetUrl: string, cache: 'off' | 'memory', nodeFlags: string[] = [], env: Record<string, string> = {}): Promise<Proc> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/graphql`;
  const proc = start([...GATEWAY_NODE_FLAGS, ...nodeFlags, 'dist/cli.mjs'], {
    // As the start script sets it (graphql's production instanceOf and the like).
    NODE_ENV: process.env['NODE_ENV'] ?? 'production',
    PORT: String(port),
    DATA_API_URL: devnetUrl,
    NODE_URLS: `mainnet=${devnetUrl},fuji=${devnetUrl}/nodes/fuji`,
    CACHE: cache,
    ...env,
  }, url);
  await waitFor(`${url}?query=%7B__typename%7D`);
  return proc;
}

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** User + system CPU time of a process and all its threads so far, ms (10 ms resolution). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime), counted after the command name's closing parenthesis.
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
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

/**
 * The gateway's CPU per query, ms: `n` sequential queries after `warmup`, CPU read from
 * /proc around them (so the client's own work is not counted).
 */
export async function cpuPerQuery(gateway: Proc, query: string, n: number, warmup = 30): Promise<number> {
  await runQueries(gateway.url, query, warmup);
  const before = cpuMs(gateway.pid);
  await runQueries(gateway.url, query, n);
  return (cpuMs(gateway.pid) - before) / n;
}

/**
 * `npm run bench:stress -- hostile`: the /health prober, a process of its own (forked with IPC) so
 * that the floods' clients, whose work fills the bench's own event loop, never delay a probe.
 *
 * Two probes, both open loop (a probe starts on schedule whether or not the previous one has answered,
 * so a gateway loop blocked for 300 ms shows as the 15 probes that waited on it, not as one slow sample):
 * - `keepAlive`, every `intervalMs` (20), on 4 kept-alive connections (a new one only when the gateway
 *   closes one): how long the gateway takes to answer a client already connected, i.e. how long its
 *   event loop makes a request wait. Probes issued while all 4 are busy queue behind them, as they
 *   would on a load balancer's connections.
 * - `fresh`, every `freshIntervalMs` (200), each on a new connection, as a kubelet's probe comes: the
 *   above plus the wait to be accepted. Node (libuv 1.45 and later) accepts one connection per turn of
 *   the event loop, so this one also shows how long the loop's turns are.
 * On `stop` it answers the samples (and the longest its own loop was held up, which would be in the
 * timings) and exits.
 *
 * argv: <base url> [intervalMs = 20] [freshIntervalMs = 200] [timeoutMs = 10000]
 */
import { Agent, request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export type ProbeKind = 'keepAlive' | 'fresh';

export interface ProbeSample {
  kind: ProbeKind;
  /** ms since the prober started. */
  atMs: number;
  ms: number;
  /** The HTTP status, or the error's code (a timeout is `TIMEOUT`). */
  status: number | string;
}

export interface ProbeReport {
  samples: ProbeSample[];
  /** The longest this process's own loop was blocked (ms): a probe's time includes up to this much of the prober's own delay. */
  proberLoopMaxMs: number;
}

const [base = '', interval = '20', freshInterval = '200', timeout = '10000'] = process.argv.slice(2);
const timeoutMs = Number(timeout);
const url = new URL('/health', base);
const samples: ProbeSample[] = [];
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const t0 = performance.now();
// A few connections, so that one slow answer does not hold the probes issued after it in the agent's queue,
// used in turn (fifo) so that none idles long enough for the gateway's keep-alive timeout to close it;
// opened at the start (the bench drops the first probes) so that a probe never waits to be accepted.
const KEPT_ALIVE = 4;
const keepAlive = new Agent({ keepAlive: true, maxSockets: KEPT_ALIVE, scheduling: 'fifo' });
const outstanding: Record<ProbeKind, number> = { keepAlive: 0, fresh: 0 };

function probe(kind: ProbeKind): void {
  const started = performance.now();
  outstanding[kind]++;
  let done = false;
  const finish = (status: number | string): void => {
    if (done) return;
    done = true;
    outstanding[kind]--;
    samples.push({ kind, atMs: Math.round(started - t0), ms: Math.round((performance.now() - started) * 100) / 100, status });
  };
  const options = kind === 'fresh' ? { agent: false as const, headers: { connection: 'close' } } : { agent: keepAlive };
  const req = request(url, options, (res) => {
    res.resume();
    res.once('end', () => finish(res.statusCode ?? 0));
    res.once('error', (error: NodeJS.ErrnoException) => finish(error.code ?? 'ERROR'));
  });
  // From the probe's start, whatever it waited on (the agent's queue included).
  const timer = setTimeout(() => {
    finish('TIMEOUT');
    req.destroy();
  }, timeoutMs);
  req.once('close', () => clearTimeout(timer));
  req.once('error', (error: NodeJS.ErrnoException) => finish(error.code ?? 'ERROR'));
  req.end();
}

// Never more than a timeout's worth of probes outstanding (a dead gateway would otherwise pile them up).
const every = (kind: ProbeKind, ms: number) =>
  setInterval(() => {
    if (outstanding[kind] < Math.ceil(timeoutMs / ms) + 1) probe(kind);
  }, ms);
for (let i = 0; i < KEPT_ALIVE; i++) probe('keepAlive');
const timers = [every('keepAlive', Number(interval)), every('fresh', Number(freshInterval))];

process.on('message', (message) => {
  if (message !== 'stop') return;
  for (const timer of timers) clearInterval(timer);
  const deadline = performance.now() + timeoutMs;
  const wait = setInterval(() => {
    if (outstanding.keepAlive + outstanding.fresh > 0 && performance.now() < deadline) return;
    clearInterval(wait);
    loop.disable();
    keepAlive.destroy();
    const report: ProbeReport = { samples, proberLoopMaxMs: Math.round(loop.max / 1e4) / 100 };
    process.send?.(report, () => process.exit(0));
  }, 20);
});

/**
 * `tsx bench/tracing-overhead.ts [queries]`: the gateway's CPU per query with tracing
 * off, and on with the OTLP/HTTP exporter sending to a local receiver.
 *
 * The gateway runs in this process (startServer, exactly as `npm start` configures it
 * from the environment) and is measured with `process.cpuUsage` around N sequential
 * queries after a warm-up; the devnet and the OTLP receiver run in child processes so
 * their CPU is not counted. Queries go through `gateway.fetch` (no client socket in
 * the measure). With tracing on, the window ends with a flush of the batch processor,
 * so the export's serialization is counted too. Modes alternate (off, on, off, on) so a
 * drift of the machine affects both alike. Each query runs with the response cache
 * (after the warm-up, no upstream call: operation and resolver spans only) and with
 * `CACHE=off` (every upstream attempt gets its span and its traceparent).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ProxyTracerProvider, trace } from '@opentelemetry/api';
import pino from 'pino';
import { configFromEnv } from '../src/server/config.ts';
import { VALIDATOR_WALK } from '../src/gateway/graphiql-examples.ts';
import { startServer } from '../src/server/server.ts';
import { freePort, root, waitFor } from './process.ts';

const N = Number(process.argv[2] ?? 100);
const WARMUP = 20;
/** `TRACING=off`: measure with tracing off only (the gateway's own CPU per query). */
const OFF_ONLY = process.env.TRACING === 'off';
const QUERIES = {
  'validator walk': VALIDATOR_WALK,
  'validators(first: 10)': 'query Ten { network(name: MAINNET) { validators(first: 10) { edges { node { nodeId amountStaked } } } } }',
} as const;

/** A receiver that accepts OTLP/HTTP exports and counts them, in its own process. */
const RECEIVER = `
const http = require('node:http');
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(req.url === '/v1/traces' ? 200 : 404, { 'content-type': 'application/json' }); res.end('{}'); });
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

function child(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function measure(query: string, tracing: boolean, cache: 'memory' | 'off', upstream: { devnet: string; receiver: string }): Promise<number> {
  const config = configFromEnv({
    PORT: '0',
    CACHE: cache,
    DATA_API_URL: upstream.devnet,
    NODE_URLS: `mainnet=${upstream.devnet},fuji=${upstream.devnet}/nodes/fuji`,
    ...(tracing ? { OTEL_EXPORTER_OTLP_ENDPOINT: upstream.receiver } : {}),
  });
  const running = await startServer(config, pino({ level: 'silent' }));
  const run = async () => {
    const res = await running.gateway.fetch('http://bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = (await res.json()) as { errors?: unknown[] };
    if (body.errors) throw new Error(`query failed: ${JSON.stringify(body.errors).slice(0, 300)}`);
  };
  try {
    for (let i = 0; i < WARMUP; i += 1) await run();
    const flush = () => (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as { forceFlush?: () => Promise<void> };
    await flush().forceFlush?.();
    const before = process.cpuUsage();
    for (let i = 0; i < N; i += 1) await run();
    await flush().forceFlush?.();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / N / 1000;
  } finally {
    await running.close();
  }
}

const devnetPort = await freePort();
const receiverPort = await freePort();
// One node process (tsx as a loader, not npx's chain of processes), so killing it stops the devnet.
const devnet = child(process.execPath, ['--import', 'tsx', 'src/devnet/cli.ts'], { DEVNET_PORT: String(devnetPort) });
const receiver = child(process.execPath, ['-e', RECEIVER], { PORT: String(receiverPort) });
const upstream = { devnet: `http://127.0.0.1:${devnetPort}`, receiver: `http://127.0.0.1:${receiverPort}` };
try {
  await waitFor(`${upstream.devnet}/__devnet/stats`);
  await waitFor(`${upstream.receiver}/`, { ready: () => true });
  console.log(`gateway CPU per query (ms), ${N} sequential queries after ${WARMUP} warm-up, mean of 2 rounds\n`);
  console.log('| query | cache | tracing off | tracing on (OTLP) | overhead |');
  console.log('|---|---|---|---|---|');
  for (const [label, query] of Object.entries(QUERIES)) {
    for (const cache of ['memory', 'off'] as const) {
      const off: number[] = [];
      const on: number[] = [];
      for (let round = 0; round < 2; round += 1) {
        off.push(await measure(query, false, cache, upstream));
        if (!OFF_ONLY) on.push(await measure(query, true, cache, upstream));
      }
      if (OFF_ONLY) on.push(Number.NaN);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const [a, b] = [mean(off), mean(on)];
      console.log(`| ${label} | ${cache} | ${a.toFixed(2)} | ${b.toFixed(2)} | +${(b - a).toFixed(2)} ms (${(((b - a) / a) * 100).toFixed(0)}%) |`);
    }
  }
} finally {
  devnet.kill('SIGTERM');
  receiver.kill('SIGTERM');
}

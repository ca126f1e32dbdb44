/**
 * `npx tsx bench/breaker-timing.ts`: the circuit breaker as an operator meets it, over real
 * sockets with the default settings (BREAKER_FAILURES 5, BREAKER_HALF_OPEN_MS 10000, the
 * 15 s per-call deadline): the Data API stalls, five queries time out, then the answer time
 * of queries while the circuit is open, and the time from the upstream healing to the first
 * good answer. The response cache is off: it would share the five identical calls as one.
 */
import pino from 'pino';
import { configFromEnv } from '../src/server/config.ts';
import { startDevnet } from '../src/devnet/server.ts';
import { startServer } from '../src/server/server.ts';

const devnet = await startDevnet({ validators: 50 });
const running = await startServer(
  { ...configFromEnv({ DATA_API_URL: devnet.url, NODE_URLS: `mainnet=${devnet.nodeUrls['mainnet']}`, CACHE: 'off' }), port: 0 },
  pino({ level: 'error' }),
);
const ask = async (): Promise<{ code: string; ms: number }> => {
  const started = performance.now();
  const response = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ chains { chainId } }' }) });
  const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
  return { code: body.errors?.[0]?.extensions?.code ?? 'OK', ms: performance.now() - started };
};

devnet.setChaos({ latencyMs: 60_000 });
const stalled = await Promise.all(Array.from({ length: 5 }, ask));
console.log('stalled upstream, 5 concurrent queries:', stalled.map((r) => `${r.code} ${(r.ms / 1000).toFixed(1)} s`).join(', '));
const openedAt = performance.now();
const sentBefore = devnet.stats().requests;
const open: number[] = [];
for (let i = 0; i < 200; i += 1) {
  const r = await ask();
  if (r.code !== 'UPSTREAM_UNAVAILABLE') throw new Error(`expected UPSTREAM_UNAVAILABLE, got ${r.code}`);
  open.push(r.ms);
}
open.sort((a, b) => a - b);
console.log(`open circuit, 200 queries over HTTP: p50 ${open[100]!.toFixed(2)} ms, p99 ${open[198]!.toFixed(2)} ms, max ${open[199]!.toFixed(2)} ms; upstream requests sent meanwhile: ${devnet.stats().requests - sentBefore}`);
devnet.setChaos({ latencyMs: 0 });
const healed = performance.now();
for (;;) {
  const r = await ask();
  if (r.code === 'OK') break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
console.log(`recovery: first good answer ${((performance.now() - healed) / 1000).toFixed(2)} s after the upstream healed, ${((performance.now() - openedAt) / 1000).toFixed(2)} s after the circuit opened (BREAKER_HALF_OPEN_MS 10000, polled every 50 ms)`);
await running.close();
await devnet.close();

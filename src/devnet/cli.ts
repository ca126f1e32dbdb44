import { startDevnet } from './server.ts';

/**
 * `npm run devnet`: the simulator alone.
 *
 * Environment: `DEVNET_PORT` (9650), `DEVNET_HOST` or `HOST` (127.0.0.1),
 * `DEVNET_SEED` (1), `DEVNET_VALIDATORS` (1200 per network), `DEVNET_LATENCY_MS` (0),
 * `DEVNET_FAULT_RATE` (0, share of requests answered 503), `DEVNET_ODDITIES` (`1` for answers
 * that take the unusual values the real spec allows, see `oddities.ts`; default off),
 * `DEVNET_WEBHOOK_INTERVAL_MS` (1000, how often webhook deliveries are scanned for; 0 for none),
 * `DEVNET_COMPUTE_UNITS_PER_MINUTE` (unset: no limit; else the compute units each API key, or each
 * client address without one, may spend a minute on the Data API, 429 beyond, see `compute-units.ts`;
 * unset, the rate-limit headers announce a limit nothing reaches, a billion, and nothing is refused).
 */

function numberFromEnv(name: string, fallback: number, check: (n: number) => boolean, rule: string): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !check(value)) {
    console.error(`${name}=${raw} is invalid: ${rule}`);
    process.exit(1);
  }
  return value;
}

const isInt = (n: number): boolean => Number.isInteger(n);
const port = numberFromEnv('DEVNET_PORT', 9650, (n) => isInt(n) && n >= 0 && n <= 65535, 'an integer port 0-65535');
const host = process.env.DEVNET_HOST || process.env.HOST || '127.0.0.1';
const seed = numberFromEnv('DEVNET_SEED', 1, isInt, 'an integer');
const validators = numberFromEnv('DEVNET_VALIDATORS', 1200, (n) => isInt(n) && n >= 1, 'an integer >= 1');
const latencyMs = numberFromEnv('DEVNET_LATENCY_MS', 0, (n) => n >= 0, 'a number of milliseconds >= 0');
const faultRate = numberFromEnv('DEVNET_FAULT_RATE', 0, (n) => n >= 0 && n <= 1, 'a share between 0 and 1');
const oddities = numberFromEnv('DEVNET_ODDITIES', 0, (n) => n === 0 || n === 1, '0 or 1') === 1;
const webhookIntervalMs = numberFromEnv('DEVNET_WEBHOOK_INTERVAL_MS', 1000, (n) => isInt(n) && n >= 0, 'an integer number of milliseconds >= 0');
// 0 stands for unset here: the check refuses 0 as a value.
const computeUnitsPerMinute = numberFromEnv('DEVNET_COMPUTE_UNITS_PER_MINUTE', 0, (n) => isInt(n) && n >= 1, 'an integer >= 1 (unset: no limit)') || undefined;

const started = performance.now();
const devnet = await startDevnet({ port, host, seed, validators, latencyMs, faultRate, oddities, webhookIntervalMs, ...(computeUnitsPerMinute ? { computeUnitsPerMinute } : {}) });
const ms = Math.round(performance.now() - started);

console.log(`devnet listening on ${devnet.url} (seed ${seed}, ${validators} validators per network, started in ${ms} ms)`);
console.log(`  Data API        ${devnet.url}/v1   e.g. ${devnet.url}/v1/networks/mainnet/validators`);
console.log(`  node (mainnet)  ${devnet.nodeUrls.mainnet}/ext/info  /ext/health  /ext/admin`);
console.log(`  node (fuji)     ${devnet.nodeUrls.fuji}/ext/info`);
console.log(`  fixtures        ${devnet.url}/__devnet/fixtures`);
console.log(`  stats           ${devnet.url}/__devnet/stats`);
console.log(`  webhooks        ${devnet.url}/__devnet/webhooks   (deliveries every ${webhookIntervalMs} ms)`);
if (latencyMs > 0 || faultRate > 0) console.log(`  chaos           latency ${latencyMs} ms, fault rate ${faultRate}`);
console.log(`  compute units   ${computeUnitsPerMinute ? `${computeUnitsPerMinute} per key (or address) per minute, 429 beyond` : 'billed, no limit'}`);
if (oddities) console.log('  oddities        on: Data API answers take the unusual values the real spec allows');

let stopping = false;
const stop = (signal: string): void => {
  // A second signal while closing means "now".
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`${signal}: closing the devnet`);
  devnet.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { warmUpOperations, type WarmUpReport } from '../../src/server/warm-up.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { exampleQueries, VALIDATOR_WALK } from '../../src/gateway/graphiql-examples.ts';
import { freePort } from '../helpers/redis.ts';

/** The warm-up's log line and report, captured from the server's logger. */
function capturingLogger(): { logger: pino.Logger; reports: WarmUpReport[]; lines: string[] } {
  const reports: WarmUpReport[] = [];
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, {
    write(line: string) {
      lines.push(line);
      const entry = JSON.parse(line) as WarmUpReport & { msg: string };
      if (entry.msg.startsWith('warmed up in')) reports.push(entry);
    },
  });
  return { logger, reports, lines };
}

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as { data?: unknown; errors?: unknown[] } };
};

describe('warm-up before ready, over recorded answers', () => {
  let devnet: Devnet;
  let running: RunningServer;
  const captured = capturingLogger();
  /** What `/ready` answered while the server was starting, in order. */
  const readyAnswers: { status: number; warmingUp?: boolean }[] = [];
  /** The devnet's requests during the start: the start-up probe's only. */
  let startRoutes: Record<string, number> = {};

  beforeAll(async () => {
    devnet = await startDevnet({});
    const port = await freePort();
    // The response cache on (the default), so the test can also show the warm-up's answers are not held.
    const config = { ...configFromEnv({ WARM_UP_MS: '1500' }), port, dataApiUrl: devnet.url, nodes: Object.entries(devnet.nodeUrls).map(([name, url]) => ({ name, url })) };
    let started = false;
    const starting = startServer(config, captured.logger, { warmUp: true }).finally(() => {
      started = true;
    });
    // Polls /ready while the server starts: it says "warming up" until the warm-up ends.
    const polling = (async () => {
      // Until the first answer that is not "warming up" (a later one may ask the Data API: readiness does).
      while (!started && !readyAnswers.some((answer) => !answer.warmingUp)) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/ready`);
          const body = (await res.json()) as { warmingUp?: boolean };
          readyAnswers.push({ status: res.status, ...(body.warmingUp ? { warmingUp: true } : {}) });
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    running = await starting;
    await polling;
    startRoutes = devnet.stats().byRoute;
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await devnet?.close();
  });

  it('runs every example operation, without errors, and logs how long it took', () => {
    expect(captured.reports).toHaveLength(1);
    const report = captured.reports[0] as WarmUpReport;
    expect(report.operations).toBe(6);
    expect(report.rounds).toBeGreaterThanOrEqual(1);
    expect(report.requests).toBeGreaterThanOrEqual(report.rounds * report.operations);
    expect(report.requests).toBeLessThanOrEqual((report.rounds + 1) * report.operations);
    expect(report.errors).toBe(0);
    expect(report.ms).toBeGreaterThan(0);
  });

  it('calls no upstream: the devnet saw only the start-up probe', () => {
    // Nothing the examples read.
    const routes = Object.keys(startRoutes);
    expect(routes.every((route) => /chains|info\.|health/.test(route))).toBe(true);
    expect(routes.some((route) => /validators|delegators|rewards|blocks|balances|peers/.test(route))).toBe(false);
    // The chain list once (twice when a /ready poll landed between the warm-up's end and the start's); each node its version and its network id (`warmNodeDirectory`).
    expect(Object.values(startRoutes).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2 + 2 * Object.keys(devnet.nodeUrls).length);
  });

  it('answers /ready 503 "warming up" until the warm-up ends, then 200', async () => {
    expect(readyAnswers.some((answer) => answer.status === 503 && answer.warmingUp)).toBe(true);
    // Every answer before the warm-up ended said "warming up" (503); none said ready before it.
    const warmingAnswers = readyAnswers.slice(0, readyAnswers.findIndex((answer) => !answer.warmingUp) >>> 0);
    expect(warmingAnswers.length).toBeGreaterThan(0);
    expect(warmingAnswers.every((answer) => answer.status === 503 && answer.warmingUp)).toBe(true);
    const res = await fetch(running.url.replace('/graphql', '/ready'));
    expect(res.status).toBe(200);
  });

  it('leaves nothing of its answers in the caches: the first walk after ready reads the upstream', async () => {
    devnet.resetStats();
    const { json } = await post(running.url, { query: VALIDATOR_WALK });
    expect(json.errors).toBeUndefined();
    expect(devnet.stats().requests).toBeGreaterThanOrEqual(7);
  });

  it('counts none of its requests or calls in the metrics', async () => {
    const metrics = await (await fetch(running.url.replace('/graphql', '/metrics'))).text();
    const requests = [...metrics.matchAll(/^chaingraph_graphql_requests_total\{[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    // The walk just above, alone.
    expect(requests).toBe(1);
    const calls = [...metrics.matchAll(/^chaingraph_upstream_requests_total\{[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    // The walk just above: its calls only (the warm-up's rounds made hundreds).
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(devnet.stats().requests + 10);
  });
});

describe('the warm-up requests', () => {
  it('are each example operation as a document of its own, the fragments it spreads included', () => {
    const examples = `${exampleQueries()}\nquery WithFragment { network(name: MAINNET) { ...Net } }\nfragment Net on Network { name }\nfragment Unused on Network { name }\n`;
    const operations = warmUpOperations(examples, undefined, false);
    expect(operations.map((op) => op.name)).toEqual(['ValidatorWalk', 'AddressActivity', 'WalletScreen', 'EvmBlockExplorer', 'SubnetWithChains', 'NodeOverview', 'WithFragment']);
    expect(operations[0]?.body.query).toBe(VALIDATOR_WALK);
    expect(operations[6]?.body.query).toBe('query WithFragment { network(name: MAINNET) { ...Net } }\n\nfragment Net on Network { name }');
  });

  it('add each persisted document by id, and only those when only persisted operations run', () => {
    const persisted = new Map([['a'.repeat(64), '{ __typename }']]);
    expect(warmUpOperations(exampleQueries(), persisted, false).at(-1)?.body).toEqual({ documentId: 'a'.repeat(64) });
    expect(warmUpOperations(exampleQueries(), persisted, true)).toEqual([{ name: `persisted ${'a'.repeat(12)}`, body: { documentId: 'a'.repeat(64) } }]);
  });
});

describe('a stop signal during the warm-up', () => {
  it('ends the warm-up and shuts down cleanly (exit 0), not killed mid-start', async () => {
    const port = await freePort();
    const lines: string[] = [];
    // A budget far longer than the test: the signal must be what ends the warm-up.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, LOG_FORMAT: 'json', LOG_LEVEL: 'info', PORT: String(port), WARM_UP_MS: '600000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    // Until /ready says it is warming up.
    for (let i = 0; i < 600; i += 1) {
      const body = await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.json() as Promise<{ warmingUp?: boolean }>, () => ({}) as { warmingUp?: boolean });
      if (body.warmingUp) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGTERM');
    const { code, signal } = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const report = lines.map((line) => JSON.parse(line) as Partial<WarmUpReport> & { msg?: string }).find((entry) => entry.msg?.startsWith('warmed up in'));
    expect(report?.settled).toBe(false);
    expect(lines.some((line) => line.includes('shut down cleanly'))).toBe(true);
  }, 90_000);
});

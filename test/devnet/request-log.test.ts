import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';

let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ validators: 100 });
});
afterAll(async () => {
  await devnet.close();
});

const rpc = (body: string) => fetch(`${devnet.url}/ext/info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

it('keeps what a benchmark needs to replay a request: method, path and query, and a small body', async () => {
  devnet.resetStats();
  const path = '/v1/networks/mainnet/validators?pageSize=5&validationStatus=active';
  await (await fetch(`${devnet.url}${path}`)).text();
  const small = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNodeID' });
  await (await rpc(small)).text();
  // A body over 16 K characters is left out of the log (the request is still answered and counted).
  const big = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'info.getNodeID', params: { pad: 'x'.repeat(20_000) } });
  expect((await rpc(big)).status).toBe(200);
  const log = devnet.requestLog();
  expect(log.map((e) => [e.method, e.target, e.body])).toEqual([
    ['GET', path, undefined],
    ['POST', '/ext/info', small],
    ['POST', '/ext/info', undefined],
  ]);
  expect(log.every((e) => e.end >= e.start)).toBe(true);
  expect(devnet.stats().requests).toBe(3);
});

it('holds at most 2 M characters of targets and bodies: past that, bodies are left out and targets cut', async () => {
  devnet.resetStats();
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNodeID', params: { pad: 'y'.repeat(16_000) } });
  for (let i = 0; i < 140; i++) await (await rpc(body)).text();
  const log = devnet.requestLog();
  const kept = log.filter((e) => e.body !== undefined).length;
  expect(kept).toBeGreaterThan(100);
  expect(kept).toBeLessThan(140);
  const chars = log.reduce((n, e) => n + e.target.length + (e.body?.length ?? 0), 0);
  expect(chars).toBeLessThanOrEqual(2_000_000 + 140 * 256);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageCache } from '../../src/devnet/routes/page-cache.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';

const START = Date.UTC(2025, 5, 1, 12, 0, 0);
let clock = START;
let devnet: Devnet;
let nodeIds: string;

beforeAll(async () => {
  devnet = await startDevnet({ validators: 300, now: () => clock });
  nodeIds = devnet.dataset.primary.mainnet.activeValidatorNodeIds().slice(0, 6).join(',');
});
afterAll(async () => {
  await devnet.close();
});

async function text(target: Devnet, path: string): Promise<{ status: number; type: string | null; body: string }> {
  const res = await fetch(`${target.url}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

/** The same request to a devnet that has served nothing yet (so nothing is cached), generated at START and asked at `at`. */
async function fresh(path: string, at: number): Promise<string> {
  let otherClock = START;
  const other = await startDevnet({ validators: 300, now: () => otherClock });
  otherClock = at;
  try {
    return (await text(other, path)).body;
  } finally {
    await other.close();
  }
}

/** Equal texts, without printing pages of JSON when they differ. */
function same(a: string, b: string): boolean {
  return a.length === b.length && a === b;
}

describe('PageCache', () => {
  it('keeps the most recently used pages within its byte budget', () => {
    const cache = createPageCache(80, 60);
    cache.set('a', Buffer.alloc(30));
    cache.set('b', Buffer.alloc(30));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('c', Buffer.alloc(30));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.calculatedSize).toBeLessThanOrEqual(80);
    cache.set('big', Buffer.alloc(61));
    expect(cache.get('big')).toBeUndefined();
    cache.set('a', Buffer.alloc(10));
    expect(cache.calculatedSize).toBe(11 + 31);
  });
});

describe('pages served from the cache', () => {
  const paths = () => [
    '/v1/networks/mainnet/subnets?pageSize=10000',
    '/v1/networks/mainnet/validators?validationStatus=active&pageSize=50',
    `/v1/networks/mainnet/validators?nodeIds=${nodeIds}&pageSize=100`,
    `/v1/networks/mainnet/delegators?nodeIds=${nodeIds}&pageSize=100`,
    `/v1/networks/fuji/rewards?nodeIds=${devnet.dataset.primary.fuji.activeValidatorNodeIds()[0]}&currency=eur`,
    `/v1/networks/mainnet/rewards:listPending?nodeIds=${nodeIds}&pageSize=100`,
  ];

  it('are byte for byte what a devnet that never served them answers, with the same content type, and still counted', async () => {
    devnet.resetStats();
    for (const path of paths()) {
      const first = await text(devnet, path);
      const again = await text(devnet, path);
      expect(first.status, path).toBe(200);
      expect(again.status).toBe(first.status);
      expect(again.type).toBe(first.type);
      expect(same(again.body, first.body), path).toBe(true);
      expect(first.type).toBe('application/json; charset=utf-8');
      expect(same(first.body, await fresh(path, clock)), path).toBe(true);
    }
    expect(devnet.stats().requests).toBe(paths().length * 2);
  });

  it('follow the clock where the answer does: pending rewards and time remaining', async () => {
    const pending = `/v1/networks/mainnet/rewards:listPending?nodeIds=${nodeIds}&pageSize=100`;
    const remaining = '/v1/networks/mainnet/validators?minTimeRemaining=86400&pageSize=100';
    const before = [(await text(devnet, pending)).body, (await text(devnet, remaining)).body];
    clock += 30 * 86_400_000;
    try {
      const after = [(await text(devnet, pending)).body, (await text(devnet, remaining)).body];
      expect(same(after[0] as string, before[0] as string)).toBe(false);
      expect(same(after[1] as string, before[1] as string)).toBe(false);
      expect(same(after[0] as string, await fresh(pending, clock))).toBe(true);
      expect(same(after[1] as string, await fresh(remaining, clock))).toBe(true);
    } finally {
      clock = START;
    }
  });

  it('never keep an error', async () => {
    const path = '/v1/networks/mainnet/validators?pageSize=1000';
    expect((await text(devnet, path)).status).toBe(400);
    expect((await text(devnet, path)).status).toBe(400);
    const token = '/v1/networks/mainnet/delegators?pageToken=nonsense';
    expect((await text(devnet, token)).status).toBe(400);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDataset } from '../../src/devnet/dataset/index.ts';
import { createWebhookDeliveries, MAX_IN_FLIGHT, MAX_PENDING } from '../../src/devnet/webhooks/deliveries.ts';
import { createWebhookStore, MAX_KEYS, MAX_WEBHOOKS_PER_KEY, type StoredWebhook } from '../../src/devnet/webhooks/store.ts';
import { HttpError } from '../../src/devnet/routes/http-error.ts';
import { startDevnet } from '../../src/devnet/server.ts';

/**
 * The bounds of the devnet's webhooks: the delivery queue drops its oldest deliveries past
 * MAX_PENDING (counted on their webhook), at most MAX_IN_FLIGHT deliveries of a webhook are under
 * way, `close()` ends them; the store refuses keys and webhooks past its limits.
 */

let hanging: Server;
let hangingUrl: string;

beforeAll(async () => {
  // Accepts every delivery and never answers: deliveries stay under way until the devnet closes.
  hanging = createServer(() => undefined);
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  hanging.closeAllConnections();
  await new Promise<void>((resolve) => hanging.close(() => resolve()));
});

/** Watches every address: each transaction of a scanned block is a delivery. */
class EveryAddress extends Map<string, string> {
  override has(): boolean {
    return true;
  }
}

describe('the delivery queue', () => {
  it('drops the oldest deliveries past its bound and keeps at most four under way per webhook', async () => {
    let clock = 1_790_000_000_000;
    const dataset = createDataset({ seed: 3, validatorsPerNetwork: 40, now: () => clock });
    const store = createWebhookStore(dataset);
    const chainId = dataset.fixtures().mainnet.evmChainId;
    const hooks = 80;
    for (let i = 0; i < hooks; i++) {
      store.create('key', { eventType: 'address_activity', url: hangingUrl, chainId, metadata: { addresses: [] } });
    }
    const watchingAll = { ...store, activeEvmWebhooks: (): StoredWebhook[] => store.activeEvmWebhooks().map((s) => Object.assign(s, { watched: new EveryAddress() })) };
    const deliveries = createWebhookDeliveries({ store: watchingAll, dataset, intervalMs: 0 });
    clock += 64 * 2 * 1000;
    const tick = deliveries.tick();

    // The scan is done when tick() returns: the queue is as it will be until deliveries settle.
    const { webhooks, pending, dropped } = deliveries.counters();
    expect(dropped).toBeGreaterThan(0);
    expect(pending).toBe(MAX_PENDING + hooks * MAX_IN_FLIGHT);
    expect(webhooks.reduce((sum, w) => sum + w.dropped, 0)).toBe(dropped);
    // The oldest go first: the first webhook scanned lost deliveries, the last none.
    expect(webhooks[0]?.dropped).toBeGreaterThan(0);
    expect(webhooks[hooks - 1]?.dropped).toBe(0);

    deliveries.close();
    await tick;
    const after = deliveries.counters();
    expect(after.webhooks.every((w) => w.delivered === 0)).toBe(true);
    expect(after.pending).toBe(0);
  }, 30_000);
});

describe('the delivery loop', () => {
  it('scans on its own every webhookIntervalMs, and stops on close', async () => {
    let clock = 1_790_000_000_000;
    const bodies: unknown[] = [];
    const receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        bodies.push(JSON.parse(raw));
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const devnet = await startDevnet({ validators: 40, now: () => clock, webhookIntervalMs: 50 });
    try {
      const fx = devnet.dataset.fixtures().mainnet;
      const res = await fetch(`${devnet.url}/v1/webhooks`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-service-api-key': 'k' },
        body: JSON.stringify({ eventType: 'address_activity', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, chainId: fx.evmChainId, metadata: { addresses: [fx.contractAddress] } }),
      });
      expect(res.status).toBe(201);
      clock += 256 * 1000;
      await vi.waitFor(() => expect(bodies.length).toBeGreaterThan(0), { timeout: 5_000, interval: 50 });
    } finally {
      await devnet.close();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('the store', () => {
  const dataset = createDataset({ seed: 3, validatorsPerNetwork: 40, now: Date.now });
  const body = (): Record<string, unknown> => ({ eventType: 'address_activity', url: 'https://example.com/hook', chainId: dataset.fixtures().mainnet.evmChainId, metadata: { addresses: [] } });
  const refused = (f: () => unknown): number | undefined => {
    try {
      f();
      return undefined;
    } catch (error) {
      return error instanceof HttpError ? error.status : -1;
    }
  };

  it(`refuses a key's webhook past ${MAX_WEBHOOKS_PER_KEY}`, () => {
    const store = createWebhookStore(dataset);
    for (let i = 0; i < MAX_WEBHOOKS_PER_KEY; i++) store.create('key', body());
    expect(refused(() => store.create('key', body()))).toBe(400);
    expect(refused(() => store.create('other', body()))).toBeUndefined();
  });

  it(`holds state for at most ${MAX_KEYS} keys; reads by other keys hold none`, () => {
    const store = createWebhookStore(dataset);
    for (let i = 0; i < MAX_KEYS; i++) store.secret(`key-${i}`);
    expect(store.list('reader')).toEqual([]);
    expect(refused(() => store.secret('one-more'))).toBe(400);
    expect(refused(() => store.create('one-more', body()))).toBe(400);
    expect(refused(() => store.secret('key-0'))).toBeUndefined();
  });
});

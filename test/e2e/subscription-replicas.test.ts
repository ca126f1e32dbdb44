import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { configFromEnv } from '../../src/server/config.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { blockPolling } from '../../src/loaders/block-poller.ts';
import { nodeHealthPolling } from '../../src/loaders/node-health.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { ensureRedis, freePort, redisAvailable, stopRedis } from '../helpers/redis.ts';
import { readEvents } from '../helpers/sse.ts';

// Two gateway replicas sharing one real Redis and one devnet (its clock pinned: blocks appear only
// when a test moves it), run in this process so the poll intervals can be shortened. Subscribers
// spread over both replicas share ONE poller per topic: the devnet sees one poll per interval, not
// one per subscriber or per replica; when the polling replica goes away, the other takes over and
// its subscribers keep receiving.

const INTERVAL_MS = 100;
const HEALTH = 'POST health.health';
const BLOCKS = 'GET /v1/networks/{network}/blockchains/{blockchainId}/blocks';

let devnet: Devnet;
let clock = Date.now();
const replicas: RunningServer[] = [];
const open: AbortController[] = [];
const saved = { blocks: blockPolling.intervalMs, health: nodeHealthPolling.intervalMs };

function replicaEnv(redisUrl: string): Record<string, string> {
  return {
    PORT: '0',
    DATA_API_URL: devnet.url,
    NODE_URLS: Object.entries(devnet.nodeUrls).map(([name, url]) => `${name}=${url}`).join(','),
    REDIS_URL: redisUrl,
    // No cache: every poll reaches the devnet and is counted.
    CACHE: 'off',
    TOPIC_LEASE_TTL_MS: '600',
    CURSOR_SECRET: 'replicas-share-this-cursor-secret-0123456789',
  };
}

async function startReplica(redisUrl: string): Promise<RunningServer> {
  const replica = await startServer(configFromEnv(replicaEnv(redisUrl)), pino({ level: 'silent' }));
  replicas.push(replica);
  return replica;
}

async function subscribe(replica: RunningServer, query: string): Promise<Response> {
  const controller = new AbortController();
  open.push(controller);
  return fetch(replica.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query }),
    signal: controller.signal,
  });
}

const routes = (): Record<string, number> => devnet.stats().byRoute;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls of `route` during `ms`. */
async function pollsDuring(route: string, ms: number): Promise<number> {
  const before = routes()[route] ?? 0;
  await sleep(ms);
  return (routes()[route] ?? 0) - before;
}

describe.skipIf(!redisAvailable)('subscriptions across replicas sharing Redis', () => {
  let a: RunningServer;
  let b: RunningServer;
  let redisUrl: string;

  beforeAll(async () => {
    blockPolling.intervalMs = INTERVAL_MS;
    nodeHealthPolling.intervalMs = INTERVAL_MS;
    redisUrl = await ensureRedis();
    devnet = await startDevnet({ validators: 50, now: () => clock });
    a = await startReplica(redisUrl);
    b = await startReplica(redisUrl);
  });

  afterAll(async () => {
    for (const controller of open) controller.abort();
    await Promise.all(replicas.map((replica) => replica.close({ graceMs: 500 })));
    await devnet?.close();
    await stopRedis();
    blockPolling.intervalMs = saved.blocks;
    nodeHealthPolling.intervalMs = saved.health;
  });

  it('polls a topic once for N subscribers spread over both replicas', async () => {
    const query = 'subscription { nodeHealth(node: "mainnet") { healthy } }';
    const streams = await Promise.all([a, b, a, b, a, b].map((replica) => subscribe(replica, query)));
    // Every subscriber gets the current report, whichever replica polls.
    const first = await Promise.all(streams.map((stream) => readEvents(stream, 1)));
    for (const { events } of first) expect(events[0]?.data).toMatchObject({ nodeHealth: { healthy: expect.any(Boolean) } });
    const polls = await pollsDuring(HEALTH, 1500);
    // One poller: about 15 polls in 1.5 s at 100 ms; two pollers would make about 30, six about 90.
    expect(polls).toBeGreaterThanOrEqual(8);
    expect(polls).toBeLessThanOrEqual(20);
    await Promise.all(first.map(({ reader }) => reader.cancel()));
    // The last subscriber gone, nobody polls the topic.
    await sleep(300);
    expect(await pollsDuring(HEALTH, 500)).toBe(0);
  });

  it('hands a topic to the other replica when the polling one closes; the other replica keeps receiving', async () => {
    const query = 'subscription { blocks(network: MAINNET, blockchainId: "p-chain") { blockNumber } }';
    // Replica A subscribes first, so it takes the lease and polls; B's subscribers receive through Redis.
    const onA = await subscribe(a, query);
    const readingA = readEvents<{ data: { blocks: { blockNumber: string } } }>(onA, 1);
    await sleep(300);
    const onB = await Promise.all([subscribe(b, query), subscribe(b, query)]);
    await sleep(300);
    const polls = await pollsDuring(BLOCKS, 1000);
    expect(polls).toBeGreaterThanOrEqual(5);
    expect(polls).toBeLessThanOrEqual(13);

    // A new block reaches every subscriber, on both replicas, once.
    const readingB = onB.map((stream) => readEvents<{ data: { blocks: { blockNumber: string } } }>(stream, 2));
    clock += 2_000;
    const [fromA] = (await readingA).events;
    expect(fromA?.data.blocks.blockNumber).toMatch(/^\d+$/);

    // A goes away (its lease released on close): B takes the topic over and its subscribers get the next block.
    await a.close({ graceMs: 500 });
    await sleep(400);
    clock += 2_000;
    const fromB = await Promise.all(readingB);
    for (const { events } of fromB) {
      expect(events.map((event) => BigInt(event.data.blocks.blockNumber))).toEqual([BigInt(fromA?.data.blocks.blockNumber ?? 0), BigInt(fromA?.data.blocks.blockNumber ?? 0) + 1n]);
    }
    // Still one poller, now on B.
    const after = await pollsDuring(BLOCKS, 1000);
    expect(after).toBeGreaterThanOrEqual(5);
    expect(after).toBeLessThanOrEqual(13);
    await Promise.all(fromB.map(({ reader }) => reader.cancel()));
  }, 20_000);

  it('hands a topic over when the polling replica is killed (its lease expires unrenewed)', async () => {
    // A replica in a process of its own (default 2 s poll interval), killed with SIGKILL: it releases nothing.
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
      env: { ...process.env, ...replicaEnv(redisUrl), PORT: String(port), LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('chaingraph is running') && resolve());
        child.once('exit', (code) => reject(new Error(`the replica exited (${code})`)));
      });
      const query = 'subscription { blocks(network: FUJI, blockchainId: "p-chain") { blockNumber } }';
      const url = `http://127.0.0.1:${port}/graphql`;
      // The killed replica subscribes first and holds the topic's lease; B's subscriber listens through Redis.
      const controller = new AbortController();
      open.push(controller);
      const onChild = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ query }), signal: controller.signal });
      expect(onChild.status).toBe(200);
      await sleep(500);
      const onB = await subscribe(b, query);
      const reading = readEvents<{ data: { blocks: { blockNumber: string } } }>(onB, 1);
      await sleep(300);
      // B does not poll while the child holds the lease (the child polls every 2 s: at most one poll here).
      expect(await pollsDuring(BLOCKS, 1000)).toBeLessThanOrEqual(1);
      child.kill('SIGKILL');
      // The lease (600 ms) expires unrenewed; B takes the topic at its next try and polls every 100 ms.
      await sleep(1200);
      expect(await pollsDuring(BLOCKS, 1000)).toBeGreaterThanOrEqual(5);
      clock += 2_000;
      const { events, reader } = await reading;
      expect(events[0]?.data.blocks.blockNumber).toMatch(/^\d+$/);
      await reader.cancel();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 30_000);
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UpstreamBudget } from '../../src/loaders/budget.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { BLOCK_POLL_COST, blockPolling, watchBlocks } from '../../src/loaders/block-poller.ts';
import type { BlockOnChain, PrimaryChain } from '../../src/loaders/primary-chain.ts';
import { loaderContext, upstreamOf, type LoaderContext } from '../../src/loaders/registry.ts';
import { PRIMARY_CHAIN_IDS } from '../../src/shapes/index.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { createLoaderContext, type TestLoaderContext } from '../helpers/loader-context.ts';

// The poller behind Subscription.blocks and the block refetch scan, against the devnet with
// its clock pinned: blocks appear (one every 2 s of devnet time) only when a test moves it.

const E15 = 'GET /v1/networks/{network}/blockchains/{blockchainId}/blocks';
const P_CHAIN: PrimaryChain = { network: 'mainnet', blockchainId: PRIMARY_CHAIN_IDS.mainnet.p };
/** Calls one event (one poll) may make: the field's declared cost per event. */
const PER_EVENT = BLOCK_POLL_COST.calls({ parents: 1, args: {}, nodeCount: 0 });

let devnet: Devnet;
let lc: TestLoaderContext;
let clock = Date.now();
const savedInterval = blockPolling.intervalMs;

beforeAll(async () => {
  devnet = await startDevnet({ now: () => clock });
  lc = createLoaderContext(devnet);
  blockPolling.intervalMs = 20;
});

afterAll(async () => {
  blockPolling.intervalMs = savedInterval;
  await lc?.close();
  await devnet?.close();
});

beforeEach(() => {
  devnet.resetStats();
  lc.calls.length = 0;
});

/**
 * A request's context as the gateway builds it for the poller: the budget of one event
 * (`limit`), enforced before each call is sent as `createContext` does, and `dataApi`
 * when a test replaces the client.
 */
function subscriptionContext(limit: number, dataApi: DataApi = upstreamOf(lc.ctx).dataApi): { ctx: LoaderContext & { upstreamCalls: UpstreamBudget }; budget: UpstreamBudget } {
  const budget: UpstreamBudget = { count: 0, limit, refused: 0, retries: 0 };
  const admit = (): boolean => {
    if (budget.count >= budget.limit) {
      budget.refused += 1;
      return false;
    }
    budget.count += 1;
    return true;
  };
  const call = { observer: { admit, onAttempt: () => undefined } };
  const ctx = { ...loaderContext({ ...upstreamOf(lc.fresh()), dataApi }, call), upstreamCalls: budget };
  return { ctx, budget };
}

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Polls the poller has made: E15 calls issued through the recorded client, counted when they are
 * made rather than when the devnet serves them, so a poll still on its way cannot land after a count.
 */
const polls = (): number => lc.calls.filter((call) => call.method === 'listBlocks').length;

describe('watchBlocks', () => {
  it('yields each new block once, oldest first, from the first one after the head, each poll in a new budget window', async () => {
    const head = (await lc.dataApi.listBlocks('mainnet', P_CHAIN.blockchainId, { pageSize: 1 })).blocks[0];
    expect(head).toBeDefined();
    // One call per event: without a new window at each poll the second poll would be refused.
    const { ctx, budget } = subscriptionContext(1);
    const stream = watchBlocks(ctx, P_CHAIN);
    const seen: BlockOnChain[] = [];
    const reading = (async () => {
      for await (const block of stream) {
        seen.push(block);
        if (seen.length === 3) break;
      }
    })();
    await until(() => polls() >= 5);
    // Three blocks in one poll: they come oldest first.
    clock += 6_000;
    await reading;
    expect(seen.map((b) => b.blockNumber)).toEqual([1n, 2n, 3n].map((n) => String(BigInt(head?.blockNumber ?? 0) + n)));
    expect(seen.every((b) => b.network === 'mainnet' && b.blockchainId === P_CHAIN.blockchainId)).toBe(true);
    expect(budget.refused).toBe(0);
    expect(budget.count).toBeLessThanOrEqual(PER_EVENT);
  });

  it('stops polling at once when the consumer returns, and when the request aborts', async () => {
    const { ctx } = subscriptionContext(PER_EVENT);
    const stream = watchBlocks(ctx, P_CHAIN);
    const next = stream.next();
    await until(() => polls() >= 3);
    await stream.return?.();
    await expect(next).resolves.toMatchObject({ done: true });
    const after = polls();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(polls()).toBe(after);

    const request = new AbortController();
    const aborted = watchBlocks({ ...subscriptionContext(PER_EVENT).ctx, call: { signal: request.signal } }, P_CHAIN);
    const pending = aborted.next();
    await until(() => polls() >= after + 3);
    request.abort();
    await expect(pending).resolves.toMatchObject({ done: true });
    const stopped = polls();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(polls()).toBe(stopped);
  });

  it('skips a poll that fails transiently and ends on any other failure', async () => {
    let failNext: UpstreamError | undefined;
    const failing = new Proxy(upstreamOf(lc.ctx).dataApi, {
      get(target, prop, receiver) {
        if (prop !== 'listBlocks') return Reflect.get(target, prop, receiver);
        return (...args: Parameters<DataApi['listBlocks']>) => {
          const error = failNext;
          failNext = undefined;
          return error ? Promise.reject(error) : target.listBlocks(...args);
        };
      },
    });
    const unavailable = new UpstreamError('unavailable', { upstream: 'data-api', kind: 'http', status: 503, operation: E15 });
    const { ctx } = subscriptionContext(PER_EVENT, failing);
    const stream = watchBlocks(ctx, P_CHAIN);
    const first = stream.next();
    await until(() => polls() >= 2);
    failNext = unavailable;
    await until(() => failNext === undefined);
    clock += 2_000;
    await expect(first).resolves.toMatchObject({ done: false, value: { blockchainId: P_CHAIN.blockchainId } });

    failNext = new UpstreamError('bad request', { upstream: 'data-api', kind: 'http', status: 400, operation: E15 });
    await expect(stream.next()).rejects.toMatchObject({ status: 400 });
  });
});

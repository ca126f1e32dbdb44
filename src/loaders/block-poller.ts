import { setTimeout as delay } from 'node:timers/promises';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { newBudgetWindow, type UpstreamBudget } from './budget.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { blockPages, type BlockOnChain, type PrimaryChain } from './primary-chain.ts';
import type { LoaderContext } from './registry.ts';
import { callerScope, delivered, pollerContext, topicsOf, type TopicSource } from './topics.ts';

/**
 * The poller behind `Subscription.blocks`: E15 read every few seconds, each new
 * block yielded once, oldest first.
 */

/**
 * How often `Subscription.blocks` polls E15. A mutable setting (not a constant) so
 * tests can shorten it.
 */
export const blockPolling = {
  /** Milliseconds between two polls. Default 2000. */
  intervalMs: 2000,
};

// Blocks fetched per poll, and pages read when more than that arrived since the last poll.
const BLOCK_POLL_PAGE_SIZE = 20;
const BLOCK_POLL_MAX_PAGES = 5;

/** Per event of `Subscription.blocks`: one poll, at most {@link BLOCK_POLL_MAX_PAGES} pages (the head read at the start is one call). */
export const BLOCK_POLL_COST: FieldCost = weighing(costs.perParent(BLOCK_POLL_MAX_PAGES), ENDPOINTS.listBlocks);

/** Transient failures (timeouts, 429, 5xx, network, an open breaker, the upstream rate ceiling) skip one poll; anything else ends the subscription. */
function isTransient(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  if (error.kind === 'http') return error.status === 429 || (error.status ?? 0) >= 500;
  return error.kind === 'timeout' || error.kind === 'network' || error.kind === 'protocol' || error.kind === 'circuit' || error.kind === 'throttled';
}

const height = (block: BlockOnChain): bigint => BigInt(block.blockNumber);

/**
 * Each poll's new blocks, oldest first, after `after` (a height), or after the head read at the
 * start when `after` is not given. An empty poll yields nothing.
 */
async function* pollBlocks(
  ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget },
  chain: PrimaryChain,
  signal: AbortSignal,
  after?: bigint,
): AsyncGenerator<BlockOnChain[]> {
  const list = blockPages(ctx, chain, {}, { ...ctx.call, signal });
  let last = after ?? -1n;
  if (after === undefined) {
    try {
      const head = await list(undefined, 1);
      if (head.items[0]) last = height(head.items[0]);
    } catch (error) {
      // Stopped while reading the head: the stream ends, it does not fail.
      if (signal.aborted) return;
      throw error;
    }
  }
  while (!signal.aborted) {
    try {
      await delay(blockPolling.intervalMs, undefined, { signal });
    } catch {
      return;
    }
    // Each poll gets the subscription's per-event budget (useQueryCost); a spent one ends the subscription.
    newBudgetWindow(ctx.upstreamCalls);
    const fresh: BlockOnChain[] = [];
    try {
      let pageToken: string | undefined;
      for (let pages = 0; pages < BLOCK_POLL_MAX_PAGES; pages++) {
        const page = await list(pageToken, BLOCK_POLL_PAGE_SIZE);
        const newer = page.items.filter((b) => height(b) > last);
        fresh.push(...newer);
        pageToken = page.nextPageToken;
        if (!pageToken || newer.length < page.items.length) break;
      }
    } catch (error) {
      if (signal.aborted) return;
      if (isTransient(error)) continue;
      throw error;
    }
    fresh.sort((a, b) => (height(a) < height(b) ? -1 : 1));
    const batch: BlockOnChain[] = [];
    for (const block of fresh) {
      if (height(block) <= last) continue;
      last = height(block);
      batch.push(block);
    }
    if (batch.length > 0) yield batch;
  }
}

async function* eachBlock(batches: AsyncGenerator<BlockOnChain[]>): AsyncGenerator<BlockOnChain> {
  for await (const batch of batches) yield* batch;
}

/**
 * Each new block of `chain`, oldest first, from the first one after the call: E15
 * is read once for the head, then every {@link blockPolling} interval, each poll in
 * a new window of the request's budget (`upstreamCalls`: a subscription's budget is
 * per event). Transient upstream failures skip a poll. The iterator's `return()`
 * stops it at once (it aborts the pause and any call in flight, instead of waiting
 * for the next poll), and so does the request's signal.
 */
export function watchBlocks(ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget }, chain: PrimaryChain): AsyncIterableIterator<BlockOnChain> {
  const stop = new AbortController();
  const signal = ctx.call.signal ? AbortSignal.any([ctx.call.signal, stop.signal]) : stop.signal;
  const inner = eachBlock(pollBlocks(ctx, chain, signal));
  const iterator: AsyncIterableIterator<BlockOnChain> = {
    next: () => inner.next(),
    return: async () => {
      stop.abort();
      return inner.return(undefined);
    },
    throw: async (error: unknown) => {
      stop.abort();
      return inner.throw(error);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** The shared poller of a chain's blocks (one per topic; see src/loaders/topics.ts). */
function blocksTopic(ctx: LoaderContext, chain: PrimaryChain): TopicSource<BlockOnChain> {
  return {
    key: `blocks:${chain.network}:${chain.blockchainId}${callerScope(ctx.call)}`,
    async poll(signal, publish, last) {
      const poller = pollerContext(ctx, signal, BLOCK_POLL_COST.calls({ parents: 1, args: {}, nodeCount: 0 }));
      // A replica taking the topic over carries on after the last block it saw published.
      const after = last?.reduce<bigint | undefined>((top, block) => (top === undefined || height(block) > top ? height(block) : top), undefined);
      for await (const batch of pollBlocks(poller, chain, signal, after)) publish(batch, poller.upstreamCalls.count, poller.upstreamCalls.actualComputeUnits);
    },
  };
}

/**
 * `Subscription.blocks`: each new block of `chain`, oldest first, from the first one after the
 * call, through the gateway's shared poller of the chain (one per topic in the process, or in the
 * fleet with Redis), each poll's blocks in a new window of the subscriber's budget. Without the
 * gateway's topics (a context built elsewhere), a poller of its own ({@link watchBlocks}).
 */
export function subscribeBlocks(ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget }, chain: PrimaryChain): AsyncIterableIterator<BlockOnChain> {
  const topics = topicsOf(ctx);
  if (!topics) return watchBlocks(ctx, chain);
  let last: bigint | undefined;
  return delivered(ctx, topics.subscribe(blocksTopic(ctx, chain), ctx.call.signal), (block) => {
    // Drops what this subscriber saw already (a replica taking over may publish it again).
    if (last !== undefined && height(block) <= last) return false;
    last = height(block);
    return true;
  });
}

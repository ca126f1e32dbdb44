import { setTimeout as delay } from 'node:timers/promises';
import { newBudgetWindow, type UpstreamBudget } from '../context.ts';
import { costs, type FieldCost } from '../lib/cost.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { blockPages, type BlockOnChain, type PrimaryChain } from './primary-chain.ts';
import type { LoaderContext } from './registry.ts';

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
export const BLOCK_POLL_COST: FieldCost = costs.perParent(BLOCK_POLL_MAX_PAGES);

/** Transient failures (timeouts, 429, 5xx, network, an open breaker, the upstream rate ceiling) skip one poll; anything else ends the subscription. */
function isTransient(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  if (error.kind === 'http') return error.status === 429 || (error.status ?? 0) >= 500;
  return error.kind === 'timeout' || error.kind === 'network' || error.kind === 'protocol' || error.kind === 'circuit' || error.kind === 'throttled';
}

const height = (block: BlockOnChain): bigint => BigInt(block.blockNumber);

async function* pollBlocks(ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget }, chain: PrimaryChain, signal: AbortSignal): AsyncGenerator<BlockOnChain> {
  const list = blockPages(ctx, chain, {}, { ...ctx.call, signal });
  let last = -1n;
  try {
    const head = await list(undefined, 1);
    if (head.items[0]) last = height(head.items[0]);
  } catch (error) {
    // Stopped while reading the head: the stream ends, it does not fail.
    if (signal.aborted) return;
    throw error;
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
    for (const block of fresh) {
      if (height(block) <= last) continue;
      last = height(block);
      yield block;
    }
  }
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
  const inner = pollBlocks(ctx, chain, signal);
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

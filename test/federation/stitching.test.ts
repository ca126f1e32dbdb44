import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAINGRAPH_MAX_BATCH_KEYS, createStitchedSchema } from '../../examples/stitching/gateway.ts';
import { createWatchlist, type WatchItem } from '../../examples/stitching/watchlist.ts';
import { encodeGlobalId, MAX_BATCH_KEYS } from '../../src/schema/relay-node.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';
import { serveCounting, type CountingServer } from './serve.ts';

/**
 * chaingraph behind a schema-stitching gateway (`examples/stitching/gateway.ts`): the gateway configures
 * itself from chaingraph's `{ _sdl }` and a watchlist service's, both on real HTTP ports, chaingraph over
 * the devnet, and merges the watchlist's address references through chaingraph's `nodes(ids:)`.
 */
const ITEMS = 500;

interface Row {
  note: string;
  address: { id: string; address: string; chainId: string; chain: { chainName: string } | null } | null;
}

describe('schema stitching through @graphql-tools/stitch', () => {
  let stack: TestStack;
  let chaingraph: CountingServer;
  let watchlist: CountingServer;
  let gateway: ReturnType<typeof createYoga>;
  let chainIds: string[];
  let items: (WatchItem & { address: string; chainId: string })[];
  /** `count` watched items, each a distinct address of one of two chains, referenced by chaingraph's global id. */
  const watchItems = (count: number) =>
    Array.from({ length: count }, (_, i) => {
      const chainId = chainIds[i % chainIds.length] ?? '43113';
      const address = `0x${(i + 1).toString(16).padStart(40, '0')}`;
      return { note: `item ${i}`, address, chainId, addressId: encodeGlobalId('Address', [chainId, address]) };
    });

  beforeAll(async () => {
    stack = await startStack();
    chaingraph = await serveCounting((request) => stack.gateway.fetch(request));
    const chains = await stack.query<{ chains: { chainId: string }[] }>('{ chains(network: FUJI) { chainId } }');
    chainIds = (chains.data?.chains ?? []).map((c) => c.chainId).slice(0, 2);
    items = watchItems(ITEMS);
    const service = createWatchlist(items);
    watchlist = await serveCounting((request) => service.fetch(request));
    gateway = createYoga({ schema: await createStitchedSchema({ chaingraphUrl: chaingraph.url, watchlistUrl: watchlist.url }), logging: false, maskedErrors: false });
  });
  afterAll(async () => {
    await watchlist?.close();
    await chaingraph?.close();
    await stack?.close();
  });

  const query = async <D>(document: string): Promise<GraphQLResponse<D>> => {
    const response = await gateway.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: document }),
    });
    return (await response.json()) as GraphQLResponse<D>;
  };

  it("batches the gateway's merge lookups by chaingraph's own bound", () => {
    expect(CHAINGRAPH_MAX_BATCH_KEYS).toBe(MAX_BATCH_KEYS);
    expect(chainIds.length).toBe(2);
  });

  it(`splits more references than MAX_BATCH_KEYS into nodes(ids:) calls of at most ${MAX_BATCH_KEYS} (maxBatchSize), never one refused call`, async () => {
    const many = watchItems(2 * MAX_BATCH_KEYS + 200);
    const service = createWatchlist(many);
    const bigWatchlist = await serveCounting((request) => service.fetch(request));
    try {
      const big = createYoga({ schema: await createStitchedSchema({ chaingraphUrl: chaingraph.url, watchlistUrl: bigWatchlist.url }), logging: false, maskedErrors: false });
      chaingraph.resetRequests();
      const response = await big.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query: '{ watchlist { address { address } } }' }),
      });
      const res = (await response.json()) as GraphQLResponse<{ watchlist: { address: { address: string } | null }[] }>;
      expect(res.errors).toBeUndefined();
      expect(res.data?.watchlist.map((row) => row.address?.address)).toEqual(many.map((item) => item.address));
      const sent = chaingraph.requests();
      const calls = sent.queries.flatMap((q) => [...q.matchAll(/\bnodes\(ids:/g)]);
      console.info(`[stitching] ${many.length} references: chaingraph ${sent.count} requests, ${calls.length} nodes(ids:) calls`);
      expect(calls.length).toBe(Math.ceil(many.length / MAX_BATCH_KEYS));
      expect(sent.count).toBeLessThanOrEqual(calls.length);
    } finally {
      await bigWatchlist.close();
    }
  });

  it(`resolves ${ITEMS} watched addresses in one query: one watchlist request, one batched nodes(ids:) request to chaingraph, batched upstream calls`, async () => {
    chaingraph.resetRequests();
    watchlist.resetRequests();
    stack.devnet.resetStats();
    const res = await query<{ watchlist: Row[] }>('{ watchlist { note address { id address chainId chain { chainName } } } }');
    expect(res.errors).toBeUndefined();
    const rows = res.data?.watchlist ?? [];
    expect(rows.length).toBe(ITEMS);
    for (const [i, row] of rows.entries()) {
      const item = items[i];
      expect(row).toEqual({ note: item?.note, address: { id: item?.addressId, address: item?.address, chainId: item?.chainId, chain: { chainName: expect.any(String) } } });
    }
    expect(watchlist.requests().count).toBe(1);
    const sent = chaingraph.requests();
    const upstream = stack.upstreamRequests();
    console.info(`[stitching] ${ITEMS} merged addresses: chaingraph ${sent.count} requests, ${upstream} devnet upstream requests (estimated ${sent.costs.map((c) => c?.estimatedUpstreamCalls).join(', ')})`);
    // Every reference in one nodes(ids:) call, in one request.
    expect(sent.count).toBe(1);
    expect(sent.queries[0]?.match(/\bnodes\(ids:/g)?.length).toBe(1);
    // The one chain list of chaingraph's request answers every address and its chain.
    expect(upstream).toBeLessThanOrEqual(2);
    expect(sent.costs[0]?.actualUpstreamCalls).toBe(upstream);
  });
});

import { buildSchema, printSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAINGRAPH_MAX_BATCH_KEYS, createStitchedSchema } from '../../examples/stitching/gateway.ts';
import { createWatchlist, WATCHLIST_SDL, type WatchItem } from '../../examples/stitching/watchlist.ts';
import { MAX_BATCH_KEYS } from '../../src/schema/relay-node.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';
import { serveCounting, type CountingServer } from './serve.ts';

/**
 * chaingraph behind a schema-stitching gateway (`examples/stitching/gateway.ts`, the recipe of
 * docs/stitching.md): the gateway configures itself from chaingraph's `{ _sdl }` and a watchlist
 * service's, both on real HTTP ports, chaingraph over the devnet, and merges the watchlist's address
 * references, natural keys (`address`, `chainId`) only, through chaingraph's `addresses(keys:)`.
 */
const ITEMS = 500;

interface MergedAddress {
  id: string;
  address: string;
  chainId: string;
  chain: { chainId: string; chainName: string } | null;
}

const ADDRESS_FIELDS = 'id address chainId chain { chainId chainName }';

describe('schema stitching through @graphql-tools/stitch, by natural keys', () => {
  let stack: TestStack;
  let chaingraph: CountingServer;
  let watchlist: CountingServer;
  let gateway: ReturnType<typeof createYoga>;
  let chainIds: string[];
  let items: WatchItem[];
  /** `count` watched items, each a distinct address of one of two chains, stored by address and chain id. */
  const watchItems = (count: number): WatchItem[] =>
    Array.from({ length: count }, (_, i) => ({ note: `item ${i}`, address: `0x${(i + 1).toString(16).padStart(40, '0')}`, chainId: chainIds[i % chainIds.length] ?? '43113' }));

  const post = async <D>(handler: { fetch: (url: string, init: RequestInit) => Response | Promise<Response> }, document: string): Promise<GraphQLResponse<D>> => {
    const response = await handler.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: document }),
    });
    return (await response.json()) as GraphQLResponse<D>;
  };

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

  it("batches the gateway's merge lookups by chaingraph's own bound", () => {
    expect(CHAINGRAPH_MAX_BATCH_KEYS).toBe(MAX_BATCH_KEYS);
    expect(chainIds.length).toBe(2);
  });

  it('is the gateway and watchlist docs/stitching.md describes', () => {
    const doc = readFileSync(new URL('../../docs/stitching.md', import.meta.url), 'utf8');
    const [recipe = '', watchlistSdl = ''] = [...doc.matchAll(/```(?:ts|graphql)\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    for (const setting of ["parse('{ _sdl }')", 'batch: true', 'stitchingDirectivesTransformer(', `MAX_BATCH_KEYS = ${MAX_BATCH_KEYS}`, 'maxBatchSize: MAX_BATCH_KEYS']) expect(recipe).toContain(setting);
    // The same types, descriptions aside.
    const types = (sdl: string) => printSchema(buildSchema(sdl)).replace(/"""[\s\S]*?"""\n\s*/g, '');
    expect(types(watchlistSdl)).toBe(types(WATCHLIST_SDL));
  });

  it(`merges ${ITEMS} addresses by address and chainId in one query: one watchlist request, one addresses(keys:) request to chaingraph, the answers chaingraph gives directly`, async () => {
    const keys = items.map(({ address, chainId }) => `{ address: "${address}", chainId: "${chainId}" }`).join(', ');
    const direct = await stack.query<{ addresses: MergedAddress[] }>(`{ addresses(keys: [${keys}]) { ${ADDRESS_FIELDS} } }`);
    expect(direct.errors).toBeUndefined();

    chaingraph.resetRequests();
    watchlist.resetRequests();
    stack.devnet.resetStats();
    const res = await post<{ watchlist: { note: string; address: MergedAddress }[] }>(gateway, `{ watchlist { note address { ${ADDRESS_FIELDS} } } }`);
    expect(res.errors).toBeUndefined();
    const rows = res.data?.watchlist ?? [];
    expect(rows.map((row) => row.note)).toEqual(items.map((item) => item.note));
    expect(rows.map((row) => row.address)).toEqual(direct.data?.addresses);
    expect(rows.every((row) => row.address.chain?.chainId === row.address.chainId)).toBe(true);

    expect(watchlist.requests().count).toBe(1);
    const sent = chaingraph.requests();
    const upstream = stack.upstreamRequests();
    console.info(`[stitching] ${ITEMS} addresses merged by natural key: chaingraph ${sent.count} request(s), ${upstream} devnet upstream call(s) (estimated ${sent.costs.map((c) => c?.estimatedUpstreamCalls).join(', ')})`);
    // Every reference in one addresses(keys:) field, in one request, and nothing by global id.
    expect(sent.count).toBe(1);
    expect(sent.queries[0]?.match(/\baddresses\(keys:/g)?.length).toBe(1);
    expect(sent.queries[0]).not.toMatch(/\bnodes\(ids:/);
    // The one chain list of chaingraph's request answers every address and its chain.
    expect(upstream).toBe(1);
    expect(sent.costs[0]?.actualUpstreamCalls).toBe(upstream);
  });

  it(`splits more references than MAX_BATCH_KEYS into addresses(keys:) calls of at most ${MAX_BATCH_KEYS} (maxBatchSize), never one refused call`, async () => {
    const many = watchItems(2 * MAX_BATCH_KEYS + 200);
    const service = createWatchlist(many);
    const bigWatchlist = await serveCounting((request) => service.fetch(request));
    try {
      const big = createYoga({ schema: await createStitchedSchema({ chaingraphUrl: chaingraph.url, watchlistUrl: bigWatchlist.url }), logging: false, maskedErrors: false });
      chaingraph.resetRequests();
      const res = await post<{ watchlist: { address: { id: string; chainId: string } | null }[] }>(big, '{ watchlist { address { id chainId } } }');
      expect(res.errors).toBeUndefined();
      expect(res.data?.watchlist.map((row) => row.address?.chainId)).toEqual(many.map((item) => item.chainId));
      const sent = chaingraph.requests();
      const calls = sent.queries.flatMap((q) => [...q.matchAll(/\baddresses\(keys:/g)]);
      console.info(`[stitching] ${many.length} references: chaingraph ${sent.count} requests, ${calls.length} addresses(keys:) calls`);
      expect(calls.length).toBe(Math.ceil(many.length / MAX_BATCH_KEYS));
      expect(sent.count).toBeLessThanOrEqual(calls.length);
    } finally {
      await bigWatchlist.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { icmMessagePages } from '../../src/loaders/icm.ts';
import { createNodeDirectory, loaderContext } from '../../src/loaders/registry.ts';
import { encodeLegacyGlobalId } from '../../src/schema/relay-node.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { dataOf, startStack, type TestStack } from '../helpers/stack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;
let api: DataApi;

const ok = (query: string, variables?: Record<string, unknown>): Promise<Data> => dataOf<Data>(stack, query, variables);

async function counted(query: string, variables?: Record<string, unknown>): Promise<{ data: Data; byRoute: Record<string, number> }> {
  await fetch(`${stack.devnet.url}/__devnet/stats/reset`, { method: 'POST' });
  const data = await ok(query, variables);
  return { data, byRoute: stack.devnet.stats().byRoute };
}

const nodes = (connection: Data): Data[] => connection.edges.map((e: Data) => e.node);

const MESSAGE = `id messageId status sourceBlockchainId destinationBlockchainId sourceEvmChainId destinationEvmChainId from to messageNonce
  sourceTransaction { txHash timestamp } destinationTransaction { txHash } rewardDetails { symbol value }`;

beforeAll(async () => {
  stack = await startStack();
  f = stack.devnet.dataset.fixtures().mainnet;
  api = createDataApiClient({ baseUrl: stack.devnet.url, apiKey: 'direct' });
});

afterAll(async () => {
  await stack?.close();
});

describe('Query.icmMessages without an address (listIcmMessages)', () => {
  it('pages every message, newest first, each listed once; the fixture address\'s messages among them', async () => {
    const seen: Data[] = [];
    let after: string | null = null;
    for (let i = 0; i < 50; i++) {
      const page: Data = await ok(`query($after: String) { icmMessages(network: MAINNET, first: 25, after: $after) {
        edges { node { ${MESSAGE} } } pageInfo { hasNextPage endCursor } } }`, { after });
      seen.push(...nodes(page.icmMessages));
      if (!page.icmMessages.pageInfo.hasNextPage) break;
      after = page.icmMessages.pageInfo.endCursor;
    }
    expect(new Set(seen.map((m) => m.messageId)).size).toBe(seen.length);
    const times = seen.map((m) => Number(m.sourceTransaction?.timestamp ?? 0));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const own = await ok(`query($a: String!) { icmMessages(address: $a, network: MAINNET, first: 100) { edges { node { ${MESSAGE} } } } }`, { a: f.icmAddress });
    const byId = new Map(seen.map((m) => [m.messageId, m]));
    expect(nodes(own.icmMessages).length).toBeGreaterThan(10);
    for (const m of nodes(own.icmMessages)) expect(byId.get(m.messageId)).toEqual(m);
  });

  it('filters with the spec\'s parameters, as the listing of every message has them', async () => {
    const all = nodes((await ok(`{ icmMessages(network: MAINNET, first: 100) { edges { node { ${MESSAGE} } } } }`)).icmMessages);
    const sample = all[0];
    const filtered = await ok(`query($s: String!, $d: String!, $from: String!) {
      bySource: icmMessages(network: MAINNET, first: 100, filter: { sourceBlockchainId: $s }) { edges { node { sourceBlockchainId sourceEvmChainId } } }
      byEvmSource: icmMessages(network: MAINNET, first: 100, filter: { sourceBlockchainId: "${sample.sourceEvmChainId}" }) { edges { node { messageId } } }
      byEither: icmMessages(network: MAINNET, first: 100, filter: { blockchainId: $d }) { edges { node { sourceBlockchainId destinationBlockchainId } } }
      byFrom: icmMessages(first: 100, filter: { from: $from }) { edges { node { from } } } }`, {
      s: sample.sourceBlockchainId, d: sample.destinationBlockchainId, from: sample.from.toUpperCase().replace('0X', '0x'),
    });
    const bySource = nodes(filtered.bySource);
    expect(bySource.length).toBeGreaterThan(0);
    expect(bySource.every((m: Data) => m.sourceBlockchainId === sample.sourceBlockchainId)).toBe(true);
    expect(nodes(filtered.byEvmSource)).toHaveLength(bySource.length);
    expect(nodes(filtered.byEither).every((m: Data) => [m.sourceBlockchainId, m.destinationBlockchainId].includes(sample.destinationBlockchainId))).toBe(true);
    expect(nodes(filtered.byFrom).map((m: Data) => m.from.toLowerCase())).toContain(sample.from.toLowerCase());
    expect(nodes(filtered.byFrom).every((m: Data) => m.from.toLowerCase() === sample.from.toLowerCase())).toBe(true);
  });

  it('refuses bad filters before any call, and filters together with an address', async () => {
    await fetch(`${stack.devnet.url}/__devnet/stats/reset`, { method: 'POST' });
    const cases: [string, string][] = [
      [`{ icmMessages(filter: { from: "0x12" }) { edges { cursor } } }`, 'filter.from'],
      [`{ icmMessages(filter: { blockchainId: "43114" }) { edges { cursor } } }`, 'filter.blockchainId'],
      [`{ icmMessages(address: "${f.icmAddress}", filter: { to: "${f.icmAddress}" }) { edges { cursor } } }`, 'filter'],
      [`{ icmMessages(first: 101) { edges { cursor } } }`, 'first'],
    ];
    for (const [query, argumentName] of cases) {
      const res = await stack.query(query);
      expect(res.errors?.[0]?.extensions, query).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
    }
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('a cursor of the all-messages listing is refused by an address listing', async () => {
    const page = await ok(`{ icmMessages(first: 2) { pageInfo { endCursor } } }`);
    const res = await stack.query(`query($c: String!) { icmMessages(address: "${f.icmAddress}", first: 2, after: $c) { edges { cursor } } }`, { c: page.icmMessages.pageInfo.endCursor });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'after' });
  });
});

describe('Query.icmMessage(messageId:) and refetch by id (getIcmMessage)', () => {
  it('equals the message as listed, for the all-messages and the address listings, one call per distinct id', async () => {
    const listed = nodes((await ok(`query($a: String!) { icmMessages(address: $a, first: 3) { edges { node { ${MESSAGE} } } } }`, { a: f.icmAddress })).icmMessages);
    const [first, second] = listed;
    const { data, byRoute } = await counted(`query($a: String!, $b: String!, $a0x: String!) {
      a: icmMessage(messageId: $a) { ${MESSAGE} } again: icmMessage(messageId: $a0x) { messageId } b: icmMessage(messageId: $b) { ${MESSAGE} } }`, {
      a: first.messageId, b: second.messageId, a0x: `0x${first.messageId.toUpperCase()}`,
    });
    expect(data.a).toEqual(first);
    expect(data.b).toEqual(second);
    expect(data.again.messageId).toBe(first.messageId);
    expect(byRoute).toEqual({ 'GET /v1/icm/messages/{messageId}': 2 });
  });

  it('a message of any address resolves by id, and its id is the same however it was found', async () => {
    const address = '0x00000000000000000000000000000000000000a1';
    const own = nodes((await ok(`{ icmMessages(address: "${address}", first: 10) { edges { node { ${MESSAGE} } } } }`)).icmMessages);
    const fixture = nodes((await ok(`{ icmMessages(address: "${f.icmAddress}", first: 1) { edges { node { ${MESSAGE} } } } }`)).icmMessages);
    for (const m of [...own, ...fixture]) {
      const back = await ok(`query($id: ID!, $m: String!) { node(id: $id) { ... on IcmMessage { ${MESSAGE} } } icmMessage(messageId: $m) { id } }`, { id: m.id, m: m.messageId });
      expect(back.node).toEqual(m);
      expect(back.icmMessage.id).toBe(m.id);
    }
  });

  it('ids issued before the lookup by id (address and network parts) still refetch, by one getIcmMessage', async () => {
    const [m] = nodes((await ok(`query($a: String!) { icmMessages(address: $a, first: 1) { edges { node { ${MESSAGE} } } } }`, { a: f.icmAddress })).icmMessages);
    const legacy = encodeLegacyGlobalId('IcmMessage', [f.icmAddress, m.messageId, 'mainnet']);
    const { data, byRoute } = await counted(`query($id: ID!) { node(id: $id) { ... on IcmMessage { ${MESSAGE} } } }`, { id: legacy });
    expect(data.node).toEqual(m);
    expect(byRoute).toEqual({ 'GET /v1/icm/messages/{messageId}': 1 });
  });

  it('is null for an unknown id, BAD_USER_INPUT for a malformed one', async () => {
    const data = await ok(`{ icmMessage(messageId: "${'ab'.repeat(32)}") { messageId } }`);
    expect(data.icmMessage).toBeNull();
    const res = await stack.query(`{ icmMessage(messageId: "xyz") { messageId } }`);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'messageId' });
  });

  it('the devnet serves the same message from both listings and by id (strict shapes)', async () => {
    const all = await api.listAllIcmMessages({ network: 'fuji', pageSize: 5 });
    expect(all.messages.length).toBeGreaterThan(0);
    for (const m of all.messages) expect(await api.getIcmMessage(m.messageId)).toEqual(m);
    await expect(api.getIcmMessage('00'.repeat(32))).rejects.toMatchObject({ status: 404 });
  });
});

describe('icmMessagePages', () => {
  it('lists by address with E16, and without one with listIcmMessages and only the filters given', async () => {
    const calls: unknown[] = [];
    const methods: Partial<DataApi> = {
      listIcmMessages: async (address, params) => (calls.push(['byAddress', address, params]), { messages: [] }),
      listAllIcmMessages: async (params) => (calls.push(['all', params]), { messages: [], nextPageToken: 't' }),
    };
    const ctx = loaderContext({ dataApi: methods as DataApi, nodes: createNodeDirectory([]) });
    await icmMessagePages(ctx, '0xABC', 'fuji')(undefined, 5);
    const page = await icmMessagePages(ctx, undefined, undefined, { from: '0xabc', to: '' })('p', 7);
    expect(page.nextPageToken).toBe('t');
    expect(calls).toEqual([
      ['byAddress', '0xabc', { pageSize: 5, network: 'fuji' }],
      ['all', { pageSize: 7, pageToken: 'p', from: '0xabc' }],
    ]);
  });
});

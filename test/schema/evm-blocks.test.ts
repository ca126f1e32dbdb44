import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import type { EvmBlock, FullTransaction, ListNativeTransactionsResponse } from '../../src/shapes/index.ts';
import { dataOf, devnetGet, startStack, type TestStack } from '../helpers/stack.ts';

/**
 * EVM blocks through GraphQL on the devnet: `Chain.blocks`, `Chain.block(id:)`,
 * `EvmBlock.transactions`, `Chain.latestTransactions`, the links between a block and
 * its transactions both ways, paging, bad input, and the upstream calls they make.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;
const routes = (): Record<string, number> => stack.devnet.stats().byRoute;

const ok = (query: string, variables?: Record<string, unknown>): Promise<Data> => dataOf<Data>(stack, query, variables);

const direct = <T>(path: string): Promise<T> => devnetGet<T>(stack, path);

beforeAll(async () => {
  const now = Date.now();
  stack = await startStack({ devnet: { now: () => now } });
  f = stack.devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await stack?.close();
});

const BLOCK_FIELDS = `id chainId blockNumber blockTimestamp blockTime blockHash parentHash txCount cumulativeTransactions baseFee gasUsed gasLimit gasCost feesSpent`;

describe('Chain.blocks and Chain.block', () => {
  it('serves the latest blocks with every field, and pages with after', async () => {
    const wire = await direct<{ blocks: EvmBlock[] }>(`/v1/chains/${f.evmChainId}/blocks?pageSize=4`);
    const data = await ok(`query($c: String!) { chain(chainId: $c) { blocks(first: 2) { edges { cursor node { ${BLOCK_FIELDS} } } pageInfo { hasNextPage endCursor } } } }`, { c: f.evmChainId });
    const page = data.chain.blocks;
    expect(page.pageInfo.hasNextPage).toBe(true);
    expect(page.edges.map((e: Data) => e.node.blockNumber)).toEqual(wire.blocks.slice(0, 2).map((b) => b.blockNumber));
    const [b0] = wire.blocks as [EvmBlock];
    expect(page.edges[0].node).toMatchObject({
      chainId: b0.chainId, blockNumber: b0.blockNumber, blockTimestamp: String(b0.blockTimestamp), blockHash: b0.blockHash, parentHash: b0.parentHash,
      txCount: b0.txCount, cumulativeTransactions: b0.cumulativeTransactions, baseFee: b0.baseFee, gasUsed: b0.gasUsed, gasLimit: b0.gasLimit,
      gasCost: b0.gasCost, feesSpent: b0.feesSpent, blockTime: new Date(Number(b0.blockTimestamp) * 1000).toISOString(),
    });
    const next = await ok(`query($c: String!, $after: String) { chain(chainId: $c) { blocks(first: 2, after: $after) { edges { node { blockNumber } } } } }`, {
      c: f.evmChainId, after: page.pageInfo.endCursor,
    });
    expect(next.chain.blocks.edges.map((e: Data) => e.node.blockNumber)).toEqual(wire.blocks.slice(2, 4).map((b) => b.blockNumber));
  });

  it('reads a block by number and by hash (one call each, the other name primed), refetches it by id, and links parents', async () => {
    const tx = await direct<FullTransaction>(`/v1/chains/${f.evmChainId}/transactions/${f.txHash}`);
    const { blockNumber, blockHash } = tx.nativeTransaction;
    stack.devnet.resetStats();
    const data = await ok(`query($c: String!, $n: String!, $h: String!) { chain(chainId: $c) {
        byNumber: block(id: $n) { id blockNumber blockHash parent { blockNumber blockHash } }
        byHash: block(id: $h) { id blockNumber }
        padded: block(id: "000${blockNumber}") { blockNumber }
      } }`, { c: f.evmChainId, n: blockNumber, h: blockHash.toUpperCase().replace('0X', '0x') });
    expect(data.chain.byNumber.blockHash).toBe(blockHash);
    expect(data.chain.byHash).toEqual({ id: data.chain.byNumber.id, blockNumber });
    expect(data.chain.padded.blockNumber).toBe(blockNumber);
    expect(data.chain.byNumber.parent.blockNumber).toBe(String(Number(blockNumber) - 1));
    // The two names of one block in one batch are two reads; the parent one more.
    expect(routes()['GET /v1/chains/{chainId}/blocks/{blockId}']).toBe(3);

    const refetched = await ok(`query($id: ID!) { node(id: $id) { ... on EvmBlock { blockNumber blockHash } } }`, { id: data.chain.byNumber.id });
    expect(refetched.node).toEqual({ blockNumber, blockHash });
  });

  it('answers null past the latest block, and refuses an id that is neither a number nor a hash before any call', async () => {
    const data = await ok(`query($c: String!) { chain(chainId: $c) { block(id: "999999999999999") { blockNumber } } }`, { c: f.evmChainId });
    expect(data.chain.block).toBeNull();
    stack.devnet.resetStats();
    for (const id of ['latest', '0x1234', '-1', '99999999999999999999']) {
      const res = await stack.query(`query($c: String!, $id: String!) { chain(chainId: $c) { block(id: $id) { blockNumber } } }`, { c: f.evmChainId, id });
      expect(res.errors?.[0]?.extensions, id).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'id' });
    }
    expect(stack.devnet.stats().requests).toBe(0);
  });
});

describe('EvmBlock.transactions and NativeTransaction.block', () => {
  it("lists a block's transactions, each linking back to that block without another call", async () => {
    const tx = await direct<FullTransaction>(`/v1/chains/${f.evmChainId}/transactions/${f.txHash}`);
    const wire = await direct<ListNativeTransactionsResponse>(`/v1/chains/${f.evmChainId}/blocks/${tx.nativeTransaction.blockNumber}/transactions?pageSize=100`);
    stack.devnet.resetStats();
    const data = await ok(`query($c: String!, $n: String!) { chain(chainId: $c) { block(id: $n) {
        txCount transactions(first: 100) { edges { node { txHash blockIndex block { blockNumber blockHash } } } pageInfo { hasNextPage } }
      } } }`, { c: f.evmChainId, n: tx.nativeTransaction.blockNumber });
    const block = data.chain.block;
    expect(block.transactions.edges.map((e: Data) => e.node.txHash)).toEqual(wire.transactions.map((t) => t.txHash));
    expect(block.transactions.edges.map((e: Data) => e.node.txHash)).toContain(f.txHash);
    expect(block.txCount).toBe(wire.transactions.length);
    for (const e of block.transactions.edges) {
      expect(e.node.block).toEqual({ blockNumber: tx.nativeTransaction.blockNumber, blockHash: tx.nativeTransaction.blockHash });
    }
    // The block once (by number; its hash primed), its transactions once: no call per transaction.
    expect(routes()['GET /v1/chains/{chainId}/blocks/{blockId}']).toBe(1);
    expect(routes()['GET /v1/chains/{chainId}/blocks/{blockId}/transactions']).toBe(1);
  });

  it('links transactions of listed blocks to their block for free, and a transaction found elsewhere with one read', async () => {
    stack.devnet.resetStats();
    const data = await ok(`query($c: String!, $h: String!) { chain(chainId: $c) {
        blocks(first: 3) { edges { node { blockNumber transactions(first: 5) { edges { node { block { blockNumber } } } } } } }
        transaction(txHash: $h) { nativeTransaction { block { txCount blockHash } blockHash } }
      } }`, { c: f.evmChainId, h: f.txHash });
    for (const e of data.chain.blocks.edges) {
      for (const t of e.node.transactions.edges) expect(t.node.block.blockNumber).toBe(e.node.blockNumber);
    }
    const native = data.chain.transaction.nativeTransaction;
    expect(native.block.blockHash).toBe(native.blockHash);
    expect(routes()['GET /v1/chains/{chainId}/blocks']).toBe(1);
    expect(routes()['GET /v1/chains/{chainId}/blocks/{blockId}/transactions']).toBe(3);
    // Only the block of the transaction found by hash is read.
    expect(routes()['GET /v1/chains/{chainId}/blocks/{blockId}']).toBe(1);
  });

  it('pages a block\'s transactions with after and refuses first out of range', async () => {
    const [top] = (await direct<{ blocks: EvmBlock[] }>(`/v1/chains/${f.evmChainId}/blocks?pageSize=1`)).blocks as [EvmBlock];
    const q = `query($c: String!, $n: String!, $after: String, $first: Int) { chain(chainId: $c) { block(id: $n) {
      transactions(first: $first, after: $after) { edges { node { txHash } } pageInfo { hasNextPage endCursor } } } } }`;
    const all = await ok(q, { c: f.evmChainId, n: top.blockNumber, first: 100 });
    const one = await ok(q, { c: f.evmChainId, n: top.blockNumber, first: 1 });
    expect(one.chain.block.transactions.pageInfo.hasNextPage).toBe(top.txCount > 1);
    const rest = await ok(q, { c: f.evmChainId, n: top.blockNumber, first: 100, after: one.chain.block.transactions.pageInfo.endCursor });
    expect([...one.chain.block.transactions.edges, ...rest.chain.block.transactions.edges]).toEqual(all.chain.block.transactions.edges);
    const bad = await stack.query(q, { c: f.evmChainId, n: top.blockNumber, first: 101 });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'first' });
  });
});

describe('Chain.latestTransactions', () => {
  it('lists the latest transactions newest first, filtered by status, paged with after', async () => {
    const wire = await direct<ListNativeTransactionsResponse>(`/v1/chains/${f.evmChainId}/transactions?pageSize=6&status=failed`);
    const q = `query($c: String!, $after: String) { chain(chainId: $c) {
      latestTransactions(first: 3, after: $after, filter: { status: FAILED }) { edges { node { txHash txStatus } } pageInfo { endCursor hasNextPage } } } }`;
    const first = await ok(q, { c: f.evmChainId });
    const second = await ok(q, { c: f.evmChainId, after: first.chain.latestTransactions.pageInfo.endCursor });
    const hashes = [...first.chain.latestTransactions.edges, ...second.chain.latestTransactions.edges].map((e: Data) => e.node.txHash);
    expect(hashes).toEqual(wire.transactions.map((t) => t.txHash));
    expect(first.chain.latestTransactions.edges.every((e: Data) => e.node.txStatus === '0')).toBe(true);

    // A cursor is bound to its filter.
    const other = await stack.query(`query($c: String!, $after: String) { chain(chainId: $c) { latestTransactions(first: 3, after: $after) { edges { node { txHash } } } } }`, {
      c: f.evmChainId, after: first.chain.latestTransactions.pageInfo.endCursor,
    });
    expect(other.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'after' });
    const unknown = await stack.query(`query($c: String!) { chain(chainId: $c) { latestTransactions(filter: { status: UNKNOWN }) { edges { node { txHash } } } } }`, { c: f.evmChainId });
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});

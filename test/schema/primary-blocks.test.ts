import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, devnetGet, startStack, type TestStack } from '../helpers/stack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

// Primary-network blocks and vertices by id, a block's parent, and the blocks a node proposed, through
// a real gateway on the devnet, judged by the upstream requests each makes.

const BY_ID = 'GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}';
const LATEST = 'GET /v1/networks/{network}/blockchains/{blockchainId}/blocks';
const BY_NODE = 'GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks';
const VERTEX = 'GET /v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}';
const AT_HEIGHT = 'GET /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight';
const TX = 'GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}';
const VALIDATOR = 'GET /v1/networks/{network}/validators/{nodeId}';

interface WireBlock { blockNumber: string; blockHash: string; parentHash: string; proposerDetails?: { proposerNodeId?: string } }
interface WireVertex { vertexHash: string; vertexHeight: number; transactions: string[] }

let stack: TestStack;
/** The devnet's clock, pinned so the latest blocks do not move under a test. */
const clock = Date.now();

const ok = (query: string, variables?: Record<string, unknown>): Promise<Data> => dataOf<Data>(stack, query, variables);
const direct = <T>(path: string): Promise<T> => devnetGet<T>(stack, path);
const nodes = (connection: Data): Data[] => connection.edges.map((e: Data) => e.node);

async function measured(query: string, variables?: Record<string, unknown>): Promise<{ data: Data; byRoute: Record<string, number>; requests: number }> {
  const m = await stack.measure(() => stack.query<Data>(query, variables));
  expect(m.result.errors, JSON.stringify(m.result.errors)).toBeUndefined();
  return { data: m.result.data, byRoute: m.byRoute, requests: m.requests };
}

async function refused(query: string): Promise<Record<string, unknown>> {
  stack.devnet.resetStats();
  const res = await stack.query<Data>(query);
  expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  expect(stack.upstreamRequests()).toBe(0);
  return res.errors?.[0]?.extensions ?? {};
}

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => clock } });
  await stack.upstreamSettled();
});

afterAll(async () => {
  await stack?.close();
});

describe('PrimaryBlockchain.block (getBlockById)', () => {
  it.each(['p-chain', 'x-chain', 'c-chain'])('reads a %s block by height and by hash, the listing\'s block, once per id', async (chain) => {
    const wire = (await direct<{ blocks: WireBlock[] }>(`/v1/networks/mainnet/blockchains/${chain}/blocks?pageSize=3`)).blocks;
    const b = wire[2] as WireBlock;
    const { data, byRoute, requests } = await measured(
      `query($c: String!, $h: String!, $n: String!) { network(name: MAINNET) { blockchain(id: $c) {
        byHash: block(id: $h) { blockNumber blockHash parentHash }
        again: block(id: $h) { blockHash }
        byHeight: block(id: $n) { blockNumber blockHash parentHash } } } }`,
      { c: chain, h: b.blockHash, n: b.blockNumber },
    );
    const bc = data.network.blockchain;
    expect(bc.byHash).toEqual({ blockNumber: b.blockNumber, blockHash: b.blockHash, parentHash: b.parentHash });
    expect(bc.byHeight).toEqual(bc.byHash);
    expect(bc.again.blockHash).toBe(b.blockHash);
    // Two distinct ids (the hash asked twice is one read): no endpoint takes several blocks.
    expect(byRoute).toEqual({ [BY_ID]: 2 });
    expect(requests).toBe(2);
  });

  it('is null for a block not produced yet, and refuses a malformed id before any call', async () => {
    const data = await ok('{ network(name: MAINNET) { blockchain(id: "p-chain") { block(id: "999999999999") { blockHash } } } }');
    expect(data.network.blockchain.block).toBeNull();
    const ext = await refused('{ network(name: MAINNET) { blockchain(id: "p-chain") { block(id: "not-a-block") { blockHash } } } }');
    expect(ext.argumentName).toBe('id');
  });
});

describe('Block.parent', () => {
  it('costs one lookup for a page of listed blocks (their parents are the page), one more per level', async () => {
    const wire = (await direct<{ blocks: WireBlock[] }>('/v1/networks/mainnet/blockchains/p-chain/blocks?pageSize=12')).blocks;
    const { data, byRoute } = await measured(`{ network(name: MAINNET) { blockchain(id: "p-chain") {
      blocks(first: 10) { edges { node { blockNumber blockHash parentHash parent { blockNumber blockHash parentHash parent { blockHash } } } } } } } }`);
    const blocks = nodes(data.network.blockchain.blocks);
    expect(blocks).toHaveLength(10);
    blocks.forEach((b: Data, i: number) => {
      expect(b.blockHash).toBe(wire[i]?.blockHash);
      expect(b.parent.blockHash).toBe(b.parentHash);
      expect(b.parent.blockHash).toBe(wire[i + 1]?.blockHash);
      expect(b.parent.parent.blockHash).toBe(wire[i + 2]?.blockHash);
    });
    // One listing; the parents' level reads only the oldest block's parent, the grandparents' one more.
    expect(byRoute).toEqual({ [LATEST]: 1, [BY_ID]: 2 });
  });

  it('is null for the first block, without a call', async () => {
    const { data, byRoute } = await measured('{ network(name: MAINNET) { blockchain(id: "x-chain") { block(id: "0") { blockNumber parent { blockHash } } } } }');
    expect(data.network.blockchain.block).toEqual({ blockNumber: '0', parent: null });
    expect(byRoute).toEqual({ [BY_ID]: 1 });
  });
});

describe('proposed blocks (listPrimaryNetworkBlocksByNodeId)', () => {
  it("Block.proposerBlocks: one listing per block of the page (the endpoint takes one node), each the proposer's blocks", async () => {
    const { data, byRoute } = await measured(`{ network(name: MAINNET) { blockchain(id: "c-chain") {
      blocks(first: 5) { edges { node { blockHash proposerDetails { proposerNodeId }
        proposerBlocks(first: 3) { edges { node { blockNumber blockHash proposerDetails { proposerNodeId } } } chainInfo { chainName } } } } } } } }`);
    const blocks = nodes(data.network.blockchain.blocks);
    expect(blocks).toHaveLength(5);
    for (const b of blocks) {
      const proposed = nodes(b.proposerBlocks);
      expect(proposed.length).toBeGreaterThan(0);
      for (const p of proposed) expect(p.proposerDetails.proposerNodeId).toBe(b.proposerDetails.proposerNodeId);
      // The newest block of its proposer at the time of the listing is this one or a later one.
      expect(Number(proposed[0].blockNumber)).toBeGreaterThanOrEqual(0);
      expect(proposed.map((p: Data) => p.blockHash)).toContain(b.blockHash);
    }
    expect(byRoute).toEqual({ [LATEST]: 1, [BY_NODE]: 5 });
  });

  it("Validator.proposedBlocks: the validator's blocks of a chain, paged with after, one listing per page", async () => {
    const wire = (await direct<{ blocks: WireBlock[] }>('/v1/networks/mainnet/blockchains/p-chain/blocks?pageSize=1')).blocks;
    const nodeId = wire[0]?.proposerDetails?.proposerNodeId as string;
    const query = `query($n: String!, $after: String) { network(name: MAINNET) { validator(nodeId: $n) { nodeId
      proposedBlocks(chain: "p-chain", first: 2, after: $after) { edges { node { blockHash proposerDetails { proposerNodeId } } } pageInfo { hasNextPage endCursor } } } } }`;
    const first = await measured(query, { n: nodeId });
    const page1 = first.data.network.validator.proposedBlocks;
    expect(nodes(page1).map((b: Data) => b.proposerDetails.proposerNodeId)).toEqual([nodeId, nodeId]);
    expect(nodes(page1)[0].blockHash).toBe(wire[0]?.blockHash);
    expect(first.byRoute).toEqual({ [VALIDATOR]: 1, [BY_NODE]: 1 });
    const second = await measured(query, { n: nodeId, after: page1.pageInfo.endCursor });
    const page2 = nodes(second.data.network.validator.proposedBlocks);
    const direct4 = (await direct<{ blocks: WireBlock[] }>(`/v1/networks/mainnet/blockchains/p-chain/nodes/${nodeId}/blocks?pageSize=4`)).blocks;
    expect([...nodes(page1), ...page2].map((b: Data) => b.blockHash)).toEqual(direct4.map((b) => b.blockHash));
    expect(second.byRoute[BY_NODE]).toBeLessThanOrEqual(2);
  });

  it("AvalancheNode.proposedBlocks: the node's own id (info.getNodeID), then one listing", async () => {
    const { data, byRoute } = await measured(`{ avalancheNode(name: "mainnet") { nodeId proposedBlocks(chain: "x-chain", first: 4) { edges { node { blockHash } } } } }`);
    const { nodeId } = data.avalancheNode;
    const wire = (await direct<{ blocks: WireBlock[] }>(`/v1/networks/mainnet/blockchains/x-chain/nodes/${nodeId}/blocks?pageSize=4`)).blocks;
    expect(nodes(data.avalancheNode.proposedBlocks).map((b: Data) => b.blockHash)).toEqual(wire.map((b) => b.blockHash));
    expect(byRoute[BY_NODE]).toBe(1);
  });

  it('refuses a bad chain or an inverted window before any call', async () => {
    const n = 'NodeID-111111111111111111116DBWJs';
    await refused(`{ network(name: MAINNET) { validator(nodeId: "${n}") { proposedBlocks(chain: "z-chain") { edges { cursor } } } } }`);
    await refused(`{ network(name: MAINNET) { validator(nodeId: "${n}") { proposedBlocks(chain: "p-chain", startTimestamp: "10", endTimestamp: "5") { edges { cursor } } } } }`);
  });
});

describe('PrimaryBlockchain.vertex and .verticesAtHeight (getVertexByHash, getVertexByHeight)', () => {
  it("reads the listing's vertex by hash and at its height, one call each", async () => {
    const wire = (await direct<{ vertices: WireVertex[] }>('/v1/networks/mainnet/blockchains/x-chain/vertices?pageSize=2')).vertices;
    const v = wire[1] as WireVertex;
    const { data, byRoute } = await measured(
      `query($h: String!, $height: UInt64!) { network(name: MAINNET) { blockchain(id: "x-chain") {
        vertex(hash: $h) { vertexHash vertexHeight transactions }
        verticesAtHeight(height: $height) { edges { node { vertexHash vertexHeight } } chainInfo { chainName } } } } }`,
      { h: v.vertexHash, height: String(v.vertexHeight) },
    );
    const bc = data.network.blockchain;
    expect(bc.vertex).toEqual({ vertexHash: v.vertexHash, vertexHeight: String(v.vertexHeight), transactions: v.transactions });
    expect(nodes(bc.verticesAtHeight)).toEqual([{ vertexHash: v.vertexHash, vertexHeight: String(v.vertexHeight) }]);
    expect(byRoute).toEqual({ [VERTEX]: 1, [AT_HEIGHT]: 1 });
  });

  it("links a vertex to its transactions: one getTxByHash per id (the endpoint takes one), each in that vertex", async () => {
    const wire = (await direct<{ vertices: WireVertex[] }>('/v1/networks/mainnet/blockchains/x-chain/vertices?pageSize=1')).vertices;
    const v = wire[0] as WireVertex;
    const { data, byRoute } = await measured(
      `query($h: String!) { network(name: MAINNET) { blockchain(id: "x-chain") { vertex(hash: $h) { vertexHash
        transactionDetails { txHash ... on XChainTransaction { chainFormat vertices { hash height } } } } } } }`,
      { h: v.vertexHash },
    );
    const txs = data.network.blockchain.vertex.transactionDetails;
    expect(txs.map((tx: Data) => tx.txHash)).toEqual(v.transactions);
    for (const tx of txs) expect(tx).toMatchObject({ chainFormat: 'non-linear', vertices: [{ hash: v.vertexHash, height: String(v.vertexHeight) }] });
    expect(byRoute).toEqual({ [VERTEX]: 1, [TX]: v.transactions.length });
  });

  it('is null for an unknown vertex; refuses another chain and a malformed hash before any call', async () => {
    const data = await ok('{ network(name: MAINNET) { blockchain(id: "x-chain") { vertex(hash: "2esKtSJtnHDRgc8hPtZ7TskeixuAgNbcHsK2WykSQp4e9Dxtf3") { vertexHash } } } }');
    expect(data.network.blockchain.vertex).toBeNull();
    await refused('{ network(name: MAINNET) { blockchain(id: "p-chain") { vertex(hash: "2esKtSJtnHDRgc8hPtZ7TskeixuAgNbcHsK2WykSQp4e9Dxtf3") { vertexHash } } } }');
    await refused('{ network(name: MAINNET) { blockchain(id: "x-chain") { vertex(hash: "nope") { vertexHash } } } }');
    await refused('{ network(name: MAINNET) { blockchain(id: "c-chain") { verticesAtHeight(height: "1") { edges { cursor } } } } }');
  });
});

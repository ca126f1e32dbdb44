import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { mismatches, STRICT_SHAPES as S } from '../shapes/strict.ts';

/**
 * Primary-network blocks and vertices by id and a node's proposed blocks on the devnet
 * (public spec): every answer against the strict shapes, and the same objects the
 * listings serve: a block by height or hash is the listing's block, a node's blocks are
 * listed blocks it proposed, a vertex by hash or height is the listing's vertex.
 */

interface Json { [k: string]: unknown }
interface BlockItem { blockNumber: string; blockHash: string; parentHash: string; blockTimestamp: number; proposerDetails?: { proposerNodeId?: string } }
interface VertexItem { vertexHash: string; vertexHeight: number; transactions: string[] }

let devnet: Devnet;
const clock = Date.now();
const base = '/v1/networks/mainnet/blockchains';

async function call(path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${devnet.url}${path}`);
  return { status: res.status, body: (await res.json()) as Json };
}

async function ok(path: string): Promise<Json> {
  const { status, body } = await call(path);
  expect(status, `${path} -> ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
  return body;
}

beforeAll(async () => {
  devnet = await startDevnet({ validators: 60, now: () => clock });
});
afterAll(async () => {
  await devnet?.close();
});

describe.each(['p-chain', 'x-chain', 'c-chain'])('%s blocks by id and by node', (chain) => {
  it('serves the listed block by height and by hash, and its parent by parentHash', async () => {
    const listing = await ok(`${base}/${chain}/blocks?pageSize=5`);
    const blocks = listing.blocks as BlockItem[];
    expect(blocks).toHaveLength(5);
    for (const b of blocks) {
      const byHeight = await ok(`${base}/${chain}/blocks/${b.blockNumber}`);
      const byHash = await ok(`${base}/${chain}/blocks/${b.blockHash}`);
      expect(mismatches(byHash, S.Block)).toEqual([]);
      expect(byHeight).toEqual(b);
      expect(byHash).toEqual(b);
    }
    for (let i = 0; i < blocks.length - 1; i++) expect((blocks[i] as BlockItem).parentHash).toBe((blocks[i + 1] as BlockItem).blockHash);
    const oldest = blocks.at(-1) as BlockItem;
    const parent = await ok(`${base}/${chain}/blocks/${oldest.parentHash}`);
    expect(parent.blockNumber).toBe(String(Number(oldest.blockNumber) - 1));
  });

  it('answers 404 for a block not produced yet or unknown, 400 for a malformed node id', async () => {
    expect((await call(`${base}/${chain}/blocks/999999999999`)).status).toBe(404);
    expect((await call(`${base}/${chain}/blocks/2esKtSJtnHDRgc8hPtZ7TskeixuAgNbcHsK2WykSQp4e9Dxtf3`)).status).toBe(404);
    expect((await call(`${base}/${chain}/nodes/not-a-node/blocks`)).status).toBe(400);
  });

  it("lists a node's blocks: listed blocks whose proposer it is, newest first, paged", async () => {
    const listing = await ok(`${base}/${chain}/blocks?pageSize=100`);
    const listed = listing.blocks as BlockItem[];
    const nodeId = listed[0]?.proposerDetails?.proposerNodeId as string;
    expect(nodeId).toMatch(/^NodeID-/);
    const first = await ok(`${base}/${chain}/nodes/${nodeId}/blocks?pageSize=3`);
    expect(mismatches(first, S.ListBlocksResponse)).toEqual([]);
    const second = await ok(`${base}/${chain}/nodes/${nodeId}/blocks?pageSize=3&pageToken=${String(first.nextPageToken)}`);
    const mine = [...(first.blocks as BlockItem[]), ...(second.blocks as BlockItem[])];
    expect(mine).toHaveLength(6);
    for (const b of mine) {
      expect(b.proposerDetails?.proposerNodeId).toBe(nodeId);
      expect(await ok(`${base}/${chain}/blocks/${b.blockHash}`)).toEqual(b);
    }
    const heights = mine.map((b) => Number(b.blockNumber));
    expect([...heights].sort((a, b) => b - a)).toEqual(heights);
    // Every listed block of the node within the range is there, none skipped.
    const lowest = Math.min(...heights);
    const expected = listed.filter((b) => b.proposerDetails?.proposerNodeId === nodeId && Number(b.blockNumber) >= lowest);
    expect(mine.slice(0, expected.length).map((b) => b.blockHash)).toEqual(expected.map((b) => b.blockHash));
    // A time window narrows them as it narrows the listing.
    const top = mine[1] as BlockItem;
    const windowed = await ok(`${base}/${chain}/nodes/${nodeId}/blocks?pageSize=2&endTimestamp=${top.blockTimestamp}`);
    expect((windowed.blocks as BlockItem[])[0]?.blockHash).toBe(top.blockHash);
  });

  it('lists no block for a node that is not an active validator', async () => {
    const body = await ok(`${base}/${chain}/nodes/NodeID-111111111111111111116DBWJs/blocks`);
    expect(body.blocks).toEqual([]);
    expect(body.nextPageToken).toBeUndefined();
  });
});

describe('X-chain vertices by hash and by height', () => {
  it('serves the listed vertex by its hash and at its height', async () => {
    const listing = await ok(`${base}/x-chain/vertices?pageSize=3`);
    for (const v of listing.vertices as VertexItem[]) {
      const byHash = await ok(`${base}/x-chain/vertices/${v.vertexHash}`);
      expect(mismatches(byHash, S.Vertex)).toEqual([]);
      expect(byHash).toEqual(v);
      const atHeight = await ok(`${base}/x-chain/vertices:listByHeight?vertexHeight=${v.vertexHeight}`);
      expect(mismatches(atHeight, S.ListVerticesResponse)).toEqual([]);
      expect(atHeight.vertices).toEqual([v]);
      // Its transactions exist, and name it.
      for (const hash of v.transactions) {
        const tx = await ok(`${base}/x-chain/transactions/${hash}`);
        expect(mismatches(tx, S.XChainTransaction)).toEqual([]);
        expect(tx.vertices).toEqual([{ hash: v.vertexHash, height: v.vertexHeight, timestamp: expect.any(Number) as number }]);
      }
    }
  });

  it('answers 404 for an unknown vertex, 400 without a height or off the X-chain', async () => {
    expect((await call(`${base}/x-chain/vertices/2esKtSJtnHDRgc8hPtZ7TskeixuAgNbcHsK2WykSQp4e9Dxtf3`)).status).toBe(404);
    expect((await call(`${base}/x-chain/vertices:listByHeight`)).status).toBe(400);
    expect((await call(`${base}/p-chain/vertices:listByHeight?vertexHeight=1`)).status).toBe(400);
    expect((await ok(`${base}/x-chain/vertices:listByHeight?vertexHeight=999999999`)).vertices).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { PRIMARY_CHAIN_IDS, type Block, type Utxo, type Vertex } from '../../src/shapes/index.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';
import { isoOf, u64 } from '../helpers/exact.ts';
import { readEvents, subscribe as subscribeOver } from '../helpers/sse.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

const IDS = PRIMARY_CHAIN_IDS.mainnet;

let stack: TestStack;
let f: NetworkFixtures;
let api: DataApi;
/** The devnet's clock, pinned so the latest blocks do not move under a test. */
let clock = Date.now();

async function ok(query: string, variables?: Record<string, unknown>): Promise<Data> {
  const res = await stack.query<Data>(query, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

const nodes = (connection: Data): Data[] => connection.edges.map((e: Data) => e.node);

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => clock } });
  f = stack.devnet.dataset.fixtures().mainnet;
  api = createDataApiClient({ baseUrl: stack.devnet.url, apiKey: 'direct' });
});

afterAll(async () => {
  await stack?.close();
});

const BLOCK_FIELDS = `
  __typename id network blockchainId blockNumber blockHash parentHash blockType blockTimestamp blockTime txCount transactions blockSizeBytes
  l1ValidatorsAccruedFees activeL1Validators currentSupply
  proposerDetails { proposerId proposerParentId proposerNodeId proposerPChainHeight proposerTimestamp proposerTime }
`;

const VERTEX_FIELDS = `__typename id network blockchainId vertexHash parentHashes vertexHeight vertexIndex vertexTimestamp vertexTime txCount transactions vertexSizeBytes`;

const UTXO_FIELDS = `
  __typename id network blockchainId utxoId addresses asset { assetId name symbol denomination type amount } amount assetId
  consumedOnChainId createdOnChainId txHash consumingTxHash utxoBytes outputIndex blockNumber blockTimestamp blockTime consumingBlockNumber
  consumingBlockTimestamp consumingBlockTime platformLocktime platformLockedUntil stakeableLocktime stakeableLockedUntil threshold rewardType staked
  utxoStartTimestamp utxoStartTime utxoEndTimestamp utxoEndTime utxoType
`;

const decimal = (value: number | string | null | undefined): string | null => (value == null ? null : BigInt(value).toString());

function expectBlock(gql: Data, wire: Block, blockchainId: string): void {
  expect(gql).toMatchObject({
    __typename: 'Block',
    network: 'mainnet',
    blockchainId,
    blockNumber: wire.blockNumber,
    blockHash: wire.blockHash,
    parentHash: wire.parentHash,
    blockType: wire.blockType,
    blockTimestamp: u64(wire.blockTimestamp),
    blockTime: isoOf(wire.blockTimestamp),
    txCount: wire.txCount,
    transactions: wire.transactions,
    blockSizeBytes: wire.blockSizeBytes,
    l1ValidatorsAccruedFees: decimal(wire.l1ValidatorsAccruedFees),
    activeL1Validators: wire.activeL1Validators ?? null,
    currentSupply: wire.currentSupply ?? null,
    proposerDetails: wire.proposerDetails
      ? {
          proposerId: wire.proposerDetails.proposerId ?? null,
          proposerParentId: wire.proposerDetails.proposerParentId ?? null,
          proposerNodeId: wire.proposerDetails.proposerNodeId ?? null,
          proposerPChainHeight: u64(wire.proposerDetails.proposerPChainHeight),
          proposerTimestamp: u64(wire.proposerDetails.proposerTimestamp),
          proposerTime: isoOf(wire.proposerDetails.proposerTimestamp),
        }
      : null,
  });
}

function expectUtxo(gql: Data, wire: Utxo, blockchainId: string): void {
  expect(gql).toMatchObject({
    __typename: 'Utxo',
    network: 'mainnet',
    blockchainId,
    utxoId: wire.utxoId,
    addresses: wire.addresses,
    asset: { ...wire.asset },
    amount: wire.amount,
    assetId: wire.assetId,
    consumedOnChainId: wire.consumedOnChainId,
    createdOnChainId: wire.createdOnChainId,
    txHash: wire.txHash,
    consumingTxHash: wire.consumingTxHash ?? null,
    utxoBytes: wire.utxoBytes ?? null,
    outputIndex: wire.outputIndex,
    blockNumber: wire.blockNumber ?? null,
    blockTimestamp: u64(wire.blockTimestamp),
    blockTime: isoOf(wire.blockTimestamp),
    consumingBlockNumber: wire.consumingBlockNumber ?? null,
    consumingBlockTimestamp: u64(wire.consumingBlockTimestamp),
    consumingBlockTime: isoOf(wire.consumingBlockTimestamp),
    platformLocktime: u64(wire.platformLocktime),
    platformLockedUntil: isoOf(wire.platformLocktime),
    stakeableLocktime: u64(wire.stakeableLocktime),
    stakeableLockedUntil: isoOf(wire.stakeableLocktime),
    threshold: u64(wire.threshold),
    rewardType: wire.rewardType ?? null,
    staked: wire.staked ?? null,
    utxoStartTimestamp: u64(wire.utxoStartTimestamp),
    utxoStartTime: isoOf(wire.utxoStartTimestamp),
    utxoEndTimestamp: u64(wire.utxoEndTimestamp),
    utxoEndTime: isoOf(wire.utxoEndTimestamp),
    utxoType: wire.utxoType,
  });
}

describe('Network.blockchain', () => {
  it('resolves aliases and fixed ids without an upstream call', async () => {
    stack.devnet.resetStats();
    const data = await ok(`{ network(name: MAINNET) {
      p: blockchain(id: "p-chain") { __typename id network blockchainId alias }
      x: blockchain(id: "X-Chain") { blockchainId alias }
      c: blockchain(id: "${IDS.c}") { blockchainId alias } } }`);
    expect(data.network.p).toMatchObject({ __typename: 'PrimaryBlockchain', network: 'MAINNET', blockchainId: IDS.p, alias: 'p-chain' });
    expect(data.network.x).toEqual({ blockchainId: IDS.x, alias: 'x-chain' });
    expect(data.network.c).toEqual({ blockchainId: IDS.c, alias: 'c-chain' });
    expect(stack.devnet.stats().requests).toBe(0);
  });

  it('links to the blockchain record of the subnet list', async () => {
    const data = await ok(`{ network(name: FUJI) { blockchain(id: "c-chain") { blockchainId blockchain { blockchainName evmChainId subnet { subnetId } } } } }`);
    expect(data.network.blockchain).toEqual({
      blockchainId: PRIMARY_CHAIN_IDS.fuji.c,
      blockchain: { blockchainName: 'C-Chain', evmChainId: '43113', subnet: { subnetId: PRIMARY_CHAIN_IDS.fuji.p } },
    });
  });

  it('refuses other blockchain ids before any upstream call: the seed\'s blockchain endpoints take none', async () => {
    stack.devnet.resetStats();
    const res = await stack.query(`{ network(name: MAINNET) { blockchain(id: "${f.pChainTxHash}") { blocks(first: 1) { edges { cursor } } } } }`);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'id' });
    expect(stack.devnet.stats().requests).toBe(0);
  });
});

describe('PrimaryBlockchain.blocks', () => {
  const QUERY = `query($id: String!, $first: Int, $after: String, $start: UInt64, $end: UInt64) { network(name: MAINNET) { blockchain(id: $id) {
    blocks(first: $first, after: $after, startTimestamp: $start, endTimestamp: $end) {
      chainInfo { chainName network } pageInfo { hasNextPage endCursor } edges { cursor node { ${BLOCK_FIELDS} } } } } } }`;

  it('walks the latest blocks page by page with every field, equal to E15', async () => {
    for (const [alias, id] of [['p-chain', IDS.p], ['c-chain', IDS.c], ['x-chain', IDS.x]] as const) {
      const walked: Data[] = [];
      let after: string | null = null;
      for (let page = 0; page < 3; page++) {
        const data = await ok(QUERY, { id: alias, first: 15, after });
        const blocks = data.network.blockchain.blocks;
        expect(blocks.chainInfo).toEqual({ chainName: alias, network: 'mainnet' });
        walked.push(...nodes(blocks));
        after = blocks.pageInfo.endCursor;
      }
      const wire = await api.listBlocks('mainnet', id, { pageSize: 45 });
      expect(walked).toHaveLength(45);
      walked.forEach((gql, i) => expectBlock(gql, wire.blocks[i] as Block, id));
    }
  });

  it('keeps to a time window', async () => {
    const latest = (await api.listBlocks('mainnet', IDS.p, { pageSize: 1 })).blocks[0] as Block;
    const end = Number(latest.blockTimestamp) - 100;
    const start = end - 20;
    const data = await ok(QUERY, { id: 'p-chain', first: 100, start, end });
    const got = nodes(data.network.blockchain.blocks);
    expect(got.length).toBeGreaterThan(5);
    for (const b of got) {
      expect(Number(b.blockTimestamp)).toBeGreaterThanOrEqual(start);
      expect(Number(b.blockTimestamp)).toBeLessThanOrEqual(end);
    }
    const wire = await api.listBlocks('mainnet', IDS.p, { pageSize: 100, startTimestamp: start, endTimestamp: end });
    expect(got.map((b) => b.blockHash)).toEqual(wire.blocks.map((b) => b.blockHash));
  });

  it("links 50 blocks to their proposers' validations with one batched call", async () => {
    stack.devnet.resetStats();
    const data = await ok(`{ network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 50) { edges { node {
      proposerDetails { proposerNodeId } proposer { nodeId subnetId } } } } } } }`);
    const blocks = nodes(data.network.blockchain.blocks);
    expect(blocks).toHaveLength(50);
    for (const b of blocks) {
      if (b.proposerDetails?.proposerNodeId) expect(b.proposer.nodeId).toBe(b.proposerDetails.proposerNodeId);
      else expect(b.proposer).toBeNull();
    }
    expect(blocks.some((b) => b.proposer)).toBe(true);
    expect(stack.devnet.stats().byRoute).toEqual({
      'GET /v1/networks/{network}/blockchains/{blockchainId}/blocks': 1,
      'GET /v1/networks/{network}/validators': 1,
    });
  });
});

describe('PrimaryBlockchain.vertices', () => {
  it('walks the X-chain vertices with every field, equal to E18', async () => {
    const query = `query($after: String) { network(name: MAINNET) { blockchain(id: "x-chain") { vertices(first: 4, after: $after) {
      chainInfo { chainName } pageInfo { hasNextPage endCursor } edges { node { ${VERTEX_FIELDS} } } } } } }`;
    const one = await ok(query);
    const two = await ok(query, { after: one.network.blockchain.vertices.pageInfo.endCursor });
    expect(one.network.blockchain.vertices.chainInfo).toEqual({ chainName: 'x-chain' });
    const got = [...nodes(one.network.blockchain.vertices), ...nodes(two.network.blockchain.vertices)];
    const wire = await api.listVertices('mainnet', IDS.x, { pageSize: 8 });
    expect(got).toHaveLength(8);
    got.forEach((gql, i) => {
      const v = wire.vertices[i] as Vertex;
      expect(gql).toMatchObject({
        __typename: 'Vertex',
        network: 'mainnet',
        blockchainId: IDS.x,
        ...v,
        vertexHeight: u64(v.vertexHeight),
        vertexIndex: u64(v.vertexIndex),
        vertexTimestamp: u64(v.vertexTimestamp),
        vertexTime: isoOf(v.vertexTimestamp),
      });
    });
  });
});

describe('PrimaryBlockchain.utxos', () => {
  const QUERY = `query($id: String!, $addresses: [String!]!, $first: Int, $after: String, $assetId: String, $min: UInt64, $spent: Boolean, $sortBy: UtxoSortBy, $sortOrder: SortOrder) {
    network(name: MAINNET) { blockchain(id: $id) { utxos(addresses: $addresses, first: $first, after: $after, assetId: $assetId, minUtxoAmount: $min,
      includeSpent: $spent, sortBy: $sortBy, sortOrder: $sortOrder) {
      chainInfo { chainName network } pageInfo { hasNextPage endCursor } edges { node { ${UTXO_FIELDS} } } } } } }`;

  it('pages through P-chain UTXOs with every field, equal to E4', async () => {
    const one = await ok(QUERY, { id: 'p-chain', addresses: [f.pChainAddress], first: 3, spent: true });
    const two = await ok(QUERY, { id: 'p-chain', addresses: [f.pChainAddress], first: 3, spent: true, after: one.network.blockchain.utxos.pageInfo.endCursor });
    expect(one.network.blockchain.utxos.chainInfo).toEqual({ chainName: 'p-chain', network: 'mainnet' });
    const got = [...nodes(one.network.blockchain.utxos), ...nodes(two.network.blockchain.utxos)];
    const wire = await api.listUtxos('mainnet', IDS.p, { addresses: [f.pChainAddress], pageSize: 6, includeSpent: true });
    expect(got).toHaveLength(6);
    got.forEach((gql, i) => expectUtxo(gql, wire.utxos[i] as Utxo, IDS.p));
  });

  it('sorts and filters by amount and spent state', async () => {
    const data = await ok(QUERY, { id: 'p-chain', addresses: [f.pChainAddress], first: 50, sortBy: 'AMOUNT', sortOrder: 'ASC', min: 1_000_000_000 });
    const got = nodes(data.network.blockchain.utxos);
    expect(got.length).toBeGreaterThan(1);
    const amounts = got.map((u) => BigInt(u.amount));
    for (let i = 1; i < amounts.length; i++) expect(amounts[i]! >= amounts[i - 1]!).toBe(true);
    for (const a of amounts) expect(a >= 1_000_000_000n).toBe(true);
    const unspent = nodes((await ok(QUERY, { id: 'p-chain', addresses: [f.pChainAddress], first: 100 })).network.blockchain.utxos);
    for (const u of unspent) expect(u.consumingTxHash).toBeNull();
  });

  it('filters X-chain UTXOs by asset', async () => {
    const data = await ok(QUERY, { id: 'x-chain', addresses: [f.xChainAddress], first: 20, assetId: f.xAssetId, spent: true });
    const got = nodes(data.network.blockchain.utxos);
    expect(got.length).toBeGreaterThan(0);
    for (const u of got) expect(u.asset.assetId).toBe(f.xAssetId);
    const wire = await api.listUtxos('mainnet', IDS.x, { addresses: [f.xChainAddress], pageSize: 20, assetId: f.xAssetId, includeSpent: true });
    got.forEach((gql, i) => expectUtxo(gql, wire.utxos[i] as Utxo, IDS.x));
  });
});

describe('node(id:) refetch', () => {
  it('round-trips Block, Vertex, Utxo and PrimaryBlockchain ids', async () => {
    const data = await ok(`query($a: [String!]!) { network(name: MAINNET) {
      p: blockchain(id: "p-chain") { id blockchainId alias blocks(first: 12) { edges { node { ${BLOCK_FIELDS} } } } utxos(addresses: $a, first: 2) { edges { node { ${UTXO_FIELDS} } } } }
      x: blockchain(id: "x-chain") { vertices(first: 3) { edges { node { ${VERTEX_FIELDS} } } } } } }`, { a: [f.pChainAddress] });
    const p = data.network.p;
    const block = nodes(p.blocks)[11];
    const utxo = nodes(p.utxos)[1];
    const vertex = nodes(data.network.x.vertices)[2];
    // Block.blockNumber is always known; a UTXO's may be absent (X/C-chain shape), so the two
    // selections cannot share one selection set without aliases: refetch the UTXO on its own.
    stack.devnet.resetStats();
    const again = await ok(`query($ids: [ID!]!) { nodes(ids: $ids) {
      ... on Block { ${BLOCK_FIELDS} } ... on Vertex { ${VERTEX_FIELDS} } ... on PrimaryBlockchain { id blockchainId alias } } }`, {
      ids: [block.id, vertex.id, p.id],
    });
    expect(again.nodes).toEqual([block, vertex, { id: p.id, blockchainId: IDS.p, alias: 'p-chain' }]);
    // A direct read each: getBlockById and getVertexByHash (the chain needs none).
    expect(stack.devnet.stats().byRoute).toEqual({
      'GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}': 1,
      'GET /v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}': 1,
    });
    const utxoAgain = await ok(`query($id: ID!) { node(id: $id) { ... on Utxo { ${UTXO_FIELDS} } } }`, { id: utxo.id });
    expect(utxoAgain.node).toEqual(utxo);
  });

  it('refetches a block that does not exist as null, with one read', async () => {
    const latest = (await api.listBlocks('mainnet', IDS.c, { pageSize: 1 })).blocks[0] as Block;
    const id = Buffer.from(JSON.stringify(['Block', 'mainnet', IDS.c, latest.blockNumber, latest.blockTimestamp, `0x${'0'.repeat(64)}`])).toString('base64url');
    stack.devnet.resetStats();
    expect((await ok(`query($id: ID!) { node(id: $id) { id } }`, { id })).node).toBeNull();
    expect(stack.devnet.stats().requests).toBe(1);
  });
});

describe('bad input is refused before any upstream call', () => {
  const P = `network(name: MAINNET) { blockchain(id: "p-chain")`;
  const cases: [string, string][] = [
    ['blockchain with an empty id', `{ network(name: MAINNET) { blockchain(id: "") { blockchainId } } }`],
    ['blockchain with a malformed id', `{ network(name: MAINNET) { blockchain(id: "q-chain") { blockchainId } } }`],
    ['blockchain with the other network’s id', `{ network(name: MAINNET) { blockchain(id: "${PRIMARY_CHAIN_IDS.fuji.x}") { blocks { edges { cursor } } } } }`],
    ['blocks first 0', `{ ${P} { blocks(first: 0) { edges { cursor } } } } }`],
    ['blocks first 101', `{ ${P} { blocks(first: 101) { edges { cursor } } } } }`],
    ['blocks negative startTimestamp', `{ ${P} { blocks(startTimestamp: -1) { edges { cursor } } } } }`],
    ['blocks negative endTimestamp', `{ ${P} { blocks(endTimestamp: -5) { edges { cursor } } } } }`],
    ['blocks start after end', `{ ${P} { blocks(startTimestamp: 20, endTimestamp: 10) { edges { cursor } } } } }`],
    ['vertices on the P-chain', `{ ${P} { vertices { edges { cursor } } } } }`],
    ['vertices on the C-chain', `{ network(name: MAINNET) { blockchain(id: "${IDS.c}") { vertices { edges { cursor } } } } }`],
    ['vertices first 101', `{ network(name: MAINNET) { blockchain(id: "x-chain") { vertices(first: 101) { edges { cursor } } } } }`],
    ['utxos without addresses', `{ ${P} { utxos(addresses: []) { edges { cursor } } } } }`],
    ['utxos with an empty address', `{ ${P} { utxos(addresses: [""]) { edges { cursor } } } } }`],
    ['utxos negative minUtxoAmount', `{ ${P} { utxos(addresses: ["P-avax1x"], minUtxoAmount: -1) { edges { cursor } } } } }`],
    ['utxos first 1025', `{ ${P} { utxos(addresses: ["P-avax1x"], first: 1025) { edges { cursor } } } } }`],
    ['utxos first 0', `{ ${P} { utxos(addresses: ["P-avax1x"], first: 0) { edges { cursor } } } } }`],
    ['utxos assetId off the X-chain', `{ ${P} { utxos(addresses: ["P-avax1x"], assetId: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z") { edges { cursor } } } } }`],
    ['utxos malformed assetId', `{ network(name: MAINNET) { blockchain(id: "x-chain") { utxos(addresses: ["X-avax1x"], assetId: "no!") { edges { cursor } } } } }`],
  ];

  it.each(cases)('%s', async (_name, query) => {
    stack.devnet.resetStats();
    const res = await stack.query(query);
    expect(res.errors?.[0]?.extensions?.['code'], JSON.stringify(res.errors)).toBe('BAD_USER_INPUT');
    expect(stack.devnet.stats().requests).toBe(0);
  });
});

function subscribe(query: string, signal?: AbortSignal): Promise<Response> {
  return subscribeOver(stack.gateway, query, signal);
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Subscription.blocks', () => {
  const BLOCKS_ROUTE = 'GET /v1/networks/{network}/blockchains/{blockchainId}/blocks';

  it('streams each new block, oldest first, and stops polling when the client goes away', async () => {
    const head = (await api.listBlocks('mainnet', IDS.p, { pageSize: 1 })).blocks[0] as Block;
    stack.devnet.resetStats();
    const controller = new AbortController();
    const response = await subscribe(`subscription { blocks(network: MAINNET, blockchainId: "p-chain") { ${BLOCK_FIELDS} } }`, controller.signal);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reading = readEvents<Data>(response, 2);
    // The subscription takes the current head as its starting point, then new blocks appear.
    await until(() => (stack.devnet.stats().byRoute[BLOCKS_ROUTE] ?? 0) >= 1, 3000);
    clock += 10_000;
    const { events, reader } = await reading;
    expect(events).toHaveLength(2);
    const [first, second] = events.map((e) => e.data.blocks);
    expect(first.blockNumber).toBe(String(BigInt(head.blockNumber) + 1n));
    expect(second.blockNumber).toBe(String(BigInt(head.blockNumber) + 2n));
    const wire = await api.listBlocks('mainnet', IDS.p, { pageSize: 10 });
    expectBlock(first, wire.blocks.find((b) => b.blockNumber === first.blockNumber) as Block, IDS.p);

    await reader.cancel();
    controller.abort();
    // Stopped: the topic's poller is gone, and every poll it had sent has been answered (so counted).
    await until(() => stack.topics.stats().polling === 0, 3000);
    await stack.upstreamSettled();
    const polls = stack.devnet.stats().byRoute[BLOCKS_ROUTE] ?? 0;
    // Longer than the poll interval: a poller still running would have polled again.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(stack.devnet.stats().byRoute[BLOCKS_ROUTE] ?? 0).toBe(polls);
  });

  it('refuses a malformed blockchain id before any upstream call', async () => {
    stack.devnet.resetStats();
    const response = await subscribe(`subscription { blocks(network: MAINNET, blockchainId: "not a chain!") { blockNumber } }`);
    const text = await response.text();
    expect(text).toContain('BAD_USER_INPUT');
    expect(stack.devnet.stats().requests).toBe(0);
  });
});

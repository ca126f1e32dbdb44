import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

/**
 * Federation natural keys of EVM blocks (`chainId blockNumber`) and EVM transactions (`chainId txHash`): `_entities` answers what `Chain.block(id:)` and `Chain.transaction(txHash:)` answer, in
 * order, through the same loaders, counted by the devnet's own request counters.
 */
interface Cost {
  estimatedUpstreamCalls: number;
  actualUpstreamCalls: number;
}
type Block = Record<string, unknown> & { blockNumber: string; blockHash: string; chainId: string };
type Tx = Record<string, unknown> & { chainId: string | null; txHash: string | null };

const BLOCK = 'id chainId blockNumber blockHash parentHash txCount gasUsed';
const TX = 'id chainId txHash nativeTransaction { chainId txHash blockNumber from { address } value }';
const GET_BLOCK = 'GET /v1/chains/{chainId}/blocks/{blockId}';
const GET_TX = 'GET /v1/chains/{chainId}/transactions/{txHash}';
const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on EvmBlock { ${BLOCK} } ... on Transaction { ${TX} } } }`;
const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`;

let stack: TestStack;
let f: NetworkFixtures;
let blocks: Block[];
let txs: Tx[];

/** Runs `query` from fresh devnet counters: the answer, its `extensions.cost`, and the devnet's requests in all and by route. */
async function counted<D>(query: string, variables?: Record<string, unknown>) {
  stack.devnet.resetStats();
  const res: GraphQLResponse<D> = await stack.query<D>(query, variables);
  const stats = stack.devnet.stats();
  return { res, cost: res.extensions?.['cost'] as Cost | undefined, upstream: stats.requests, byRoute: stats.byRoute };
}

const entities = (r: unknown[]) => counted<{ _entities: (Record<string, unknown> | null)[] }>(ENTITIES, { r });

beforeAll(async () => {
  stack = await startStack();
  f = stack.devnet.dataset.fixtures().mainnet;
  const listed = await stack.query<{ chain: { blocks: { edges: { node: { blockNumber: string } }[] }; latestTransactions: { edges: { node: { txHash: string } }[] } } }>(
    'query($c: String!) { chain(chainId: $c) { blocks(first: 3) { edges { node { blockNumber } } } latestTransactions(first: 3) { edges { node { txHash } } } } }',
    { c: f.evmChainId },
  );
  const numbers = listed.data?.chain.blocks.edges.map((e) => e.node.blockNumber) ?? [];
  const hashes = listed.data?.chain.latestTransactions.edges.map((e) => e.node.txHash) ?? [];
  // What the root fields answer, one field per key, for the entities to be compared with.
  const single = await stack.query<{ chain: Record<string, Block | Tx | null> }>(
    `query($c: String!) { chain(chainId: $c) {
      ${numbers.map((n, i) => `b${i}: block(id: "${n}") { ${BLOCK} }`).join(' ')}
      ${hashes.map((h, i) => `t${i}: transaction(txHash: "${h}") { ${TX} }`).join(' ')}
    } }`,
    { c: f.evmChainId },
  );
  expect(single.errors).toBeUndefined();
  blocks = numbers.map((_, i) => single.data?.chain[`b${i}`] as Block);
  txs = hashes.map((_, i) => single.data?.chain[`t${i}`] as Tx);
  expect(blocks.length * txs.length).toBeGreaterThan(0);
});
afterAll(async () => {
  await stack?.close();
});

describe('EvmBlock by chainId blockNumber', () => {
  it('publishes the keys beside id, one natural key a type (a third key costs Hive Gateway a request, federation.ts)', async () => {
    const res = await stack.query<{ _service: { sdl: string } }>('{ _service { sdl } }');
    expect(res.data?._service.sdl).toMatch(/type EvmBlock implements Node\s+@key\(fields: "id"\)\s+@key\(fields: "chainId blockNumber"\)\s*\{/);
    expect(res.data?._service.sdl).toMatch(/type Transaction implements Node\s+@key\(fields: "id"\)\s+@key\(fields: "chainId txHash"\)/);
  });

  it('answers what Chain.block answers, in order, null for unknown blocks; one getBlock per distinct block', async () => {
    const [b0, b1, b2] = blocks as [Block, Block, Block];
    const r = [
      { __typename: 'EvmBlock', chainId: b0.chainId, blockNumber: b0.blockNumber },
      // A UInt64 another subgraph serializes as a JSON number.
      { __typename: 'EvmBlock', chainId: b1.chainId, blockNumber: Number(b1.blockNumber) },
      // Leading zeros: the block `Chain.block(id:)` reads for them.
      { __typename: 'EvmBlock', chainId: b2.chainId, blockNumber: `00${b2.blockNumber}` },
      { __typename: 'EvmBlock', chainId: b0.chainId, blockNumber: '999999999999' },
      { __typename: 'EvmBlock', chainId: '999999', blockNumber: b0.blockNumber },
      // Asked twice: read once.
      { __typename: 'EvmBlock', chainId: b0.chainId, blockNumber: b0.blockNumber },
    ];
    const { res, cost, upstream, byRoute } = await entities(r);
    expect(res.errors).toBeUndefined();
    expect(res.data?._entities).toEqual([b0, b1, b2, null, null, b0].map((b) => b && { __typename: 'EvmBlock', ...b }));
    // Five distinct blocks, no chain list: what five `Chain.block(id:)` make, beside their chain.
    expect(byRoute[GET_BLOCK]).toBe(5);
    expect(upstream).toBe(5);
    expect(cost).toMatchObject({ estimatedUpstreamCalls: 5, actualUpstreamCalls: 5 });
  });
});

describe('Transaction by chainId txHash', () => {
  it('answers what Chain.transaction answers, in order, null for unknown ones; one getTransaction per distinct transaction', async () => {
    for (const tx of txs) expect(tx).toMatchObject({ chainId: f.evmChainId, txHash: (tx.nativeTransaction as { txHash: string }).txHash });
    const r = [
      ...txs.map((tx) => ({ __typename: 'Transaction', chainId: tx.chainId, txHash: tx.txHash })),
      { __typename: 'Transaction', chainId: f.evmChainId, txHash: UNKNOWN_HASH },
      { __typename: 'Transaction', chainId: f.evmChainId, txHash: (txs[0]?.txHash ?? '').toUpperCase().replace('0X', '0x') },
    ];
    const { res, cost, upstream, byRoute } = await entities(r);
    expect(res.errors).toBeUndefined();
    expect(res.data?._entities).toEqual([...txs, null, txs[0]].map((tx) => tx && { __typename: 'Transaction', ...tx }));
    expect(byRoute[GET_TX]).toBe(txs.length + 1);
    expect(upstream).toBe(txs.length + 1);
    expect(cost).toMatchObject({ estimatedUpstreamCalls: txs.length + 1, actualUpstreamCalls: txs.length + 1 });
  });

  it('mixes with ids and other natural keys in one call, each priced by its own loader', async () => {
    const [b0] = blocks as [Block];
    const [t0] = txs as [Tx];
    const r = [
      { __typename: 'Transaction', chainId: t0.chainId, txHash: t0.txHash },
      { __typename: 'EvmBlock', id: b0['id'] },
      { __typename: 'EvmBlock', chainId: b0.chainId, blockNumber: b0.blockNumber },
      { __typename: 'Chain', chainId: f.evmChainId },
    ];
    const { res, cost, upstream, byRoute } = await counted<{ _entities: (Record<string, unknown> | null)[] }>(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on EvmBlock { blockNumber } ... on Transaction { txHash } ... on Chain { chainId } } }`,
      { r },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?._entities).toEqual([{ txHash: t0.txHash }, { blockNumber: b0.blockNumber }, { blockNumber: b0.blockNumber }, { chainId: f.evmChainId }]);
    // The block by id and by its natural key is one loader key: one lookup.
    expect(byRoute[GET_TX]).toBe(1);
    expect(byRoute[GET_BLOCK]).toBe(1);
    expect(cost?.actualUpstreamCalls).toBe(upstream);
    expect(cost?.estimatedUpstreamCalls).toBeGreaterThanOrEqual(upstream);
  });
});

describe('malformed natural keys', () => {
  const block = { __typename: 'EvmBlock', chainId: '43114' };
  const tx = { __typename: 'Transaction', chainId: '43114' };
  const cases: [string, Record<string, unknown>, string][] = [
    ['a negative block number', { ...block, blockNumber: '-1' }, 'blockNumber'],
    ['a hex block number', { ...block, blockNumber: '0x10' }, 'blockNumber'],
    ['a fractional block number', { ...block, blockNumber: 1.5 }, 'blockNumber'],
    ['a block number past 2^53', { ...block, blockNumber: '99999999999999999' }, 'blockNumber'],
    ['a block number as a boolean', { ...block, blockNumber: true }, 'blockNumber'],
    ['a block hash instead of its number', { ...block, blockHash: UNKNOWN_HASH }, 'blockNumber'],
    ['a block without its number', { ...block }, 'blockNumber'],
    ['a chain id with a path in it', { ...block, chainId: '43114/../x', blockNumber: '1' }, 'chainId'],
    ['a block chain id as a number', { __typename: 'EvmBlock', chainId: 43114, blockNumber: '1' }, 'chainId'],
    ['a short transaction hash', { ...tx, txHash: '0x1234' }, 'txHash'],
    ['a transaction hash with a query string', { ...tx, txHash: `${UNKNOWN_HASH}?x=1` }, 'txHash'],
    ['a transaction without its hash', { ...tx }, 'txHash'],
    ['a transaction without its chain', { __typename: 'Transaction', txHash: UNKNOWN_HASH }, 'chainId'],
  ];
  it.each(cases)('refuses %s with BAD_USER_INPUT naming representations, before any upstream call', async (_name, rep, field) => {
    const { res, upstream } = await entities([rep]);
    expect(res.data ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'representations' });
    expect(res.errors?.[0]?.message).toContain(`${field} must be`);
    expect(upstream).toBe(0);
  });
});

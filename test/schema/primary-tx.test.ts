import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { dataOf, startStack, type TestStack } from '../helpers/stack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;
/** The devnet's clock, pinned so the latest blocks do not move under a test. */
const clock = Date.now();

const ok = (query: string, variables?: Record<string, unknown>): Promise<Data> => dataOf<Data>(stack, query, variables);

async function refused(query: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>> {
  stack.devnet.resetStats();
  const res = await stack.query<Data>(query, variables);
  expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  expect(stack.upstreamRequests()).toBe(0);
  return res.errors?.[0]?.extensions ?? {};
}

const nodes = (connection: Data): Data[] => connection.edges.map((e: Data) => e.node);

const TX_FIELDS = `
  __typename id network blockchainId txHash txType txTypeRaw timestamp time blockHash memo sourceChain destinationChain
  consumedUtxos { utxoId txHash consumingTxHash } emittedUtxos { utxoId txHash asset { assetId amount } }
  ... on PChainTransaction { blockNumber blockTimestamp nodeId subnetId startTimestamp endTimestamp rewardAddresses amountStaked { amount } rewardTxHash stakingTxHash }
  ... on XChainTransaction { chainFormat blockHeight vertices { hash height } amountCreated { assetId amount } }
  ... on CChainAtomicTransaction { blockHeight evmOutputs { toAddress asset { amount } } }
`;

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => clock } });
  f = stack.devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await stack?.close();
});

describe('PrimaryBlockchain.transaction', () => {
  it('reads a staking transaction that matches its validator', async () => {
    const data = await ok(
      `query($h: String!, $n: String!) { network(name: MAINNET) { blockchain(id: "p-chain") { transaction(txHash: $h) { ${TX_FIELDS} ... on PChainTransaction { validator { nodeId txHash } } } } validator(nodeId: $n) { nodeId txHash } } }`,
      { h: f.pChainTxHash, n: f.nodeId },
    );
    const tx = data.network.blockchain.transaction;
    expect(tx.__typename).toBe('PChainTransaction');
    expect(tx.txType).toBe('ADD_PERMISSIONLESS_VALIDATOR_TX');
    expect(tx.txTypeRaw).toBe('AddPermissionlessValidatorTx');
    expect(tx.nodeId).toBe(f.nodeId);
    expect(tx.validator).toEqual({ nodeId: f.nodeId, txHash: f.pChainTxHash });
    expect(data.network.validator.txHash).toBe(tx.txHash);
    // Refetch by its global id.
    const again = await ok(`query($id: ID!) { node(id: $id) { ... on PrimaryTransaction { txHash txType } } }`, { id: tx.id });
    expect(again.node).toEqual({ txHash: tx.txHash, txType: tx.txType });
  });

  it('is null for an unknown transaction, and refuses a malformed hash before any call', async () => {
    const data = await ok(`{ network(name: MAINNET) { blockchain(id: "x-chain") { transaction(txHash: "${f.subnetId}") { txHash } } } }`);
    expect(data.network.blockchain.transaction).toBeNull();
    const ext = await refused(`{ network(name: MAINNET) { blockchain(id: "p-chain") { transaction(txHash: "not-a-hash") { txHash } } } }`);
    expect(ext.argumentName).toBe('txHash');
  });

  it("resolves every UTXO's creating transaction, which emitted it", async () => {
    const data = await ok(
      `query($a: [String!]!) { network(name: MAINNET) { blockchain(id: "x-chain") { utxos(addresses: $a, first: 5, includeSpent: true) { edges { node { utxoId txHash consumingTxHash } } } } } }`,
      { a: [f.xChainAddress] },
    );
    const utxos = nodes(data.network.blockchain.utxos);
    expect(utxos.length).toBeGreaterThan(0);
    for (const u of utxos) {
      const tx = await ok(`query($h: String!) { network(name: MAINNET) { blockchain(id: "x-chain") { transaction(txHash: $h) { ${TX_FIELDS} } } } }`, { h: u.txHash });
      expect(tx.network.blockchain.transaction.emittedUtxos.map((e: Data) => e.utxoId)).toContain(u.utxoId);
    }
  });
});

describe('Block.transactionDetails', () => {
  it("resolves a page of blocks' transactions, one lookup per id, and says so in its estimate", async () => {
    stack.devnet.resetStats();
    const data = await ok(`{ network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 3) { edges { node { blockNumber blockHash txCount transactions transactionDetails(first: 2) { txHash blockHash ... on PChainTransaction { blockNumber } } } } } } } }`);
    const blocks = nodes(data.network.blockchain.blocks);
    let wanted = 0;
    for (const b of blocks) {
      const txs = b.transactionDetails as Data[];
      expect(txs.map((t) => t.txHash)).toEqual(b.transactions.slice(0, 2));
      for (const t of txs) expect(t).toMatchObject({ blockHash: b.blockHash, blockNumber: b.blockNumber });
      wanted += txs.length;
    }
    // One listing of blocks, then one lookup per transaction id.
    expect(stack.devnet.stats().byRoute['GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}']).toBe(wanted);
    expect(stack.upstreamRequests()).toBe(1 + wanted);
  });
});

describe('PrimaryBlockchain.transactions', () => {
  it('pages the latest transactions, newest first, with filters', async () => {
    const q = `query($after: String) { network(name: MAINNET) { blockchain(id: "p-chain") { transactions(first: 4, after: $after) { chainInfo { chainName } pageInfo { hasNextPage endCursor } edges { node { txHash timestamp } } } } } }`;
    const first = (await ok(q)).network.blockchain.transactions;
    expect(first.chainInfo.chainName).toBe('p-chain');
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await ok(q, { after: first.pageInfo.endCursor })).network.blockchain.transactions;
    const all = [...nodes(first), ...nodes(second)];
    expect(new Set(all.map((t) => t.txHash)).size).toBe(8);
    const times = all.map((t) => Number(t.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("lists an address's transactions by type", async () => {
    const data = await ok(
      `query($a: [String!]) { network(name: MAINNET) { blockchain(id: "p-chain") { transactions(first: 20, filter: { addresses: $a, txTypes: [ADD_PERMISSIONLESS_DELEGATOR_TX, ADD_PERMISSIONLESS_VALIDATOR_TX] }) { edges { node { txType ... on PChainTransaction { rewardAddresses } } } } } } }`,
      { a: [f.pChainAddress] },
    );
    const txs = nodes(data.network.blockchain.transactions);
    expect(txs.length).toBeGreaterThan(0);
    for (const t of txs) {
      expect(['ADD_PERMISSIONLESS_DELEGATOR_TX', 'ADD_PERMISSIONLESS_VALIDATOR_TX']).toContain(t.txType);
    }
  });

  it('refuses bad filters before any call', async () => {
    expect((await refused(`{ network(name: MAINNET) { blockchain(id: "p-chain") { transactions(first: 101) { edges { cursor } } } } }`)).argumentName).toBe('first');
    await refused(`{ network(name: MAINNET) { blockchain(id: "p-chain") { transactions(filter: { addresses: ["fuji1notanaddress"] }) { edges { cursor } } } } }`);
    await refused(`{ network(name: MAINNET) { blockchain(id: "p-chain") { transactions(filter: { startTimestamp: "20", endTimestamp: "10" }) { edges { cursor } } } } }`);
    await refused(`{ network(name: MAINNET) { blockchain(id: "x-chain") { stakingTransactions { edges { cursor } } } } }`);
  });
});

describe('PrimaryBlockchain.stakingTransactions', () => {
  it('lists active staking transactions that match their validators', async () => {
    const data = await ok(`{ network(name: MAINNET) { blockchain(id: "p-chain") { stakingTransactions(first: 5) { edges { node { txHash ... on PChainTransaction { nodeId endTimestamp validator { nodeId validationStatus } } } } } } } }`);
    const txs = nodes(data.network.blockchain.stakingTransactions);
    expect(txs.length).toBe(5);
    for (const t of txs) {
      expect(t.validator.nodeId).toBe(t.nodeId);
      expect(Number(t.endTimestamp)).toBeGreaterThan(clock / 1000);
    }
  });
});

describe('PrimaryBlockchain.balances and assets', () => {
  it("equal the sums of the address's unspent UTXOs, each asset linked", async () => {
    const data = await ok(
      `query($a: [String!]!) { network(name: MAINNET) { blockchain(id: "x-chain") {
        balances(addresses: $a) { __typename chainInfo { chainName } ... on XChainBalances { unlocked { assetId amount utxoCount assetDetails { assetId symbol cap } } } }
        utxos(addresses: $a, first: 100) { pageInfo { hasNextPage } edges { node { asset { assetId amount } assetDetails { assetId denomination } } } }
      } } }`,
      { a: [f.xChainAddress] },
    );
    const chain = data.network.blockchain;
    expect(chain.balances.__typename).toBe('XChainBalances');
    expect(chain.utxos.pageInfo.hasNextPage).toBe(false);
    const sums = new Map<string, bigint>();
    for (const u of nodes(chain.utxos)) {
      sums.set(u.asset.assetId, (sums.get(u.asset.assetId) ?? 0n) + BigInt(u.asset.amount));
      expect(u.assetDetails.assetId).toBe(u.asset.assetId);
    }
    expect(new Map(chain.balances.unlocked.map((b: Data) => [b.assetId, BigInt(b.amount)]))).toEqual(sums);
    for (const b of chain.balances.unlocked) expect(b.assetDetails.assetId).toBe(b.assetId);
  });

  it('reads an asset once per request however many UTXOs name it', async () => {
    stack.devnet.resetStats();
    await ok(`query($a: [String!]!) { network(name: MAINNET) { blockchain(id: "p-chain") { utxos(addresses: $a, first: 20) { edges { node { assetDetails { symbol } } } } } } }`, { a: [f.pChainAddress] });
    expect(stack.devnet.stats().byRoute['GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}']).toBe(1);
  });

  it('asset(assetId:) is null for an unknown asset and refuses a malformed id', async () => {
    const data = await ok(`{ network(name: MAINNET) { blockchain(id: "x-chain") { known: asset(assetId: "${f.xAssetId}") { id symbol type cap createdAt } unknown: asset(assetId: "${f.subnetId}") { symbol } } } }`);
    expect(data.network.blockchain.known).toMatchObject({ type: 'SECP256K1' });
    expect(data.network.blockchain.unknown).toBeNull();
    expect((await refused(`{ network(name: MAINNET) { blockchain(id: "x-chain") { asset(assetId: "nope") { symbol } } } }`)).argumentName).toBe('assetId');
  });
});

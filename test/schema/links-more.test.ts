import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { PRIMARY_NETWORK_ID } from '../../src/shapes/index.ts';
import { dataOf, devnetGet, startStack, type TestStack } from '../helpers/stack.ts';

/**
 * The links between domains (`src/schema/links-more.ts`), each asked for a page of
 * parents on the devnet through a real gateway: the upstream requests, by route, are
 * one per distinct key (parents naming the same transaction, message or subnet share
 * one call), and each linked object is the one its parent names.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;
/** The devnet's clock, pinned so listings do not move under a test. */
const clock = Date.now();

const TX_BY_HASH = 'GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}';
const DELEGATORS = 'GET /v1/networks/{network}/delegators';

const nodes = (connection: Data): Data[] => connection.edges.map((e: Data) => e.node);

/** Runs a query that must answer without errors, on clean devnet stats: its data and the requests it made by route. */
async function measured(query: string, variables?: Record<string, unknown>): Promise<{ data: Data; byRoute: Record<string, number> }> {
  stack.devnet.resetStats();
  const data = await dataOf<Data>(stack, query, variables);
  return { data, byRoute: { ...stack.devnet.stats().byRoute } };
}

/** Delegation listing pages the link reads for one node: from the first, until every wanted tx is seen (as `delegationByKey` does). */
async function delegationPagesFor(nodeId: string, wanted: ReadonlySet<string>): Promise<number> {
  const left = new Set(wanted);
  let token: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await devnetGet<{ delegators: { txHash: string }[]; nextPageToken?: string }>(
      stack,
      `/v1/networks/mainnet/delegators?nodeIds=${nodeId}&pageSize=100${token ? `&pageToken=${token}` : ''}`,
    );
    for (const d of page.delegators) left.delete(d.txHash);
    token = page.nextPageToken;
    if (left.size === 0 || !token) return pages;
  }
}

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => clock } });
  f = stack.devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await stack?.close();
});

describe('Utxo.creatingTransaction and Utxo.consumingTransaction', () => {
  it('resolve a page of UTXOs (asked twice) with one getTxByHash per distinct chain and hash', async () => {
    const page = `utxos(addresses: $a, first: 10, includeSpent: true) { edges { node {
      utxoId txHash consumingTxHash createdOnChainId consumedOnChainId
      creatingTransaction { txHash blockchainId emittedUtxos { utxoId } }
      consumingTransaction { txHash blockchainId consumedUtxos { utxoId } }
    } } }`;
    const { data, byRoute } = await measured(
      `query($a: [String!]!) { network(name: MAINNET) { blockchain(id: "x-chain") { first: ${page} again: ${page} } } }`,
      { a: [f.xChainAddress] },
    );
    const utxos = [...nodes(data.network.blockchain.first), ...nodes(data.network.blockchain.again)];
    expect(utxos.length).toBeGreaterThan(2);
    const keys = new Set<string>();
    let spent = 0;
    for (const u of utxos) {
      keys.add(`${u.createdOnChainId}|${u.txHash}`);
      expect(u.creatingTransaction).toMatchObject({ txHash: u.txHash, blockchainId: u.createdOnChainId });
      expect(u.creatingTransaction.emittedUtxos.map((e: Data) => e.utxoId)).toContain(u.utxoId);
      if (u.consumingTxHash) {
        spent++;
        keys.add(`${u.consumedOnChainId}|${u.consumingTxHash}`);
        expect(u.consumingTransaction).toMatchObject({ txHash: u.consumingTxHash, blockchainId: u.consumedOnChainId });
        expect(u.consumingTransaction.consumedUtxos.map((c: Data) => c.utxoId)).toContain(u.utxoId);
      } else {
        expect(u.consumingTransaction).toBeNull();
      }
    }
    expect(spent).toBeGreaterThan(0);
    // Twice the parents, once each key: the two listings, then one lookup per distinct transaction.
    expect(keys.size).toBeLessThan(utxos.length + spent);
    expect(byRoute).toEqual({ 'GET /v1/networks/{network}/blockchains/{blockchainId}/utxos': 2, [TX_BY_HASH]: keys.size });
  });
});

describe('HistoricalReward.stakingTransaction, .rewardTransaction and .delegation', () => {
  it('resolve a page of paid rewards with one lookup per distinct transaction and the delegations of their node in one listing', async () => {
    const { data, byRoute } = await measured(
      `query($n: [String!]) { network(name: MAINNET) { historicalRewards(nodeIds: $n, first: 10) { edges { node {
        txHash rewardTxHash rewardType nodeId
        stakingTransaction { txHash nodeId rewardTxHash }
        rewardTransaction { txHash stakingTxHash }
        delegation { txHash nodeId }
      } } } } }`,
      { n: [f.completedNodeId] },
    );
    const rewards = nodes(data.network.historicalRewards);
    expect(rewards.length).toBeGreaterThan(2);
    const hashes = new Set<string>();
    const delegations = new Set<string>();
    for (const r of rewards) {
      hashes.add(r.txHash).add(r.rewardTxHash);
      expect(r.stakingTransaction).toMatchObject({ txHash: r.txHash, nodeId: r.nodeId });
      expect(r.rewardTransaction.txHash).toBe(r.rewardTxHash);
      if (r.rewardType === 'VALIDATOR') {
        expect(r.delegation).toBeNull();
      } else {
        delegations.add(r.txHash);
        expect(r.delegation).toEqual({ txHash: r.txHash, nodeId: r.nodeId });
      }
    }
    expect(delegations.size).toBeGreaterThan(0);
    // Ten parents, two links each: fewer lookups than parent links (a delegation's reward and its fee share their hashes).
    expect(hashes.size).toBeLessThan(2 * rewards.length);
    expect(byRoute).toEqual({
      'GET /v1/networks/{network}/rewards': 1,
      [TX_BY_HASH]: hashes.size,
      [DELEGATORS]: await delegationPagesFor(f.completedNodeId, delegations),
    });
  });
});

describe('PendingReward.delegation', () => {
  it("finds a page of accruing rewards' delegations through the node's delegation listing, not one call per reward", async () => {
    const { data, byRoute } = await measured(
      `query($n: [String!]) { network(name: MAINNET) { pendingRewards(nodeIds: $n, first: 10) { edges { node {
        txHash rewardType nodeId delegation { txHash nodeId delegationStatus }
      } } } } }`,
      { n: [f.nodeId] },
    );
    const rewards = nodes(data.network.pendingRewards);
    const delegations = new Set<string>();
    for (const r of rewards) {
      if (r.rewardType === 'VALIDATOR') {
        expect(r.delegation).toBeNull();
        continue;
      }
      delegations.add(r.txHash);
      expect(r.delegation).toMatchObject({ txHash: r.txHash, nodeId: r.nodeId });
    }
    expect(delegations.size).toBeGreaterThan(1);
    expect(byRoute).toEqual({
      'GET /v1/networks/{network}/rewards:listPending': 1,
      [DELEGATORS]: await delegationPagesFor(f.nodeId, delegations),
    });
  });
});

describe('Validator.stakingTransaction and Delegator.stakingTransaction', () => {
  it('resolve pages of validations (asked twice) and delegations with one lookup per distinct staking transaction', async () => {
    const { data, byRoute } = await measured(
      `query($p: String!, $n: [String!]) { network(name: MAINNET) {
        a: validators(first: 6, filter: { subnetId: $p }) { edges { node { txHash nodeId stakingTransaction { txHash nodeId subnetId } } } }
        b: validators(first: 6, filter: { subnetId: $p }) { edges { node { txHash stakingTransaction { txHash } } } }
        delegators(first: 6, filter: { nodeIds: $n }) { edges { node { txHash nodeId stakingTransaction { txHash nodeId } } } }
      } }`,
      { p: PRIMARY_NETWORK_ID, n: [f.nodeId] },
    );
    const validators = [...nodes(data.network.a), ...nodes(data.network.b)];
    const delegators = nodes(data.network.delegators);
    expect(delegators.length).toBeGreaterThan(1);
    const hashes = new Set<string>();
    for (const v of validators) {
      hashes.add(v.txHash);
      expect(v.stakingTransaction.txHash).toBe(v.txHash);
    }
    for (const v of nodes(data.network.a)) expect(v.stakingTransaction).toEqual({ txHash: v.txHash, nodeId: v.nodeId, subnetId: PRIMARY_NETWORK_ID });
    for (const d of delegators) {
      hashes.add(d.txHash);
      expect(d.stakingTransaction).toEqual({ txHash: d.txHash, nodeId: d.nodeId });
    }
    expect(hashes.size).toBeLessThan(validators.length + delegators.length);
    expect(byRoute).toEqual({ 'GET /v1/networks/{network}/validators': 2, [DELEGATORS]: 1, [TX_BY_HASH]: hashes.size });
  });
});

describe('PChainTransaction.subnet', () => {
  it("answers a page of transactions' subnets from one read of the subnet list", async () => {
    const { data, byRoute } = await measured(`{ network(name: MAINNET) { blockchain(id: "p-chain") {
      stakingTransactions(first: 10) { edges { node { txHash ... on PChainTransaction { subnetId subnet { subnetId } } } } }
    } } }`);
    const txs = nodes(data.network.blockchain.stakingTransactions);
    expect(txs.length).toBeGreaterThan(2);
    for (const tx of txs) {
      expect(tx.subnetId).toBeTruthy();
      expect(tx.subnet).toEqual({ subnetId: tx.subnetId });
    }
    expect(byRoute).toEqual({ 'GET /v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking': 1, 'GET /v1/networks/{network}/subnets': 1 });
  });
});

describe('TeleporterMessageInfo.message', () => {
  it('resolves the sending and delivering transactions of a page of messages with one getIcmMessage per message', async () => {
    const info = 'transaction { nativeTransaction { txHash } teleporterMessageInfo { teleporterMessageId direction message { messageId } } }';
    const { data, byRoute } = await measured(`{ icmMessages(network: MAINNET, first: 4) { edges { node {
      messageId sourceTransaction { txHash ${info} } destinationTransaction { txHash ${info} }
    } } } }`);
    const messages = nodes(data.icmMessages);
    expect(messages.length).toBe(4);
    let transactions = 0;
    const linked = new Set<string>();
    for (const m of messages) {
      for (const side of [m.sourceTransaction, m.destinationTransaction]) {
        if (!side?.transaction) continue;
        transactions++;
        const ref = side.transaction.teleporterMessageInfo;
        expect(ref.teleporterMessageId).toBe(m.messageId);
        expect(ref.message).toEqual({ messageId: m.messageId });
        linked.add(m.messageId);
      }
    }
    // Two references to most messages, one read each.
    expect(linked.size).toBeLessThan(transactions);
    expect(byRoute).toEqual({ 'GET /v1/icm/messages': 1, 'GET /v1/chains/{chainId}/transactions/{txHash}': transactions, 'GET /v1/icm/messages/{messageId}': linked.size });
  });
});

describe('Blockchain.blocks', () => {
  it("lists a primary-network chain's blocks, the same as PrimaryBlockchain.blocks, one listing per chain; null for other blockchains", async () => {
    const { data, byRoute } = await measured(
      `query($p: String!, $s: String!) { network(name: MAINNET) {
        primary: subnet(subnetId: $p) { blockchains { blockchainId blocks(first: 2) { edges { node { blockchainId blockHash } } } } }
        other: subnet(subnetId: $s) { blockchains { blockchainId blocks(first: 2) { edges { cursor } } } }
      } }`,
      { p: PRIMARY_NETWORK_ID, s: f.subnetId },
    );
    const primary = data.network.primary.blockchains as Data[];
    expect(primary.length).toBe(3);
    for (const b of data.network.other.blockchains) expect(b.blocks).toBeNull();
    // Both subnets from one read of the subnet list, then one block listing per primary chain.
    expect(byRoute).toEqual({ 'GET /v1/networks/{network}/subnets': 1, 'GET /v1/networks/{network}/blockchains/{blockchainId}/blocks': 3 });
    for (const b of primary) {
      const listed = nodes(b.blocks);
      expect(listed.length).toBe(2);
      for (const block of listed) expect(block.blockchainId).toBe(b.blockchainId);
      const direct = await dataOf<Data>(stack, `query($id: String!) { network(name: MAINNET) { blockchain(id: $id) { blocks(first: 2) { edges { node { blockchainId blockHash } } } } } }`, { id: b.blockchainId });
      expect(nodes(direct.network.blockchain.blocks)).toEqual(listed);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { PRIMARY_CHAIN_IDS } from '../../src/shapes/index.ts';
import { dataOf, devnetGet, startStack, type TestStack } from '../helpers/stack.ts';
import { mismatches, STRICT_SHAPES } from '../shapes/strict.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

/**
 * The primary-network address side and an asset's transactions through the gateway on
 * the devnet, judged by the upstream requests each query makes: the chains of a page of
 * addresses (getChainIdsForAddresses, one call for all), their last activity
 * (getLastActivityTimestampByAddresses: GET for a short list, the POST form for a long
 * one; one call per address when asked per address), an asset's transactions
 * (listAssetTransactions) and the UTXO listing's GET and POST forms.
 */

const BASE = 'GET /v1/networks/{network}/blockchains/{blockchainId}';
const ROUTES = {
  chainIds: 'GET /v1/networks/{network}/addresses:listChainIds',
  activityGet: `${BASE}/lastActivityTimestampByAddresses`,
  activityPost: 'POST /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses',
  assetTxs: `${BASE}/assets/{assetId}/transactions`,
  utxosGet: `${BASE}/utxos`,
  utxosPost: 'POST /v1/networks/{network}/blockchains/{blockchainId}/utxos',
};
const IDS = PRIMARY_CHAIN_IDS.mainnet;

let stack: TestStack;
let f: NetworkFixtures;
/** Reward addresses of delegations (bodies, `avax1...`): addresses the devnet knows, with UTXOs. */
let known: string[];
const clock = Date.now();

const nodes = (connection: Data): Data[] => connection.edges.map((e: Data) => e.node);

async function utxosOf(chain: string, addresses: string[]): Promise<Data[]> {
  const res = await fetch(`${stack.devnet.url}/v1/networks/mainnet/blockchains/${chain}/utxos?pageSize=1024&includeSpent=true`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ addresses: addresses.join(',') }),
  });
  return ((await res.json()) as Data).utxos;
}

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => clock } });
  f = stack.devnet.dataset.fixtures().mainnet;
  const delegators = await devnetGet<Data>(stack, '/v1/networks/mainnet/delegators?pageSize=100');
  known = [...new Set<string>(delegators.delegators.flatMap((d: Data) => d.rewardAddresses).map((a: string) => a.replace(/^P-/, '')))];
});
afterAll(async () => {
  await stack?.close();
});

describe('the devnet serves address chains, last activity and asset transactions', () => {
  it('strictly shaped and consistent with the UTXOs it lists', async () => {
    const chains = await devnetGet<Data>(stack, `/v1/networks/mainnet/addresses:listChainIds?addresses=${f.pChainAddress},${f.xChainAddress}`);
    expect(mismatches(chains, STRICT_SHAPES.ChainAddressChainIdMapListResponse)).toEqual([]);
    expect(chains.addresses.map((a: Data) => a.address)).toEqual([f.pChainAddress, f.xChainAddress]);
    expect(chains.addresses[0].blockchainIds).toContain(IDS.p);
    expect(chains.addresses[1].blockchainIds).toContain(IDS.x);

    const activity = await devnetGet<Data>(stack, `/v1/networks/mainnet/blockchains/x-chain/lastActivityTimestampByAddresses?addresses=${f.xChainAddress}`);
    expect(mismatches(activity, STRICT_SHAPES.LastActivityTimestamp)).toEqual([]);
    const utxos = await utxosOf('x-chain', [f.xChainAddress]);
    const latest = Math.max(...utxos.flatMap((u: Data) => [u.blockTimestamp, u.consumingBlockTimestamp ?? 0]));
    expect(activity.timestamp).toBe(latest);
    const u = utxos.find((x: Data) => x.utxoId === activity.utxoId);
    expect(activity.isConsumed ? u.consumingTxHash : u.txHash).toBe(activity.txHash);

    const txs = await devnetGet<Data>(stack, `/v1/networks/mainnet/blockchains/x-chain/assets/${f.xAssetId}/transactions?pageSize=20`);
    expect(mismatches(txs, STRICT_SHAPES.ListXChainTransactionsResponse)).toEqual([]);
    expect(txs.transactions.length).toBeGreaterThan(0);
    for (const tx of txs.transactions) {
      const assets = [...tx.consumedUtxos, ...tx.emittedUtxos].map((x: Data) => x.asset.assetId);
      expect(assets).toContain(f.xAssetId);
    }
  });
});

describe('Network.primaryAddresses', () => {
  it('asks the chains of a page of addresses in one call, and each chain is one the address has UTXOs on', async () => {
    const addresses = [f.pChainAddress, f.xChainAddress, ...known.slice(0, 20)];
    const measured = await stack.measure(() =>
      dataOf<Data>(stack, 'query($a: [String!]!) { network(name: MAINNET) { primaryAddresses(addresses: $a) { address activeBlockchainIds activeChains { blockchainId alias } } } }', { a: addresses }),
    );
    expect(measured.byRoute[ROUTES.chainIds]).toBe(1);
    expect(measured.requests).toBe(1);
    const got = measured.result.network.primaryAddresses;
    expect(got.map((a: Data) => a.address)).toEqual(addresses);
    for (const a of got) expect(a.activeChains.map((c: Data) => c.blockchainId)).toEqual(a.activeBlockchainIds);
    expect(got[1].activeChains.map((c: Data) => c.alias)).toContain('x-chain');
    for (const a of got.slice(2, 6)) {
      const body = a.address.replace(/^[PXC]-/, '');
      for (const [alias, id] of [['p-chain', IDS.p], ['x-chain', IDS.x], ['c-chain', IDS.c]] as const) {
        const has = (await utxosOf(alias, [body])).length > 0;
        if (has) expect(a.activeBlockchainIds).toContain(id);
      }
    }
  });

  it('reads the last activity per address: one call per address, matching the set\'s own when alone', async () => {
    const addresses = known.slice(0, 4);
    const measured = await stack.measure(() =>
      dataOf<Data>(stack, 'query($a: [String!]!) { network(name: MAINNET) { primaryAddresses(addresses: $a) { address lastActivity(chain: "p-chain") { timestamp txHash utxoId isConsumed } } } }', { a: addresses }),
    );
    expect(measured.byRoute[ROUTES.activityGet]).toBe(addresses.length);
    expect(measured.requests).toBe(addresses.length);
    const [first] = measured.result.network.primaryAddresses;
    const alone = await dataOf<Data>(stack, 'query($a: [String!]!) { network(name: MAINNET) { blockchain(id: "p-chain") { lastActivity(addresses: $a) { timestamp txHash utxoId isConsumed transaction { txHash } } } } }', { a: [first.address] });
    const { transaction, ...activity } = alone.network.blockchain.lastActivity;
    expect(activity).toEqual(first.lastActivity);
    expect(transaction).toEqual({ txHash: first.lastActivity.txHash });
  });

  it('refuses addresses of another network or too many before any call', async () => {
    for (const a of [['fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq'], Array.from({ length: 65 }, () => f.pChainAddress)]) {
      stack.devnet.resetStats();
      const res = await stack.query('query($a: [String!]!) { network(name: MAINNET) { primaryAddresses(addresses: $a) { activeBlockchainIds } } }', { a });
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(stack.upstreamRequests()).toBe(0);
    }
  });
});

describe('PrimaryBlockchain.lastActivity', () => {
  it('sends a short address list by GET and a long one by POST, one call each, the latest of the set', async () => {
    const short = await stack.measure(() => dataOf<Data>(stack, 'query($a: [String!]!) { network(name: MAINNET) { blockchain(id: "p-chain") { lastActivity(addresses: $a) { timestamp } } } }', { a: known.slice(0, 3) }));
    expect(short.byRoute[ROUTES.activityGet]).toBe(1);
    expect(short.requests).toBe(1);
    const many = known.slice(0, 40).map((a) => `P-${a}`);
    expect(many.join(',').length).toBeGreaterThan(1024);
    const long = await stack.measure(() => dataOf<Data>(stack, 'query($a: [String!]!) { network(name: MAINNET) { blockchain(id: "p-chain") { lastActivity(addresses: $a) { timestamp } } } }', { a: many }));
    expect(long.byRoute[ROUTES.activityPost]).toBe(1);
    expect(long.requests).toBe(1);
    const utxos = await utxosOf('p-chain', known.slice(0, 40));
    const now = Math.floor(clock / 1000);
    const latest = Math.max(...utxos.flatMap((u: Data) => [u.blockTimestamp, u.consumingBlockTimestamp ?? 0]).filter((t: number) => t <= now));
    expect(Number(long.result.network.blockchain.lastActivity.timestamp)).toBe(latest);
  });
});

describe('Asset.transactions', () => {
  it('lists the X-chain transactions that move the asset, in one listing call', async () => {
    const measured = await stack.measure(() =>
      dataOf<Data>(stack, `{ network(name: MAINNET) { blockchain(id: "x-chain") { asset(assetId: "${f.xAssetId}") { assetId transactions(first: 5) { chainInfo { chainName } edges { node { __typename txHash consumedUtxos { asset { assetId } } emittedUtxos { asset { assetId } } } } pageInfo { hasNextPage endCursor } } } } } }`),
    );
    expect(measured.byRoute[ROUTES.assetTxs]).toBe(1);
    expect(measured.requests).toBe(2); // getAssetDetails, then the listing
    const asset = measured.result.network.blockchain.asset;
    const txs = nodes(asset.transactions);
    expect(txs.length).toBeGreaterThan(0);
    for (const tx of txs) {
      expect(tx.__typename).toBe('XChainTransaction');
      expect([...tx.consumedUtxos, ...tx.emittedUtxos].map((u: Data) => u.asset.assetId)).toContain(f.xAssetId);
    }
    const wire = await devnetGet<Data>(stack, `/v1/networks/mainnet/blockchains/x-chain/assets/${f.xAssetId}/transactions?pageSize=5`);
    expect(txs.map((t: Data) => t.txHash)).toEqual(wire.transactions.map((t: Data) => t.txHash));
  });

  it('refuses an inverted time range before any call', async () => {
    stack.devnet.resetStats();
    const res = await stack.query(`{ network(name: MAINNET) { blockchain(id: "x-chain") { asset(assetId: "${f.xAssetId}") { transactions(startTimestamp: "10", endTimestamp: "5") { edges { cursor } } } } } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(stack.devnet.stats().byRoute[ROUTES.assetTxs]).toBeUndefined();
  });
});

describe('PrimaryBlockchain.utxos', () => {
  it('reads by GET when the page fits its bound and by POST beyond it, the same UTXOs either way', async () => {
    const query = 'query($a: [String!]!, $n: Int!) { network(name: MAINNET) { blockchain(id: "p-chain") { utxos(addresses: $a, first: $n, includeSpent: true) { edges { node { utxoId } } } } } }';
    const small = await stack.measure(() => dataOf<Data>(stack, query, { a: [f.pChainAddress], n: 100 }));
    expect(small.byRoute[ROUTES.utxosGet]).toBe(1);
    expect(small.requests).toBe(1);
    const big = await stack.measure(() => dataOf<Data>(stack, query, { a: [f.pChainAddress], n: 101 }));
    expect(big.byRoute[ROUTES.utxosPost]).toBe(1);
    expect(big.requests).toBe(1);
    const ids = (r: Data): string[] => nodes(r.network.blockchain.utxos).map((u: Data) => u.utxoId);
    expect(ids(big.result).slice(0, ids(small.result).length)).toEqual(ids(small.result));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures as Fixtures } from '../../src/devnet/dataset/index.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { mismatches, STRICT_SHAPES as S } from '../shapes/strict.ts';

/**
 * Primary-network transactions, balances and assets on the devnet (public spec):
 * every answer against the strict shapes, and consistent with what the devnet already
 * serves: a block's transactions exist and name the block, a UTXO's creating and
 * spending transactions exist, a staking transaction is its validation, balances are
 * the UTXOs summed, every asset id served resolves.
 */

interface Json { [k: string]: unknown }
interface UtxoItem { utxoId: string; txHash: string; consumingTxHash?: string; asset: { assetId: string; amount: string }; utxoType: string }
interface Balance { assetId: string; amount: string; utxoCount: number }

let devnet: Devnet;
let fx: Fixtures;
const clock = Date.now();
const base = '/v1/networks/mainnet/blockchains';

async function call(path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${devnet.url}${path}`);
  return { status: res.status, body: (await res.json()) as Json };
}

async function ok(path: string): Promise<Json> {
  const { status, body } = await call(path);
  expect(status, `${path} -> ${JSON.stringify(body)}`).toBe(200);
  return body;
}

async function utxos(chain: string, address: string, includeSpent: boolean): Promise<UtxoItem[]> {
  const res = await fetch(`${devnet.url}${base}/${chain}/utxos?pageSize=1024&includeSpent=${includeSpent}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ addresses: address }),
  });
  const body = (await res.json()) as { utxos: UtxoItem[]; nextPageToken?: string };
  expect(body.nextPageToken).toBeUndefined();
  return body.utxos;
}

const TX_SHAPE = { 'p-chain': 'PChainTransaction', 'x-chain': 'XChainTransaction', 'c-chain': 'CChainAtomicTransaction' } as const;
const PAGE_SHAPE = { 'p-chain': 'ListPChainTransactionsResponse', 'x-chain': 'ListXChainTransactionsResponse', 'c-chain': 'ListCChainAtomicTransactionsResponse' } as const;

beforeAll(async () => {
  devnet = await startDevnet({ validators: 300, now: () => clock });
  fx = devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await devnet?.close();
});

describe('primary-network transactions on the devnet', () => {
  it("resolves every transaction of the latest P- and X-chain blocks, each in its block", async () => {
    for (const chain of ['p-chain', 'x-chain'] as const) {
      const blocks = (await ok(`${base}/${chain}/blocks?pageSize=5`)).blocks as { blockHash: string; blockNumber: string; txCount: number; transactions: string[] }[];
      for (const b of blocks) {
        expect(b.transactions.length).toBe(b.txCount);
        for (const hash of b.transactions) {
          const tx = await ok(`${base}/${chain}/transactions/${hash}`);
          expect(mismatches(tx, S[TX_SHAPE[chain]]), hash).toEqual([]);
          expect(tx.txHash).toBe(hash);
          expect(tx.blockHash).toBe(b.blockHash);
        }
      }
    }
  });

  it('serves a staking transaction as its validation, in the block of its height that lists it', async () => {
    const tx = await ok(`${base}/p-chain/transactions/${fx.pChainTxHash}`);
    expect(mismatches(tx, S.PChainTransaction)).toEqual([]);
    const validator = devnet.dataset.primary.mainnet.validationsOf(fx.nodeId).find((v) => v.txHash === fx.pChainTxHash);
    expect(tx).toMatchObject({ txType: 'AddPermissionlessValidatorTx', nodeId: fx.nodeId, startTimestamp: validator?.startTimestamp, endTimestamp: validator?.endTimestamp });
    const t = tx.blockTimestamp as number;
    const blocks = (await ok(`${base}/p-chain/blocks?pageSize=3&endTimestamp=${t}&startTimestamp=${t - 2}`)).blocks as { blockNumber: string; transactions: string[] }[];
    const holder = blocks.find((b) => b.blockNumber === tx.blockNumber);
    expect(holder?.transactions).toContain(fx.pChainTxHash);
  });

  it("resolves every UTXO's creating and spending transaction, which emitted and consumed it", async () => {
    for (const [chain, address, creatorChain] of [['p-chain', fx.pChainAddress, 'p-chain'], ['x-chain', fx.xChainAddress, 'x-chain']] as const) {
      for (const u of (await utxos(chain, address, true)).slice(0, 12)) {
        const created = await ok(`${base}/${creatorChain}/transactions/${u.txHash}`);
        expect(mismatches(created, S[TX_SHAPE[creatorChain]])).toEqual([]);
        expect((created.emittedUtxos as UtxoItem[]).map((e) => e.utxoId), `${chain} ${u.utxoId}`).toContain(u.utxoId);
        if (u.consumingTxHash) {
          const spent = await ok(`${base}/${chain}/transactions/${u.consumingTxHash}`);
          expect((spent.consumedUtxos as UtxoItem[]).map((e) => e.utxoId)).toContain(u.utxoId);
        }
      }
    }
  });

  it('pages the latest transactions and an address\'s transactions, strictly shaped, without repeats', async () => {
    for (const chain of ['p-chain', 'x-chain', 'c-chain'] as const) {
      const seen = new Set<string>();
      let token: string | undefined;
      for (let page = 0; page < 3; page++) {
        const body = await ok(`${base}/${chain}/transactions?pageSize=4${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
        expect(mismatches(body, S[PAGE_SHAPE[chain]]), chain).toEqual([]);
        for (const t of body.transactions as { txHash: string }[]) {
          expect(seen.has(t.txHash)).toBe(false);
          seen.add(t.txHash);
        }
        token = body.nextPageToken as string | undefined;
        if (!token) break;
      }
      expect(seen.size).toBeGreaterThan(0);
    }
    const mine = await ok(`${base}/p-chain/transactions?pageSize=100&addresses=${fx.pChainAddress}&txTypes=AddPermissionlessDelegatorTx`);
    expect(mismatches(mine, S.ListPChainTransactionsResponse)).toEqual([]);
    for (const t of mine.transactions as { txType: string; rewardAddresses?: string[] }[]) {
      expect(t.txType).toBe('AddPermissionlessDelegatorTx');
    }
  });

  it('lists active staking transactions only, and refuses other chains and bad bounds with the error body', async () => {
    const body = await ok(`${base}/p-chain/transactions:listStaking?pageSize=20`);
    expect(mismatches(body, S.ListPChainTransactionsResponse)).toEqual([]);
    for (const t of body.transactions as { endTimestamp: number; startTimestamp: number }[]) expect(t.endTimestamp * 1000).toBeGreaterThan(clock);
    for (const path of [
      `${base}/x-chain/transactions:listStaking`,
      `${base}/p-chain/transactions?pageSize=101`,
      `${base}/p-chain/transactions?txTypes=NotATx`,
      `${base}/p-chain/transactions?startTimestamp=20&endTimestamp=10`,
      `${base}/p-chain/balances`,
      `${base}/p-chain/assets/${fx.avaxAssetId}`,
    ]) {
      const { status, body: error } = await call(path);
      expect(status, path).toBe(400);
      expect(mismatches(error, S.ErrorBody)).toEqual([]);
    }
    expect((await call(`${base}/p-chain/transactions/${fx.subnetId}`)).status).toBe(404);
  });
});

describe('balances and assets on the devnet', () => {
  it("are the address's unspent UTXOs summed, per chain", async () => {
    const sum = (list: UtxoItem[]) => {
      const m = new Map<string, bigint>();
      for (const u of list) m.set(u.asset.assetId, (m.get(u.asset.assetId) ?? 0n) + BigInt(u.asset.amount));
      return m;
    };
    const total = (lists: Balance[][]) => {
      const m = new Map<string, bigint>();
      for (const b of lists.flat()) m.set(b.assetId, (m.get(b.assetId) ?? 0n) + BigInt(b.amount));
      return m;
    };
    const p = await ok(`${base}/p-chain/balances?addresses=${fx.pChainAddress}`);
    expect(mismatches(p, S.ListPChainBalancesResponse)).toEqual([]);
    const pb = p.balances as Record<string, Balance[]>;
    expect(total(Object.values(pb))).toEqual(sum(await utxos('p-chain', fx.pChainAddress, false)));
    const x = await ok(`${base}/x-chain/balances?addresses=${fx.xChainAddress}`);
    expect(mismatches(x, S.ListXChainBalancesResponse)).toEqual([]);
    expect(total(Object.values(x.balances as Record<string, Balance[]>))).toEqual(sum(await utxos('x-chain', fx.xChainAddress, false)));
    const c = await ok(`${base}/c-chain/balances?addresses=${fx.xChainAddress}`);
    expect(mismatches(c, S.ListCChainAtomicBalancesResponse)).toEqual([]);
  });

  it('resolve every asset id the UTXOs name', async () => {
    const ids = new Set((await utxos('x-chain', fx.xChainAddress, true)).map((u) => u.asset.assetId));
    ids.add(fx.avaxAssetId);
    for (const id of ids) {
      const asset = await ok(`${base}/x-chain/assets/${id}`);
      expect(mismatches(asset, S.AssetDetails)).toEqual([]);
      expect(asset.assetId).toBe(id);
    }
    expect((await call(`${base}/x-chain/assets/${fx.subnetId}`)).status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures as Fixtures } from '../../src/devnet/dataset/index.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { mismatches, STRICT_SHAPES as S } from '../shapes/strict.ts';

/**
 * The token side of an address on the devnet (public spec): listErc20Balances,
 * listErc721Balances, listCollectibleBalances and the four transfer listings, over
 * real HTTP, against the strict shapes; balances equal the served transfers summed.
 */

interface Json { [k: string]: unknown }
interface Party { address: string }
interface Placed { blockNumber: string; blockHash: string; txHash: string; from: Party; to: Party }
interface Erc20Item extends Placed { value: string; erc20Token: { address: string } }
interface Erc721Item extends Placed { erc721Token: { address: string; tokenId: string } }
interface Erc1155Item extends Placed { value: string; erc1155Token: { address: string; tokenId: string } }

let devnet: Devnet;
let fx: Fixtures;
let base: string;

async function call(path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${devnet.url}${path}`);
  return { status: res.status, body: (await res.json()) as Json };
}

async function ok(path: string): Promise<Json> {
  const { status, body } = await call(path);
  expect(status, `${path} -> ${JSON.stringify(body)}`).toBe(200);
  return body;
}

/** Every item of a listing, following nextPageToken. */
async function walk<T>(path: string, key: string, pageSize: number): Promise<T[]> {
  const items: T[] = [];
  let token: string | undefined;
  const sep = path.includes('?') ? '&' : '?';
  for (let pages = 0; pages < 100; pages++) {
    const body = await ok(`${path}${sep}pageSize=${pageSize}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    items.push(...(body[key] as T[]));
    token = body.nextPageToken as string | undefined;
    if (!token) return items;
  }
  throw new Error(`${path}: more than 100 pages`);
}

/** Received minus sent, per key, for the address. */
function net<T extends Placed & { value: string }>(items: T[], address: string, key: (t: T) => string): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const t of items) {
    let d = 0n;
    if (t.to.address === address) d += BigInt(t.value);
    if (t.from.address === address) d -= BigInt(t.value);
    sums.set(key(t), (sums.get(key(t)) ?? 0n) + d);
  }
  return new Map([...sums].filter(([, n]) => n !== 0n));
}

beforeAll(async () => {
  devnet = await startDevnet({ validators: 20 });
  const res = await fetch(`${devnet.url}/__devnet/fixtures`);
  fx = ((await res.json()) as Record<'mainnet', Fixtures>).mainnet;
  base = `/v1/chains/${fx.evmChainId}/addresses/${fx.address}`;
});

afterAll(async () => {
  await devnet?.close();
});

describe('address token listings on the devnet', () => {
  it('serve the strict shapes of the spec, every page', async () => {
    const cases = [
      ['balances:listErc20', 'ListErc20BalancesResponse'],
      ['balances:listErc721', 'ListErc721BalancesResponse'],
      ['balances:listCollectibles', 'ListCollectibleBalancesResponse'],
      ['transactions:listErc20', 'ListErc20TransfersResponse'],
      ['transactions:listErc721', 'ListErc721TransfersResponse'],
      ['transactions:listErc1155', 'ListErc1155TransfersResponse'],
      ['transactions:listInternals', 'ListInternalTransactionsResponse'],
    ] as const;
    for (const [suffix, shape] of cases) {
      const first = await ok(`${base}/${suffix}?pageSize=3`);
      expect(mismatches(first, S[shape]), suffix).toEqual([]);
      const list = Object.values(first).find(Array.isArray) as unknown[];
      expect(list.length, `${suffix} has items for the fixture address`).toBeGreaterThan(0);
      if (typeof first.nextPageToken === 'string') {
        const second = await ok(`${base}/${suffix}?pageSize=3&pageToken=${encodeURIComponent(first.nextPageToken)}`);
        expect(mismatches(second, S[shape]), `${suffix} page 2`).toEqual([]);
      }
    }
  });

  it('ERC-20 balances are the ERC-20 transfers summed, never negative, at the latest block and at an earlier one', async () => {
    const transfers = await walk<Erc20Item>(`${base}/transactions:listErc20`, 'transactions', 100);
    const expected = net(transfers, fx.address, (t) => t.erc20Token.address);
    const balances = await walk<{ address: string; balance: string }>(`${base}/balances:listErc20`, 'erc20TokenBalances', 2);
    expect(new Map(balances.map((b) => [b.address, BigInt(b.balance)]))).toEqual(expected);
    for (const n of expected.values()) expect(n > 0n).toBe(true);

    const middle = transfers[Math.floor(transfers.length / 2)] as Erc20Item;
    const at = Number(middle.blockNumber);
    const earlier = transfers.filter((t) => Number(t.blockNumber) <= at);
    const then = await walk<{ address: string; balance: string }>(`${base}/balances:listErc20?blockNumber=${at}`, 'erc20TokenBalances', 500);
    expect(new Map(then.map((b) => [b.address, BigInt(b.balance)]))).toEqual(net(earlier, fx.address, (t) => t.erc20Token.address));
  });

  it('ERC-721 and ERC-1155 balances (alone, as E10 and as collectibles) match the NFT transfers', async () => {
    const nftTransfers = await walk<Erc721Item>(`${base}/transactions:listErc721`, 'transactions', 100);
    const last = new Map<string, string>();
    for (const t of [...nftTransfers].reverse()) last.set(`${t.erc721Token.address}:${t.erc721Token.tokenId}`, t.to.address);
    const held = [...last].filter(([, to]) => to === fx.address).map(([key]) => key).sort();
    const erc721 = await walk<{ address: string; tokenId: string; ownerAddress: string }>(`${base}/balances:listErc721`, 'erc721TokenBalances', 5);
    expect(erc721.map((b) => `${b.address}:${b.tokenId}`).sort()).toEqual(held);
    expect(erc721.every((b) => b.ownerAddress === fx.address)).toBe(true);

    const multi = await walk<Erc1155Item>(`${base}/transactions:listErc1155`, 'transactions', 100);
    const expected1155 = net(multi, fx.address, (t) => `${t.erc1155Token.address}:${t.erc1155Token.tokenId}`);
    const e10 = await walk<{ address: string; tokenId: string; balance: string }>(`${base}/balances:listErc1155`, 'erc1155TokenBalances', 3);
    expect(new Map(e10.map((b) => [`${b.address}:${b.tokenId}`, BigInt(b.balance)]))).toEqual(expected1155);
    expect(expected1155.size).toBeGreaterThan(0);

    const collectibles = await walk<{ address: string; tokenId: string; ercType: string; balance?: string }>(`${base}/balances:listCollectibles`, 'collectibleBalances', 7);
    expect(collectibles.filter((c) => c.ercType === 'ERC-721').map((c) => `${c.address}:${c.tokenId}`).sort()).toEqual(held);
    expect(new Map(collectibles.filter((c) => c.ercType === 'ERC-1155').map((c) => [`${c.address}:${c.tokenId}`, BigInt(c.balance ?? '0')]))).toEqual(expected1155);
  });

  it("transfers' transactions and blocks exist: the transaction lookup lists the same transfer, in the same block", async () => {
    const [transfer] = (await ok(`${base}/transactions:listErc20?pageSize=1`)).transactions as Erc20Item[];
    expect(transfer).toBeDefined();
    const tx = await ok(`/v1/chains/${fx.evmChainId}/transactions/${transfer?.txHash}`);
    const native = tx.nativeTransaction as { blockNumber: string; blockHash: string };
    expect(native.blockNumber).toBe(transfer?.blockNumber);
    expect(native.blockHash).toBe(transfer?.blockHash);
    expect(tx.erc20Transfers).toContainEqual(expect.objectContaining({ from: transfer?.from, to: transfer?.to, value: transfer?.value }));
  });

  it('listings are newest first and honour startBlock (inclusive) and endBlock (exclusive)', async () => {
    const all = await walk<Placed>(`${base}/transactions:listInternals`, 'transactions', 100);
    const blocks = all.map((t) => Number(t.blockNumber));
    expect(blocks).toEqual([...blocks].sort((a, b) => b - a));
    const lo = blocks[blocks.length - 1] as number;
    const hi = blocks[0] as number;
    const inside = await walk<Placed>(`${base}/transactions:listInternals?startBlock=${lo}&endBlock=${hi}`, 'transactions', 100);
    expect(inside.length).toBe(all.filter((t) => Number(t.blockNumber) < hi).length);
  });

  it('a contractAddresses filter narrows the ERC-20 balances; the NFT listings take one contractAddress', async () => {
    const all = await walk<{ address: string }>(`${base}/balances:listErc20`, 'erc20TokenBalances', 500);
    const one = all[0]?.address as string;
    const narrowed = await ok(`${base}/balances:listErc20?contractAddresses=${one.toUpperCase().replace('0X', '0x')}`);
    expect((narrowed.erc20TokenBalances as { address: string }[]).map((b) => b.address)).toEqual([one]);
    const nft = await ok(`${base}/balances:listCollectibles?contractAddress=${fx.erc1155Contract}`);
    expect((nft.collectibleBalances as { address: string }[]).every((b) => b.address === fx.erc1155Contract)).toBe(true);
  });

  it("refuses bad input with the spec's error body", async () => {
    for (const path of [
      `${base}/balances:listErc20?pageSize=501`,
      `${base}/balances:listErc20?contractAddresses=0x12`,
      `${base}/balances:listErc20?filterSpamTokens=maybe`,
      `${base}/balances:listErc721?contractAddress=nope`,
      `${base}/transactions:listErc20?pageSize=101`,
      `${base}/transactions:listErc1155?startBlock=10&endBlock=5`,
      `${base}/transactions:listInternals?pageToken=forged`,
      `/v1/chains/${fx.evmChainId}/addresses/0x1234/transactions:listErc721`,
    ]) {
      const res = await call(path);
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ message: expect.any(String), statusCode: 400, error: 'Bad Request' });
    }
    expect((await call(`/v1/chains/999999/addresses/${fx.address}/balances:listErc20`)).status).toBe(404);
  });
});
